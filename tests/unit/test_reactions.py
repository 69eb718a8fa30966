"""The rules of reactions: one offered emoji per person per message, from members who may post
in the chat, on messages that are someone's."""

import pytest

from agora.composition.base import chat_kinds
from agora.core.chat.access import CANNOT_SEND, NO_SUCH_CHAT
from agora.core.chat.constants import (
    MESSAGE_TYPE_BANNER,
    MESSAGE_TYPE_CHAT,
    MESSAGE_TYPE_SYSTEM,
    USER_TYPE_ADMIN,
    USER_TYPE_AWAITING_APPROVAL,
    USER_TYPE_BLOCKED,
    USER_TYPE_BLOCKED_REVERSIBLE,
    USER_TYPE_MEMBER,
    USER_TYPE_MODERATOR,
)
from agora.core.errors import InvalidInput
from agora.core.reactions import (
    EMOJI_NOT_OFFERED,
    MEMBERS_REACT,
    REACTION_EMOJIS,
    REACTION_QUICK,
    check_emoji,
    reaction_refusal,
    reactions_of,
    takes_reactions,
)
from agora.core.whatsapp.constants import SESSION_KIND_BUSINESS

KINDS = chat_kinds()
PRIVATE_GROUP = {"_id": "g", "kind": 0, "write_permission": USER_TYPE_MEMBER}
PUBLIC_GROUP = {**PRIVATE_GROUP, "is_public": True}
READ_ALLOWED = {**PRIVATE_GROUP, "is_read_allowed": True}
ADMINS_WRITE = {**PRIVATE_GROUP, "write_permission": USER_TYPE_ADMIN}
BUSINESS_CHAT = {"_id": "wa_c_1", "kind": SESSION_KIND_BUSINESS, "write_permission": 15}


def test_the_quick_set_leads_the_offered_emoji_each_once():
    assert REACTION_EMOJIS[: len(REACTION_QUICK)] == REACTION_QUICK
    assert len(set(REACTION_EMOJIS)) == len(REACTION_EMOJIS)


@pytest.mark.parametrize("emoji", [*REACTION_QUICK, "🎉", ""])
def test_an_offered_emoji_or_none_is_taken(emoji):
    assert check_emoji(emoji) == emoji


@pytest.mark.parametrize("emoji", ["🦄", "hello", "👍👍", "👍🏽", "❤", " 👍"])
def test_anything_else_is_refused_as_the_emoji(emoji):
    with pytest.raises(InvalidInput) as refused:
        check_emoji(emoji)
    assert refused.value.errors == {"emoji": EMOJI_NOT_OFFERED}


@pytest.mark.parametrize(
    ("session", "user_type", "refusal"),
    [
        (PRIVATE_GROUP, USER_TYPE_ADMIN, None),
        (PRIVATE_GROUP, USER_TYPE_MODERATOR, None),
        (PRIVATE_GROUP, USER_TYPE_MEMBER, None),
        (PRIVATE_GROUP, USER_TYPE_BLOCKED_REVERSIBLE, CANNOT_SEND),
        (PRIVATE_GROUP, USER_TYPE_AWAITING_APPROVAL, CANNOT_SEND),
        (PRIVATE_GROUP, USER_TYPE_BLOCKED, CANNOT_SEND),
        # A stranger, or a former member: the chat is hidden from them, as if it did not exist.
        (PRIVATE_GROUP, None, NO_SUCH_CHAT),
        (READ_ALLOWED, None, CANNOT_SEND),
        # Anyone may post in a public group, but only its members react.
        (PUBLIC_GROUP, None, MEMBERS_REACT),
        (PUBLIC_GROUP, USER_TYPE_MEMBER, None),
        (PUBLIC_GROUP, USER_TYPE_BLOCKED, CANNOT_SEND),
        # Where only admins write, only admins react.
        (ADMINS_WRITE, USER_TYPE_MEMBER, CANNOT_SEND),
        (ADMINS_WRITE, USER_TYPE_ADMIN, None),
        ({**PRIVATE_GROUP, "is_inactive": True}, USER_TYPE_ADMIN, CANNOT_SEND),
    ],
)
def test_who_may_react_is_who_may_post_among_members(session, user_type, refusal):
    assert reaction_refusal(KINDS, session, user_type) == refusal


def test_a_business_chats_agents_do_not_react_where_the_customer_would_never_see_it():
    assert reaction_refusal(KINDS, BUSINESS_CHAT, USER_TYPE_ADMIN) is not None


@pytest.mark.parametrize(
    ("message_type", "takes"),
    [(MESSAGE_TYPE_CHAT, True), (MESSAGE_TYPE_BANNER, True), (MESSAGE_TYPE_SYSTEM, False)],
)
def test_notices_take_no_reactions(message_type, takes):
    assert takes_reactions({"type": message_type}) is takes


def test_a_messages_reactions_are_read_from_its_data():
    assert reactions_of({"data": {"reactions": {"u1": "👍"}}}) == {"u1": "👍"}
    assert reactions_of({"data": {"context": {"reply_to": 4}}}) == {}
    assert reactions_of({}) == {}
