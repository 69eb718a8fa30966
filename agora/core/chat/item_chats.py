"""A post's chats: one per post and person asking, named by both, made when first asked."""

from typing import Any

from agora.core.chat.constants import (
    ITEM_CHAT_PREFIX,
    SESSION_KIND_ITEM_CHAT,
    USER_TYPE_ADMIN,
    USER_TYPE_MEMBER,
)
from agora.core.documents import Item


def item_chat_id(item_id: str, user_id: str) -> str:
    """One chat per post and person asking, so two tabs opening it meet in the same chat."""
    return f"{ITEM_CHAT_PREFIX}{item_id}_{user_id}"


def parse_item_chat_id(session_id: str) -> tuple[str, str] | None:
    if not session_id.startswith(ITEM_CHAT_PREFIX):
        return None
    item_id, sep, user_id = session_id[len(ITEM_CHAT_PREFIX) :].partition("_")
    return (item_id, user_id) if sep and item_id and user_id else None


def item_chat_session(
    item: dict[str, Any], asker_id: str, route_id: str | None, at: int
) -> dict[str, Any]:
    files = item.get("files") or []
    return {
        "_id": item_chat_id(item["_id"], asker_id),
        "kind": SESSION_KIND_ITEM_CHAT,
        "title": item.get("title", ""),
        "description": (item.get("description") or "")[:140],
        "image": files[0].get("thumbnail") or files[0].get("url") if files else "",
        "files": [],
        "is_public": False,
        "is_read_allowed": False,
        "write_permission": USER_TYPE_MEMBER,
        "created_at": at,
        "updated_at": at,
        "is_inactive": False,
        "data": {
            "item_id": item["_id"],
            "owner_id": item["user_id"],
            "user_id": asker_id,
            "route_id": route_id,
            "group_id": item.get("group_id"),
        },
    }


def item_chat_members(item: Item, asker_id: str) -> dict[str, int]:
    """The poster owns the chat (may make it public); the asker is a member."""
    return {item["user_id"]: USER_TYPE_ADMIN, asker_id: USER_TYPE_MEMBER}
