"""Account rules: identifiers, names, images, one-time codes and the public user shape."""

import re
from dataclasses import dataclass
from typing import Any

from agora.core.documents import User
from agora.core.errors import Conflict, InvalidInput
from agora.core.text import CONTROL_CHARACTERS, clean_line
from agora.core.uploads import UPLOADS_PATH, served_type

# The product spec's numbers for accounts (those the web app shares are written out by
# `python -m agora constants`, agora/generate/web_constants.py).
# Login and one-time codes.
OTP_LENGTH = 6
REQUIRE_IDENTIFIER = "email_id_or_phone_number"
NAME_MAX_LENGTH = 80
EMAIL_MAX_LENGTH = 254
IMAGE_URL_MAX_LENGTH = 2048
PHONE_COUNTRY_CODES = ("31", "1", "91", "44", "33", "49", "34", "39", "86")


# A domain name, never an address literal (`[127.0.0.1]`): the code would go to a host the
# person typing it picked.
_EMAIL = re.compile(r"^[^@\s\x00-\x1f]+@[^@\s\x00-\x1f\[\]]+\.[^@\s\x00-\x1f.\[\]]{2,}$")
_PHONE_SEPARATORS = re.compile(r"[\s\-().]")
_PHONE = re.compile(r"^\+[1-9][0-9]{6,14}$")
_OTP = re.compile(rf"^[0-9]{{{OTP_LENGTH}}}$")

EMAIL_FIELD = "email_id"
PHONE_FIELD = "phone_number"


@dataclass(frozen=True)
class Identifier:
    """An e-mail address or an E.164 phone number that a user logs in with."""

    field: str
    value: str

    @property
    def key(self) -> str:
        return f"{self.field}:{self.value}"

    def masked(self) -> str:
        if self.field == EMAIL_FIELD:
            local, _, domain = self.value.partition("@")
            return f"{local[:2]}{'*' * max(1, len(local) - 2)}@{domain}"
        return f"{self.value[:3]}{'*' * (len(self.value) - 5)}{self.value[-2:]}"


def normalize_email(raw: str) -> str:
    email = raw.strip().lower()
    if len(email) > EMAIL_MAX_LENGTH or not _EMAIL.match(email):
        raise InvalidInput({EMAIL_FIELD: "Enter a valid e-mail address"})
    return email


def normalize_phone(raw: str) -> str:
    phone = _PHONE_SEPARATORS.sub("", raw.strip())
    if phone.startswith("00"):
        phone = "+" + phone[2:]
    if not _PHONE.match(phone):
        raise InvalidInput(
            {PHONE_FIELD: "Enter a phone number with its country code, like +31612345678"}
        )
    return phone


def identifier_from(email_id: str | None, phone_number: str | None) -> Identifier | None:
    """The identifier a request names; e-mail wins when a client sends both."""
    if email_id:
        return Identifier(EMAIL_FIELD, normalize_email(email_id))
    if phone_number:
        return Identifier(PHONE_FIELD, normalize_phone(phone_number))
    return None


def identifier_in_use(field: str) -> Conflict:
    what = "e-mail address" if field == EMAIL_FIELD else "phone number"
    return Conflict({field: f"This {what} already belongs to another account"})


def clean_name(raw: str) -> str:
    return clean_line(raw, "name", NAME_MAX_LENGTH)


def clean_image_url(raw: str) -> str:
    """An avatar is empty, an uploaded picture's path, or an http(s) URL. A path is only ever
    a stored picture's name: pages render it as an image link on the site's own origin, where
    `/uploads/../anything` would name any other address."""
    url = raw.strip()
    if not url:
        return ""
    uploaded = served_type(url.removeprefix(UPLOADS_PATH)) if url.startswith(UPLOADS_PATH) else None
    allowed = url.startswith(("https://", "http://")) or (
        uploaded is not None and uploaded.is_image
    )
    bad_characters = CONTROL_CHARACTERS.search(url) or " " in url
    if not allowed or len(url) > IMAGE_URL_MAX_LENGTH or bad_characters:
        raise InvalidInput({"image": "Image must be an uploaded file or an http(s) link"})
    return url


def check_otp_format(raw: str) -> str:
    code = raw.strip()
    if not _OTP.match(code):
        raise InvalidInput({"otp": f"Enter the {OTP_LENGTH}-digit code"})
    return code


def user_view(doc: User) -> dict[str, Any]:
    """The user as the API shows it (spec section 3, User)."""
    data = doc.get("data") or {}
    return {
        "_id": doc["_id"],
        "name": doc.get("name", ""),
        "image": doc.get("image", ""),
        "phone_number": doc.get(PHONE_FIELD),
        "email_id": doc.get(EMAIL_FIELD),
        "data": {"notifications_unseen_count": int(data.get("notifications_unseen_count", 0))},
        "created_at": doc.get("created_at"),
    }


def user_card(doc: User | None) -> dict[str, Any] | None:
    """What anyone may see of another user: name and picture, never contact details."""
    if doc is None:
        return None
    return {"_id": doc["_id"], "name": doc.get("name", ""), "image": doc.get("image", "")}


def guest_view(guest_id: str) -> dict[str, Any]:
    return {
        "_id": guest_id,
        "name": "Guest",
        "image": "",
        "is_guest": True,
        "data": {"notifications_unseen_count": 0},
    }
