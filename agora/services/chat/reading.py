"""Reading a chat: its pages of messages (which move the reader's mark), and a message's
delivery details."""

import asyncio
from typing import Any

from agora.actors.client import SessionShards
from agora.actors.protocol import ReadPage
from agora.core.accounts import user_card
from agora.core.chat.constants import MESSAGES_PAGE, USER_TYPE_MODERATOR
from agora.core.chat.receipts import delivery, marks_on_newest_page
from agora.core.chat.views import message_view_for
from agora.core.chat_search import AROUND_BEFORE, AROUND_FROM
from agora.core.errors import Forbidden, NotFound
from agora.core.message_kinds import ChatKinds
from agora.services.accounts import Caller
from agora.services.chat.access import ChatAccess
from agora.services.chat.ticks import Ticks
from agora.store.chat_reads import newest_page_and_furthest_marks
from agora.store.messages import MessageStore
from agora.store.sessions import SessionStore
from agora.store.users import UserStore


class MessagePages:
    def __init__(
        self,
        *,
        access: ChatAccess,
        shards: SessionShards,
        messages: MessageStore,
        sessions: SessionStore,
        users: UserStore,
        kinds: ChatKinds,
        ticks: Ticks,
    ) -> None:
        self.access = access
        self.shards = shards
        self.messages = messages
        self.sessions = sessions
        self.users = users
        self.kinds = kinds
        self.ticks = ticks

    async def messages_page(
        self,
        caller: Caller | None,
        session_id: str,
        after: int | None,
        before: int | None,
    ) -> dict[str, Any]:
        newest = after is None and before is None
        if newest:
            chat, membership, found, marks = await self._opened(caller, session_id)
        else:
            chat, membership = await self.access.readable(caller, session_id)
            # Reads that do not wait for each other go at once: each in a row waits its turn
            # at the store behind everyone else's.
            found, marks = await asyncio.gather(
                self._found(chat, session_id, after, before), self.sessions.ticks_marks(chat)
            )
        has_more = len(found) > MESSAGES_PAGE
        page = found[:MESSAGES_PAGE] if after is not None else found[-MESSAGES_PAGE:]
        if newest:
            # Its senders' marks from the page itself: the chat's opening reads no counter.
            marks = marks_on_newest_page(chat, marks, page)
        reply = await self._rendered(caller, membership, page, marks, newest=newest)
        return reply | {
            "has_more": has_more,
            "next_less_than_timestamp": page[0]["created_at"] if page and has_more else None,
        }

    async def messages_around(
        self, caller: Caller | None, session_id: str, created_at: int
    ) -> dict[str, Any]:
        """The page a chat opens at when it opens at one of its messages: some before
        `created_at`, the rest from it on, with whether there are more each way and the
        cursors to read them (`has_more` keeps its meaning: more before)."""
        chat, membership = await self.access.readable(caller, session_id)
        (earlier, later), marks = await asyncio.gather(
            self.messages.around(
                session_id, created_at, before=AROUND_BEFORE + 1, from_on=AROUND_FROM + 1
            ),
            self.sessions.ticks_marks(chat),
        )
        more_before, more_after = len(earlier) > AROUND_BEFORE, len(later) > AROUND_FROM
        page = earlier[-AROUND_BEFORE:] + later[:AROUND_FROM]
        reply = await self._rendered(caller, membership, page, marks, newest=False)
        return reply | {
            "has_more": more_before,
            "next_less_than_timestamp": page[0]["created_at"] if more_before else None,
            "has_more_before": more_before,
            "has_more_after": more_after,
            "next_greater_than_timestamp": page[-1]["created_at"] if more_after else None,
        }

    async def _rendered(
        self,
        caller: Caller | None,
        membership: dict[str, Any] | None,
        page: list[dict[str, Any]],
        marks: list[dict[str, Any]],
        *,
        newest: bool,
    ) -> dict[str, Any]:
        """The page's messages as the caller sees them (their ticks from `marks`), with their
        senders; the caller's mark moved as far as it shows."""
        senders, _ = await asyncio.gather(
            self.users.by_ids([m["src_id"] for m in page]),
            self._received(caller, membership, page, newest=newest),
        )
        return {
            "inbox_messages": [message_view_for(m, marks, self.kinds) for m in page],
            "refs": {"users": {u["_id"]: user_card(u) for u in senders}},
        }

    async def _opened(
        self, caller: Caller | None, session_id: str
    ) -> tuple[dict[str, Any], dict[str, Any] | None, list[dict[str, Any]], list[dict[str, Any]]]:
        """A chat opened: the chat and the caller's membership if they may read it
        (`ChatAccess.readable`), its newest page and its furthest marks. The page from the
        shard's memory when it holds the chat; else from the store with the marks, in one
        command when this edge's copy of the marks cannot give them (they took three: the
        page and each kind of mark). The marks wait for the shard's answer (a Ray call).

        An edge with no copy of the chat asks the shard first, and reads the chat in the
        same command as the page when the shard does not hold it (a chat's first opening on
        an edge took a command for the chat first): what was read is shown only once the
        read rule, on the chat as read, let the caller read it."""
        if self.sessions.holds_chat(session_id):
            chat, membership = await self.access.readable(caller, session_id)
            return chat, membership, *await self._newest(chat, session_id)
        held = await self._shard_page(session_id, after=None)
        if held is None:
            found, marks = await newest_page_and_furthest_marks(
                self.sessions, self.messages, session_id, MESSAGES_PAGE + 1, with_chat=True
            )
            return *await self.access.readable(caller, session_id), found, marks
        chat, membership = await self.access.readable(caller, session_id)
        kept = held if self.kinds.kept_as_stored(chat) else None
        return chat, membership, *await self._with_marks(session_id, kept)

    async def _newest(
        self, chat: dict[str, Any], session_id: str
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The newest page and the chat's furthest marks (`_opened`)."""
        return await self._with_marks(session_id, await self._held(chat, session_id, after=None))

    async def _with_marks(
        self, session_id: str, held: list[dict[str, Any]] | None
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The newest page the shard held, with the chat's furthest marks; both from the store
        when it held none."""
        if held is not None:
            return held, await self.sessions.furthest_marks(session_id)
        return await newest_page_and_furthest_marks(
            self.sessions, self.messages, session_id, MESSAGES_PAGE + 1
        )

    async def _found(
        self, chat: dict[str, Any], session_id: str, after: int | None, before: int | None
    ) -> list[dict[str, Any]]:
        if after is not None and (held := await self._held(chat, session_id, after)) is not None:
            return held
        return await self.messages.page(
            session_id, after=after, before=before, limit=MESSAGES_PAGE + 1
        )

    async def _held(
        self, chat: dict[str, Any], session_id: str, after: int | None
    ) -> list[dict[str, Any]] | None:
        """The newest page (`after` None) or the new messages of a poll from the shard's
        memory when it holds them (each page read from MongoDB waited its turn at the store);
        None when it does not."""
        if not self.kinds.kept_as_stored(chat):
            return None
        return await self._shard_page(session_id, after)

    async def _shard_page(self, session_id: str, after: int | None) -> list[dict[str, Any]] | None:
        """The page (`_held`) from the chat's shard, whatever the chat's kind; None when it does
        not hold the chat."""
        return await self.shards.read_page(ReadPage(session_id, after, MESSAGES_PAGE + 1))

    async def _received(
        self,
        caller: Caller | None,
        membership: dict[str, Any] | None,
        page: list[dict[str, Any]],
        *,
        newest: bool,
    ) -> None:
        """The screen that fetched the newest page shows it; a poll only received it. The
        newest page holds the chat's newest message, whose number is how far it was read
        (the chat's count, `message_seq`, is written after its messages: never beyond it);
        a chat whose newest message predates numbering has its count read."""
        if caller is None or membership is None or not page:
            return
        status = "read" if newest else "delivered"
        seq = page[-1].get("seq")
        if seq is None and newest:
            stored = await self.sessions.with_counters({"_id": page[-1]["dest_session_id"]})
            seq = stored.get("message_seq", 0)
        if seq:
            await self.ticks.receipt(membership, status, seq, page[-1])


class MessageInfo:
    def __init__(
        self,
        *,
        access: ChatAccess,
        messages: MessageStore,
        sessions: SessionStore,
        kinds: ChatKinds,
    ) -> None:
        self.access = access
        self.messages = messages
        self.sessions = sessions
        self.kinds = kinds

    async def message_info(
        self, caller: Caller, session_id: str, created_at: int
    ) -> dict[str, Any]:
        chat, membership = await self.access.readable(caller, session_id)
        message = await self.messages.get(session_id, created_at)
        if message is None:
            raise NotFound({"created_at": "No such message"})
        kind = membership["session_user_type"] if membership else None
        is_moderator = kind is not None and kind <= USER_TYPE_MODERATOR
        if not is_moderator and message["src_id"] != caller.user["_id"]:
            raise Forbidden("Only moderators and the sender see delivery details")
        message_kind = self.kinds.message(message["type"])
        info: dict[str, Any] = {"read": [], "delivered": []}
        if message_kind.member_receipts:
            seq = message.get("seq")
            marks = await self.sessions.marks_covering(chat, seq) if seq is not None else []
            info = delivery(message, marks).info()
        # What the message's kind adds (an agent's WhatsApp reply: the flags WhatsApp
        # reported, each with its time).
        extras = message_kind.info
        return {"info": info | extras(message) if extras is not None else info}
