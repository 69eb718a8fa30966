"""Share routes: the chain of people a post travelled through before reaching someone."""

from typing import Any

from agora.core.documents import Item, Route

# A user's count of the routes they shared (`core.routes.own_chain_told`): moved before each
# is stored, so never below them; absent on users made before it was counted.
SHARED_ROUTES = "shared_routes"


def chain(route: Route) -> list[str]:
    """Everyone on the route, the poster first and the route's own user last."""
    return [*route.get("prev_user_ids", []), route["user_id"]]


def route_view(route: Route) -> dict[str, Any]:
    return {
        "_id": route["_id"],
        "user_id": route["user_id"],
        "prev_user_ids": list(route.get("prev_user_ids", [])),
    }


def own_chain_told(
    item: Item, route: Route, viewer: str, viewer_shared: int | None
) -> list[str] | None:
    """The chain the viewer's own link of the post carries (their route's; one continuing
    `route`, one of the post's, when they have none), where the post, `route` and the
    viewer's count of routes shared (`SHARED_ROUTES`, None when not counted) tell it; None
    when only the post's routes can. A person has one route per post, and everyone on a
    chain has theirs on it: a viewer on `route`'s chain has its part up to them (the poster
    is on every chain of the post). A viewer off it has none when they shared no post, or
    when the post has no routes but the chain's: its `share_count` is at least the number
    of routes shared (`ItemStore.share_route` counts before it stores), and the chain holds
    that many past the poster's."""
    on_route = chain(route)
    if viewer in on_route:
        return on_route[: on_route.index(viewer) + 1]
    if viewer_shared == 0 or item.get("share_count", 0) <= len(on_route) - 1:
        return [*on_route, viewer]
    return None
