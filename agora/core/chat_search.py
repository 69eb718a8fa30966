"""Finding messages in a chat: the words of a search, and the page a chat opens at when it
opens at one message (a search's result, a pin, a mention, the first unread)."""

import re

from agora.core.chat.constants import MESSAGES_PAGE
from agora.core.errors import InvalidInput

# Results of a search per page, newest first.
CHAT_SEARCH_PAGE = 20
# What a search may ask: a few words, each required (a message holding all of them matches).
CHAT_SEARCH_MAX_LENGTH = 200
CHAT_SEARCH_MAX_WORDS = 8
CHAT_SEARCH_NO_WORDS = "Type a word to search for"
CHAT_SEARCH_TOO_MANY_WORDS = f"Search with at most {CHAT_SEARCH_MAX_WORDS} words"

# A page opened at a message holds this many messages before it, and the rest of a page
# from it on: the message shows with what led to it and what answered it.
AROUND_BEFORE = MESSAGES_PAGE // 2
AROUND_FROM = MESSAGES_PAGE - AROUND_BEFORE

# Words as both servers' text indexes split them (letters and digits; punctuation and
# spaces part them): a word the index never holds could match nothing.
_WORD = re.compile(r"\w+", re.UNICODE)


def search_words(text: str) -> list[str]:
    """The distinct words of a search, lowercased, in their order; refused (400, field `q`)
    when there are none or too many."""
    words = list(dict.fromkeys(word.lower() for word in _WORD.findall(text)))
    if not words:
        raise InvalidInput({"q": CHAT_SEARCH_NO_WORDS})
    if len(words) > CHAT_SEARCH_MAX_WORDS:
        raise InvalidInput({"q": CHAT_SEARCH_TOO_MANY_WORDS})
    return words
