"""What an agent sends into a business chat: checked against Meta's limits, and stored.
Pure: the services read sessions and templates; the Graph API's request bodies are built in
`integrations/whatsapp/graph.py`.

A message's stored `data` says everything its payload needs, so a send can be built again
from the stored message alone: `data.wa.kind` (Meta's type), the kind's own fields, and for
templates the rendered parts with the parameters they were filled with.
"""

from typing import Annotated, Any

from pydantic import WithJsonSchema

from agora.core.chat.checks import ReplyContext, check_reply_context
from agora.core.errors import InvalidInput
from agora.core.geo import COORDINATE_LIMITS, check_coordinate
from agora.core.message_kinds import KindData
from agora.core.text import clean_text
from agora.core.whatsapp.constants import (
    MESSAGE_TYPE_WA_RICH,
    MESSAGE_TYPE_WA_TEMPLATE,
    MESSAGE_TYPE_WA_TEXT,
    WHATSAPP_BUTTON_TITLE_MAX,
    WHATSAPP_CONTACTS_MAX,
    WHATSAPP_LIST_ROWS_MAX,
    WHATSAPP_MEDIA_TYPES,
    WHATSAPP_REPLY_BUTTONS_MAX,
    WHATSAPP_WINDOW_MS,
)

WA_MESSAGE_TYPES = (MESSAGE_TYPE_WA_TEXT, MESSAGE_TYPE_WA_RICH, MESSAGE_TYPE_WA_TEMPLATE)
FREE_FORM_TYPES = (MESSAGE_TYPE_WA_TEXT, MESSAGE_TYPE_WA_RICH)
WINDOW_CLOSED = "The 24-hour window has closed: send a template"

# Meta's limits (Cloud API reference, "Messages").
CAPTION_MAX = 1024
INTERACTIVE_BODY_MAX = 1024
REPLY_BUTTONS_MAX = WHATSAPP_REPLY_BUTTONS_MAX
BUTTON_TITLE_MAX = WHATSAPP_BUTTON_TITLE_MAX
BUTTON_ID_MAX = 256
LIST_ROWS_MAX = WHATSAPP_LIST_ROWS_MAX
LIST_SECTIONS_MAX = 10
SECTION_TITLE_MAX = 24
ROW_TITLE_MAX = 24
ROW_DESCRIPTION_MAX = 72
ROW_ID_MAX = 200
CONTACTS_MAX = WHATSAPP_CONTACTS_MAX
CONTACT_FIELD_MAX = 256
CONTACT_ENTRIES_MAX = 5
LOCATION_TEXT_MAX = 1000
TEMPLATE_NAME_MAX = 512
TEMPLATE_PARAMETER_MAX = 1024
TEMPLATE_PARAMETERS_MAX = 100

# The media each kind may carry, as Meta accepts them and our uploads store them.
MEDIA_TYPES = WHATSAPP_MEDIA_TYPES
RICH_KINDS = (*MEDIA_TYPES, "location", "contacts", "interactive")
# The parts of a template that take parameters.
PARTS = ("header", "body", "buttons")


# What an agent sends in `data`, by message type: the fields, described for the API document;
# their values are checked by `check_agent_send`, in Meta's words.


def _text(max_length: int) -> dict[str, Any]:
    return {"type": "string", "maxLength": max_length}


def _texts(item: dict[str, Any], max_items: int) -> dict[str, Any]:
    return {"type": "array", "items": item, "maxItems": max_items}


def _object(required: tuple[str, ...], **properties: dict[str, Any]) -> dict[str, Any]:
    shape = {"type": "object", "properties": properties, "additionalProperties": False}
    return {**shape, "required": list(required)} if required else shape


def _described(schema: dict[str, Any]) -> Any:
    return Annotated[Any, WithJsonSchema(schema)]


_CHOICE = _object(("id", "title"), id=_text(BUTTON_ID_MAX), title=_text(BUTTON_TITLE_MAX))
_ROW = _object(
    ("id", "title"),
    id=_text(ROW_ID_MAX),
    title=_text(ROW_TITLE_MAX),
    description=_text(ROW_DESCRIPTION_MAX),
)
_CONTACT = _object(
    ("name",),
    name=_object(("formatted_name",), formatted_name=_text(CONTACT_FIELD_MAX)),
    phones=_texts(
        _object(("phone",), phone=_text(CONTACT_FIELD_MAX), type=_text(20)), CONTACT_ENTRIES_MAX
    ),
    emails=_texts(
        _object(("email",), email=_text(CONTACT_FIELD_MAX), type=_text(20)), CONTACT_ENTRIES_MAX
    ),
    org=_object(("company",), company=_text(CONTACT_FIELD_MAX)),
)
_SECTION = _object(("rows",), title=_text(SECTION_TITLE_MAX), rows=_texts(_ROW, LIST_ROWS_MAX))
_COORDINATES = {
    name: {"type": "number", "minimum": -limit, "maximum": limit}
    for name, limit in COORDINATE_LIMITS.items()
}


class WhatsAppTextData(KindData):
    """A 1018 free-form text reply: as a reply, the message it answers."""

    context: ReplyContext = None


class WhatsAppRichData(KindData):
    """A 1019 reply: `wa_kind` says which, and the field of that name carries it (a medium's
    file is the message's one attachment)."""

    wa_kind: _described({"enum": list(RICH_KINDS)}) = None
    location: _described(
        _object(
            ("latitude", "longitude"),
            **_COORDINATES,
            name=_text(LOCATION_TEXT_MAX),
            address=_text(LOCATION_TEXT_MAX),
        )
    ) = None
    contacts: _described({**_texts(_CONTACT, WHATSAPP_CONTACTS_MAX), "minItems": 1}) = None
    interactive: _described(
        {
            "oneOf": [
                _object(
                    ("type", "body", "buttons"),
                    type={"const": "button"},
                    body=_text(INTERACTIVE_BODY_MAX),
                    buttons={**_texts(_CHOICE, REPLY_BUTTONS_MAX), "minItems": 1},
                ),
                _object(
                    ("type", "body", "button", "sections"),
                    type={"const": "list"},
                    body=_text(INTERACTIVE_BODY_MAX),
                    button=_text(BUTTON_TITLE_MAX),
                    sections=_texts(_SECTION, LIST_SECTIONS_MAX),
                ),
            ]
        }
    ) = None
    context: ReplyContext = None


class WhatsAppTemplateData(KindData):
    """A 1021 template: which, in which language, and the texts its `{{n}}` take."""

    template: _described(
        _object(
            ("name", "language"),
            name=_text(TEMPLATE_NAME_MAX),
            language=_text(20),
            parameters=_object(
                (),
                **{
                    part: _texts(_text(TEMPLATE_PARAMETER_MAX), TEMPLATE_PARAMETERS_MAX)
                    for part in PARTS
                },
            ),
        )
    ) = None


SENT_DATA: dict[int, type[KindData]] = {
    MESSAGE_TYPE_WA_TEXT: WhatsAppTextData,
    MESSAGE_TYPE_WA_RICH: WhatsAppRichData,
    MESSAGE_TYPE_WA_TEMPLATE: WhatsAppTemplateData,
}
# Keys of `data` an agent's send may carry, by message type.
SEND_KEYS = {message_type: set(data.model_fields) for message_type, data in SENT_DATA.items()}


# Window ---------------------------------------------------------------------------


def window_ends_at(session: dict[str, Any]) -> int | None:
    """When free-form replies stop being allowed (ms); None before any inbound message."""
    whatsapp = (session.get("data") or {}).get("whatsapp") or {}
    if whatsapp.get("window_ends_at") is not None:
        return int(whatsapp["window_ends_at"])
    last = whatsapp.get("last_inbound_at")
    return int(last) + WHATSAPP_WINDOW_MS if last is not None else None


def window_refusal(session: dict[str, Any], message_type: int, now: int) -> str | None:
    """Free-form replies only within 24 h of the customer's last message; templates always."""
    if message_type not in FREE_FORM_TYPES:
        return None
    ends = window_ends_at(session)
    return None if ends is not None and now < ends else WINDOW_CLOSED


# Checking an agent's send -------------------------------------------------------------


def check_agent_send(
    message_type: int, text: str, attachments: list[str], raw: Any
) -> dict[str, Any]:
    """The `data` a 1018/1019/1021 message is stored with; InvalidInput when it cannot be
    sent as it is. `text` is the payload, already cleaned by the chat rules."""
    data = raw if raw is not None else {}
    if not isinstance(data, dict):
        raise InvalidInput({"data": "Send data as an object"})
    extra = sorted(key for key, value in data.items() if value is not None)
    for key in extra:
        if key not in SEND_KEYS[message_type]:
            raise InvalidInput({"data": f"'{key}' does not go with this message type"})
    if message_type == MESSAGE_TYPE_WA_TEXT:
        return _text_send(text, attachments, data)
    if message_type == MESSAGE_TYPE_WA_RICH:
        return _rich_send(text, attachments, data)
    return _template_send(text, attachments, data)


def _text_send(text: str, attachments: list[str], data: dict[str, Any]) -> dict[str, Any]:
    # Its length is the chat's (4,000), within Meta's 4,096.
    if not text:
        raise InvalidInput({"payload": "Write a message"})
    if attachments:
        raise InvalidInput({"payload1": "Send files as a 1019 message"})
    return {"wa": {"kind": "text"}, **check_reply_context(data.get("context"))}


def _rich_send(text: str, attachments: list[str], data: dict[str, Any]) -> dict[str, Any]:
    kind = data.get("wa_kind")
    if kind not in RICH_KINDS:
        raise InvalidInput({"wa_kind": f"One of {', '.join(RICH_KINDS)}"})
    context = check_reply_context(data.get("context"))
    for other in ("location", "contacts", "interactive"):
        if other != kind and data.get(other) is not None:
            raise InvalidInput({other: f"A {kind} message carries no {other}"})
    if kind in MEDIA_TYPES:
        return {"wa": {"kind": kind}, **_media(kind, text, attachments), **context}
    if attachments:
        raise InvalidInput({"payload1": f"A {kind} message carries no files"})
    if kind == "interactive":
        if text:
            raise InvalidInput({"payload": "An interactive message's text is its body"})
        return {"wa": {"kind": kind}, "interactive": check_interactive(data.get(kind)), **context}
    if text:
        raise InvalidInput({"payload": f"A {kind} message has no text"})
    checked = check_place(data.get(kind)) if kind == "location" else check_contacts(data.get(kind))
    return {"wa": {"kind": kind}, kind: checked, **context}


def _media(kind: str, caption: str, attachments: list[str]) -> dict[str, Any]:
    if len(attachments) != 1:
        raise InvalidInput({"payload1": f"Attach one file to a {kind} message"})
    if kind == "audio" and caption:
        raise InvalidInput({"payload": "An audio message has no caption"})
    if len(caption) > CAPTION_MAX:
        raise InvalidInput({"payload": f"At most {CAPTION_MAX} characters"})
    return {}


def check_media_type(kind: str, mime_type: str) -> None:
    """The attached upload must be a type Meta sends as this kind."""
    if mime_type not in MEDIA_TYPES.get(kind, ()):
        accepted = ", ".join(MEDIA_TYPES.get(kind, ()))
        raise InvalidInput({"payload1": f"A {kind} message takes {accepted}"})


def _line(raw: Any, field: str, max_length: int, *, required: bool = True) -> str:
    if raw is None and not required:
        return ""
    if not isinstance(raw, str):
        raise InvalidInput({field: "Must be text"})
    return clean_text(" ".join(raw.split()), field, max_length, required=required)


def _text(raw: Any, field: str, max_length: int) -> str:
    if not isinstance(raw, str):
        raise InvalidInput({field: "Must be text"})
    return clean_text(raw, field, max_length, required=True)


def check_place(raw: Any) -> dict[str, Any]:
    """Meta's location: coordinates, with an optional name and address."""
    if not isinstance(raw, dict) or set(raw) - {"latitude", "longitude", "address", "name"}:
        raise InvalidInput({"location": "Send {latitude, longitude, address, name}"})
    place: dict[str, Any] = {
        name: check_coordinate(name, raw.get(name), "location") for name in COORDINATE_LIMITS
    }
    for name in ("address", "name"):
        value = _line(raw.get(name), "location", LOCATION_TEXT_MAX, required=False)
        if value:
            place[name] = value
    return place


def check_contacts(raw: Any) -> list[dict[str, Any]]:
    """1-5 contact cards: a name, phones, emails, a company (the fields the chat shows)."""
    if not isinstance(raw, list) or not 1 <= len(raw) <= CONTACTS_MAX:
        raise InvalidInput({"contacts": f"Send 1-{CONTACTS_MAX} contacts"})
    return [_contact(card) for card in raw]


def _contact(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, dict) or set(raw) - {"name", "phones", "emails", "org"}:
        raise InvalidInput({"contacts": "A contact is {name, phones, emails, org}"})
    name = raw.get("name")
    if not isinstance(name, dict) or set(name) != {"formatted_name"}:
        raise InvalidInput({"contacts": "A contact's name is {formatted_name}"})
    card: dict[str, Any] = {
        "name": {"formatted_name": _line(name["formatted_name"], "contacts", CONTACT_FIELD_MAX)}
    }
    for field, value_key in (("phones", "phone"), ("emails", "email")):
        entries = _contact_entries(raw.get(field), field, value_key)
        if entries:
            card[field] = entries
    org = raw.get("org")
    if org is not None:
        if not isinstance(org, dict) or set(org) != {"company"}:
            raise InvalidInput({"contacts": "A contact's org is {company}"})
        card["org"] = {"company": _line(org["company"], "contacts", CONTACT_FIELD_MAX)}
    if "phones" not in card and "emails" not in card:
        raise InvalidInput({"contacts": "Give each contact a phone or an email"})
    return card


def _contact_entries(raw: Any, field: str, value_key: str) -> list[dict[str, str]]:
    if raw is None:
        return []
    if not isinstance(raw, list) or len(raw) > CONTACT_ENTRIES_MAX:
        raise InvalidInput({"contacts": f"At most {CONTACT_ENTRIES_MAX} {field} per contact"})
    entries = []
    for entry in raw:
        if not isinstance(entry, dict) or set(entry) - {value_key, "type"}:
            raise InvalidInput({"contacts": f"Each of {field} is {{{value_key}, type}}"})
        checked = {value_key: _line(entry.get(value_key), "contacts", CONTACT_FIELD_MAX)}
        kind = _line(entry.get("type"), "contacts", 20, required=False)
        entries.append({**checked, **({"type": kind} if kind else {})})
    return entries


def check_interactive(raw: Any) -> dict[str, Any]:
    """Reply buttons (1-3) or a list (one button opening sections of up to 10 rows)."""
    if not isinstance(raw, dict):
        raise InvalidInput({"interactive": "Send {type, body, ...}"})
    body = _text(raw.get("body"), "interactive", INTERACTIVE_BODY_MAX)
    if raw.get("type") == "button":
        if set(raw) - {"type", "body", "buttons"}:
            raise InvalidInput({"interactive": "Buttons are {type, body, buttons}"})
        return {"type": "button", "body": body, "buttons": _reply_buttons(raw.get("buttons"))}
    if raw.get("type") == "list":
        if set(raw) - {"type", "body", "button", "sections"}:
            raise InvalidInput({"interactive": "A list is {type, body, button, sections}"})
        label = _line(raw.get("button"), "interactive", BUTTON_TITLE_MAX)
        return {"type": "list", "body": body, "button": label, **_sections(raw.get("sections"))}
    raise InvalidInput({"interactive": "type is 'button' or 'list'"})


def _reply_buttons(raw: Any) -> list[dict[str, str]]:
    if not isinstance(raw, list) or not 1 <= len(raw) <= REPLY_BUTTONS_MAX:
        raise InvalidInput({"interactive": f"Send 1-{REPLY_BUTTONS_MAX} buttons"})
    buttons = [_choice(b, BUTTON_ID_MAX, BUTTON_TITLE_MAX, ("id", "title")) for b in raw]
    _unique([b["id"] for b in buttons])
    _unique([b["title"] for b in buttons])
    return buttons


def _sections(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, list) or not 1 <= len(raw) <= LIST_SECTIONS_MAX:
        raise InvalidInput({"interactive": f"Send 1-{LIST_SECTIONS_MAX} sections"})
    sections = []
    for section in raw:
        if not isinstance(section, dict) or set(section) - {"title", "rows"}:
            raise InvalidInput({"interactive": "A section is {title, rows}"})
        rows = section.get("rows")
        if not isinstance(rows, list) or not rows:
            raise InvalidInput({"interactive": "Each section has rows"})
        keys = ("id", "title", "description")
        checked = {"rows": [_choice(row, ROW_ID_MAX, ROW_TITLE_MAX, keys) for row in rows]}
        title = _line(section.get("title"), "interactive", SECTION_TITLE_MAX, required=len(raw) > 1)
        sections.append({**({"title": title} if title else {}), **checked})
    rows = [row for section in sections for row in section["rows"]]
    if len(rows) > LIST_ROWS_MAX:
        raise InvalidInput({"interactive": f"At most {LIST_ROWS_MAX} rows in all"})
    _unique([row["id"] for row in rows])
    return {"sections": sections}


def _choice(raw: Any, id_max: int, title_max: int, keys: tuple[str, ...]) -> dict[str, str]:
    if not isinstance(raw, dict) or set(raw) - set(keys):
        raise InvalidInput({"interactive": f"Each choice is {{{', '.join(keys)}}}"})
    choice = {
        "id": _line(raw.get("id"), "interactive", id_max),
        "title": _line(raw.get("title"), "interactive", title_max),
    }
    if "description" in keys:
        description = _line(
            raw.get("description"), "interactive", ROW_DESCRIPTION_MAX, required=False
        )
        if description:
            choice["description"] = description
    return choice


def _unique(values: list[str]) -> None:
    if len(set(values)) != len(values):
        raise InvalidInput({"interactive": f"'{values[0]}' appears twice: ids and titles differ"})


def _template_send(text: str, attachments: list[str], data: dict[str, Any]) -> dict[str, Any]:
    if text or attachments:
        raise InvalidInput({"payload": "A template's text comes from the template"})
    raw = data.get("template")
    if not isinstance(raw, dict) or set(raw) - {"name", "language", "parameters"}:
        raise InvalidInput({"template": "Send {name, language, parameters}"})
    parameters = raw.get("parameters") or {}
    if not isinstance(parameters, dict) or set(parameters) - {"header", "body", "buttons"}:
        raise InvalidInput({"template": "parameters are {header, body, buttons}"})
    return {
        "wa": {"kind": "template"},
        "template": {
            "name": _line(raw.get("name"), "template", TEMPLATE_NAME_MAX),
            "language": _line(raw.get("language"), "template", 20),
            "parameters": {part: _parameters(parameters.get(part)) for part in PARTS},
        },
    }


def _parameters(raw: Any) -> list[str]:
    if raw is None:
        return []
    if not isinstance(raw, list) or len(raw) > TEMPLATE_PARAMETERS_MAX:
        raise InvalidInput({"template": "Each part's parameters are a list of texts"})
    return [_line(value, "template", TEMPLATE_PARAMETER_MAX) for value in raw]
