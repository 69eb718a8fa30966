"""Auth keys, stored only as hashes; revocations are announced to every edge.

Each edge keeps the keys it has seen lately (key hash -> user id), safe because every
revocation is announced (see `store/announced_copies.py`).
"""

import asyncio
from collections.abc import AsyncIterator

from pymongo.asynchronous.database import AsyncDatabase
from redis.asyncio import Redis

from agora.core.clock import now_ms
from agora.store.announced_copies import AnnouncedCopies
from agora.store.mongo import Indexes
from agora.store.redis import Keys


class AuthKeyStore:
    def __init__(self, db: AsyncDatabase, redis: Redis, keys: Keys) -> None:
        self.auth_keys = db["auth_keys"]
        self._copies: AnnouncedCopies[str] = AnnouncedCopies(
            "auth key",
            redis,
            keys("auth-revoked"),
            # Unknown keys are refused anyway; keeping them would let anyone fill the table.
            keep_missing=False,
        )

    async def ensure_indexes(self, indexes: Indexes) -> None:
        await indexes.ensure(self.auth_keys, [("user_id", 1)])

    async def add(self, key_hash: str, user_id: str) -> None:
        await self.auth_keys.insert_one(
            {"_id": key_hash, "user_id": user_id, "created_at": now_ms()}
        )

    async def user_id_for(self, key_hash: str) -> str | None:
        return await self._copies.get(key_hash, lambda: self._read(key_hash))

    async def _read(self, key_hash: str) -> str | None:
        doc = await self.auth_keys.find_one({"_id": key_hash}, {"user_id": 1})
        return doc["user_id"] if doc else None

    async def revoke(self, key_hash: str) -> None:
        await self.auth_keys.delete_one({"_id": key_hash})
        await self._copies.announce(key_hash)

    def revocations(self, stop: asyncio.Event) -> AsyncIterator[str]:
        """Hashes of keys revoked on any edge, as they happen, until `stop` is set."""
        return self._copies.changes(stop)
