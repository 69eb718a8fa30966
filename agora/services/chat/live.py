"""Live signals: typing (`Typing`), the rooms a socket hears chats in (`ChatRooms`), and the
visitors sent away when a chat closes (`Visitors`).

A member who follows a chat has every socket in its room from the moment they connect. Anyone
else who may read it (the chat is open: public or read-allowed) enters its room when their
window opens it, as a visitor (`core.chat.rooms.visitor_room`); when the chat stops letting them
read it, their sockets are sent away, so that no message reaches a socket the read rule would
refuse.
"""

from agora.core.chat.access import is_reader
from agora.core.chat.constants import TYPING_INTERVAL_SECONDS
from agora.core.chat.rooms import session_room, visited_rooms, visitor_room
from agora.core.errors import AgoraError
from agora.realtime.emitter import RealtimeEmitter
from agora.services.accounts import Caller
from agora.services.chat.access import ChatAccess
from agora.services.events import PostHidden, SessionClosed
from agora.store.chat_hints import ChatHints
from agora.store.sessions import SessionStore


class Typing:
    def __init__(self, *, access: ChatAccess, hints: ChatHints, emitter: RealtimeEmitter) -> None:
        self.access = access
        self.hints = hints
        self.emitter = emitter

    async def typing(self, caller: Caller, session_id: str) -> None:
        user_id = caller.user["_id"]
        await self.access.require_following(session_id, user_id)
        if await self.hints.allow_typing(session_id, user_id, TYPING_INTERVAL_SECONDS):
            await self.emitter.to_viewers(
                session_id,
                "typing",
                {"session_id": session_id, "user_id": user_id, "name": caller.user["name"]},
            )


class ChatRooms:
    def __init__(self, *, access: ChatAccess, sessions: SessionStore) -> None:
        self.access = access
        self.sessions = sessions

    async def followed_sessions(self, user_id: str) -> list[str]:
        """Sessions whose rooms the user's sockets enter when they connect."""
        memberships = await self.sessions.memberships_of_user(user_id)
        return [m["session_id"] for m in memberships if is_reader(m["session_user_type"])]

    async def rooms_to_hear(self, caller: Caller | None, session_id: str) -> list[str]:
        """The rooms a socket enters to hear a chat its window opened: none if the caller may
        not read it; its room, and for a visitor the chat's visitors' room too. A member who
        follows the chat reads it whatever the chat says (`core.chat.access.may_read`), so
        their membership's copy answers alone: a socket opening joined each of its chats with
        two store reads."""
        if await self.access.follows(caller, session_id):
            return [session_room(session_id)]
        try:
            await self.access.readable(caller, session_id)
        except AgoraError:
            return []
        return [session_room(session_id), visitor_room(session_id)]

    async def rooms_to_leave(self, caller: Caller | None, session_id: str) -> list[str]:
        """The rooms a socket leaves when its window closes the chat: none while its user
        follows the chat (the badges come from its room)."""
        if await self.access.follows(caller, session_id):
            return []
        return visited_rooms([session_id])


class Visitors:
    def __init__(self, *, sessions: SessionStore, emitter: RealtimeEmitter) -> None:
        self.sessions = sessions
        self.emitter = emitter

    async def session_closed(self, closed: SessionClosed) -> None:
        """A group or chat stopped letting non-members read it: its visitors are sent away,
        and for a group those of the open chats about its posts (which they read through the
        group's posts). Members of the group among them may open those chats again."""
        about_posts = await self.sessions.open_item_chats(group_id=closed.session_id)
        await self.emitter.send_visitors_away([closed.session_id, *about_posts])

    async def post_hidden(self, hidden: PostHidden) -> None:
        """A deleted post's open chats are read by their members only from now on."""
        await self.emitter.send_visitors_away(
            await self.sessions.open_item_chats(item_id=hidden.item_id)
        )
