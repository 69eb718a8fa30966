"""The kinds WhatsApp brings to the chat (`core.message_kinds`): the agents' replies (1018
text, 1019 rich, 1021 template), the customer's messages (1020), and the business chats they
are exchanged in. The 1022 status update is no stored message: it is announced to the chat's
room by WhatsApp's statuses (`wa_status`), so it has no message kind."""

from typing import Any

from agora.core.chat.access import CANNOT_SEND
from agora.core.chat.constants import USER_TYPE_MODERATOR
from agora.core.message_kinds import ConversationKind, MessageKind
from agora.core.whatsapp.constants import MESSAGE_TYPE_WA_INBOUND, SESSION_KIND_BUSINESS
from agora.core.whatsapp.outbound import SENT_DATA, WA_MESSAGE_TYPES, check_agent_send
from agora.core.whatsapp.statuses import whatsapp_info

WHATSAPP_ONLY = "Reply to a WhatsApp customer with a WhatsApp message"
BUSINESS_ONLY = "WhatsApp messages go to business chats only"


def is_business_agent(user_type: int | None) -> bool:
    """A group's admins and moderators answer its WhatsApp customers."""
    return user_type is not None and user_type <= USER_TYPE_MODERATOR


def agent_refusal(session: dict[str, Any], user_type: int | None) -> str | None:
    """An agent's reply goes to an active business chat only."""
    if session.get("kind") != SESSION_KIND_BUSINESS:
        return BUSINESS_ONLY
    is_agent = is_business_agent(user_type)
    return None if is_agent and not session.get("is_inactive") else CANNOT_SEND


def check_agent_message(
    message_type: int, text: str, attachments: list[str], location: Any, data: Any
) -> tuple[None, dict[str, Any]]:
    """Its fields travel in `data` (a location too): `check_agent_send` keeps them."""
    return None, check_agent_send(message_type, text, attachments, data)


def flags_view(message: dict[str, Any]) -> dict[str, Any]:
    """The flags WhatsApp reported: the reply's ticks come from them."""
    return {"info": whatsapp_info(message.get("info"))}


def flags_info(message: dict[str, Any]) -> dict[str, Any]:
    """The message info view's part: the flags WhatsApp reported, each with its time."""
    flags = whatsapp_info(message.get("info"))
    return {"whatsapp": flags} if flags else {}


WHATSAPP_MESSAGE_KINDS = (
    *(
        MessageKind(
            message_type,
            data=SENT_DATA[message_type],
            check=check_agent_message,
            refusal=agent_refusal,
            view=flags_view,
            info=flags_info,
            # Its delivery is WhatsApp's to tell (the flags), not the other agents'.
            member_receipts=False,
        )
        for message_type in WA_MESSAGE_TYPES
    ),
    # The customer is no user: their messages are posted by the webhooks' processing.
    MessageKind(MESSAGE_TYPE_WA_INBOUND, by_service=True),
)

BUSINESS_CHATS = ConversationKind(
    SESSION_KIND_BUSINESS,
    takes=frozenset(WA_MESSAGE_TYPES),
    refused=WHATSAPP_ONLY,
    # The customer and the reply window (never a channel's secret).
    view_data=("whatsapp",),
    # WhatsApp's flags and the customer's reactions move its messages after they are stored.
    changes_after_stored=True,
)
