"""Receipts: a recipient's screen (a socket's `delivered` or `read`) or device (a push's
acknowledgement) got messages, and the senders' ticks move."""

from agora.core.chat import RECEIPT_STATUSES
from agora.core.errors import Forbidden, InvalidInput, NotFound
from agora.core.push import DeliveryReceipt
from agora.services.accounts import Caller
from agora.services.chat.access import ChatAccess
from agora.services.chat.ticks import Ticks
from agora.store.messages import MessageStore
from agora.store.sessions import SessionStore


class Receipts:
    def __init__(
        self,
        *,
        access: ChatAccess,
        messages: MessageStore,
        sessions: SessionStore,
        ticks: Ticks,
    ) -> None:
        self.access = access
        self.messages = messages
        self.sessions = sessions
        self.ticks = ticks

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
        await self.access.require_following(session_id, user_id)
        message = await self.messages.get(session_id, created_at)
        if message is None:
            raise NotFound({"created_at": "No such message"})
        seq = message.get("seq")
        if seq is None:  # stored before messages were numbered: everything up to now
            seq = ((await self.sessions.get(session_id)) or {}).get("message_seq", 0)
        await self.ticks.receipt(session_id, user_id, status, seq, message)
