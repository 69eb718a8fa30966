"""The one read rule for posts, and how far a session's messages count as announced."""

import pytest

from agora.core.chat.counts import announced_seq
from agora.core.items import can_read_post

POST = {"_id": "p", "sort_order": 0}
HIDDEN_POST = {"_id": "p", "sort_order": -1}
PRIVATE = {"is_public": False, "is_read_allowed": False}
READ_ALLOWED = {"is_public": False, "is_read_allowed": True}
PUBLIC = {"is_public": True, "is_read_allowed": False}


def membership(user_type: int) -> dict:
    return {"session_user_type": user_type}


@pytest.mark.parametrize(
    ("item", "group", "member", "readable"),
    [
        (POST, PRIVATE, membership(10), True),
        (POST, PRIVATE, membership(20), True),
        (POST, PRIVATE, membership(29), False),  # blocked
        (POST, PRIVATE, membership(30), False),  # awaiting approval
        (POST, PRIVATE, membership(40), False),  # blocked
        (POST, PRIVATE, None, False),  # stranger or guest
        (POST, READ_ALLOWED, None, True),
        (POST, PUBLIC, None, True),
        (HIDDEN_POST, PUBLIC, membership(10), False),
        (POST, None, membership(10), False),  # its group is gone
    ],
)
def test_a_post_is_read_as_its_group_is(item, group, member, readable):
    assert can_read_post(item, group, member) is readable


def test_sessions_from_before_the_record_count_as_announced_to_their_last_message():
    assert announced_seq({"message_seq": 7}) == 7
    assert announced_seq({"message_seq": 7, "announced_seq": 5}) == 5
    assert announced_seq({"announced_seq": 0}) == 0
    assert announced_seq({}) == 0
