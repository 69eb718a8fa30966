"""A chat's furthest marks (the two furthest of each kind: what decides every message's tick,
`core.chat.receipts.delivery`) and its senders' own numbers, carried forward by the marks a
write moved rather than read again.

Marks only move forward (a receipt's compare-and-set, a reader's `$max`, a sender's `$max`),
so the furthest marks after a write are the furthest of those before it and the marks it
moved, with one exception: a member not among them whose write may have matched no
membership (a `$max` on a member removed meanwhile) cannot be counted in, and is needed only
when it would be among the furthest. A member removed is no move: their mark may have been
one of the furthest, and the next one is not known here.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Self

from agora.core.chat.counts import SENT_SEQ

# How many marks of each kind decide a tick: the furthest may be the sender's own, which does
# not count for their messages, so the one after it does.
FURTHEST_OF_EACH_KIND = 2
MARK_KINDS = ("delivered_seq", "read_seq")


@dataclass(frozen=True)
class MarkMoved:
    """A write moved `user_id`'s `field` (a kind of mark, or `sent_seq`: their latest
    message's number) to at least `seq`; `found` says the write found the membership (a
    receipt's compare-and-set that modified it), so the member is one."""

    user_id: str
    field: str
    seq: int
    found: bool

    def encoded(self) -> list[Any]:
        return [self.user_id, self.field, self.seq, self.found]

    @classmethod
    def decoded(cls, fields: list[Any]) -> Self:
        user_id, field, seq, found = fields
        return cls(user_id, field, seq, found)


def receipt_moved(user_id: str, status: str, seq: int) -> list[MarkMoved]:
    """The marks a member's receipt (`status` up to `seq`) moved, as written (its
    compare-and-set found the membership): reading implies receiving."""
    kinds = ["delivered_seq", "read_seq"] if status == "read" else ["delivered_seq"]
    return [MarkMoved(user_id, field, seq, found=True) for field in kinds]


def furthest_after(
    marks: list[dict[str, Any]], moves: list[MarkMoved]
) -> list[dict[str, Any]] | None:
    """The furthest marks `marks` (as `SessionStore.furthest_marks` reads them) after
    `moves`; None when they cannot tell (a member not among them, whose write may have found
    no membership, moved as far as the furthest)."""
    by_user = {mark["user_id"]: dict(mark) for mark in marks}
    for move in moves:
        if move.field not in MARK_KINDS:
            continue
        mark = by_user.get(move.user_id)
        if mark is None and not move.found:
            if move.seq <= _last_furthest(by_user.values(), move.field):
                continue
            return None
        if mark is None:
            mark = by_user[move.user_id] = {"user_id": move.user_id}
        mark[move.field] = max(mark.get(move.field, 0), move.seq)
    return furthest_of_each_kind(list(by_user.values()))


def senders_after(senders: dict[str, int], moves: list[MarkMoved]) -> dict[str, int]:
    """A chat's senders' numbers (`sent_seq`) after `moves`."""
    after = dict(senders)
    for move in moves:
        if move.field == SENT_SEQ:
            after[move.user_id] = max(after.get(move.user_id, 0), move.seq)
    return after


def furthest_of_each_kind(marks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The marks among the `FURTHEST_OF_EACH_KIND` furthest of some kind, each once."""
    kept: dict[str, dict[str, Any]] = {}
    for field in MARK_KINDS:
        for mark in _furthest(marks, field):
            kept.setdefault(mark["user_id"], mark)
    return list(kept.values())


def _furthest(marks: Iterable[dict[str, Any]], field: str) -> list[dict[str, Any]]:
    moved = [mark for mark in marks if mark.get(field, 0) > 0]
    moved.sort(key=lambda mark: mark[field], reverse=True)
    return moved[:FURTHEST_OF_EACH_KIND]


def _last_furthest(marks: Iterable[dict[str, Any]], field: str) -> int:
    """How far a mark of this kind must go to be among the furthest."""
    furthest = _furthest(marks, field)
    return furthest[-1][field] if len(furthest) == FURTHEST_OF_EACH_KIND else 0
