"""Ticks and the message info view come from one function over the members' marks."""

from agora.core.chat.checks import CHAT_MESSAGE_KINDS
from agora.core.chat.receipts import (
    delivery,
    mark_of,
    marks_on_newest_page,
    marks_with_senders,
    moves_a_tick,
)
from agora.core.chat.views import message_view_for, shared_session_view
from agora.core.message_kinds import ChatKinds


def _mark(user_id: str, read: int = 0, delivered: int = 0, **times) -> dict:
    return {"user_id": user_id, "read_seq": read, "delivered_seq": delivered, **times}


MESSAGE = {
    "_id": "m5",
    "dest_session_id": "g1",
    "src_id": "ada",
    "created_at": 1000,
    "seq": 5,
    "type": 1003,
    "flags": {"status": "sent"},
}


def test_the_senders_own_mark_never_ticks_their_message():
    assert delivery(MESSAGE, [_mark("ada", read=9, delivered=9)]).status == "sent"


def test_any_other_member_moves_the_tick_and_the_info_view_agrees():
    marks = [_mark("ada", read=9), _mark("bob", delivered=5), _mark("cy", read=4, delivered=4)]
    got = delivery(MESSAGE, marks)
    assert got.status == "delivered"
    assert got.info() == {"read": [], "delivered": [{"user_id": "bob", "at": None}]}
    marks.append(_mark("dee", read=6, read_mark_seqs=[3, 6], read_mark_ats=[10, 20]))
    got = delivery(MESSAGE, marks)
    assert got.status == "read"
    assert got.info()["read"] == [{"user_id": "dee", "at": 20}]
    assert message_view_for(MESSAGE, marks, ChatKinds(CHAT_MESSAGE_KINDS))["flags"] == {
        "status": "read"
    }


def test_a_chats_senders_have_read_up_to_their_own_latest_message():
    chat = {"_id": "r1", "kind": "item_chat", "sent_seq": {"bob": 6, "ada": 9}}
    marks = [_mark("bob", delivered=4, read_mark_seqs=[2], read_mark_ats=[10])]
    merged = marks_with_senders(chat, marks)
    # Bob replied after message 5: it is read, with no receipt time to show.
    assert delivery(MESSAGE, merged).info() == {
        "read": [{"user_id": "bob", "at": None}],
        "delivered": [],
    }
    # A sender's own messages still take their ticks from the others only.
    assert delivery({**MESSAGE, "src_id": "bob", "seq": 6}, merged).status == "read"
    assert delivery({**MESSAGE, "seq": 7}, merged).status == "sent"
    # A mark further than the chat's record of the sender stays as it is.
    assert marks_with_senders({"sent_seq": {"bob": 1}}, [_mark("bob", read=3)]) == [
        _mark("bob", read=3, delivered=1)
    ]
    assert marks_with_senders({"kind": "group"}, marks) is marks


def test_the_newest_page_says_what_the_chats_senders_record_says_of_its_messages():
    """A page reaching the chat's newest message holds each sender's latest message that
    could mark one of its own: its ticks are those the chat's `sent_seq` gives."""
    chat = {"_id": "r1", "kind": "item_chat", "sent_seq": {"bob": 6, "ada": 7}}
    page = [
        {**MESSAGE, "seq": 5},
        {**MESSAGE, "src_id": "bob", "seq": 6},
        {**MESSAGE, "seq": 7},
        {**MESSAGE, "src_id": "system", "seq": None},
    ]
    marks = [_mark("bob", delivered=4), _mark("cy", delivered=7)]
    from_page = marks_on_newest_page({"_id": "r1", "kind": "item_chat"}, marks, page)
    from_record = marks_with_senders(chat, marks)
    for message in page[:3]:
        assert delivery(message, from_page).status == delivery(message, from_record).status
    assert [delivery(m, from_page).status for m in page[:3]] == ["read", "read", "delivered"]
    # A group's senders move their own memberships' marks: the page adds nothing.
    assert marks_on_newest_page({"kind": "group"}, marks, page) is marks


def test_messages_stored_before_numbering_keep_their_own_receipts():
    old = {**MESSAGE, "seq": None, "info": {"read": {"bob": 7}, "delivered": {"bob": 6, "cy": 8}}}
    got = delivery(old, [])
    assert got.status == "read"
    assert got.info() == {
        "read": [{"user_id": "bob", "at": 7}],
        "delivered": [{"user_id": "cy", "at": 8}],
    }


def test_a_room_wide_session_event_carries_nothing_of_one_viewer():
    view = {"_id": "g1", "title": "T", "can_send": True, "session_user_type": 10, "data": {}}
    assert shared_session_view(view) == {"_id": "g1", "title": "T", "data": {}}


def test_a_receipt_moves_a_tick_until_two_other_members_marks_are_as_far():
    sender_read = {"user_id": "sender", "read_seq": 5, "delivered_seq": 5}
    assert moves_a_tick("a", "delivered", 5, [sender_read])
    marks = [sender_read, mark_of("a", "delivered", 5)]
    # The sender's own mark and a's: a message of the sender's shows delivered already.
    assert not moves_a_tick("b", "delivered", 5, marks)
    assert moves_a_tick("b", "delivered", 6, marks)  # a later message: nobody got it yet
    assert moves_a_tick("a", "delivered", 5, marks)  # a's own mark does not count against it
    # Reading implies receiving, so a read counts for both.
    marks = [mark_of("a", "read", 7), mark_of("c", "read", 7)]
    assert not moves_a_tick("b", "delivered", 7, marks)
    assert not moves_a_tick("b", "read", 7, marks)
    assert moves_a_tick("b", "read", 7, [mark_of("a", "delivered", 7), mark_of("c", "read", 7)])
