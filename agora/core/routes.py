"""Share routes: the chain of people a post travelled through before reaching someone."""

from typing import Any

from agora.core.documents import Route


def chain(route: Route) -> list[str]:
    """Everyone on the route, the poster first and the route's own user last."""
    return [*route.get("prev_user_ids", []), route["user_id"]]


def route_view(route: Route) -> dict[str, Any]:
    return {
        "_id": route["_id"],
        "user_id": route["user_id"],
        "prev_user_ids": list(route.get("prev_user_ids", [])),
    }
