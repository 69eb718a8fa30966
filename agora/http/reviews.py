"""Reviews after a paid offer (issue 32)."""

from typing import Any, Literal

from aiohttp import web
from pydantic import Field

from agora.core.errors import InvalidInput
from agora.core.reviews import REVIEW_REPORT_REASON_MAX, REVIEW_TEXT_MAX
from agora.http.replies import ok
from agora.http.requests import Body, optional_caller, read_body, require_caller
from agora.http.routes import Auth, Query, Reply, Route
from agora.services.reviews import ReviewService

ID = Field(default=None, min_length=1, max_length=200)


class ReviewBody(Body):
    move_id: str | None = ID
    review_id: str | None = ID
    # Checked by the review rules (1 to 5) so the message says so.
    rating: int | None = None
    text: str = Field(default="", max_length=REVIEW_TEXT_MAX * 4)
    reason: str = Field(default="", max_length=REVIEW_REPORT_REASON_MAX * 4)
    hidden: bool = True

    def required(self, field: str) -> Any:
        value = getattr(self, field)
        if value is None:
            raise InvalidInput({field: "This field is required"})
        return value


class ReviewQuery(Query):
    action: Literal["create", "update", "report", "hide"]


class UserReviewsBody(Body):
    user_id: str = Field(min_length=1, max_length=200)
    cursor: str | None = Field(default=None, max_length=200)


class OfferReviewsBody(Body):
    move_id: str = Field(min_length=1, max_length=200)


class ChatReviewsBody(Body):
    cs_id: str = Field(min_length=1, max_length=200)


class ReportedBody(Body):
    group_id: str = Field(min_length=1, max_length=200)
    cursor: str | None = Field(default=None, max_length=200)


class ReviewReply(Reply):
    """`review` as written, changed or hidden; a report answers `success`."""

    review: dict[str, Any] | None = None
    success: bool | None = None


class UserReviewsReply(Reply):
    reviews: list[dict[str, Any]]
    count: int
    average: float | None = None
    has_more: bool
    cursor: str | None = None


class OfferReviewsReply(Reply):
    """Whom the caller may review after this paid offer (`subject`), and the reviews each
    side wrote of the other."""

    move_id: str
    item_id: str
    subject: dict[str, Any] | None = None
    review: dict[str, Any] | None = None
    their_review: dict[str, Any] | None = None
    can_review: bool


class ChatReviewsReply(Reply):
    """The offers paid in the chat, oldest first: `{move_id, amount, currency, at, reviewed}`
    each (`amount` paid to the helper, fees not counted; `reviewed`: by the caller)."""

    offers: list[dict[str, Any]]


class ReportedReply(Reply):
    """`not_hidden_count`: the group's reported reviews that no moderator hid yet."""

    reviews: list[dict[str, Any]]
    not_hidden_count: int
    has_more: bool
    cursor: str | None = None


def routes(reviews: ReviewService) -> list[Route]:
    async def review(request: web.Request) -> web.Response:
        caller = require_caller(request)
        body = await read_body(request, ReviewBody)
        action = request.query.get("action")
        if action == "create":
            return ok(
                await reviews.create(caller, body.required("move_id"), body.rating, body.text)
            )
        if action == "update":
            review_id = body.required("review_id")
            return ok(await reviews.update(caller, review_id, body.rating, body.text))
        if action == "report":
            return ok(await reviews.report(caller, body.required("review_id"), body.reason))
        if action == "hide":
            return ok(await reviews.hide(caller, body.required("review_id"), body.hidden))
        raise InvalidInput({"action": f"Unknown action '{action}'"})

    async def of_user(request: web.Request) -> web.Response:
        body = await read_body(request, UserReviewsBody)
        return ok(await reviews.of_user(optional_caller(request), body.user_id, body.cursor))

    async def for_offer(request: web.Request) -> web.Response:
        caller = require_caller(request)
        body = await read_body(request, OfferReviewsBody)
        return ok(await reviews.for_offer(caller, body.move_id))

    async def for_chat(request: web.Request) -> web.Response:
        caller = require_caller(request)
        body = await read_body(request, ChatReviewsBody)
        return ok(await reviews.for_chat(caller, body.cs_id))

    async def reported(request: web.Request) -> web.Response:
        caller = require_caller(request)
        body = await read_body(request, ReportedBody)
        return ok(await reviews.reported(caller, body.group_id, body.cursor))

    return [
        Route(
            "POST",
            "/api/review",
            review,
            "A review of the other side of a paid offer; action: create, update, report, hide",
            auth=Auth.REQUIRED,
            body=ReviewBody,
            query=ReviewQuery,
            reply=ReviewReply,
            errors=(409,),
        ),
        Route(
            "POST",
            "/api/reviews",
            of_user,
            "A person's reviews (not hidden), newest first, with their count and average; those of"
            " offers in groups the caller may not read name no group or post, and withhold their"
            " text",
            body=UserReviewsBody,
            reply=UserReviewsReply,
        ),
        Route(
            "POST",
            "/api/reviews/offer",
            for_offer,
            "The caller's side of a paid offer: whom they may review, and both sides' reviews",
            auth=Auth.REQUIRED,
            body=OfferReviewsBody,
            reply=OfferReviewsReply,
        ),
        Route(
            "POST",
            "/api/reviews/chat",
            for_chat,
            "The offers paid in an item chat, each with whether the caller reviewed it",
            auth=Auth.REQUIRED,
            body=ChatReviewsBody,
            reply=ChatReviewsReply,
        ),
        Route(
            "POST",
            "/api/reviews/reported",
            reported,
            "Reported reviews of a group's posts, for its moderators",
            auth=Auth.REQUIRED,
            body=ReportedBody,
            reply=ReportedReply,
        ),
    ]
