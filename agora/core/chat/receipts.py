"""Delivery ticks.

Nothing is written per message and reader: each membership keeps how far its member's
screens received (`delivered_seq`) and read (`read_seq`) the session's numbered messages,
with the numbers and times of its latest receipts (`RECEIPT_TIMES`).
A message's status follows from the other members' marks, as in Telegram's groups: read
once any other member read it, delivered once any other member's screen received it."""

from dataclasses import dataclass
from typing import Any

from agora.core.chat.counts import SENT_SEQ, keeps_senders_marks, read_through
from agora.core.documents import ChatSession

RECEIPT_STATUSES = ("delivered", "read")
# Per status, where a membership keeps its latest receipts (the last `RECEIPT_MARKS_KEPT`): the
# numbers they covered and when they came, two lists of numbers written in step (one `$push`
# each in the same write; nx-27017 keeps documents pushed into a list as JSON strings).
RECEIPT_TIMES = {
    status: (f"{status}_mark_seqs", f"{status}_mark_ats") for status in RECEIPT_STATUSES
}


@dataclass(frozen=True)
class Delivery:
    """Who read and who (only) received one message, each with when if known."""

    read: tuple[tuple[str, int | None], ...]
    delivered: tuple[tuple[str, int | None], ...]

    @property
    def status(self) -> str:
        if self.read:
            return "read"
        return "delivered" if self.delivered else "sent"

    def info(self) -> dict[str, list[dict[str, Any]]]:
        """The message info view (GET /session/im_info), earliest first."""
        return {
            "read": _by_time(self.read),
            "delivered": _by_time(self.delivered),
        }


def delivery(message: dict[str, Any], marks: list[dict[str, Any]]) -> Delivery:
    """The one place ticks and the info view come from: `marks` are memberships (at least
    the furthest ones) with their `read_seq`, `delivered_seq` and receipt times."""
    seq = message.get("seq")
    if seq is None:  # stored before messages were numbered: the receipts it kept itself
        return _legacy(message)
    read: list[tuple[str, int | None]] = []
    delivered: list[tuple[str, int | None]] = []
    for mark in marks:
        if mark["user_id"] == message["src_id"]:
            continue
        if mark.get("read_seq", 0) >= seq:
            read.append((mark["user_id"], _receipt_time(mark, "read", seq)))
        elif mark.get("delivered_seq", 0) >= seq:
            delivered.append((mark["user_id"], _receipt_time(mark, "delivered", seq)))
    return Delivery(read=tuple(read), delivered=tuple(delivered))


# A receipt as far as this many other members' marks moves no tick: one of them did not send
# the message, whose tick shows their mark already.
MARKS_DECIDING_A_TICK = 2


def mark_of(user_id: str, status: str, seq: int) -> dict[str, Any]:
    """A membership's mark after a receipt (reading implies receiving)."""
    mark = {"user_id": user_id, "delivered_seq": seq}
    return {**mark, "read_seq": seq} if status == "read" else mark


def is_behind(membership: dict[str, Any] | None, mark: Any) -> bool:
    """Whether a receipt (`status`, `seq`) would move this membership's mark (as read)."""
    return membership is not None and membership.get(f"{mark.status}_seq", 0) < mark.seq


def moves_a_tick(user_id: str, status: str, seq: int, marks: list[dict[str, Any]]) -> bool:
    """Whether a member's receipt up to message number `seq` may change any message's tick,
    given the furthest other marks (`SessionStore.furthest_marks`): in a big group the first
    receipts for a message move its tick, the hundreds after them nothing."""
    field = f"{status}_seq"
    as_far = {m["user_id"] for m in marks if m["user_id"] != user_id and m.get(field, 0) >= seq}
    return len(as_far) < MARKS_DECIDING_A_TICK


def marks_with_senders(session: ChatSession, marks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The members' marks with what the chat keeps of its senders (`sent_seq`): a member
    who sent message n has read and received everything up to it, as a reply shows."""
    sent = session.get(SENT_SEQ) or {}
    if not sent:
        return marks
    found = {mark["user_id"]: mark for mark in marks}
    for user_id in sent:
        found.setdefault(user_id, {"user_id": user_id})
    return [
        {
            **mark,
            "read_seq": read_through(session, mark),
            "delivered_seq": max(mark.get("delivered_seq", 0), sent.get(mark["user_id"], 0)),
        }
        for mark in found.values()
    ]


def marks_on_newest_page(
    session: ChatSession, marks: list[dict[str, Any]], page: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """`marks_with_senders` for a page that reaches the chat's newest message, from the page
    instead of the chat's `sent_seq`: a sender whose latest message numbers at least one of
    the page's has it on the page, so the page's own senders say as much of its messages as
    `sent_seq` does (more, while the chat's count is still being written)."""
    if not keeps_senders_marks(session):
        return marks
    sent: dict[str, int] = {}
    for message in page:
        if (seq := message.get("seq")) is not None:
            sent[message["src_id"]] = max(seq, sent.get(message["src_id"], 0))
    return marks_with_senders({SENT_SEQ: sent}, marks)


def _receipt_time(mark: dict[str, Any], status: str, seq: int) -> int | None:
    """When the member's first receipt of `status` that covered message `seq` came, if still
    remembered."""
    seqs, ats = RECEIPT_TIMES[status]
    kept = zip(mark.get(seqs) or [], mark.get(ats) or [], strict=True)
    return next((at for covered, at in kept if covered >= seq), None)


def _by_time(entries: tuple[tuple[str, int | None], ...]) -> list[dict[str, Any]]:
    ordered = sorted(entries, key=lambda entry: (entry[1] is None, entry[1] or 0, entry[0]))
    return [{"user_id": user_id, "at": at} for user_id, at in ordered]


def _legacy(message: dict[str, Any]) -> Delivery:
    info = message.get("info") or {}
    read = tuple((u, at) for u, at in (info.get("read") or {}).items())
    delivered = tuple(
        (u, at) for u, at in (info.get("delivered") or {}).items() if u not in dict(read)
    )
    return Delivery(read=read, delivered=delivered)
