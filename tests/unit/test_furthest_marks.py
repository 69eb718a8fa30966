"""A chat's furthest marks carried forward by the marks each write moved
(`core.chat.furthest`) decide every tick as the furthest marks read again would."""

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from agora.core.chat.counts import SENT_SEQ
from agora.core.chat.furthest import (
    MARK_KINDS,
    MarkMoved,
    furthest_after,
    furthest_of_each_kind,
    receipt_moved,
    senders_after,
)

USERS = ("ann", "bob", "cat", "dan", "eve")


def _ticks(marks: list[dict[str, Any]]) -> dict[tuple[str, str], int]:
    """What decides each tick (`core.chat.receipts.delivery`): per sender and kind of mark,
    the furthest mark of any other member."""
    return {
        (sender, field): max(
            (m.get(field, 0) for m in marks if m["user_id"] != sender),
            default=0,
        )
        for sender in USERS
        for field in MARK_KINDS
    }


def _read(stored: dict[str, dict[str, int]]) -> list[dict[str, Any]]:
    """The furthest marks as `SessionStore.furthest_marks` reads them."""
    return furthest_of_each_kind([{"user_id": u, **marks} for u, marks in stored.items()])


# One write: a receipt of a member (status, seq past their mark, as its compare-and-set
# writes), a reader's `$max` of anyone's read mark (a member removed meanwhile matches
# nothing), or a member removed.
writes = st.lists(
    st.tuples(
        st.sampled_from(["delivered", "read", "reading", "removed"]),
        st.sampled_from(USERS),
        st.integers(min_value=0, max_value=12),
    ),
    max_size=30,
)


@given(st.sets(st.sampled_from(USERS), min_size=1), writes)
def test_carried_marks_tick_as_the_marks_read_again(members: set[str], chat_writes) -> None:
    stored = {u: {"delivered_seq": 0, "read_seq": 0} for u in members}
    copy = _read(stored)
    for write, user, step in chat_writes:
        mark = stored.get(user)
        if write == "removed":
            stored.pop(user, None)
            copy = _read(stored)  # no moves: every copy is read again
            continue
        if write == "reading":
            if mark is not None:
                mark["read_seq"] = max(mark["read_seq"], step)
            moves = [MarkMoved(user, "read_seq", step, found=False)]
        else:
            if mark is None:
                continue  # a compare-and-set that found nobody moved nothing
            seq = mark[f"{write}_seq"] + 1 + step
            mark[f"{write}_seq"] = seq
            if write == "read":
                mark["delivered_seq"] = max(mark["delivered_seq"], seq)
            moves = receipt_moved(user, write, seq)
        carried = furthest_after(copy, moves)
        copy = _read(stored) if carried is None else carried
        assert _ticks(copy) == _ticks(_read(stored))


def test_a_receipt_past_the_furthest_is_counted_in_without_a_read() -> None:
    marks = [{"user_id": "ann", "read_seq": 4, "delivered_seq": 4}]
    after = furthest_after(marks, receipt_moved("bob", "read", 6))
    assert after is not None
    assert {m["user_id"]: (m.get("delivered_seq"), m.get("read_seq")) for m in after} == {
        "ann": (4, 4),
        "bob": (6, 6),
    }
    assert marks == [{"user_id": "ann", "read_seq": 4, "delivered_seq": 4}]  # not changed


def test_a_read_mark_of_someone_not_among_the_furthest_is_told_only_behind_them() -> None:
    """A reader's `$max` may have found no membership (one removed meanwhile): behind the two
    furthest it moves no tick either way, past them the marks cannot tell."""
    marks = [
        {"user_id": "ann", "read_seq": 9, "delivered_seq": 9},
        {"user_id": "bob", "read_seq": 7, "delivered_seq": 7},
    ]
    assert furthest_after(marks, [MarkMoved("cat", "read_seq", 7, found=False)]) == marks
    assert furthest_after(marks, [MarkMoved("cat", "read_seq", 8, found=False)]) is None
    # One of the furthest moved on: it was a member when they were read.
    after = furthest_after(marks, [MarkMoved("bob", "read_seq", 12, found=False)])
    assert after is not None
    assert {m["user_id"]: m["read_seq"] for m in after} == {"ann": 9, "bob": 12}


def test_senders_numbers_only_move_forward() -> None:
    moves = [MarkMoved("ann", SENT_SEQ, 3, found=False), MarkMoved("bob", SENT_SEQ, 8, found=False)]
    assert senders_after({"ann": 5}, moves) == {"ann": 5, "bob": 8}
