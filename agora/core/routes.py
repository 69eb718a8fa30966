"""Share routes: the chain of people a post travelled through before reaching someone."""

import secrets
from typing import Any

ROUTE_ID_BYTES = 9


def new_route_id() -> str:
    return secrets.token_urlsafe(ROUTE_ID_BYTES)


def chain(route: dict[str, Any]) -> list[str]:
    """Everyone on the route, the poster first and the route's own user last."""
    return [*route.get("prev_user_ids", []), route["user_id"]]


def extended_route(parent: dict[str, Any], user_id: str, created_at: int) -> dict[str, Any]:
    """The sharer's own route, continuing the chain they arrived through."""
    return {
        "_id": new_route_id(),
        "item_id": parent["item_id"],
        "user_id": user_id,
        "prev_user_ids": chain(parent),
        "parent_route_id": parent["_id"],
        "created_at": created_at,
    }


def root_route(item_id: str, owner_id: str, created_at: int) -> dict[str, Any]:
    return {
        "_id": new_route_id(),
        "item_id": item_id,
        "user_id": owner_id,
        "prev_user_ids": [],
        "parent_route_id": None,
        "created_at": created_at,
    }


def route_view(route: dict[str, Any]) -> dict[str, Any]:
    return {
        "_id": route["_id"],
        "user_id": route["user_id"],
        "prev_user_ids": list(route.get("prev_user_ids", [])),
    }
