"""Chat messages. A unique (src_id, local_id) index makes a resent message a no-op."""

import asyncio
from typing import Any

from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError

from agora.store.batched_writes import BatchedWrites
from agora.store.mongo import ensure_index


class MessageStore:
    def __init__(self, db: AsyncDatabase) -> None:
        self.messages = db["messages"]
        # The batches of all sessions a shard serves share insert commands.
        self._writes = BatchedWrites(self.messages)

    async def ensure_indexes(self) -> None:
        await ensure_index(self.messages, [("dest_session_id", 1), ("created_at", -1)])
        await ensure_index(
            self.messages,
            [("src_id", 1), ("local_id", 1)],
            unique=True,
            partialFilterExpression={"local_id": {"$type": "string"}},
        )

    async def insert(self, messages: list[dict[str, Any]]) -> set[int]:
        """Stores the messages; returns the positions that were already stored (resends)."""
        outcomes = await asyncio.gather(
            *(self._writes.insert(m) for m in messages), return_exceptions=True
        )
        for outcome in outcomes:
            if isinstance(outcome, BaseException) and not isinstance(outcome, DuplicateKeyError):
                raise outcome
        return {i for i, outcome in enumerate(outcomes) if isinstance(outcome, DuplicateKeyError)}

    async def renumber(self, message_id: str, seq: int) -> None:
        await self._writes.update({"_id": message_id}, {"$set": {"seq": seq}})

    async def by_local_ids(self, keys: list[tuple[str, str]]) -> list[dict[str, Any]]:
        if not keys:
            return []
        query = {"$or": [{"src_id": src, "local_id": local} for src, local in keys]}
        return await self.messages.find(query).to_list()

    async def newest(self, session_id: str, limit: int) -> list[dict[str, Any]]:
        """The session's latest messages, oldest first."""
        found = await (
            self.messages.find({"dest_session_id": session_id})
            .sort("created_at", -1)
            .limit(limit)
            .to_list()
        )
        return found[::-1]

    async def page(
        self,
        session_id: str,
        *,
        after: int | None = None,
        before: int | None = None,
        limit: int,
    ) -> list[dict[str, Any]]:
        """Up to `limit` messages, oldest first: the first ones after `after`, or the last ones
        before `before` (or the newest when neither is given)."""
        query: dict[str, Any] = {"dest_session_id": session_id}
        if after is not None:
            query["created_at"] = {"$gt": after}
            return await self.messages.find(query).sort("created_at", 1).limit(limit).to_list()
        if before is not None:
            query["created_at"] = {"$lt": before}
        found = await self.messages.find(query).sort("created_at", -1).limit(limit).to_list()
        return found[::-1]

    async def get(self, session_id: str, created_at: int) -> dict[str, Any] | None:
        return await self.messages.find_one(
            {"dest_session_id": session_id, "created_at": created_at}
        )
