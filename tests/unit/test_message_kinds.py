"""Generic chat knows a message type only through the kinds registered for it: WhatsApp's
come with the registry the composition root fills, and without them chat treats them as
any type it does not know."""

import pickle

import pytest

from agora.composition.base import chat_kinds
from agora.core.chat.access import posting_refusal
from agora.core.chat.checks import CHAT_MESSAGE_KINDS, check_outgoing
from agora.core.chat.constants import MESSAGE_TYPE_CHAT
from agora.core.chat.views import message_view, session_view
from agora.core.errors import InvalidInput
from agora.core.message_kinds import ChatKinds, MessageKind
from agora.core.whatsapp.constants import MESSAGE_TYPE_WA_TEXT, SESSION_KIND_BUSINESS

CHAT_ONLY = ChatKinds(CHAT_MESSAGE_KINDS)
AGENT_REPLY = {
    "_id": "m1",
    "dest_session_id": "wa_c_1",
    "src_id": "u1",
    "created_at": 5,
    "type": MESSAGE_TYPE_WA_TEXT,
    "payload": "Hello",
    "info": {"s1": 3, "wa_d": 4, "wa_q": 1},
}
BUSINESS_CHAT = {
    "_id": "wa_c_1",
    "kind": SESSION_KIND_BUSINESS,
    "write_permission": 15,
    "data": {"whatsapp": {"wa_id": "1"}},
}


def _send(kinds: ChatKinds, message_type: int, data: dict | None = None):
    return check_outgoing(
        kinds,
        session_id="s",
        src_id="u",
        local_id="l",
        message_type=message_type,
        payload="Hello",
        attachments=[],
        client_created_at=None,
        data=data,
    )


def test_a_registered_kind_adds_to_the_view_and_an_unknown_one_adds_nothing():
    assert message_view(AGENT_REPLY, chat_kinds())["info"] == {"s1": 3, "wa_d": 4}
    assert "info" not in message_view(AGENT_REPLY, CHAT_ONLY)


def test_a_kind_checks_what_it_carries_and_without_it_the_type_is_refused():
    assert _send(chat_kinds(), MESSAGE_TYPE_WA_TEXT).data == {"wa": {"kind": "text"}}
    with pytest.raises(InvalidInput) as refused:
        _send(CHAT_ONLY, MESSAGE_TYPE_WA_TEXT)
    assert refused.value.errors == {"_type": "Unsupported message type"}
    assert _send(CHAT_ONLY, MESSAGE_TYPE_CHAT).data is None


def test_a_conversation_kind_is_named_in_its_view_and_shows_its_data():
    view = session_view(BUSINESS_CHAT, None, kinds=chat_kinds())
    assert (view["kind"], view["data"]) == (SESSION_KIND_BUSINESS, {"whatsapp": {"wa_id": "1"}})
    plain = session_view(BUSINESS_CHAT, None, kinds=CHAT_ONLY)
    assert "kind" not in plain and plain["data"] == {}


def test_the_registry_crosses_to_the_shards_as_it_is():
    kinds = pickle.loads(pickle.dumps(chat_kinds()))
    assert posting_refusal(kinds, BUSINESS_CHAT, 15, MESSAGE_TYPE_WA_TEXT) is None
    assert posting_refusal(kinds, BUSINESS_CHAT, 15, MESSAGE_TYPE_CHAT) is not None


def test_a_type_is_registered_once():
    with pytest.raises(ValueError, match="registered twice"):
        ChatKinds([*CHAT_MESSAGE_KINDS, MessageKind(MESSAGE_TYPE_CHAT)])
