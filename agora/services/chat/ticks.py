"""A member's delivery mark, moved by whatever showed them messages (a page, the chat list,
a socket's or a push's receipt), and the ticks it moves on the senders' screens."""

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Self

from agora.core.chat.receipts import is_behind, mark_of, moves_a_tick
from agora.core.clock import now_ms
from agora.realtime.emitter import RealtimeEmitter
from agora.services.chat.access import ChatAccess
from agora.store.sessions import ReceiptMark, SessionStore
from agora.tools.group_commit import GroupCommit, Pending, succeed_all

log = logging.getLogger("agora.chat.ticks")

# nx-27017 holds every other command while it writes one: 330 marks in one bulk write held it
# 110-150 ms (socket deliveries' p99 400 ms at 500 people); 50 hold it about 20 ms quiet, and
# a group message's receipts came as one 50 after another, each 50-110 ms in the edge's eyes
# at 500 people (sends' p99 390 ms); 10 hold it about 4 ms, and others pass between them.
MARKS_PER_WRITE = 10
# The receipts of a message to a big group arrive over a second or two (the screens spread
# them): written as they came, nearly each was a write of its own. A receipt somebody waits
# for (a page's) does not wait this long: it goes at once, taking along those waiting.
MARKS_WRITE_LINGER_SECONDS = 0.25


@dataclass(frozen=True)
class Receipt:
    """A member's screens got the session's messages up to `last`, number `seq`."""

    mark: ReceiptMark
    last: dict[str, Any]

    @classmethod
    def of(cls, membership: dict[str, Any], status: str, seq: int, last: dict[str, Any]) -> Self:
        """The receipt of the member `membership` (as read) up to `last`, number `seq`."""
        member = membership["session_id"], membership["user_id"]
        return cls(ReceiptMark(*member, status, seq), last)

    @property
    def member(self) -> tuple[str, str]:
        """(session, user): what `SessionStore.memberships` keys its answers by."""
        return self.mark.session_id, self.mark.user_id


@dataclass
class _Waiting:
    """A receipt waiting for its write, with its membership as its check read it. `awaited`:
    its caller waits for the write, and hears of its failure. One written behind gives way to
    a later receipt of the same member, chat and status while it waits (`Ticks.write_behind`)."""

    receipt: Receipt
    membership: dict[str, Any]
    awaited: bool

    @property
    def key(self) -> tuple[str, str, str]:
        mark = self.receipt.mark
        return mark.session_id, mark.user_id, mark.status


class Ticks:
    def __init__(
        self, *, sessions: SessionStore, emitter: RealtimeEmitter, access: ChatAccess
    ) -> None:
        self.sessions = sessions
        self.emitter = emitter
        self.access = access
        self._writes = GroupCommit(self._write, MARKS_PER_WRITE, linger=MARKS_WRITE_LINGER_SECONDS)
        # The receipts written behind that wait for a batch, by (chat, member, status).
        self._behind: dict[tuple[str, str, str], _Waiting] = {}

    async def receipt(
        self, membership: dict[str, Any], status: str, seq: int, last: dict[str, Any]
    ) -> None:
        """Moves the member's mark (`membership` as just read); when that may move a tick, the
        senders' screens hear of it (one event covering every message up to `last`). Written
        at once with the receipts waiting to be written behind (`write_behind`): a page's
        receipt was a write of its own, 1.3 a second at 300 people."""
        waiting = _Waiting(Receipt.of(membership, status, seq, last), membership, awaited=True)
        await self._writes.add(waiting, at_once=True)

    def write_behind(
        self, receipts: list[Receipt], found: dict[tuple[str, str], dict[str, Any]]
    ) -> None:
        """`receipts`, checked already (their memberships in `found`), written with others a
        moment later; nobody waits for them (a mark lost with the edge is moved on by the
        member's next receipt, since marks only move forward; the senders' ticks move once it
        is written).

        A receipt of a member whose earlier one (same chat and status) still waits takes its
        place rather than a statement of its own: marks only move forward, so the later one
        says all the earlier one did. At 1,000 people a city group's screens sent 280 receipts
        a second, the writes fell seconds behind, and a member had several waiting in the
        queue; the earlier receipt's own time is then not kept (the info view tells the
        later one's, at most that queue's wait later)."""
        queued = []
        for receipt in receipts:
            waiting = _Waiting(receipt, found[receipt.member], awaited=False)
            earlier = self._behind.get(waiting.key)
            if earlier is None:
                self._behind[waiting.key] = waiting
                queued.append(waiting)
            elif receipt.mark.seq > earlier.receipt.mark.seq:
                earlier.receipt, earlier.membership = waiting.receipt, waiting.membership
        self._writes.enqueue(queued)

    def receipt_behind(
        self, membership: dict[str, Any], status: str, seq: int, last: dict[str, Any]
    ) -> None:
        """`receipt`, written behind (`write_behind`)."""
        receipt = Receipt.of(membership, status, seq, last)
        self.write_behind([receipt], {receipt.member: membership})

    async def _write(self, batch: Pending) -> None:
        """A failure reaches the callers who wait; for the others it is logged: the next
        receipts move the marks."""
        waiting: list[_Waiting] = [w for w, _ in batch]
        for w in waiting:
            # In a batch now: a later receipt of the member waits for the next.
            if self._behind.get(w.key) is w:
                del self._behind[w.key]
        found = {w.receipt.member: w.membership for w in waiting}
        ticking: list[Receipt] = []
        try:
            ticking = await self._recorded([w.receipt for w in waiting], found)
        except Exception as error:
            log.warning("%d receipts' marks were not written: %r", len(batch), error)
            for w, future in batch:
                if w.awaited and not future.done():
                    future.set_exception(error)
        # Written: a page waiting for its mark goes on; the senders' screens hear of the ticks
        # after (at 1,000 people an opening waited for the announcements too, up to 380 ms).
        succeed_all(batch)
        try:
            await self._announce_ticks(ticking)
        except Exception as error:
            log.warning("%d ticks were not announced: %r", len(ticking), error)

    async def _recorded(
        self, receipts: list[Receipt], found: dict[tuple[str, str], dict[str, Any]]
    ) -> list[Receipt]:
        """`receipt` for many, their memberships read already (`SessionStore.memberships`):
        one write for the lot; returns those that may move a tick (`_announce_ticks`). A
        membership this edge marked since `found` read it is taken as marked
        (`SessionStore.as_marked_here`): the receipts checked while a batch was written come in
        the next, and their marks' compare-and-sets missed, each miss a read and a write more."""
        found = self.sessions.as_marked_here(found)
        marks = [r.mark for r in receipts]
        # Read before the write, and only for chats where a mark is behind its receipt (a
        # page read again, the common case, moves nothing and asks nothing more).
        behind = {m.session_id for m in marks if is_behind(found.get((m.session_id, m.user_id)), m)}
        furthest = dict(
            zip(
                behind,
                await asyncio.gather(*map(self.sessions.furthest_marks_lately, behind)),
                strict=True,
            )
        )
        ahead = await self.sessions.record_receipts(marks, found, now_ms())
        ticking = []
        for receipt, moved in zip(receipts, ahead, strict=True):
            mark = receipt.mark
            known = furthest.get(mark.session_id, [])
            if moved and moves_a_tick(mark.user_id, mark.status, mark.seq, known):
                ticking.append(receipt)
                # The process's copy of the chat's furthest marks: later receipts see it.
                known.append(mark_of(mark.user_id, mark.status, mark.seq))
        return ticking

    async def _announce_ticks(self, ticking: list[Receipt]) -> None:
        """Only the receipts that may move a tick are announced (to the chat's room, a message
        to a group of 500 brought 500 receipts x 500 sockets); and they go at once (they share
        the emitter's publishes; one by one, each waited for a publish of its own)."""
        following = await self._following_senders(ticking)

        def sender(r: Receipt) -> str | None:
            src = r.last.get("src_id")
            return src if (r.mark.session_id, src) in following else None

        await asyncio.gather(
            *(
                self._announce(
                    r.mark.session_id, r.mark.user_id, r.mark.status, r.last, sender=sender(r)
                )
                for r in ticking
            )
        )

    async def _following_senders(self, ticking: list[Receipt]) -> set[tuple[str, str]]:
        """The (session, sender) pairs of these receipts' last messages whose sender still
        follows the chat: a sender blocked or removed since (or waiting again) may no longer
        read the chat, so its ticks are not theirs to hear. From the edge's copies of the
        memberships, as every chat call's check (a block drops them on every edge as it is
        given): read from the store, they were 2.2 of the edge's 3.9 membership reads a
        second at 300 people."""
        pairs = {
            (r.mark.session_id, src)
            for r in ticking
            if isinstance(src := r.last.get("src_id"), str)
        }
        return set(await self.access.followers(list(pairs))) if pairs else set()

    async def _announce(
        self,
        session_id: str,
        user_id: str,
        status: str,
        last: dict[str, Any],
        *,
        sender: str | None,
    ) -> None:
        """To the tabs showing the chat, and wherever the last message's sender is: only an
        open chat shows ticks, and to the chat's room each announcement reached every member's
        socket (two per message to a city group: twice its deliveries). A sender of an earlier
        message covered, whose chat is not shown, sees its tick when it next reads the chat.
        `sender` is None when the last message's sender no longer follows the chat."""
        status_report = {
            "session_id": session_id,
            "created_at": last["created_at"],
            "status": status,
            "user_id": user_id,
        }
        await self.emitter.to_viewers_and_user(session_id, sender, "message_status", status_report)
