"""Share routes: the chain of people a post travelled through before reaching someone."""

from typing import Any

from agora.core.documents import Item, Route


def chain(route: Route) -> list[str]:
    """Everyone on the route, the poster first and the route's own user last."""
    return [*route.get("prev_user_ids", []), route["user_id"]]


def route_view(route: Route) -> dict[str, Any]:
    return {
        "_id": route["_id"],
        "user_id": route["user_id"],
        "prev_user_ids": list(route.get("prev_user_ids", [])),
    }


def own_chain_told(item: Item, route: Route, viewer: str) -> list[str] | None:
    """The chain the viewer's own link of the post carries (their route's; one continuing
    `route`, one of the post's, when they have none), where the post and `route` tell it;
    None when only the post's routes can. A person has one route per post, and everyone on
    a chain has theirs on it: a viewer on `route`'s chain has its part up to them. A viewer
    off it has none when the post has no routes but the chain's: its `share_count` is at
    least the number of routes shared (`ItemStore.share_route` counts before it stores),
    and the chain holds that many past the poster's."""
    on_route = chain(route)
    if viewer in on_route:
        return on_route[: on_route.index(viewer) + 1]
    if item.get("share_count", 0) <= len(on_route) - 1:
        return [*on_route, viewer]
    return None
