"""Groups (stored as sessions) and memberships."""

import time
from typing import Any

from pymongo import ReturnDocument
from pymongo.asynchronous.collection import AsyncCollection
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.results import UpdateResult

from agora.core.clock import now_ms
from agora.core.constants import NOTIFICATION_UNMUTED
from agora.store.mongo import ensure_index

GROUP_KIND = "group"
GROUP_COPY_SECONDS = 1.0
GROUP_COPIES_MAX = 10_000


def membership_id(session_id: str, user_id: str) -> str:
    return f"{session_id}:{user_id}"


async def add_membership(
    members: AsyncCollection, session_id: str, user_id: str, user_type: int
) -> UpdateResult:
    """Adds the user to the session with `user_type` unless they are in it already."""
    now = now_ms()
    return await members.update_one(
        {"_id": membership_id(session_id, user_id)},
        {
            "$setOnInsert": {
                "session_id": session_id,
                "user_id": user_id,
                "session_user_type": user_type,
                "notification_flag": NOTIFICATION_UNMUTED,
                "unseen_count": 0,
                "is_dummy": False,
                "created_at": now,
                "updated_at": now,
            }
        },
        upsert=True,
    )


class GroupStore:
    def __init__(self, db: AsyncDatabase) -> None:
        self.sessions = db["sessions"]
        self.members = db["session_users"]
        # Every feed read needs its group; a second-old copy spares MongoDB most of them.
        # Changes made through this edge drop the copy at once, other edges' within a second.
        self._recent: dict[str, tuple[float, dict[str, Any]]] = {}

    async def ensure_indexes(self) -> None:
        await ensure_index(self.members, [("session_id", 1), ("session_user_type", 1)])
        await ensure_index(self.members, [("user_id", 1), ("updated_at", -1)])
        await ensure_index(self.sessions, [("kind", 1), ("created_at", -1)])

    async def get(self, group_id: str) -> dict[str, Any] | None:
        now = time.monotonic()
        recent = self._recent.get(group_id)
        if recent is not None and now - recent[0] < GROUP_COPY_SECONDS:
            return recent[1]
        group = await self.sessions.find_one({"_id": group_id, "kind": GROUP_KIND})
        if group is not None:
            if len(self._recent) >= GROUP_COPIES_MAX:
                self._recent.clear()
            self._recent[group_id] = (now, group)
        return group

    async def create(self, group: dict[str, Any]) -> dict[str, Any]:
        """Inserts the group unless one with its id exists; returns the stored one."""
        fields = {k: v for k, v in group.items() if k != "_id"}
        # update_one, not find_one_and_update: nx-27017 drops $setOnInsert in the latter.
        await self.sessions.update_one(
            {"_id": group["_id"]}, {"$setOnInsert": {**fields, "kind": GROUP_KIND}}, upsert=True
        )
        return await self.get(group["_id"]) or {**group, "kind": GROUP_KIND}

    async def update(self, group_id: str, fields: dict[str, Any]) -> dict[str, Any] | None:
        self._recent.pop(group_id, None)
        return await self.sessions.find_one_and_update(
            {"_id": group_id, "kind": GROUP_KIND},
            {"$set": fields},
            return_document=ReturnDocument.AFTER,
        )

    async def count_posts(self, group_id: str, change: int) -> None:
        self._recent.pop(group_id, None)
        await self.sessions.update_one({"_id": group_id}, {"$inc": {"data.num_posts": change}})

    async def latest(self, limit: int) -> list[dict[str, Any]]:
        cursor = self.sessions.find({"kind": GROUP_KIND}).sort("created_at", -1).limit(limit)
        return await cursor.to_list()

    async def membership(self, group_id: str, user_id: str) -> dict[str, Any] | None:
        return await self.members.find_one({"_id": membership_id(group_id, user_id)})

    async def join(self, group_id: str, user_id: str, user_type: int) -> dict[str, Any]:
        """Adds the user with `user_type` unless already a member; returns the membership."""
        result = await add_membership(self.members, group_id, user_id, user_type)
        if result.upserted_id is not None:
            self._recent.pop(group_id, None)
            await self.sessions.update_one({"_id": group_id}, {"$inc": {"data.num_members": 1}})
        return await self.membership(group_id, user_id) or {}
