"""Auth keys, stored only as hashes; revocations are broadcast to every edge."""

import asyncio
from collections.abc import AsyncIterator

from pymongo.asynchronous.database import AsyncDatabase
from redis.asyncio import Redis

from agora.core.clock import now_ms
from agora.store.mongo import ensure_index
from agora.store.redis import Keys

POLL_SECONDS = 0.5


class AuthKeyStore:
    def __init__(self, db: AsyncDatabase, redis: Redis, keys: Keys) -> None:
        self.auth_keys = db["auth_keys"]
        self.redis = redis
        self.revoked_channel = keys("auth-revoked")

    async def ensure_indexes(self) -> None:
        await ensure_index(self.auth_keys, [("user_id", 1)])

    async def add(self, key_hash: str, user_id: str) -> None:
        await self.auth_keys.insert_one(
            {"_id": key_hash, "user_id": user_id, "created_at": now_ms()}
        )

    async def user_id_for(self, key_hash: str) -> str | None:
        doc = await self.auth_keys.find_one({"_id": key_hash}, {"user_id": 1})
        return doc["user_id"] if doc else None

    async def revoke(self, key_hash: str) -> None:
        await self.auth_keys.delete_one({"_id": key_hash})
        await self.redis.publish(self.revoked_channel, key_hash)

    async def revocations(self, stop: asyncio.Event) -> AsyncIterator[str]:
        """Hashes of keys revoked on any edge, as they happen, until `stop` is set.

        Polled with a timeout rather than cancelled mid-read: cancelling a pub/sub read can
        leave its connection locked, and closing it then waits forever.
        """
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(self.revoked_channel)
        try:
            while not stop.is_set():
                message = await pubsub.get_message(timeout=POLL_SECONDS)
                if message is not None and message["type"] == "message":
                    yield message["data"]
        finally:
            await pubsub.aclose()
