"""Posts and their share routes."""

from typing import Any

from pymongo import ReturnDocument
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError

from agora.core.constants import ITEM_HIDDEN_SORT_ORDER
from agora.store.mongo import ensure_index


class ItemStore:
    def __init__(self, db: AsyncDatabase) -> None:
        self.items = db["items"]
        self.routes = db["routes"]

    async def ensure_indexes(self) -> None:
        await ensure_index(self.items, [("group_id", 1), ("feed_key", -1)])
        await ensure_index(self.items, [("user_id", 1), ("feed_key", -1)])
        await ensure_index(self.items, [("search_text", "text")])
        await ensure_index(self.routes, [("item_id", 1), ("user_id", 1)], unique=True)

    async def insert(self, item: dict[str, Any], root: dict[str, Any]) -> None:
        await self.routes.insert_one(root)
        await self.items.insert_one(item)

    async def get(self, item_id: str) -> dict[str, Any] | None:
        return await self.items.find_one({"_id": item_id})

    async def update(
        self, item_id: str, owner_id: str, fields: dict[str, Any]
    ) -> dict[str, Any] | None:
        """Changes a visible post of this owner; None when there is no such post."""
        return await self.items.find_one_and_update(
            {"_id": item_id, "user_id": owner_id, "sort_order": {"$ne": ITEM_HIDDEN_SORT_ORDER}},
            {"$set": fields},
            return_document=ReturnDocument.AFTER,
        )

    async def page(
        self,
        query: dict[str, Any],
        before_key: str | None,
        limit: int,
    ) -> list[dict[str, Any]]:
        """Visible posts matching `query`, newest first, strictly after the cursor key."""
        conditions = {**query, "sort_order": {"$ne": ITEM_HIDDEN_SORT_ORDER}}
        if before_key is not None:
            conditions["feed_key"] = {"$lt": before_key}
        return await self.items.find(conditions).sort("feed_key", -1).limit(limit).to_list()

    async def by_ids(self, item_ids: list[str]) -> list[dict[str, Any]]:
        return await self.items.find({"_id": {"$in": item_ids}}).to_list()

    async def route(self, route_id: str) -> dict[str, Any] | None:
        return await self.routes.find_one({"_id": route_id})

    async def route_of(self, item_id: str, user_id: str) -> dict[str, Any] | None:
        return await self.routes.find_one({"item_id": item_id, "user_id": user_id})

    async def add_route(self, route: dict[str, Any]) -> dict[str, Any]:
        """Stores the route unless that user already has one for the item; returns theirs."""
        try:
            await self.routes.insert_one(route)
        except DuplicateKeyError:
            existing = await self.route_of(route["item_id"], route["user_id"])
            if existing is None:
                raise
            return existing
        return route
