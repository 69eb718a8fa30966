"""Who may post what where (the shard asks `posting_refusal` for every message)."""

import pytest

from agora.composition.base import chat_kinds
from agora.core.chat import access
from agora.core.chat.access import BANNER_ADMINS_ONLY, CANNOT_SEND, NO_SUCH_CHAT
from agora.core.chat.constants import MESSAGE_TYPE_BANNER, MESSAGE_TYPE_CHAT, MESSAGE_TYPE_SYSTEM
from agora.core.chat.counts import has_no_messages
from agora.core.whatsapp.kinds import BUSINESS_ONLY, WHATSAPP_ONLY

KINDS = chat_kinds()


def posting_refusal(session: dict, user_type: int | None, message_type: int) -> str | None:
    """The rule with the kinds the app registers."""
    return access.posting_refusal(KINDS, session, user_type, message_type)


PRIVATE = {"is_public": False, "write_permission": 20}
ADMINS_WRITE = {"is_public": False, "write_permission": 10}
PUBLIC = {"is_public": True, "write_permission": 10}


@pytest.mark.parametrize(
    ("session", "user_type", "refusal"),
    [
        (PRIVATE, 10, None),
        (PRIVATE, 15, None),
        (PRIVATE, 20, None),
        (PRIVATE, 29, CANNOT_SEND),  # blocked-adjacent
        (PRIVATE, 30, CANNOT_SEND),  # awaiting approval
        (PRIVATE, 40, CANNOT_SEND),  # blocked
        # Not a member: hidden from them, refused as a chat that does not exist; one that
        # lets non-members read is seen, and refused as any chat they may not write in.
        (PRIVATE, None, NO_SUCH_CHAT),
        ({**PRIVATE, "is_read_allowed": True}, None, CANNOT_SEND),
        (ADMINS_WRITE, 10, None),
        (ADMINS_WRITE, 15, CANNOT_SEND),
        (ADMINS_WRITE, 20, CANNOT_SEND),
        (PUBLIC, None, None),  # anyone signed in writes in a public session
        (PUBLIC, 20, None),
        (PUBLIC, 30, CANNOT_SEND),
        (PUBLIC, 40, CANNOT_SEND),
        ({**PRIVATE, "is_inactive": True}, 10, CANNOT_SEND),
    ],
)
def test_chat_messages_follow_membership_and_write_permission(session, user_type, refusal):
    assert posting_refusal(session, user_type, MESSAGE_TYPE_CHAT) == refusal


@pytest.mark.parametrize(
    ("user_type", "refusal"),
    [(10, None), (15, BANNER_ADMINS_ONLY), (20, BANNER_ADMINS_ONLY), (None, BANNER_ADMINS_ONLY)],
)
def test_only_admins_post_banners(user_type, refusal):
    assert posting_refusal(PUBLIC, user_type, MESSAGE_TYPE_BANNER) == refusal


def test_not_even_an_admin_posts_a_banner_in_an_inactive_session():
    inactive = {**PUBLIC, "is_inactive": True}
    assert posting_refusal(inactive, 10, MESSAGE_TYPE_BANNER) == CANNOT_SEND


def test_system_notices_are_not_bound_by_membership():
    assert posting_refusal(PRIVATE, None, MESSAGE_TYPE_SYSTEM) is None


BUSINESS = {"kind": "business", "is_public": False, "write_permission": 15}


@pytest.mark.parametrize(
    ("session", "user_type", "message_type", "refusal"),
    [
        (BUSINESS, 10, 1018, None),
        (BUSINESS, 15, 1019, None),
        (BUSINESS, 15, 1021, None),
        (BUSINESS, 20, 1018, CANNOT_SEND),
        (BUSINESS, None, 1018, NO_SUCH_CHAT),
        (PRIVATE, None, 1018, NO_SUCH_CHAT),
        ({**BUSINESS, "is_inactive": True}, 10, 1018, CANNOT_SEND),
        (BUSINESS, 10, MESSAGE_TYPE_CHAT, WHATSAPP_ONLY),
        (BUSINESS, 10, MESSAGE_TYPE_BANNER, WHATSAPP_ONLY),
        (BUSINESS, None, 1020, None),  # the customer's, stored by the webhooks' service
        (PRIVATE, 10, 1018, BUSINESS_ONLY),
        (PUBLIC, 10, 1021, BUSINESS_ONLY),
    ],
)
def test_business_chats_take_whatsapp_replies_from_agents_only(
    session, user_type, message_type, refusal
):
    assert posting_refusal(session, user_type, message_type) == refusal


def test_a_session_tells_it_has_no_message_only_when_counted_and_empty():
    assert has_no_messages({"_id": "s", "announced_seq": 0})
    assert not has_no_messages({"_id": "s", "announced_seq": 0, "message_seq": 3})
    # Stored before sessions were counted: it cannot tell (its messages are read).
    assert not has_no_messages({"_id": "s"})
