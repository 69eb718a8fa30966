"""Webhooks as Meta sends them: the body shapes of the WhatsApp Cloud API's `messages` field
(customers' messages of each type, statuses of ours) and their `X-Hub-Signature-256`."""

import base64
import hashlib
import hmac
import json
import secrets
import time
from typing import Any

SIGNATURE_HEADER = "X-Hub-Signature-256"


def sign(raw: bytes, app_secret: str) -> dict[str, str]:
    """The header Meta adds: `sha256=` and the HMAC-SHA256 of the raw body with the app secret."""
    digest = hmac.new(app_secret.encode(), raw, hashlib.sha256).hexdigest()
    return {SIGNATURE_HEADER: f"sha256={digest}"}


def new_wamid() -> str:
    return f"wamid.{base64.b64encode(secrets.token_bytes(30)).decode()}"


def webhook(
    phone_number_id: str,
    business_account_id: str = "102290129340398",
    *,
    messages: list[dict] = (),
    contacts: list[dict] = (),
    statuses: list[dict] = (),
    display_phone_number: str = "15550100",
) -> dict[str, Any]:
    """One entry with one `messages` change, as Meta batches them."""
    value: dict[str, Any] = {
        "messaging_product": "whatsapp",
        "metadata": {
            "display_phone_number": display_phone_number,
            "phone_number_id": phone_number_id,
        },
    }
    if contacts:
        value["contacts"] = list(contacts)
    if messages:
        value["messages"] = list(messages)
    if statuses:
        value["statuses"] = list(statuses)
    return {
        "object": "whatsapp_business_account",
        "entry": [{"id": business_account_id, "changes": [{"value": value, "field": "messages"}]}],
    }


def contact(wa_id: str, name: str) -> dict[str, Any]:
    return {"profile": {"name": name}, "wa_id": wa_id}


def message(wa_id: str, kind: str, content: Any, *, wamid: str | None = None, **extra) -> dict:
    """A customer's message: `kind` is Meta's type, `content` what goes under that key."""
    return {
        "from": wa_id,
        "id": wamid or new_wamid(),
        "timestamp": str(int(time.time())),
        "type": kind,
        **({kind: content} if content is not None else {}),
        **extra,
    }


def text(wa_id: str, body: str, **extra) -> dict:
    return message(wa_id, "text", {"body": body}, **extra)


def media(wa_id: str, kind: str, media_id: str, mime_type: str, **fields) -> dict:
    """image/audio/video/document/sticker; `fields`: caption, filename, voice, animated."""
    sha = hashlib.sha256(media_id.encode()).hexdigest()
    return message(wa_id, kind, {"id": media_id, "mime_type": mime_type, "sha256": sha, **fields})


def location(wa_id: str, latitude: float, longitude: float, name="", address="") -> dict:
    content = {"latitude": latitude, "longitude": longitude, "name": name, "address": address}
    return message(wa_id, "location", content)


def contacts_message(wa_id: str, cards: list[dict]) -> dict:
    return message(wa_id, "contacts", cards)


def interactive_reply(wa_id: str, kind: str, reply_id: str, title: str, description=None) -> dict:
    """`kind`: button_reply or list_reply (a list row has a description)."""
    reply = {"id": reply_id, "title": title}
    if description is not None:
        reply["description"] = description
    return message(wa_id, "interactive", {"type": kind, kind: reply})


def button(wa_id: str, text_: str, payload: str, reply_to: str) -> dict:
    """A quick-reply button of a template was tapped."""
    context = {"from": "15550100", "id": reply_to}
    return message(wa_id, "button", {"text": text_, "payload": payload}, context=context)


def reaction(wa_id: str, message_id: str, emoji: str) -> dict:
    return message(wa_id, "reaction", {"message_id": message_id, "emoji": emoji})


def unsupported(wa_id: str) -> dict:
    errors = [
        {
            "code": 131051,
            "title": "Message type unknown",
            "message": "Message type unknown",
            "error_data": {"details": "Message type is currently not supported."},
        }
    ]
    return message(wa_id, "unsupported", None, errors=errors)


def status(
    wamid: str, state: str, recipient_id: str, errors: list[dict] | None = None
) -> dict[str, Any]:
    """A status of one of our messages: sent, delivered, read or failed."""
    found: dict[str, Any] = {
        "id": wamid,
        "status": state,
        "timestamp": str(int(time.time())),
        "recipient_id": recipient_id,
    }
    if state in ("sent", "delivered"):
        found["conversation"] = {
            "id": secrets.token_hex(16),
            "origin": {"type": "service"},
        }
        found["pricing"] = {"billable": True, "pricing_model": "CBP", "category": "service"}
    if errors:
        found["errors"] = errors
    return found


def encoded(body: dict, app_secret: str) -> tuple[bytes, dict[str, str]]:
    """The raw body and the headers of a signed POST, as Meta sends it."""
    raw = json.dumps(body).encode()
    return raw, {"Content-Type": "application/json", **sign(raw, app_secret)}
