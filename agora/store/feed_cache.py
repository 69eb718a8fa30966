"""Feed pages cached in Redis under a per-group version that every post change bumps.

A cached page is keyed by the version it was read at, so a reader never sees a page older
than the last completed write: the write bumps the version and later reads miss the cache.
"""

import json
from typing import Any

from redis.asyncio import Redis

from agora.store.redis import Keys

PAGE_TTL_SECONDS = 300


class FeedCache:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys

    async def version(self, group_id: str) -> int:
        return int(await self.redis.get(self.keys("feedv", group_id)) or 0)

    async def bump(self, group_id: str) -> None:
        await self.redis.incr(self.keys("feedv", group_id))

    async def get(self, group_id: str, version: int, query: str) -> Any | None:
        raw = await self.redis.get(self.keys("feed", group_id, str(version), query))
        return json.loads(raw) if raw else None

    async def put(self, group_id: str, version: int, query: str, page: Any) -> None:
        key = self.keys("feed", group_id, str(version), query)
        await self.redis.set(key, json.dumps(page, separators=(",", ":")), ex=PAGE_TTL_SECONDS)
