"""Mentions' and slow mode's rules (`core/mentions.py`, `core/slow_mode.py`)."""

import pytest

from agora.core.chat.checks import CHAT_MESSAGE_KINDS
from agora.core.chat.constants import SESSION_KIND_GROUP, SESSION_KIND_ITEM_CHAT
from agora.core.chat.views import session_view
from agora.core.errors import InvalidInput
from agora.core.mentions import (
    MENTIONS_MAX,
    check_mentions,
    everyone_refusal,
    kept_mentions,
    members_named,
)
from agora.core.message_kinds import ChatKinds
from agora.core.push import mention_recipients
from agora.core.slow_mode import check_slow_mode, is_slowed, slow_mode_refusal, slow_mode_wait_ms

GROUP = {"_id": "g", "kind": SESSION_KIND_GROUP, "message_seq": 10}


def test_mentions_are_a_short_list_of_ids_each_kept_once():
    assert check_mentions(None) == {} and check_mentions([]) == {}
    assert check_mentions(["a", "b", "a", "all"]) == {"mentions": ["a", "b", "all"]}
    for wrong in ("a", [1], [""], ["x" * 65], [None]):
        with pytest.raises(InvalidInput):
            check_mentions(wrong)
    with pytest.raises(InvalidInput):
        check_mentions([str(i) for i in range(MENTIONS_MAX + 1)])


def test_everyone_is_for_admins_and_moderators_and_names_for_the_chats_readers():
    assert everyone_refusal(["all"], 20) is not None
    assert everyone_refusal(["here"], None) is not None
    assert everyone_refusal(["all", "here"], 15) is None
    assert everyone_refusal(["u1"], 20) is None
    readers = {"u1", "u2"}
    assert kept_mentions(["u1", "u3", "me", "all"], readers.__contains__, "me") == ["u1", "all"]


def _count(membership, session=GROUP):
    view = session_view(session, membership, kinds=ChatKinds(CHAT_MESSAGE_KINDS))
    return view["mention_count"]


def test_the_mention_count_is_the_mentions_past_the_read_mark():
    member = {"user_id": "u1", "session_user_type": 20, "read_seq": 4, "mention_seqs": [3, 5, 7]}
    assert _count(member) == 2
    # Everyone's mentions, each message once however it named the member.
    assert _count(member, {**GROUP, "everyone_mention_seqs": [6, 7, 2]}) == 3
    assert _count({**member, "read_seq": 10}) == 0
    # Those who do not follow the chat (blocked, waiting) have none.
    assert _count({**member, "session_user_type": 30}) == 0
    assert _count(None) == 0


def test_pushes_as_mentioned_go_to_the_named_and_everyone_muted_or_not_but_here_to_the_unmuted():
    members = [
        {"user_id": "sender", "session_user_type": 10},
        {"user_id": "named", "session_user_type": 20, "notification_flag": 30},
        {"user_id": "muted", "session_user_type": 20, "notification_flag": 30},
        {"user_id": "open", "session_user_type": 20, "notification_flag": 20},
        {"user_id": "blocked", "session_user_type": 40},
    ]

    def to(*mentions):
        return mention_recipients(
            {"src_id": "sender", "data": {"mentions": list(mentions)}}, members
        )

    assert to("named") == ["named"]
    assert to("all") == ["named", "muted", "open"]
    assert to("here") == ["open"]
    assert to("here", "named") == ["named", "open"]
    assert to() == []


def test_the_picker_puts_names_starting_with_the_text_first():
    people = [{"name": "Kira"}, {"name": "Ravi Kumar"}, {"name": "Rania"}, {"name": "Bob"}]
    assert [p["name"] for p in members_named(people, "RA", 10)] == ["Rania", "Ravi Kumar", "Kira"]
    assert [p["name"] for p in members_named(people, "kum", 10)] == ["Ravi Kumar"]
    assert members_named(people, "ra", 1) == [{"name": "Rania"}]


def test_slow_mode_is_a_groups_choice_among_the_offered_ones():
    assert check_slow_mode(GROUP, 30) == 30
    assert check_slow_mode(GROUP, 0) == 0
    for wrong in (7, -1, True, "30", None, 30.5):
        with pytest.raises(InvalidInput):
            check_slow_mode(GROUP, wrong)
    with pytest.raises(InvalidInput):
        check_slow_mode({"kind": SESSION_KIND_ITEM_CHAT}, 30)


def test_slow_mode_holds_members_back_but_not_moderators():
    slowed = {**GROUP, "slow_mode_seconds": 30}
    assert is_slowed(slowed, 20)
    assert not is_slowed(slowed, 15) and not is_slowed(slowed, 10)
    assert not is_slowed(GROUP, 20)
    assert slow_mode_wait_ms(slowed, 1_000, 11_000) == 20_000
    assert slow_mode_wait_ms(slowed, 1_000, 31_000) == 0
    assert slow_mode_refusal(20_000) == {"slow_mode": "Slow mode is on: you can send again in 20 s"}
    assert slow_mode_refusal(1)["slow_mode"].endswith("in 1 s")
