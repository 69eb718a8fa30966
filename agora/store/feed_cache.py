"""Feed pages cached in Redis under per-group versions that post changes bump.

A cached page is keyed by the versions it was read at, so a reader never sees a page older
than the last completed write: the write bumps a version and later reads miss the cache.
Two versions: `head` moves when a post is added, which can only change first pages (a new
post is newer than any cursor); `content` moves when a post is edited or hidden, or the
group changes, which can change any page.
"""

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import Redis

from agora.store.redis import Keys

PAGE_TTL_SECONDS = 300


class FeedCache:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys
        # Readers missing the same page on this edge wait for one computation, not a stampede.
        self._computing: dict[str, asyncio.Future] = {}

    async def added(self, group_id: str) -> None:
        await self.redis.incr(self.keys("feedv", group_id, "head"))

    async def changed(self, group_id: str) -> None:
        await self.redis.incr(self.keys("feedv", group_id, "content"))

    async def page(
        self,
        group_id: str,
        query: str,
        first_page: bool,
        compute: Callable[[], Awaitable[Any]],
    ) -> Any:
        head, content = await self.redis.mget(
            self.keys("feedv", group_id, "head"), self.keys("feedv", group_id, "content")
        )
        version = f"{content or 0}.{head or 0}" if first_page else f"{content or 0}"
        key = self.keys("feed", group_id, version, query)
        raw = await self.redis.get(key)
        if raw is not None:
            return json.loads(raw)
        waiting = self._computing.get(key)
        if waiting is not None:
            return await asyncio.shield(waiting)
        future = asyncio.get_running_loop().create_future()
        self._computing[key] = future
        try:
            page = await compute()
            await self.redis.set(key, json.dumps(page, separators=(",", ":")), ex=PAGE_TTL_SECONDS)
            future.set_result(page)
            return page
        except BaseException as error:
            future.set_exception(error)
            raise
        finally:
            del self._computing[key]
