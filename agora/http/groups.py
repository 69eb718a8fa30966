"""Groups: view, choose by location, search cities, create, join, edit, members."""

from typing import Any, Literal

from aiohttp import web
from pydantic import Field

from agora.core.errors import InvalidInput
from agora.core.groups import RECENT_GROUPS
from agora.http.replies import ok
from agora.http.requests import Body, optional_caller, read_body, require_caller
from agora.http.routes import Query, Reply, Route
from agora.services.groups import GroupChanges, GroupService
from agora.services.payments import PaymentService


class GroupBody(Body):
    group_id: str | None = Field(default=None, max_length=200)
    lat_long: list[float] | None = Field(default=None, min_length=2, max_length=2)
    tags: list[str] | None = None
    title: str | None = None
    description: str | None = None
    image: str | None = None
    is_public: bool | None = None
    is_read_allowed: bool | None = None
    # Who may write: 10 admins, 15 admins and moderators, 20 every member.
    write_permission: int | None = None

    def changes(self) -> GroupChanges:
        return GroupChanges(
            tags=self.tags,
            title=self.title,
            description=self.description,
            image=self.image,
            is_public=self.is_public,
            is_read_allowed=self.is_read_allowed,
            write_permission=self.write_permission,
        )

    def required_group_id(self) -> str:
        if not self.group_id:
            raise InvalidInput({"group_id": "This field is required"})
        return self.group_id


class GroupQuery(Query):
    action: Literal["update", "join", "invitation", "manage_subscription", "create"] | None = None


class CitiesQuery(Query):
    q: str = ""


class GroupReply(Reply):
    """`group` (with `group_membership` for a chosen group; for invitation, only what its
    link shows); `redirect_url` for manage_subscription."""

    group: dict[str, Any] | None = None
    group_membership: dict[str, Any] | None = None
    redirect_url: str | None = None


class CitiesReply(Reply):
    cities: list[dict[str, Any]]


class RecentGroupsReply(Reply):
    groups: list[dict[str, Any]]


def routes(groups: GroupService, payments: PaymentService) -> list[Route]:
    async def group(request: web.Request) -> web.Response:
        body = await read_body(request, GroupBody)
        action = request.query.get("action")
        if action is None:
            caller = optional_caller(request)
            if body.lat_long is not None:
                latitude, longitude = body.lat_long
                return ok(await groups.for_location(latitude, longitude, caller))
            return ok(await groups.view(body.required_group_id(), caller))
        caller = require_caller(request)
        if action == "update":
            return ok(await groups.update(caller, body.required_group_id(), body.changes()))
        if action == "join":
            return ok(await groups.join(body.required_group_id(), caller))
        if action == "invitation":
            return ok(await groups.invitation(body.required_group_id(), caller))
        if action == "manage_subscription":
            return ok(await payments.manage_subscription(caller, body.required_group_id()))
        if action == "create":
            title = body.title or ""
            return ok(await groups.create(caller, title, body.description or "", body.changes()))
        raise InvalidInput({"action": f"Unknown action '{action}'"})

    async def cities(request: web.Request) -> web.Response:
        return ok(await groups.search_cities(request.query.get("q", "")[:100]))

    async def recent(request: web.Request) -> web.Response:
        return ok(await groups.recent(RECENT_GROUPS))

    return [
        Route(
            "POST",
            "/api/group",
            group,
            "A group (by id or location); with action: create, join, invitation, update, "
            "manage_subscription",
            body=GroupBody,
            query=GroupQuery,
            reply=GroupReply,
        ),
        Route(
            "GET",
            "/api/cities",
            cities,
            "Cities matching a name",
            query=CitiesQuery,
            reply=CitiesReply,
        ),
        Route("GET", "/api/groups/recent", recent, "The newest groups", reply=RecentGroupsReply),
    ]
