"""Link previews cached in Redis, failures too (briefly), so a link is fetched rarely."""

import hashlib
import json

from redis.asyncio import Redis

from agora.store.redis import Keys

FOUND_TTL_SECONDS = 24 * 3600
MISSING_TTL_SECONDS = 600


class LinkPreviewCache:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys

    def _key(self, url: str) -> str:
        return self.keys("preview", hashlib.sha256(url.encode()).hexdigest())

    async def get(self, url: str) -> dict | None:
        raw = await self.redis.get(self._key(url))
        return json.loads(raw) if raw else None

    async def put(self, url: str, preview: dict, found: bool) -> None:
        ttl = FOUND_TTL_SECONDS if found else MISSING_TTL_SECONDS
        await self.redis.set(self._key(url), json.dumps(preview), ex=ttl)
