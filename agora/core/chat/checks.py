"""A message as a member sends it, checked on its own (Zulip's `check_*` of an action): its
text, files, shared place and the message it answers; the chat's own message kinds."""

from dataclasses import dataclass
from typing import Annotated, Any, NoReturn

from pydantic import WithJsonSchema

from agora.core.chat.access import banner_refusal
from agora.core.chat.constants import (
    CHAT_ATTACHMENTS_MAX,
    LOCAL_ID_MAX_LENGTH,
    LOCATION_ADDRESS_MAX_LENGTH,
    MESSAGE_TEXT_MAX_LENGTH,
    MESSAGE_TYPE_BANNER,
    MESSAGE_TYPE_CHAT,
    MESSAGE_TYPE_SYSTEM,
)
from agora.core.errors import InvalidInput
from agora.core.geo import COORDINATE_LIMITS, check_coordinate
from agora.core.mentions import Mentions, check_mentions
from agora.core.message_kinds import ChatKinds, KindData, MessageKind
from agora.core.text import CONTROL_CHARACTERS, without_format_characters

NOT_IN_THIS_CHAT = "The message answered is not in this chat"


@dataclass(frozen=True)
class Outgoing:
    """A message as a member sends it, validated."""

    session_id: str
    src_id: str
    local_id: str
    type: int
    payload: str
    attachments: tuple[str, ...]
    client_created_at: int | None
    # Spec section 3, Location: {address, latitude, longitude}, kept as `data.location`.
    location: dict[str, Any] | None = None
    # A plug-in kind's `data` as it is stored (its `MessageKind.check`).
    data: dict[str, Any] | None = None


LOCATION_KEYS = {"address", "latitude", "longitude"}


def check_location(raw: Any) -> dict[str, Any]:
    """A shared place: an address as the sender wrote it, and where it is on the map."""
    if not isinstance(raw, dict):
        raise InvalidInput({"location": "Send a location as {address, latitude, longitude}"})
    unknown = sorted(set(raw) - LOCATION_KEYS)
    if unknown:
        raise InvalidInput({"location": f"Unknown field '{unknown[0]}'"})
    address = raw.get("address")
    if not isinstance(address, str) or not address.strip():
        raise InvalidInput({"location": "Enter an address"})
    address = without_format_characters(address).strip()
    if len(address) > LOCATION_ADDRESS_MAX_LENGTH:
        raise InvalidInput({"location": f"At most {LOCATION_ADDRESS_MAX_LENGTH} characters"})
    if CONTROL_CHARACTERS.search(address):
        raise InvalidInput({"location": "The address contains characters that are not allowed"})
    location: dict[str, Any] = {"address": address}
    for name in COORDINATE_LIMITS:
        location[name] = check_coordinate(name, raw.get(name), "location")
    return location


def checked_text(payload: str) -> str:
    """A message's text as stored: format characters dropped, trimmed, its length and
    characters checked (a send's, and an edit's)."""
    text = without_format_characters(payload).strip()
    if len(text) > MESSAGE_TEXT_MAX_LENGTH:
        raise InvalidInput({"payload": f"At most {MESSAGE_TEXT_MAX_LENGTH} characters"})
    if CONTROL_CHARACTERS.search(text):
        raise InvalidInput({"payload": "Contains characters that are not allowed"})
    return text


def check_outgoing(
    kinds: ChatKinds,
    *,
    session_id: str,
    src_id: str,
    local_id: str,
    message_type: int,
    payload: str,
    attachments: list[str],
    client_created_at: int | None,
    location: Any = None,
    data: Any = None,
) -> Outgoing:
    """The message as sent, checked on its own; whether the sender may post it in the session
    is the shard's to say (`posting_refusal`), with the session's current members at hand.
    What the message carries besides its text and files is its kind's to check."""
    if not local_id or len(local_id) > LOCAL_ID_MAX_LENGTH:
        raise InvalidInput(
            {"local_id": f"Give each message an id of 1-{LOCAL_ID_MAX_LENGTH} chars"}
        )
    text = checked_text(payload)
    if len(attachments) > CHAT_ATTACHMENTS_MAX:
        raise InvalidInput({"payload1": "You can only send upto 3 attachments"})
    check = kinds.message(message_type).check or refuse_unsendable
    location, data = check(message_type, text, attachments, location, data)
    return Outgoing(
        session_id=session_id,
        src_id=src_id,
        local_id=local_id,
        type=message_type,
        payload=text,
        attachments=tuple(attachments),
        client_created_at=client_created_at,
        location=location,
        data=data,
    )


def check_reply_context(raw: Any) -> dict[str, Any]:
    """A reply's `data.context`: `reply_to` is the created_at of the message it answers (that
    it is a message of the same chat, the sender's service looks up)."""
    if raw is None:
        return {}
    if not isinstance(raw, dict) or set(raw) - {"reply_to"}:
        raise InvalidInput({"context": "Send a context as {reply_to}"})
    reply_to = raw.get("reply_to")
    if not isinstance(reply_to, int) or isinstance(reply_to, bool) or reply_to <= 0:
        raise InvalidInput({"context": "reply_to is the created_at of a message"})
    return {"context": {"reply_to": reply_to}}


def reply_to_of(data: dict[str, Any] | None) -> int | None:
    """The created_at of the message a message answers, if it answers one."""
    return ((data or {}).get("context") or {}).get("reply_to")


# What a reply's `data.context` is (`check_reply_context`), for the API document.
ReplyContext = Annotated[
    Any,
    WithJsonSchema(
        {
            "type": "object",
            "properties": {
                "reply_to": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "The created_at of the message of the same chat it answers",
                }
            },
            "required": ["reply_to"],
            "additionalProperties": False,
        }
    ),
]


# A shared place (`check_location`).
Location = Annotated[
    Any,
    WithJsonSchema(
        {
            "type": "object",
            "properties": {
                "address": {"type": "string", "maxLength": LOCATION_ADDRESS_MAX_LENGTH},
                **{
                    name: {"type": "number", "minimum": -limit, "maximum": limit}
                    for name, limit in COORDINATE_LIMITS.items()
                },
            },
            "required": ["address", *COORDINATE_LIMITS],
            "additionalProperties": False,
        }
    ),
]


class ChatMessageData(KindData):
    """A chat message (1003) carries a shared place (its text is optional then), a reply
    the message it answers, and the members it mentions."""

    location: Location = None
    context: ReplyContext = None
    mentions: Mentions = None


class BannerData(KindData):
    """A banner (1100, a group's admins') carries, as a reply, the message it answers, and
    the members it mentions."""

    context: ReplyContext = None
    mentions: Mentions = None


def check_member_extras(
    message_type: int, text: str, attachments: list[str], location: Any, data: Any
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """A chat or banner message's checked location, and the message it answers (`data.context`)
    and the members it mentions (`data.mentions`) as its `data`; its kind's shape
    (`ChatMessageData`, `BannerData`) let nothing else in."""
    if location is not None:
        if message_type != MESSAGE_TYPE_CHAT:
            raise InvalidInput({"location": "Only chat messages carry a location"})
        location = check_location(location)
    if not text and not attachments and location is None:
        raise InvalidInput({"payload": "Write a message, attach a file or share a location"})
    data = data or {}
    checked = check_reply_context(data.get("context")) | check_mentions(data.get("mentions"))
    return location, checked or None


def refuse_unsendable(
    message_type: int, text: str, attachments: list[str], location: Any, data: Any
) -> NoReturn:
    """A type members may not send (a notice, or a type no kind has): refused once the
    member's checks have spoken, as they are for any message."""
    check_member_extras(message_type, text, attachments, location, data)
    raise InvalidInput({"_type": "Unsupported message type"})


# The chat's own kinds; features bring theirs (`core.message_kinds`).
CHAT_MESSAGE_KINDS = (
    MessageKind(MESSAGE_TYPE_CHAT, data=ChatMessageData, check=check_member_extras),
    MessageKind(
        MESSAGE_TYPE_BANNER, data=BannerData, check=check_member_extras, refusal=banner_refusal
    ),
    # Notices (joins, offers) are not pushed: offers have a push of their own.
    MessageKind(MESSAGE_TYPE_SYSTEM, by_service=True, pushed=False),
)
