"""The words of a chat search (`core/chat_search.py`)."""

import pytest

from agora.core.chat.constants import MESSAGES_PAGE
from agora.core.chat_search import (
    AROUND_BEFORE,
    AROUND_FROM,
    CHAT_SEARCH_MAX_WORDS,
    CHAT_SEARCH_NO_WORDS,
    CHAT_SEARCH_TOO_MANY_WORDS,
    search_words,
)
from agora.core.errors import InvalidInput


def test_words_are_lowercased_split_at_punctuation_and_each_kept_once():
    assert search_words('  Bike, "pump"?  BIKE -cheap ') == ["bike", "pump", "cheap"]
    assert search_words("Café über-cool 42") == ["café", "über", "cool", "42"]


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", CHAT_SEARCH_NO_WORDS),
        (" ?! -- ", CHAT_SEARCH_NO_WORDS),
        (" ".join(f"w{n}" for n in range(CHAT_SEARCH_MAX_WORDS + 1)), CHAT_SEARCH_TOO_MANY_WORDS),
    ],
)
def test_a_search_without_words_or_with_too_many_is_refused(text, error):
    with pytest.raises(InvalidInput) as refused:
        search_words(text)
    assert refused.value.errors == {"q": error}


def test_repeated_words_do_not_count_against_the_limit():
    repeated = " ".join(["bike"] * (CHAT_SEARCH_MAX_WORDS + 5))
    assert search_words(repeated) == ["bike"]


def test_a_page_opened_at_a_message_is_one_page_with_half_before_it():
    assert AROUND_BEFORE + AROUND_FROM == MESSAGES_PAGE
    assert AROUND_BEFORE == MESSAGES_PAGE // 2
