"""The rules of changing a sent message (core/message_changes.py): who edits, deletes and
pins what, the edit window, the bounded pins, and what a busy chat's held push keeps of a
deleted message."""

import pytest

from agora.composition.base import chat_kinds
from agora.core.chat.access import CANNOT_SEND, NO_SUCH_CHAT
from agora.core.chat.constants import (
    MESSAGE_TYPE_BANNER,
    MESSAGE_TYPE_CHAT,
    MESSAGE_TYPE_SYSTEM,
    SESSION_KIND_GROUP,
    SESSION_KIND_ITEM_CHAT,
    USER_TYPE_ADMIN,
    USER_TYPE_AWAITING_APPROVAL,
    USER_TYPE_BLOCKED_REVERSIBLE,
    USER_TYPE_MEMBER,
    USER_TYPE_MODERATOR,
)
from agora.core.message_changes import (
    ALREADY_DELETED,
    CANNOT_PIN,
    CANNOT_PIN_HERE,
    EDIT_WINDOW_PASSED,
    MESSAGE_EDIT_WINDOW_SECONDS,
    NOT_DELETABLE,
    NOT_EDITABLE,
    NOT_YOURS_TO_DELETE,
    NOT_YOURS_TO_EDIT,
    PINS_FULL,
    PINS_MAX,
    deletion,
    edit_refusal,
    pin_refusal,
    pins_after,
)
from agora.core.push import NEW_MESSAGE_TEXT, Notification, PushWindows
from agora.core.whatsapp.constants import MESSAGE_TYPE_WA_TEXT, SESSION_KIND_BUSINESS

KINDS = chat_kinds()
GROUP = {"_id": "g", "kind": SESSION_KIND_GROUP, "write_permission": USER_TYPE_MEMBER}
ITEM_CHAT = {"_id": "r_i_u", "kind": SESSION_KIND_ITEM_CHAT, "write_permission": USER_TYPE_MEMBER}
SENT_AT = 1_700_000_000_000
WINDOW_MS = MESSAGE_EDIT_WINDOW_SECONDS * 1000


def message(src_id="ann", type_=MESSAGE_TYPE_CHAT, payload="hello", **fields):
    return {"src_id": src_id, "type": type_, "payload": payload, "created_at": SENT_AT, **fields}


def test_only_the_sender_edits_a_text_message_within_the_window():
    def refusal(m=None, actor="ann", actor_type=USER_TYPE_MEMBER, now=SENT_AT + WINDOW_MS):
        return edit_refusal(KINDS, GROUP, actor_type, actor, m or message(), now)

    assert refusal() is None
    assert refusal(now=SENT_AT + WINDOW_MS + 1) == EDIT_WINDOW_PASSED
    assert refusal(actor="bob") == NOT_YOURS_TO_EDIT
    assert refusal(actor="bob", actor_type=USER_TYPE_ADMIN) == NOT_YOURS_TO_EDIT
    # Files only, a shared place without words: no text to edit.
    assert refusal(message(payload="", payload1=[{"url": "/f"}])) == NOT_EDITABLE
    assert refusal(message(deleted_at=SENT_AT + 1, payload="")) == ALREADY_DELETED
    assert refusal(message(type_=MESSAGE_TYPE_SYSTEM, src_id="ann")) == NOT_EDITABLE
    # A banner stays its admin's to edit.
    assert refusal(message(type_=MESSAGE_TYPE_BANNER), actor_type=USER_TYPE_ADMIN) is None
    # As a send is refused: blocked, waiting, a former member of a private group.
    assert refusal(actor_type=USER_TYPE_BLOCKED_REVERSIBLE) == CANNOT_SEND
    assert refusal(actor_type=USER_TYPE_AWAITING_APPROVAL) == CANNOT_SEND
    assert refusal(actor_type=None) == NO_SUCH_CHAT


def test_a_whatsapp_message_is_neither_edited_nor_deleted():
    business = {"_id": "wa_c_1", "kind": SESSION_KIND_BUSINESS, "write_permission": 20}
    wa = message(type_=MESSAGE_TYPE_WA_TEXT)
    assert edit_refusal(KINDS, business, USER_TYPE_ADMIN, "ann", wa, SENT_AT) == NOT_EDITABLE
    assert deletion(KINDS, business, USER_TYPE_ADMIN, "ann", wa, USER_TYPE_ADMIN) == (
        NOT_DELETABLE,
        None,
    )


@pytest.mark.parametrize(
    ("session", "actor_type", "sender_type", "expected"),
    [
        # A group's moderators and admins delete the messages of those below them.
        (GROUP, USER_TYPE_MODERATOR, USER_TYPE_MEMBER, (None, "moderator")),
        (GROUP, USER_TYPE_ADMIN, USER_TYPE_MODERATOR, (None, "admin")),
        (GROUP, USER_TYPE_MODERATOR, USER_TYPE_BLOCKED_REVERSIBLE, (None, "moderator")),
        (GROUP, USER_TYPE_MODERATOR, None, (None, "moderator")),  # a former member's
        (GROUP, USER_TYPE_MODERATOR, USER_TYPE_MODERATOR, (NOT_YOURS_TO_DELETE, None)),
        (GROUP, USER_TYPE_MODERATOR, USER_TYPE_ADMIN, (NOT_YOURS_TO_DELETE, None)),
        (GROUP, USER_TYPE_MEMBER, USER_TYPE_MEMBER, (NOT_YOURS_TO_DELETE, None)),
        (
            {**GROUP, "is_inactive": True},
            USER_TYPE_ADMIN,
            USER_TYPE_MEMBER,
            (NOT_YOURS_TO_DELETE, None),
        ),
        # An item chat's poster (its admin) does not moderate the one who asked.
        (ITEM_CHAT, USER_TYPE_ADMIN, USER_TYPE_MEMBER, (NOT_YOURS_TO_DELETE, None)),
    ],
)
def test_who_deletes_anothers_message(session, actor_type, sender_type, expected):
    assert deletion(KINDS, session, actor_type, "mod", message(), sender_type) == expected


def test_senders_delete_their_own_whenever_they_may_still_post_there():
    assert deletion(KINDS, ITEM_CHAT, USER_TYPE_MEMBER, "ann", message(), USER_TYPE_MEMBER) == (
        None,
        None,
    )
    blocked = deletion(
        KINDS, GROUP, USER_TYPE_BLOCKED_REVERSIBLE, "ann", message(), USER_TYPE_BLOCKED_REVERSIBLE
    )
    assert blocked == (CANNOT_SEND, None)
    notice = message(type_=MESSAGE_TYPE_SYSTEM)
    assert deletion(KINDS, GROUP, USER_TYPE_ADMIN, "mod", notice, None) == (NOT_DELETABLE, None)


def test_group_moderators_pin_and_both_sides_of_an_item_chat():
    assert pin_refusal(KINDS, GROUP, USER_TYPE_MODERATOR, message()) is None
    assert pin_refusal(KINDS, GROUP, USER_TYPE_MEMBER, message()) == CANNOT_PIN
    assert pin_refusal(KINDS, GROUP, USER_TYPE_AWAITING_APPROVAL, message()) == CANNOT_PIN
    assert pin_refusal(KINDS, ITEM_CHAT, USER_TYPE_MEMBER, message()) is None
    assert pin_refusal(KINDS, ITEM_CHAT, USER_TYPE_ADMIN, message()) is None
    assert pin_refusal(KINDS, ITEM_CHAT, USER_TYPE_BLOCKED_REVERSIBLE, message()) == CANNOT_SEND
    assert pin_refusal(KINDS, ITEM_CHAT, None, message()) == NO_SUCH_CHAT
    deleted = message(deleted_at=SENT_AT + 1)
    assert pin_refusal(KINDS, GROUP, USER_TYPE_ADMIN, deleted) == ALREADY_DELETED
    business = {"_id": "wa_c_1", "kind": SESSION_KIND_BUSINESS}
    assert pin_refusal(KINDS, business, USER_TYPE_ADMIN, message()) == CANNOT_PIN_HERE


def test_pins_are_bounded_the_newest_first_and_a_pin_again_moves_it_first():
    pins: list = []
    for at in range(1, PINS_MAX + 1):
        after = pins_after(pins, at, True, "mod", at * 10)
        assert not isinstance(after, str)
        pins = after
    assert [p["created_at"] for p in pins] == list(range(PINS_MAX, 0, -1))
    assert pins_after(pins, PINS_MAX + 1, True, "mod", 0) == PINS_FULL
    again = pins_after(pins, 1, True, "mod", 999)
    assert not isinstance(again, str)
    assert [p["created_at"] for p in again][:2] == [1, PINS_MAX]
    assert again[0] == {"created_at": 1, "by": "mod", "at": 999}
    unpinned = pins_after(pins, 3, False, "mod", 0)
    assert not isinstance(unpinned, str) and 3 not in [p["created_at"] for p in unpinned]
    assert pins_after(unpinned, 3, False, "mod", 0) == unpinned


def test_a_held_push_shows_nothing_of_a_deleted_message():
    windows = PushWindows(seconds=30)
    key = ("u", "s")

    def note(at: int, text: str) -> Notification:
        return Notification("s", "Chat", "Ann", text, created_at=at)

    assert windows.arrive(key, note(1, "first"), now=0) == "send"
    assert windows.arrive(key, note(2, "secret"), now=1) == "hold"
    windows.withdraw("s", 2)
    # The only held message was deleted: nothing is pushed at the window's end.
    assert windows.release(key, now=30) is None

    # A window left empty is gone: the next message is pushed at once.
    assert windows.arrive(key, note(3, "next"), now=31) == "send"
    assert windows.arrive(key, note(4, "kept"), now=32) == "hold"
    assert windows.arrive(key, note(5, "secret"), now=33) == "held"
    windows.withdraw("other chat", 5)
    windows.withdraw("s", 5)
    coalesced = windows.release(key, now=61)
    assert coalesced is not None
    assert (coalesced.count, coalesced.body()) == (1, NEW_MESSAGE_TEXT)
    assert "secret" not in coalesced.payload().decode()
