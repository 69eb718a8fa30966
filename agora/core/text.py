"""Checks shared by every free-text field users send."""

import re
import unicodedata

from agora.core.errors import InvalidInput

# Line breaks and tabs are fine in long text; other control characters never are.
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


ZERO_WIDTH_JOINER = "\u200d"
VARIATION_SELECTOR_EMOJI = "\ufe0f"
# What may stand on either side of a joiner inside an emoji sequence (👩‍💻, 🏳️‍🌈, 👩🏽‍🚀):
# pictographs are "So", skin-tone modifiers "Sk".
_EMOJI_CATEGORIES = ("So", "Sk")


def _joins_emoji(before: str, after: str) -> bool:
    before = before.rstrip(VARIATION_SELECTOR_EMOJI)
    return bool(before and after) and (
        unicodedata.category(before[-1]) in _EMOJI_CATEGORIES
        and unicodedata.category(after[0]) in _EMOJI_CATEGORIES
    )


def without_format_characters(text: str) -> str:
    """The text without Unicode format characters (category Cf): direction overrides and
    isolates, which can make 'exe.pdf' show as 'fdp.exe' or a name read backwards, and
    invisible ones (zero-width spaces, soft hyphens, word joiners, tags). A zero-width joiner
    between two pictographs stays: it builds one emoji from several."""
    if text.isascii():
        return text
    kept: list[str] = []
    for index, char in enumerate(text):
        emoji_joiner = char == ZERO_WIDTH_JOINER and _joins_emoji(
            "".join(kept[-2:]), text[index + 1 :]
        )
        if emoji_joiner or unicodedata.category(char) != "Cf":
            kept.append(char)
    return "".join(kept)


def clean_text(raw: str, field: str, max_length: int, required: bool = False) -> str:
    """Free text with format characters removed; control characters other than line breaks
    and tabs are refused."""
    text = without_format_characters(raw).strip()
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
