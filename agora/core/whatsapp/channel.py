"""A group's WhatsApp channel: what connecting it takes, and what its admins are shown.

The channel's secrets (access token, app secret, verify token) are kept sealed and never
leave the server: the view says only whether each is set."""

import re
from dataclasses import dataclass
from typing import Any

from agora.core.whatsapp.constants import WHATSAPP_ID_MAX_LENGTH, WHATSAPP_SECRET_MAX_LENGTH

SECRET_FIELDS = ("access_token", "app_secret", "verify_token")
ID_FIELDS = ("phone_number_id", "business_account_id")
WEBHOOK_PATH = "/webhooks/whatsapp"
# Meta's object ids are decimal digits.
META_ID = re.compile(r"[0-9]+")
# Tokens are printable ASCII without spaces (what Meta issues, and what a header can carry).
TOKEN = re.compile(r"[\x21-\x7e]+")
REQUIRED = "This field is required"


@dataclass(frozen=True)
class ChannelKeys:
    """A channel's secrets, opened; they stay in the server's memory."""

    access_token: str
    app_secret: str
    verify_token: str


def check_connect(
    fields: dict[str, str | None], connected: bool
) -> tuple[dict[str, str], dict[str, str]]:
    """The fields to store (trimmed; a secret left empty on an already connected channel is
    kept, so not returned) and the errors, per field."""
    kept: dict[str, str] = {}
    errors: dict[str, str] = {}
    for name in ID_FIELDS:
        value = (fields.get(name) or "").strip()
        if not value:
            errors[name] = REQUIRED
        elif len(value) > WHATSAPP_ID_MAX_LENGTH or not META_ID.fullmatch(value):
            errors[name] = f"Digits only, at most {WHATSAPP_ID_MAX_LENGTH}"
        else:
            kept[name] = value
    for name in SECRET_FIELDS:
        value = (fields.get(name) or "").strip()
        if not value:
            if not connected:
                errors[name] = REQUIRED
        elif len(value) > WHATSAPP_SECRET_MAX_LENGTH or not TOKEN.fullmatch(value):
            errors[name] = (
                f"Printable characters without spaces, at most {WHATSAPP_SECRET_MAX_LENGTH}"
            )
        else:
            kept[name] = value
    return kept, errors


def channel_view(channel: dict[str, Any] | None, public_base_url: str) -> dict[str, Any]:
    if channel is None:
        return {"channel": None}
    view = {
        key: channel.get(key)
        for key in (
            "_id",
            "group_id",
            "phone_number_id",
            "business_account_id",
            "display_phone_number",
            "enabled",
            "created_at",
            "updated_at",
            "last_event_at",
            "templates_synced_at",
        )
    }
    # Stored as a bool, but nx-27017 may hand one back as 0/1 after an update.
    view["enabled"] = bool(channel.get("enabled"))
    view["webhook_url"] = f"{public_base_url.rstrip('/')}{WEBHOOK_PATH}"
    for name in SECRET_FIELDS:
        view[f"has_{name}"] = bool(channel.get("secrets", {}).get(name))
    return {"channel": view}


def secret_place(channel_id: str, name: str) -> str:
    """Where a sealed secret is kept: it opens only there (see core/sealing.py)."""
    return f"whatsapp_channels/{channel_id}/{name}"
