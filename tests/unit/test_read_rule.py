"""The one read rule of a session's content (`core.chat.access.may_read`) and what a viewer who may
not read a chat sees of it (`session_view(readable=False)`)."""

import pytest

from agora.core.chat.access import may_read
from agora.core.chat.checks import CHAT_MESSAGE_KINDS
from agora.core.chat.views import seen_time, session_view
from agora.core.message_kinds import ChatKinds

HIDDEN = {"_id": "g", "kind": "group", "is_public": False, "is_read_allowed": False}
READ_ALLOWED = {**HIDDEN, "is_read_allowed": True}
PUBLIC = {**HIDDEN, "is_public": True}
OPEN_ITEM_CHAT = {"_id": "r_i_u", "kind": "item_chat", "is_read_allowed": True}


def membership(user_type: int) -> dict:
    return {"session_id": "g", "user_id": "u", "session_user_type": user_type, "updated_at": 7}


@pytest.mark.parametrize(
    ("session", "user_type", "reads"),
    [
        (HIDDEN, 10, True),
        (HIDDEN, 15, True),
        (HIDDEN, 20, True),
        (HIDDEN, 29, False),  # blocked
        (HIDDEN, 30, False),  # awaiting approval
        (HIDDEN, 40, False),  # banned
        (HIDDEN, None, False),  # a stranger, a former member, a visitor
        (READ_ALLOWED, 30, True),
        (READ_ALLOWED, None, True),
        (PUBLIC, 29, True),  # anyone reads a public group, the blocked too
        (PUBLIC, None, True),
    ],
)
def test_members_read_and_others_only_open_sessions(session, user_type, reads):
    member = membership(user_type) if user_type is not None else None
    assert may_read(session, member) is reads


def test_an_open_item_chat_is_read_by_non_members_only_with_its_post():
    assert may_read(OPEN_ITEM_CHAT, None) is False
    assert may_read(OPEN_ITEM_CHAT, None, post_readable=True) is True
    assert may_read(OPEN_ITEM_CHAT, membership(20)) is True  # its members, whatever the post
    assert may_read({**OPEN_ITEM_CHAT, "is_read_allowed": False}, None, post_readable=True) is False


def test_a_viewer_who_may_not_read_sees_nothing_of_the_messages():
    group = {**HIDDEN, "created_at": 1, "updated_at": 99, "message_seq": 5, "title": "Club"}
    waiting = membership(30)
    kinds = ChatKinds(CHAT_MESSAGE_KINDS)
    view = session_view(group, waiting, kinds=kinds, readable=False)
    assert (view["updated_at"], view["unseen_count"], view["title"]) == (7, 0, "Club")
    assert session_view(group, membership(20), kinds=kinds)["updated_at"] == 99
    assert seen_time(group, None, readable=False) == 1  # no membership: its creation
