"""The feed, posts, 'My Items' and share routes."""

from typing import Any, Literal

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field

from agora.core.errors import InvalidInput
from agora.core.finder_fees import FINDER_FEE_PERCENT_DEFAULT
from agora.http.replies import ok
from agora.http.requests import AmountText, Body, optional_caller, read_body, require_caller
from agora.http.routes import Auth, Query, Reply, Route
from agora.services.feed import FeedService
from agora.services.items import ItemInput, ItemService

OPTIONAL_ID = Field(default=None, max_length=200)


class FeedBody(Body):
    group_id: str | None = Field(default=None, max_length=200)
    search_text: str = Field(default="", max_length=200)
    tags: list[str] = Field(default_factory=list, max_length=20)
    identify_city: bool = False
    cursor: str | None = Field(default=None, max_length=400)


class FileRef(BaseModel):
    """A file as the item's own `files` list shows it; only its url is read."""

    model_config = ConfigDict(extra="ignore")
    url: str = Field(max_length=2048)


class ItemBody(Body):
    item_id: str | None = OPTIONAL_ID
    group_id: str | None = OPTIONAL_ID
    title: str | None = None
    description: str = ""
    files: list[str | FileRef] = Field(default_factory=list, max_length=10)
    tags: list[str] = Field(default_factory=list, max_length=20)
    offer_amount: AmountText = None
    offer_currency: str | None = None
    offer_description: str = ""
    need_user_to_view: bool = False
    # Checked by the post rules (0 to FINDER_FEE_PERCENT_MAX) so the message names the range.
    finder_fee_percent: int = FINDER_FEE_PERCENT_DEFAULT

    def item_input(self) -> ItemInput:
        if self.title is None:
            raise InvalidInput({"title": "This field is required"})
        return ItemInput(
            title=self.title,
            description=self.description,
            files=tuple(f if isinstance(f, str) else f.url for f in self.files),
            tags=tuple(self.tags),
            offer_amount=self.offer_amount,
            offer_currency=self.offer_currency,
            offer_description=self.offer_description,
            need_user_to_view=self.need_user_to_view,
            finder_fee_percent=self.finder_fee_percent,
        )

    def required(self, field: str) -> str:
        value = getattr(self, field)
        if not value:
            raise InvalidInput({field: "This field is required"})
        return value


class ItemQuery(Query):
    action: Literal["create", "update", "delete", "close"] | None = None


class RouteQuery(Query):
    action: Literal["share"] | None = None


class FeedReply(Reply):
    items: list[dict[str, Any]]
    group: dict[str, Any] | None = None
    group_member: dict[str, Any] | None = None
    next_cursor: str | None = None
    has_more: bool


class ItemReply(Reply):
    item: dict[str, Any]
    group: dict[str, Any] | None = None


class ItemsReply(Reply):
    items: list[dict[str, Any]]


class ShareEarnings(BaseModel):
    """What the viewer's own link of the post earns them when someone new comes through it
    and is paid the post's reward (`offer_amount`): the finder's fee the paying rule gives."""

    amount: int | float
    currency: str
    offer_amount: int | float


class RouteReply(Reply):
    """A shared post (`item`, `group`, `route_users`, `share_earnings`: null for visitors,
    the poster and posts whose link earns nothing), or with action=share the caller's own
    link (`url`, `route_id`)."""

    item: dict[str, Any] | None = None
    group: dict[str, Any] | None = None
    route_users: list[dict[str, Any]] | None = None
    share_earnings: ShareEarnings | None = None
    url: str | None = None
    route_id: str | None = None


def routes(feed: FeedService, items: ItemService) -> list[Route]:
    async def feed_page(request: web.Request) -> web.Response:
        body = await read_body(request, FeedBody)
        return ok(
            await feed.feed(
                optional_caller(request),
                group_id=body.group_id,
                search_text=body.search_text,
                tags=body.tags,
                cursor=body.cursor,
            )
        )

    async def item(request: web.Request) -> web.Response:
        body = await read_body(request, ItemBody)
        action = request.query.get("action")
        if action is None:
            return ok(
                await items.get(optional_caller(request), body.required("item_id"), body.group_id)
            )
        caller = require_caller(request)
        if action == "create":
            return ok(await items.create(caller, body.required("group_id"), body.item_input()))
        if action == "update":
            return ok(await items.update(caller, body.required("item_id"), body.item_input()))
        if action == "delete":
            return ok(await items.delete(caller, body.required("item_id")))
        if action == "close":
            return ok(await items.close(caller, body.required("item_id")))
        raise InvalidInput({"action": f"Unknown action '{action}'"})

    async def my_items(request: web.Request) -> web.Response:
        await read_body(request, Body)
        return ok(await items.mine(require_caller(request)))

    async def route(request: web.Request) -> web.Response:
        route_id = request.match_info["route_id"]
        if request.query.get("action") == "share":
            return ok(await items.share(require_caller(request), route_id))
        return ok(await items.by_route(optional_caller(request), route_id))

    return [
        Route(
            "POST",
            "/api/feed",
            feed_page,
            "A page of a group's feed",
            body=FeedBody,
            reply=FeedReply,
        ),
        Route(
            "POST",
            "/api/item",
            item,
            "A post; with action: create, update, delete, close",
            body=ItemBody,
            query=ItemQuery,
            reply=ItemReply,
            # A reward held on create or edit: 402 when the wallet's available is short; an
            # edit overtaken by a later edit of the same post: 409.
            errors=(402, 409),
        ),
        Route(
            "POST",
            "/api/user/items",
            my_items,
            "The caller's posts",
            auth=Auth.REQUIRED,
            body=Body,
            reply=ItemsReply,
        ),
        Route(
            "GET",
            r"/api/r/{route_id:[A-Za-z0-9_-]{1,64}}",
            route,
            "A post through a share link; with action=share the caller's own link",
            query=RouteQuery,
            reply=RouteReply,
        ),
    ]
