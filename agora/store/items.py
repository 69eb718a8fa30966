"""Posts and their share routes. Chats and offers look a post up on every call: edges keep
copies, and every change to a post is announced (`store/announced_copies.py`)."""

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from pymongo import ReturnDocument
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError
from redis.asyncio import Redis

from agora.core.constants import ITEM_HIDDEN_SORT_ORDER
from agora.store.announced_copies import AnnouncedCopies
from agora.store.mongo import ensure_index
from agora.store.redis import Keys

ITEM_COPY_SECONDS = 60.0
ITEM_COPY_REFRESH_SECONDS = 45.0


class ItemStore:
    def __init__(self, db: AsyncDatabase, redis: Redis, keys: Keys) -> None:
        self.items = db["items"]
        self.routes = db["routes"]
        self._copies: AnnouncedCopies[dict[str, Any]] = AnnouncedCopies(
            "post",
            redis,
            keys("posts-changed"),
            fresh_for=ITEM_COPY_SECONDS,
            refresh_after=ITEM_COPY_REFRESH_SECONDS,
            keep_missing=False,
        )

    async def ensure_indexes(self) -> None:
        await ensure_index(self.items, [("group_id", 1), ("feed_key", -1)])
        await ensure_index(self.items, [("user_id", 1), ("feed_key", -1)])
        await ensure_index(self.items, [("search_text", "text")])
        await ensure_index(self.routes, [("item_id", 1), ("user_id", 1)], unique=True)

    async def insert(self, item: dict[str, Any], root: dict[str, Any]) -> None:
        await self.routes.insert_one(root)
        await self.items.insert_one(item)

    async def get(self, item_id: str) -> dict[str, Any] | None:
        return await self._copies.get(item_id, lambda: self.items.find_one({"_id": item_id}))

    def changes(self, stop: asyncio.Event) -> AsyncIterator[str]:
        """Ids of posts changed on any edge; heard, they keep this edge's copies true."""
        return self._copies.changes(stop)

    async def update(
        self, item_id: str, owner_id: str, fields: dict[str, Any]
    ) -> dict[str, Any] | None:
        """Changes a visible post of this owner; None when there is no such post."""
        updated = await self.items.find_one_and_update(
            {"_id": item_id, "user_id": owner_id, "sort_order": {"$ne": ITEM_HIDDEN_SORT_ORDER}},
            {"$set": fields},
            return_document=ReturnDocument.AFTER,
        )
        if updated is not None:
            await self._copies.announce(item_id)
        return updated

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
        # The count the badges show; the routes themselves stay the truth.
        await self.items.update_one({"_id": route["item_id"]}, {"$inc": {"share_count": 1}})
        await self._copies.announce(route["item_id"])
        return route
