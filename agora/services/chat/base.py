"""The chat service's collaborators, and who may read a chat (used by every part)."""

import logging
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from agora.actors.client import SessionShards
from agora.background import BackgroundTasks
from agora.core.chat import NO_SUCH_CHAT, Outgoing, is_reader, may_read
from agora.core.clock import now_ms
from agora.core.constants import SESSION_KIND_ITEM_CHAT
from agora.core.errors import Forbidden, NotFound
from agora.core.message_kinds import ChatKinds
from agora.realtime.emitter import RealtimeEmitter
from agora.services.accounts import Caller
from agora.services.events import Events
from agora.services.items import PostReader, StoredFiles
from agora.store.chat_hints import ChatHints
from agora.store.messages import MessageStore
from agora.store.sessions import SessionStore
from agora.store.users import UserStore

log = logging.getLogger("agora.chat")


class PreparesSend(Protocol):
    """What a plug-in kind's message needs before its shard stores it, checked with what the
    shard cannot know (an agent's reply to a WhatsApp customer against its business chat:
    `services.whatsapp.outbound.BusinessSends`): the message to store and its first flags."""

    async def prepare(
        self, caller: Caller, outgoing: Outgoing, files: list[dict[str, Any]]
    ) -> tuple[Outgoing, dict[str, Any]]: ...


class ChatBase:
    """What every chat part shares: the collaborators, and who may read a chat."""

    def __init__(
        self,
        shards: SessionShards,
        sessions: SessionStore,
        messages: MessageStore,
        posts: PostReader,
        users: UserStore,
        uploads: StoredFiles,
        hints: ChatHints,
        emitter: RealtimeEmitter,
        events: Events,
        kinds: ChatKinds,
        sends: Mapping[int, PreparesSend],
    ) -> None:
        self.shards = shards
        self.sessions = sessions
        self.messages = messages
        self.posts = posts
        self.users = users
        self.uploads = uploads
        self.hints = hints
        self.emitter = emitter
        self.events = events
        # The message kinds and conversation kinds chat knows (`core.message_kinds`).
        self.kinds = kinds
        # By message type: the kinds whose sends a feature prepares; the chat's own need
        # nothing but their files' types checked.
        self.sends = sends
        # What shards answered after their senders had been told to send again.
        self.late_replies = BackgroundTasks()

    async def _readable(
        self, caller: Caller | None, session_id: str
    ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        chat = await self.sessions.get(session_id)
        membership = (
            await self.sessions.membership(session_id, caller.user["_id"])
            if chat is not None and caller
            else None
        )
        if chat is None or not await self._may_read(caller, chat, membership):
            # Whoever holds no membership gets what an id naming nothing gets: ids cannot be
            # probed for private chats and groups.
            if membership is None:
                raise NotFound({"session_id": NO_SUCH_CHAT})
            raise Forbidden({"session_id": "You cannot read this chat"})
        return chat, membership

    async def _may_read(
        self, caller: Caller | None, chat: dict[str, Any], membership: dict[str, Any] | None
    ) -> bool:
        return chat["_id"] in await self._may_read_all(caller, [(chat, membership)])

    async def _may_read_all(
        self,
        caller: Caller | None,
        chats: Iterable[tuple[dict[str, Any], dict[str, Any] | None]],
    ) -> set[str]:
        """The ids of those chats (each with the caller's membership) the caller may read:
        the one read rule (`core.chat.may_read`), with the posts of the public item chats it
        leaves to them read in one go."""
        readable: set[str] = set()
        about_posts: dict[str, str] = {}
        for chat, membership in chats:
            if may_read(chat, membership):
                readable.add(chat["_id"])
            elif (item_id := _about(chat)) and may_read(chat, membership, post_readable=True):
                about_posts[chat["_id"]] = item_id
        if about_posts:
            # On fresh data: a socket that enters a chat's room stays in it until sent away,
            # so no copy from before a block or a closed group may let it in.
            posts = await self.posts.readable_many(
                caller, list(set(about_posts.values())), fresh=True
            )
            shown = {post["_id"] for post in posts}
            readable.update(chat_id for chat_id, item_id in about_posts.items() if item_id in shown)
        return readable

    async def _deleted_posts(self, chats: Iterable[dict[str, Any]]) -> set[str]:
        """The posts of these item chats that were deleted (their chats stay readable)."""
        item_ids = [item_id for chat in chats if (item_id := _about(chat))]
        return await self.posts.deleted(item_ids) if item_ids else set()

    async def _memberships(self, user_id: str, session_ids: list[str]) -> dict[str, dict]:
        found = await self.sessions.memberships_for_user(user_id, session_ids)
        return {m["session_id"]: m for m in found}

    async def _following(self, session_id: str, user_id: str) -> None:
        """Receipts and typing come from members who follow the chat: not from those blocked
        or still awaiting approval, who may not read it."""
        membership = await self.sessions.membership(session_id, user_id)
        if membership is None or not is_reader(membership["session_user_type"]):
            raise Forbidden("You are not in this chat")

    async def _receipt(
        self, session_id: str, user_id: str, status: str, seq: int, last: dict[str, Any]
    ) -> None:
        """Moves the member's mark; when it moved, the senders' screens hear of it (one
        event to the chat's room, covering every message up to `last`)."""
        if await self.sessions.record_receipt(session_id, user_id, status, seq, now_ms()):
            await self.emitter.to_session(
                session_id,
                "message_status",
                {
                    "session_id": session_id,
                    "created_at": last["created_at"],
                    "status": status,
                    "user_id": user_id,
                },
            )


def _about(chat: dict[str, Any]) -> str | None:
    """The post an item chat is about; None for groups."""
    is_item_chat = chat.get("kind") == SESSION_KIND_ITEM_CHAT
    return (chat.get("data") or {}).get("item_id") if is_item_chat else None
