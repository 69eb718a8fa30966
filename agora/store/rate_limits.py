"""Fixed-window counters in Redis, shared by every edge."""

from redis.asyncio import Redis

from agora.core.errors import RateLimited
from agora.store.redis import Keys


class RateLimiter:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys

    async def check(self, bucket: str, limit: int) -> None:
        """Raises RateLimited while the bucket's window is past its limit; counts nothing."""
        key = self.keys("rate", bucket)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.get(key)
            pipe.ttl(key)
            count, ttl = await pipe.execute()
        if count is not None and int(count) >= limit:
            raise RateLimited(ttl if ttl > 0 else 1)

    async def hit(
        self, bucket: str, limit: int, window_seconds: int, errors: str | None = None
    ) -> None:
        """Counts one event in the bucket; raises RateLimited (with `errors`, when given) once
        the window's limit is passed."""
        key = self.keys("rate", bucket)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.incr(key)
            pipe.expire(key, window_seconds, nx=True)
            pipe.ttl(key)
            count, _, ttl = await pipe.execute()
        if count > limit:
            raise RateLimited(ttl if ttl > 0 else window_seconds, errors)
