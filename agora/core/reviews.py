"""Reviews after a paid offer (issue 32): who may write one, what it holds, how it reads
(no I/O). Each side of a paid offer, the poster who paid and the helper who was paid, may
review the other once per offer; sharers paid a finder's fee are no side."""

from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from agora.core.clock import DAY_MS
from agora.core.errors import InvalidInput
from agora.core.money import DONE, LEDGER_REF_OFFER, cents_number
from agora.core.text import clean_text

# The product spec's numbers for reviews (those the web app shares are written out by
# `python -m agora constants`, agora/generate/web_constants.py).
# Reviews after a paid offer (issue 32).
REVIEW_RATING_MIN = 1
REVIEW_RATING_MAX = 5
REVIEW_TEXT_MAX = 500
REVIEW_REPORT_REASON_MAX = 300
REVIEW_EDIT_DAYS = 7
REVIEWS_PAGE = 20


REVIEW_EDIT_MS = REVIEW_EDIT_DAYS * DAY_MS
NO_SUCH_OFFER = "This offer does not exist"
NO_SUCH_REVIEW = "This review does not exist"
ALREADY_REVIEWED = "You already reviewed this offer"
ONLY_AUTHOR = "Only its author can change a review"
EDIT_WINDOW_OVER = f"A review can be changed for {REVIEW_EDIT_DAYS} days after it is written"
OWN_REVIEW = "You cannot report your own review"
ONLY_MODERATORS_HIDE = "Only the group's moderators can hide a review"
ONLY_MODERATORS_SEE = "Only the group's moderators can see reported reviews"
NOT_OF_ONESELF = "Another of the group's moderators decides on a review of you"


def offer_sides(move: dict[str, Any] | None) -> tuple[str, str] | None:
    """The poster who paid and the helper paid by a finished offer move; None for any other
    move (the helper's posting is the second: `services.offers.offer_postings`)."""
    if move is None or move.get("ref_type") != LEDGER_REF_OFFER or move.get("state") != DONE:
        return None
    return move["user_id"], move["postings"][1]["user_id"]


def offer_view(move: dict[str, Any]) -> dict[str, Any]:
    """A paid offer as a chat lists it: the amount paid to the helper (fees not counted)."""
    return {
        "move_id": move["_id"],
        "amount": cents_number(move["postings"][1]["diff_cents"]),
        "currency": move["currency"],
        "at": move["created_at"],
    }


def other_side(sides: tuple[str, str], user_id: str) -> str | None:
    payer, payee = sides
    return {payer: payee, payee: payer}.get(user_id) if payer != payee else None


def check_rating(raw: object) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise InvalidInput({"rating": "Choose 1 to 5 stars"})
    if not REVIEW_RATING_MIN <= raw <= REVIEW_RATING_MAX:
        raise InvalidInput({"rating": "Choose 1 to 5 stars"})
    return raw


def clean_review_text(raw: str) -> str:
    return clean_text(raw, "text", REVIEW_TEXT_MAX)


def clean_report_reason(raw: str) -> str:
    return clean_text(raw, "reason", REVIEW_REPORT_REASON_MAX)


def is_side(review: dict[str, Any], user_id: str) -> bool:
    """Whether the user wrote the review or is the one it is about."""
    return user_id in (review["author_id"], review["subject_id"])


def editable_until(review: dict[str, Any]) -> int:
    return review["created_at"] + REVIEW_EDIT_MS


def review_view(
    review: dict[str, Any],
    people: Mapping[str, dict[str, Any] | None],
    *,
    readable: bool = True,
    for_moderators: bool = False,
) -> dict[str, Any]:
    """A review as profiles and chats show it, its author's card from `people` (cards by id).

    Not `readable` (the viewer may not read the group of the post the offer was about, and is
    neither side of it): the review names no group or post and its text is withheld
    (`private`), as it may tell of what only the group's members read; its stars count in the
    person's summary. Moderators also see who reported it and why, and who hid it (or showed it
    again) last, and when."""
    view = {
        "_id": review["_id"],
        "move_id": review["move_id"],
        "item_id": review["item_id"] if readable else None,
        "group_id": review["group_id"] if readable else None,
        "author": people.get(review["author_id"]),
        "subject_id": review["subject_id"],
        "rating": review["rating"],
        "text": review["text"] if readable else None,
        "private": not readable,
        "created_at": review["created_at"],
        "updated_at": review["updated_at"],
        "editable_until": editable_until(review),
        "hidden": bool(review.get("hidden")),
    }
    if for_moderators:
        reports = review.get("reports") or {}
        view["reports_count"] = len(reports)
        view["reports"] = sorted(
            ({"user_id": user_id, **report} for user_id, report in reports.items()),
            key=lambda report: report["at"],
        )
        view["hidden_by"] = people.get(review["hidden_by"]) if review.get("hidden_by") else None
        view["hidden_at"] = review.get("hidden_at")
    return view


def people_in(reviews: list[dict[str, Any]]) -> list[str]:
    """The ids whose cards the reviews' views show: authors, and who hid each last."""
    hiders = [r["hidden_by"] for r in reviews if r.get("hidden_by")]
    return [r["author_id"] for r in reviews] + hiders


def summary(ratings: list[int]) -> dict[str, Any]:
    """How many reviews and their average, to one decimal (none without reviews)."""
    if not ratings:
        return {"count": 0, "average": None}
    average = (Decimal(sum(ratings)) / len(ratings)).quantize(
        Decimal("0.1"), rounding=ROUND_HALF_UP
    )
    return {"count": len(ratings), "average": float(average)}
