"""Publishing Socket.IO events through Redis, to sockets on every edge."""

from typing import Any

from agora.core.chat.rooms import (
    heard_rooms,
    session_room,
    user_room,
    viewer_room,
    visited_rooms,
    visitor_room,
)
from agora.realtime.transport import RoomChannelManager
from agora.settings import Settings

# Rooms of one login's sockets, used only on the edge holding them (to close them at logout).
KEY_ROOM_PREFIX = "key:"


def key_room(key_hash: str) -> str:
    return f"{KEY_ROOM_PREFIX}{key_hash}"


def socket_manager(settings: Settings, *, write_only: bool = False) -> RoomChannelManager:
    """The client manager of every edge's Socket.IO server and of every publisher."""
    return RoomChannelManager(
        settings.redis_url,
        settings.socketio_channel,
        write_only=write_only,
        local_rooms=lambda room: room.startswith(KEY_ROOM_PREFIX),
    )


class RealtimeEmitter:
    """Publishes to rooms on every edge. On an edge it is given the edge's own Socket.IO
    manager (built by the composition root for both), which delivers to the edge's sockets at
    once (moving them into rooms before returning) and publishes for the other edges;
    elsewhere (an actor, a script) it is write-only: it never receives."""

    def __init__(self, settings: Settings, manager: RoomChannelManager | None = None) -> None:
        self.manager = manager or socket_manager(settings, write_only=True)

    async def to_session(self, session_id: str, event: str, data: Any) -> None:
        await self.manager.emit(event, data, room=session_room(session_id))

    async def to_viewers(self, session_id: str, event: str, data: Any) -> None:
        """To the sockets whose tabs show the chat."""
        await self.manager.emit(event, data, room=viewer_room(session_id))

    async def to_viewers_and_user(
        self, session_id: str, user_id: str | None, event: str, data: Any
    ) -> None:
        """To the sockets whose tabs show the chat, and to the user's (one event each: a
        socket in both gets it twice)."""
        await self.to_viewers(session_id, event, data)
        if user_id is not None:
            await self.to_user(user_id, event, data)

    async def to_user(self, user_id: str, event: str, data: Any) -> None:
        await self.manager.emit(event, data, room=user_room(user_id))

    async def follow(self, user_id: str, session_ids: list[str]) -> None:
        """The user's sockets, on every edge, enter these sessions' rooms (a new member), as
        followers: no longer as visitors, whom a session that closes sends away."""
        await self.manager.move_sockets(
            user_room(user_id),
            enter=map(session_room, session_ids),
            leave=map(visitor_room, session_ids),
        )

    async def unfollow(self, user_id: str, session_ids: list[str]) -> None:
        await self.manager.move_sockets(user_room(user_id), leave=heard_rooms(session_ids))

    async def send_visitors_away(self, session_ids: list[str]) -> None:
        """Sockets that read these sessions without following them leave their rooms, on
        every edge (the sessions closed to them)."""
        for session_id in session_ids:
            rooms = visited_rooms([session_id])
            await self.manager.move_sockets(visitor_room(session_id), leave=rooms)

    async def end_visits(self, user_id: str, session_ids: list[str]) -> None:
        """The user's sockets stop visiting these sessions (which the user does not follow)."""
        rooms = visited_rooms(session_ids)
        if rooms:
            await self.manager.move_sockets(user_room(user_id), leave=rooms)
