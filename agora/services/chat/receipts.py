"""Receipts: a recipient's screen (a socket's `delivered` or `read`) or device (a push's
acknowledgement) got messages, and the senders' ticks move.

A message to a big group brings every present member's receipt within a few milliseconds,
each a read of the membership and the message and a write of the mark: one at a time, they
queued in the store ahead of everybody's requests (at 200 people in the ceiling bench the
receipts' p50 was 520 ms, and the store's queue put every other action past 250 ms at p99).
The receipts that arrive while a batch is checked go together in the next (group commit),
checked on the edge's copies of the memberships and of the messages' places (each read
once). A checked receipt is answered at once and its mark written behind, with the others
checked meanwhile, in one write: the writes of a big group's marks took nx-27017 about
half a millisecond each, and a reader's screen waits for nothing of it (a mark lost with
the edge is moved on by the reader's next receipt, since marks only move forward; the
senders' ticks move once it is written)."""

import asyncio
from dataclasses import dataclass
from typing import Any

from agora.core.chat.receipts import RECEIPT_STATUSES
from agora.core.errors import Forbidden, InvalidInput, NotFound
from agora.core.push import DeliveryReceipt
from agora.services.accounts import Caller
from agora.services.chat.access import NOT_IN_CHAT, ChatAccess
from agora.services.chat.ticks import Receipt, Ticks
from agora.services.events import MessageStored
from agora.store.messages import MessageStore
from agora.store.sessions import ReceiptMark, SessionStore
from agora.tools.group_commit import GroupCommit, Pending

RECEIPTS_PER_BATCH = 500
NO_SUCH_MESSAGE = {"created_at": "No such message"}


@dataclass(frozen=True)
class Asked:
    user_id: str
    session_id: str
    created_at: int
    status: str


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
        self._asked = GroupCommit(self._check, RECEIPTS_PER_BATCH)

    async def mark(self, caller: Caller, session_id: str, created_at: int, status: str) -> None:
        """A recipient's screen got (or showed) the messages up to this one: ticks move."""
        if status not in RECEIPT_STATUSES:
            raise InvalidInput({"status": "Unknown delivery status"})
        await self._asked.add(Asked(caller.user["_id"], session_id, created_at, status))

    async def received(self, receipts: list[DeliveryReceipt]) -> int:
        """Pushes reached their recipients' devices (their service workers acknowledged
        them): each chat's newest one counts, as a socket's `delivered` would. A chat its
        recipient no longer follows, or a message gone since, is passed over: the worker
        cannot act on a refusal. Says how many chats' marks were given."""
        newest: dict[tuple[str, str], int] = {}
        for receipt in receipts:
            key = (receipt.user_id, receipt.session_id)
            newest[key] = max(newest.get(key, 0), receipt.created_at)
        asked = [Asked(u, s, created_at, "delivered") for (u, s), created_at in newest.items()]
        outcomes = self._asked.enqueue(asked)
        if outcomes:
            await asyncio.wait(outcomes)
        given = 0
        for outcome in outcomes:
            error = outcome.exception()
            if error is None:
                given += 1
            elif not isinstance(error, Forbidden | NotFound):
                raise error
        return given

    def message_stored(self, stored: MessageStored) -> None:
        """A message sent through this edge: its receipts find its place without reading it
        (the first receipt of each message read it, 1.8 a second at 300 people)."""
        if stored.seq is not None:
            created_at = stored.message["created_at"]
            self.messages.placed(stored.session_id, created_at, stored.seq, stored.sender_id)

    async def _check(self, batch: Pending) -> None:
        asked: list[Asked] = [a for a, _ in batch]
        found = await self.access.followers([(a.session_id, a.user_id) for a in asked])
        messages = await self._messages({(a.session_id, a.created_at) for a in asked})
        ready = []
        for a, future in batch:
            message = messages.get((a.session_id, a.created_at))
            if (a.session_id, a.user_id) not in found:
                future.set_exception(Forbidden(NOT_IN_CHAT))
            elif message is None:
                future.set_exception(NotFound(NO_SUCH_MESSAGE))
            else:
                seq = await self._seq_of(message)
                mark = ReceiptMark(a.session_id, a.user_id, a.status, seq)
                ready.append((Receipt(mark, message), future))
        self.ticks.write_behind([receipt for receipt, _ in ready], found)
        for _, future in ready:
            if not future.done():
                future.set_result(None)

    async def _messages(self, wanted: set[tuple[str, int]]) -> dict[tuple[str, int], Any]:
        keys = list(wanted)
        found = await asyncio.gather(*(self.messages.place(s, at) for s, at in keys))
        return {key: message for key, message in zip(keys, found, strict=True) if message}

    async def _seq_of(self, message: dict[str, Any]) -> int:
        seq = message.get("seq")
        if seq is None:  # stored before messages were numbered: everything up to now
            session = await self.sessions.get(message["dest_session_id"]) or {}
            seq = session.get("message_seq", 0)
        return seq
