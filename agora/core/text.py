"""Checks shared by every free-text field users send."""

import re

from agora.core.errors import InvalidInput

# Line breaks and tabs are fine in long text; other control characters never are.
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def clean_text(raw: str, field: str, max_length: int, required: bool = False) -> str:
    text = raw.strip()
    if required and not text:
        raise InvalidInput({field: "This field is required"})
    if len(text) > max_length:
        raise InvalidInput({field: f"At most {max_length} characters"})
    if CONTROL_CHARACTERS.search(text):
        raise InvalidInput({field: "Contains characters that are not allowed"})
    return text


def clean_line(raw: str, field: str, max_length: int) -> str:
    """One line of text: white space collapsed, required, bounded."""
    return clean_text(" ".join(raw.split()), field, max_length, required=True)
