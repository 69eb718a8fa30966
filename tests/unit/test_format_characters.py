"""Format characters (direction overrides, invisible characters) never reach stored text."""

import pytest

from agora.core.accounts import clean_name
from agora.core.chat.checks import CHAT_MESSAGE_KINDS, check_location, check_outgoing
from agora.core.errors import InvalidInput
from agora.core.groups import clean_group_description, clean_group_title, clean_tags
from agora.core.message_kinds import ChatKinds
from agora.core.text import without_format_characters
from agora.core.uploads import FILE_TYPES, clean_title

RLO, LRI, PDI, LRM, ZWSP, ZWJ, SHY, BOM = (
    "\u202e", "\u2066", "\u2069", "\u200e", "\u200b", "\u200d", "\u00ad", "\ufeff"
)  # fmt: skip
WOMAN, LAPTOP, MEDIUM_SKIN, ROCKET = "\U0001f469", "\U0001f4bb", "\U0001f3fd", "\U0001f680"
WHITE_FLAG, VS16, RAINBOW = "\U0001f3f3", "\ufe0f", "\U0001f308"


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        (f"Ada{RLO}gnp.exe", "Adagnp.exe"),
        (f"{LRI}Ada{PDI} {LRM}Lovelace", "Ada Lovelace"),
        (f"in{ZWSP}visible{SHY}{BOM}", "invisible"),
        (f"Ad{ZWJ}a", "Ada"),  # a joiner between letters does nothing visible
        (f"{ZWJ}{WOMAN}{ZWJ}", WOMAN),
        ("plain ascii", "plain ascii"),
    ],
)
def test_format_characters_are_removed(raw, shown):
    assert without_format_characters(raw) == shown


@pytest.mark.parametrize(
    "emoji",
    [
        f"{WOMAN}{ZWJ}{LAPTOP}",
        f"{WOMAN}{MEDIUM_SKIN}{ZWJ}{ROCKET}",
        f"{WHITE_FLAG}{VS16}{ZWJ}{RAINBOW}",
    ],
)
def test_joiners_inside_emoji_sequences_stay(emoji):
    assert without_format_characters(f"hi {emoji}!") == f"hi {emoji}!"


def test_every_free_text_field_drops_them():
    assert clean_name(f"{RLO}Ada") == "Ada"
    assert clean_group_title(f"Book{ZWSP}s {RLO}club") == "Books club"
    assert clean_group_description(f"a{RLO}b") == "ab"
    assert clean_tags([f"{RLO}Books"]) == ["Books"]
    assert clean_title(f"invoice{RLO}fdp.exe", FILE_TYPES["application/pdf"]) == "invoicefdp.exe"
    location = {"address": f"{RLO}Damrak 1", "latitude": 52.37, "longitude": 4.89}
    assert check_location(location)["address"] == "Damrak 1"
    message = check_outgoing(
        ChatKinds(CHAT_MESSAGE_KINDS),
        session_id="s",
        src_id="u",
        local_id="l",
        message_type=1003,
        payload=f"pay {RLO}001$ {WOMAN}{ZWJ}{LAPTOP}",
        attachments=[],
        client_created_at=None,
    )
    assert message.payload == f"pay 001$ {WOMAN}{ZWJ}{LAPTOP}"


def test_text_made_only_of_format_characters_is_empty():
    with pytest.raises(InvalidInput, match="required"):
        clean_name(f"{RLO}{ZWSP}")
