"""Meta's webhook bodies (the `messages` field of a WhatsApp Business Account) read into what
we keep: a customer's messages as our message `data`, their reactions, and the statuses of
ours. Everything is read defensively: a field of the wrong type or size is left out, and a
message that cannot be read at all is skipped (counted), never an error."""

import math
import re
from dataclasses import dataclass, field
from typing import Any

from agora.core.chat.constants import LOCATION_ADDRESS_MAX_LENGTH
from agora.core.geo import COORDINATE_LIMITS
from agora.core.text import CONTROL_CHARACTERS
from agora.core.whatsapp.constants import WHATSAPP_ID_MAX_LENGTH
from agora.core.whatsapp.statuses import FLAGS, Status

WEBHOOK_OBJECT = "whatsapp_business_account"
MESSAGES_FIELD = "messages"
# Meta's limits: 4096 characters of text, 1024 of a caption; names and titles are short.
TEXT_MAX_LENGTH = 4096
SHORT_TEXT_MAX_LENGTH = 256
URL_MAX_LENGTH = 2048
WAMID_MAX_LENGTH = 256
MIME_TYPE_MAX_LENGTH = 128
CONTACTS_MAX = 10
CONTACT_ENTRIES_MAX = 10
MEDIA_KINDS = ("image", "audio", "video", "document", "sticker")
INTERACTIVE_REPLIES = ("button_reply", "list_reply")
REFERRAL_KEYS = (
    "source_url",
    "source_id",
    "source_type",
    "headline",
    "body",
    "media_type",
    "image_url",
    "video_url",
    "thumbnail_url",
    "ctwa_clid",
)
WA_ID = re.compile(rf"[0-9]{{1,{WHATSAPP_ID_MAX_LENGTH}}}")
# Message ids are printable ASCII ("wamid." and base64).
WAMID = re.compile(rf"[\x21-\x7e]{{1,{WAMID_MAX_LENGTH}}}")
MEDIA_ID = re.compile(rf"[0-9A-Za-z_.-]{{1,{WAMID_MAX_LENGTH}}}")
# Timestamps (seconds) between 2001 and 2286, as the chat's client times.
TIMESTAMP_MIN, TIMESTAMP_MAX = 1_000_000_000, 9_999_999_999

WA_ERRORS_MAX = 5
ERROR_TEXT_MAX = 500


@dataclass(frozen=True)
class MediaRef:
    """A file the customer sent, to be fetched by id from the Graph API."""

    media_id: str
    mime_type: str
    title: str


@dataclass(frozen=True)
class Reaction:
    """An emoji on a message of the chat (ours or theirs); empty takes it away."""

    message_wamid: str
    emoji: str


@dataclass(frozen=True)
class InboundMessage:
    wa_id: str
    wamid: str
    kind: str  # Meta's type: text, image, ..., reaction, unsupported
    at: int  # ms, Meta's time of the message
    text: str
    data: dict[str, Any]
    media: MediaRef | None = None
    reaction: Reaction | None = None


@dataclass
class Change:
    """One `messages` change: what arrived for one business number."""

    phone_number_id: str
    profiles: dict[str, str] = field(default_factory=dict)  # wa_id -> profile name
    messages: list[InboundMessage] = field(default_factory=list)
    statuses: list[dict[str, Any]] = field(default_factory=list)
    skipped: int = 0


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def clean_text(value: Any, max_length: int = SHORT_TEXT_MAX_LENGTH) -> str:
    """Text as the customer wrote it, without control characters (line breaks stay)."""
    if not isinstance(value, str):
        return ""
    return CONTROL_CHARACTERS.sub("", value)[:max_length].strip()


def _matching(pattern: re.Pattern, value: Any) -> str | None:
    return value if isinstance(value, str) and pattern.fullmatch(value) else None


def _coordinate(name: str, value: Any) -> float | None:
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if not number or not math.isfinite(value) or abs(value) > COORDINATE_LIMITS[name]:
        return None
    return float(value)


def parse_webhook(body: Any) -> list[Change]:
    """The `messages` changes of a webhook body, one per business number and change."""
    if not isinstance(body, dict) or body.get("object") != WEBHOOK_OBJECT:
        return []
    changes = []
    for entry in _list(body.get("entry")):
        for change in _list(_dict(entry).get("changes")):
            change = _dict(change)
            if change.get("field") != MESSAGES_FIELD:
                continue
            parsed = parse_change(_dict(change.get("value")))
            if parsed is not None:
                changes.append(parsed)
    return changes


def parse_change(value: dict[str, Any]) -> Change | None:
    number = _dict(value.get("metadata")).get("phone_number_id")
    if not isinstance(number, str) or not number.isdigit():
        return None
    change = Change(number)
    for found in _list(value.get("contacts")):
        found = _dict(found)
        wa_id = _matching(WA_ID, found.get("wa_id"))
        name = clean_text(_dict(found.get("profile")).get("name"))
        if wa_id and name:
            change.profiles[wa_id] = name
    for raw in _list(value.get("messages")):
        message = parse_message(_dict(raw))
        if message is None:
            change.skipped += 1
        else:
            change.messages.append(message)
    change.statuses = [
        status
        for status in map(_dict, _list(value.get("statuses")))
        if _matching(WAMID, status.get("id")) and isinstance(status.get("status"), str)
    ]
    return change


def parse_message(raw: dict[str, Any]) -> InboundMessage | None:
    wa_id = _matching(WA_ID, raw.get("from"))
    wamid = _matching(WAMID, raw.get("id"))
    kind = raw.get("type")
    timestamp = raw.get("timestamp")
    if not (wa_id and wamid and isinstance(kind, str) and isinstance(timestamp, str)):
        return None
    if not timestamp.isdigit() or not TIMESTAMP_MIN <= int(timestamp) <= TIMESTAMP_MAX:
        return None
    kind = clean_text(kind, 32) or "unsupported"
    content = _dict(raw.get(kind))
    at = int(timestamp) * 1000
    # When the customer sent it: shown with it, since Meta may deliver it much later.
    data: dict[str, Any] = {"wa": {"wamid": wamid, "kind": kind, "sent_at": at}}
    text, media, reaction = "", None, None
    if kind == "text":
        text = clean_text(content.get("body"), TEXT_MAX_LENGTH)
    elif kind in MEDIA_KINDS:
        media = _media(content)
        text = clean_text(content.get("caption"), TEXT_MAX_LENGTH)
        if media is None:
            data["media_error"] = "The file is missing from WhatsApp's message"
    elif kind == "location":
        location = _location(content)
        if location is None:
            return None
        data["location"] = location
    elif kind == "contacts":
        data["contacts"] = _contacts(raw.get("contacts"))
    elif kind == "interactive":
        data["interactive"] = _interactive(content)
        text = data["interactive"].get("title", "")
    elif kind == "button":
        text = clean_text(content.get("text"))
        data["button"] = {"payload": clean_text(content.get("payload"))}
    elif kind == "reaction":
        target = _matching(WAMID, content.get("message_id"))
        if target is None:
            return None
        reaction = Reaction(target, clean_text(content.get("emoji"), 16))
    else:
        data["wa"]["errors"] = _errors(raw.get("errors"))
    if text:
        data["txt"] = text
    for name, kept in (("referral", _referral(raw)), ("context", _context(raw))):
        if kept:
            data[name] = kept
    return InboundMessage(wa_id, wamid, kind, at, text, data, media, reaction)


def _media(content: dict[str, Any]) -> MediaRef | None:
    media_id = _matching(MEDIA_ID, content.get("id"))
    if media_id is None:
        return None
    mime_type = clean_text(content.get("mime_type"), MIME_TYPE_MAX_LENGTH).lower()
    return MediaRef(media_id, mime_type, clean_text(content.get("filename")))


def _location(content: dict[str, Any]) -> dict[str, Any] | None:
    latitude = _coordinate("latitude", content.get("latitude"))
    longitude = _coordinate("longitude", content.get("longitude"))
    if latitude is None or longitude is None:
        return None
    return {
        "latitude": latitude,
        "longitude": longitude,
        "address": clean_text(content.get("address"), LOCATION_ADDRESS_MAX_LENGTH),
        "name": clean_text(content.get("name")),
    }


def _contacts(raw: Any) -> list[dict[str, Any]]:
    """Meta's contact cards, kept to the name, phones, emails and company."""
    kept = []
    for card in map(_dict, _list(raw)[:CONTACTS_MAX]):
        phones = [
            {"phone": clean_text(p.get("phone")), "type": clean_text(p.get("type"))}
            for p in map(_dict, _list(card.get("phones"))[:CONTACT_ENTRIES_MAX])
            if clean_text(p.get("phone"))
        ]
        emails = [
            {"email": clean_text(e.get("email")), "type": clean_text(e.get("type"))}
            for e in map(_dict, _list(card.get("emails"))[:CONTACT_ENTRIES_MAX])
            if clean_text(e.get("email"))
        ]
        kept.append(
            {
                "name": {
                    "formatted_name": clean_text(_dict(card.get("name")).get("formatted_name"))
                },
                "phones": phones,
                "emails": emails,
                "org": {"company": clean_text(_dict(card.get("org")).get("company"))},
            }
        )
    return kept


def _interactive(content: dict[str, Any]) -> dict[str, Any]:
    """A customer's tap on our buttons or list: which one (`id`) and what it said."""
    kind = content.get("type")
    if kind not in INTERACTIVE_REPLIES:
        return {"type": clean_text(kind, 32)}
    reply = _dict(content.get(kind))
    kept = {
        "type": kind,
        "id": clean_text(reply.get("id")),
        "title": clean_text(reply.get("title")),
    }
    if "description" in reply:
        kept["description"] = clean_text(reply.get("description"))
    return kept


def _referral(raw: dict[str, Any]) -> dict[str, str]:
    """The ad or post the customer came from (click-to-WhatsApp)."""
    referral = _dict(raw.get("referral"))
    return {
        key: clean_text(referral[key], URL_MAX_LENGTH)
        for key in REFERRAL_KEYS
        if isinstance(referral.get(key), str)
    }


def _context(raw: dict[str, Any]) -> dict[str, Any]:
    """What the message answers (one of the chat's messages) or that it was forwarded."""
    context = _dict(raw.get("context"))
    kept: dict[str, Any] = {}
    reply_to = _matching(WAMID, context.get("id"))
    if reply_to:
        kept["reply_to_wamid"] = reply_to
    for flag in ("forwarded", "frequently_forwarded"):
        if context.get(flag) is True:
            kept[flag] = True
    return kept


def _errors(raw: Any) -> list[dict[str, Any]]:
    return [
        {
            "code": error.get("code") if isinstance(error.get("code"), int) else 0,
            "title": clean_text(error.get("title")),
        }
        for error in map(_dict, _list(raw)[:CONTACT_ENTRIES_MAX])
    ]


def parse_status(raw: Any) -> Status | None:
    """Meta's status object (`{id, status, timestamp, recipient_id, errors}`); None when it
    is not one we track (Meta adds kinds, e.g. "deleted" or "warning")."""
    if not isinstance(raw, dict):
        return None
    wamid, status, timestamp = raw.get("id"), raw.get("status"), raw.get("timestamp")
    if not isinstance(wamid, str) or not wamid or status not in FLAGS:
        return None
    try:
        at = int(timestamp) * 1000
    except (TypeError, ValueError):
        return None
    errors = raw.get("errors") if isinstance(raw.get("errors"), list) else []
    return Status(wamid, status, at, tuple(error_view(e) for e in errors[:WA_ERRORS_MAX]))


def error_view(raw: Any) -> dict[str, Any]:
    """An error as agents see it: Meta's code, title and message (details when no message)."""
    error = raw if isinstance(raw, dict) else {}
    code = error.get("code")
    data = error.get("error_data") if isinstance(error.get("error_data"), dict) else {}
    message = error.get("message") or data.get("details") or ""
    return {
        "code": code if isinstance(code, int) and not isinstance(code, bool) else 0,
        "title": str(error.get("title") or "")[:ERROR_TEXT_MAX],
        "message": str(message)[:ERROR_TEXT_MAX],
    }
