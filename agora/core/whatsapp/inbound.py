"""A customer's side of a business chat: who they are in the chat, which chat is theirs, and
how long they may be answered freely. Meta's webhook bodies are read in
`integrations/whatsapp/webhooks.py`."""

from typing import Any

from agora.core.chat.constants import USER_TYPE_MODERATOR
from agora.core.whatsapp.constants import WHATSAPP_WINDOW_MS


def customer_src_id(wa_id: str) -> str:
    """A customer's messages' sender: not a user id (those are ObjectId text), so no user can
    ever pass for a customer, and one customer is the same sender in every chat."""
    return f"wa:{wa_id}"


def business_chat_id(channel_id: str, wa_id: str) -> str:
    return f"wa_{channel_id}_{wa_id}"


def window_ends_at(last_inbound_at: int) -> int:
    return last_inbound_at + WHATSAPP_WINDOW_MS


def business_chat(
    channel: dict[str, Any], wa_id: str, profile_name: str | None, now: int
) -> dict[str, Any]:
    """A new chat between the channel's group's agents (admins and moderators, who may
    write) and one customer, titled with the customer's name (or number)."""
    return {
        "_id": business_chat_id(channel["_id"], wa_id),
        "title": profile_name or f"+{wa_id}",
        "description": "",
        "image": "",
        "is_public": False,
        "is_read_allowed": False,
        "write_permission": USER_TYPE_MODERATOR,
        "created_at": now,
        "updated_at": now,
        "data": {
            "whatsapp": {
                "channel_id": channel["_id"],
                "group_id": channel["group_id"],
                "wa_id": wa_id,
                "profile_name": profile_name or "",
                "last_inbound_at": 0,
                "window_ends_at": 0,
            }
        },
    }
