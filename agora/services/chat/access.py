"""Who may read a chat, and who follows one: the rule the chat's parts that show or move a
chat's content receive (`ChatAccess`)."""

import asyncio
from collections.abc import Iterable
from typing import Any

from agora.core.chat.access import NO_SUCH_CHAT, is_reader, may_read
from agora.core.chat.constants import SESSION_KIND_ITEM_CHAT
from agora.core.errors import Forbidden, NotFound
from agora.services.accounts import Caller
from agora.services.items import PostReader
from agora.store.sessions import SessionStore

NOT_IN_CHAT = "You are not in this chat"


class ChatAccess:
    def __init__(self, *, sessions: SessionStore, posts: PostReader) -> None:
        self.sessions = sessions
        self.posts = posts

    async def readable(
        self, caller: Caller | None, session_id: str
    ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """The chat and the caller's membership, if the caller may read it. The chat is the
        edge's copy without its counters (`SessionStore.chat`): what shows them reads them."""
        if caller is None:
            chat, membership = await self.sessions.chat(session_id), None
        else:
            # Read at once: every chat call starts here, and each read in a row waits its turn
            # at the store behind everyone else's. A chat that is gone has no membership.
            chat, membership = await asyncio.gather(
                self.sessions.chat(session_id), self._membership(session_id, caller.user["_id"])
            )
            membership = membership if chat is not None else None
        if chat is None or chat["_id"] not in await self.may_read_all(caller, [(chat, membership)]):
            # Whoever holds no membership gets what an id naming nothing gets: ids cannot be
            # probed for private chats and groups.
            if membership is None:
                raise NotFound({"session_id": NO_SUCH_CHAT})
            raise Forbidden({"session_id": "You cannot read this chat"})
        return chat, membership

    async def may_read_all(
        self,
        caller: Caller | None,
        chats: Iterable[tuple[dict[str, Any], dict[str, Any] | None]],
    ) -> set[str]:
        """The ids of those chats (each with the caller's membership) the caller may read:
        the one read rule (`core.chat.access.may_read`), with the posts of the public item chats it
        leaves to them read in one go."""
        readable: set[str] = set()
        about_posts: dict[str, str] = {}
        for chat, membership in chats:
            if may_read(chat, membership):
                readable.add(chat["_id"])
            elif (item_id := post_of(chat)) and may_read(chat, membership, post_readable=True):
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

    async def follows(self, caller: Caller | None, session_id: str) -> bool:
        """Whether the caller follows the chat: their sockets stay in its room."""
        return caller is not None and await self._follows(session_id, caller.user["_id"])

    async def require_following(self, session_id: str, user_id: str) -> None:
        """Typing comes from members who follow the chat."""
        if (session_id, user_id) not in await self.followers([(session_id, user_id)]):
            raise Forbidden(NOT_IN_CHAT)

    async def followers(
        self, pairs: list[tuple[str, str]]
    ) -> dict[tuple[str, str], dict[str, Any]]:
        """The memberships of those (session, user) pairs whose member follows the chat, for
        what members send all the time (typing, receipts, the ticks receipts move), from the
        edge's copies, which every block or approval drops on every edge as it is given.
        Whoever a copy says does not follow is read again before being refused: an approval on
        another edge may have been given while its announcement was on its way here."""
        found = await self.sessions.memberships_lately(pairs)
        refused = [pair for pair in pairs if not follows(found.get(pair))]
        if refused:
            found.update(await self.sessions.memberships(refused))
        return {pair: m for pair, m in found.items() if follows(m)}

    async def _follows(self, session_id: str, user_id: str) -> bool:
        return follows(await self._membership(session_id, user_id))

    async def _membership(self, session_id: str, user_id: str) -> dict[str, Any] | None:
        """The member's membership from the edge's copy, which every change of its type
        (a role, a block, an approval) drops on every edge as it is given: a chat call read
        it from the store each time. One the copy shows not following is read again, as
        `followers` does: an approval or a join on another edge may be on its way here."""
        pair = (session_id, user_id)
        copy = (await self.sessions.memberships_lately([pair])).get(pair)
        if follows(copy):
            return copy
        return (await self.sessions.memberships([pair])).get(pair)


def follows(membership: dict[str, Any] | None) -> bool:
    """A member who may read the chat: not one blocked or still awaiting approval."""
    return membership is not None and is_reader(membership["session_user_type"])


def post_of(chat: dict[str, Any]) -> str | None:
    """The post an item chat is about; None for groups."""
    is_item_chat = chat.get("kind") == SESSION_KIND_ITEM_CHAT
    return (chat.get("data") or {}).get("item_id") if is_item_chat else None


async def deleted_posts(posts: PostReader, chats: Iterable[dict[str, Any]]) -> set[str]:
    """The posts of these item chats that were deleted (their chats stay readable)."""
    item_ids = [item_id for chat in chats if (item_id := post_of(chat))]
    return await posts.deleted(item_ids) if item_ids else set()
