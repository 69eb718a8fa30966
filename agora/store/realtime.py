"""Publishing Socket.IO events through Redis, to sockets on every edge."""

from typing import Any

import socketio

from agora.core.chat import session_room, user_room
from agora.settings import Settings


class RealtimeEmitter:
    """Write-only: it never receives, so any process (edge or actor) can publish."""

    def __init__(self, settings: Settings) -> None:
        self.manager = socketio.AsyncRedisManager(
            settings.redis_url, channel=settings.socketio_channel, write_only=True
        )

    async def to_session(self, session_id: str, event: str, data: Any) -> None:
        await self.manager.emit(event, data, room=session_room(session_id))

    async def to_user(self, user_id: str, event: str, data: Any) -> None:
        await self.manager.emit(event, data, room=user_room(user_id))
