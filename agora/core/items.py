"""Posts: validation of drafts, offers as exact decimals, what each viewer may see, paging."""

import base64
import binascii
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from agora.core.chat.access import may_read
from agora.core.documents import ChatSession, Item, Membership
from agora.core.errors import InvalidInput
from agora.core.finder_fees import fee_percent
from agora.core.groups import clean_tags
from agora.core.money import (
    OFFER_CURRENCIES,
    OFFER_DESCRIPTION_MAX_LENGTH,
    decimal_number,
    parse_amount,
)
from agora.core.numbers import bounded_int
from agora.core.rewards import reward_fields
from agora.core.text import clean_line, clean_text

# The product spec's numbers for items (those the web app shares are written out by
# `python -m agora constants`, agora/generate/web_constants.py).
ITEM_HIDDEN_SORT_ORDER = -1
# Why a post stopped (item `closed_reason`); a deleted one is also hidden.
POST_CLOSED = "closed"
POST_EXPIRED = "expired"
POST_DELETED = "deleted"
POST_EXPIRY_DAYS_DEFAULT = 30
# How often every edge looks for posts past their expiry (and holds a crash left open).
POST_EXPIRY_SWEEP_SECONDS = 60
POST_FILES_MAX = 2
POST_FILE_MAX_BYTES = 10 * 1024 * 1024
# Groups, feed and posts.
FEED_PAGE_SIZE = 20
FEED_SEARCH_MAX_WORDS = 8
ITEM_TAGS_MAX = 5
ITEM_TITLE_MAX_LENGTH = 120
ITEM_DESCRIPTION_MAX_LENGTH = 5000


_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class ItemDraft:
    """A post as the owner wrote it, already validated."""

    title: str
    description: str
    tags: list[str]
    offer_amount: Decimal | None
    offer_currency: str | None
    offer_description: str
    need_user_to_view: bool
    finder_fee_percent: int

    def fields(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "description": self.description,
            "tags": self.tags,
            "offer_amount": str(self.offer_amount) if self.offer_amount is not None else None,
            "offer_currency": self.offer_currency,
            "offer_description": self.offer_description,
            "need_user_to_view": self.need_user_to_view,
            "finder_fee_percent": self.finder_fee_percent,
            # One indexed field, so a search can match words spread over title and description.
            "search_text": f"{self.title}\n{self.description}",
        }


def build_draft(
    *,
    title: str,
    description: str,
    tags: list[str],
    group_tags: list[str],
    offer_amount: float | int | str | None,
    offer_currency: str | None,
    offer_description: str,
    need_user_to_view: bool,
    finder_fee_percent: object,
) -> ItemDraft:
    amount = parse_amount(offer_amount, "offer_amount")
    percent = fee_percent(finder_fee_percent)
    currency = offer_currency or None
    if currency is not None and currency not in OFFER_CURRENCIES:
        allowed = ", ".join(OFFER_CURRENCIES)
        raise InvalidInput({"offer_currency": f"Choose one of {allowed}"})
    if amount is not None and currency is None:
        raise InvalidInput({"offer_currency": "Choose the offer's currency"})
    chosen = clean_tags(tags, limit=ITEM_TAGS_MAX)
    known = {tag.lower(): tag for tag in group_tags}
    unknown = [tag for tag in chosen if tag.lower() not in known]
    if unknown:
        raise InvalidInput({"tags": f"Not a tag of this group: {', '.join(unknown)}"})
    return ItemDraft(
        title=clean_line(title, "title", ITEM_TITLE_MAX_LENGTH),
        description=clean_text(description, "description", ITEM_DESCRIPTION_MAX_LENGTH),
        tags=[known[tag.lower()] for tag in chosen],
        offer_amount=amount,
        offer_currency=currency if amount is not None else None,
        offer_description=clean_text(
            offer_description, "offer_description", OFFER_DESCRIPTION_MAX_LENGTH
        ),
        need_user_to_view=need_user_to_view,
        # A reward described in words has no amount to take a fee of.
        finder_fee_percent=percent if amount is not None else 0,
    )


def check_post_files(files: list[dict[str, Any]]) -> None:
    if len(files) > POST_FILES_MAX:
        raise InvalidInput({"files": f"At most {POST_FILES_MAX} files"})
    too_big = [f["title"] or f["url"] for f in files if f["size"] > POST_FILE_MAX_BYTES]
    if too_big:
        limit_mb = POST_FILE_MAX_BYTES // (1024 * 1024)
        raise InvalidInput({"files": f"Each file must be at most {limit_mb} MB"})


def feed_key(created_at: int, item_id: str) -> str:
    """One sortable field ordering posts newest first, ties broken by id, for keyset paging."""
    return f"{created_at:015d}:{item_id}"


def encode_cursor(key: str) -> str:
    return base64.urlsafe_b64encode(key.encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> str:
    try:
        key = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        created, sep, item_id = key.partition(":")
        if not sep or len(created) != 15 or not item_id:
            raise ValueError("not a feed key")
        bounded_int(created, "cursor")
    except (binascii.Error, UnicodeDecodeError, ValueError, InvalidInput) as exc:
        raise InvalidInput({"cursor": "This list position is not valid, reload the feed"}) from exc
    return key


def search_words(text: str) -> list[str]:
    words = [w.lower() for w in _WORD.findall(text)]
    if len(words) > FEED_SEARCH_MAX_WORDS:
        raise InvalidInput({"search_text": f"Search with at most {FEED_SEARCH_MAX_WORDS} words"})
    return words


def is_visible(item: Item) -> bool:
    return item.get("sort_order", 0) != ITEM_HIDDEN_SORT_ORDER


def can_read_post(item: Item, group: ChatSession | None, membership: Membership | None) -> bool:
    """The one read rule for posts: a post not hidden, in a group the viewer may read
    (`core.chat.access.may_read`: a private group that hides its posts shows them to its members
    only). Every path that shows a post or opens a chat about one applies it
    (`services.items.PostReader`)."""
    return is_visible(item) and group is not None and may_read(group, membership)


def _offer_number(amount: str | None) -> float | int | None:
    return None if amount is None else decimal_number(Decimal(amount))


def item_view(item: Item, *, logged_in: bool) -> dict[str, Any]:
    """The post for one viewer; visitors get no content of posts that need a login."""
    base = {
        "_id": item["_id"],
        "group_id": item["group_id"],
        "user_id": item["user_id"],
        "route_id": item["route_id"],
        "created_at": item["created_at"],
        "updated_at": item.get("updated_at", item["created_at"]),
        "sort_order": item.get("sort_order", 0),
        "need_user_to_view": bool(item.get("need_user_to_view")),
        # Posts from before expiry have none.
        "expires_at": item.get("expires_at"),
        "closed_at": item.get("closed_at"),
        "closed_reason": item.get("closed_reason"),
    }
    if base["need_user_to_view"] and not logged_in:
        return base
    return {
        **base,
        "title": item["title"],
        "description": item.get("description", ""),
        "files": item.get("files", []),
        "tags": item.get("tags", []),
        "offer_amount": _offer_number(item.get("offer_amount")),
        "offer_currency": item.get("offer_currency"),
        "offer_description": item.get("offer_description", ""),
        # Posts from before finder's fees never offered one.
        "finder_fee_percent": item.get("finder_fee_percent", 0),
        "share_count": item.get("share_count", 0),
        **reward_fields(item),
    }
