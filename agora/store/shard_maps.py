"""Each shard pool's map (its count and version), one small document per pool that every
edge and shard of a deployment reads: the count can grow while the edges serve.

Several deployments (test runs) may share one database: a document is named by the
deployment's Redis prefix, as its Ray namespace is.
"""

import contextlib

from pymongo import ReturnDocument
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError

from agora.core.shard_map import FIRST_VERSION, ShardMap


class ShardMapStore:
    def __init__(self, db: AsyncDatabase, deployment: str) -> None:
        self.maps = db["shard_maps"]
        self.deployment = deployment

    def _id(self, pool: str) -> str:
        return f"{self.deployment}{pool}"

    async def current(self, pool: str, initial_count: int) -> ShardMap:
        """The pool's map; a fresh deployment's first reader writes it with `initial_count`
        (insert-if-absent on a fixed id: edges starting together all read the one that won)."""
        # An upsert, then a read: nx-27017's findAndModify skips $setOnInsert when it inserts
        # (docs/decisions.md); MongoDB would take both in one.
        with contextlib.suppress(DuplicateKeyError):  # another reader's insert won the race
            await self.maps.update_one(
                {"_id": self._id(pool)},
                {"$setOnInsert": {"count": initial_count, "version": FIRST_VERSION}},
                upsert=True,
            )
        found = await self.maps.find_one({"_id": self._id(pool)})
        return ShardMap(found["count"], found["version"])

    async def grow(self, pool: str, count: int, initial_count: int) -> tuple[ShardMap, ShardMap]:
        """Raises the pool's count to `count` (a new version); returns the maps before and
        after. A count that is not larger changes nothing: shards are never taken away (a
        session's state would have to move back)."""
        before = await self.current(pool, initial_count)
        if count <= before.count:
            return before, before
        grown = await self.maps.find_one_and_update(
            {"_id": self._id(pool), "version": before.version},
            {"$set": {"count": count}, "$inc": {"version": 1}},
            return_document=ReturnDocument.AFTER,
        )
        if grown is None:  # grown meanwhile by another command: read again and decide again
            return await self.grow(pool, count, initial_count)
        return before, ShardMap(grown["count"], grown["version"])
