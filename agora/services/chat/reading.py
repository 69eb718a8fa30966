"""Reading: pages of messages, delivery receipts and the ticks they move."""

from typing import Any

from agora.core.accounts import user_card
from agora.core.chat import RECEIPT_STATUSES, delivery, marks_with_senders, message_view_for
from agora.core.constants import MESSAGES_PAGE, USER_TYPE_MODERATOR
from agora.core.errors import Forbidden, InvalidInput, NotFound
from agora.core.push import DeliveryReceipt
from agora.services.accounts import Caller
from agora.services.chat.base import ChatBase


class Reading(ChatBase):
    async def messages_page(
        self,
        caller: Caller | None,
        session_id: str,
        after: int | None,
        before: int | None,
    ) -> dict[str, Any]:
        chat, membership = await self._readable(caller, session_id)
        found = None
        # A conversation whose messages change after they are stored (a business chat's,
        # by WhatsApp's flags) is read from MongoDB: the shard's copies do not hear of it.
        conversation = self.kinds.conversation(chat)
        from_shard = conversation is None or not conversation.changes_after_stored
        if after is not None and from_shard:
            found = await self.shards.buffered(session_id, after, MESSAGES_PAGE + 1)
        if found is None:
            found = await self.messages.page(
                session_id, after=after, before=before, limit=MESSAGES_PAGE + 1
            )
        has_more = len(found) > MESSAGES_PAGE
        page = found[:MESSAGES_PAGE] if after is not None else found[-MESSAGES_PAGE:]
        if caller is not None and membership is not None and page:
            # The screen that fetched the newest page shows it; a poll only received it.
            status = "read" if after is None and before is None else "delivered"
            seq = chat.get("message_seq", 0) if status == "read" else page[-1].get("seq")
            if seq:
                await self._receipt(session_id, caller.user["_id"], status, seq, page[-1])
        marks = marks_with_senders(chat, await self.sessions.furthest_marks(session_id))
        senders = await self.users.by_ids([m["src_id"] for m in page])
        return {
            "inbox_messages": [message_view_for(m, marks, self.kinds) for m in page],
            "refs": {"users": {u["_id"]: user_card(u) for u in senders}},
            "has_more": has_more,
            "next_less_than_timestamp": page[0]["created_at"] if page and has_more else None,
        }

    async def message_info(
        self, caller: Caller, session_id: str, created_at: int
    ) -> dict[str, Any]:
        chat, membership = await self._readable(caller, session_id)
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
            marks = await self.sessions.marks_covering(session_id, seq) if seq is not None else []
            info = delivery(message, marks_with_senders(chat, marks)).info()
        # What the message's kind adds (an agent's WhatsApp reply: the flags WhatsApp
        # reported, each with its time).
        extras = message_kind.info
        return {"info": info | extras(message) if extras is not None else info}

    async def mark(self, caller: Caller, session_id: str, created_at: int, status: str) -> None:
        """A recipient's screen got (or showed) the messages up to this one: ticks move."""
        if status not in RECEIPT_STATUSES:
            raise InvalidInput({"status": "Unknown delivery status"})
        await self._mark_as(caller.user["_id"], session_id, created_at, status)

    async def received(self, receipts: list[DeliveryReceipt]) -> int:
        """Pushes reached their recipients' devices (their service workers acknowledged
        them): each chat's newest one counts, as a socket's `delivered` would. A chat its
        recipient no longer follows, or a message gone since, is passed over: the worker
        cannot act on a refusal. Says how many chats' marks were given."""
        newest: dict[tuple[str, str], int] = {}
        for receipt in receipts:
            key = (receipt.user_id, receipt.session_id)
            newest[key] = max(newest.get(key, 0), receipt.created_at)
        given = 0
        for (user_id, session_id), created_at in newest.items():
            try:
                await self._mark_as(user_id, session_id, created_at, "delivered")
            except (Forbidden, NotFound):
                continue
            given += 1
        return given

    async def _mark_as(self, user_id: str, session_id: str, created_at: int, status: str) -> None:
        await self._following(session_id, user_id)
        message = await self.messages.get(session_id, created_at)
        if message is None:
            raise NotFound({"created_at": "No such message"})
        seq = message.get("seq")
        if seq is None:  # stored before messages were numbered: everything up to now
            seq = ((await self.sessions.get(session_id)) or {}).get("message_seq", 0)
        await self._receipt(session_id, user_id, status, seq, message)
