"""Auth keys, stored only as hashes; revocations are broadcast to every edge.

Each edge keeps the keys it has seen lately (key hash -> user id) so that a logged-in reader
does not cost a MongoDB read per call. That is safe only while the edge hears revocations:
copies are used while a subscription to the revocation channel is confirmed, a revocation
drops the copy on every edge as its message arrives (the revoking edge drops its own first),
and losing the subscription forgets every copy.
"""

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from pymongo.asynchronous.database import AsyncDatabase
from redis.asyncio import Redis
from redis.exceptions import RedisError

from agora.core.clock import now_ms
from agora.store.local_copies import LocalCopies
from agora.store.mongo import ensure_index
from agora.store.redis import Keys

log = logging.getLogger("agora.store")

POLL_SECONDS = 0.5
RESUBSCRIBE_SECONDS = 1.0
# Keys are only ever removed by revoke(), which broadcasts; the age bound limits the damage
# should a key document ever be deleted some other way.
KEY_COPY_SECONDS = 300.0
KEY_COPY_REFRESH_SECONDS = 240.0


class AuthKeyStore:
    def __init__(self, db: AsyncDatabase, redis: Redis, keys: Keys) -> None:
        self.auth_keys = db["auth_keys"]
        self.redis = redis
        self.revoked_channel = keys("auth-revoked")
        self._copies: LocalCopies[str] = LocalCopies(
            "auth key",
            fresh_for=KEY_COPY_SECONDS,
            refresh_after=KEY_COPY_REFRESH_SECONDS,
            # Unknown keys are refused anyway; keeping them would let anyone fill the table.
            keep_missing=False,
        )
        self._subscriptions = 0  # confirmed subscriptions to the revocation channel

    async def ensure_indexes(self) -> None:
        await ensure_index(self.auth_keys, [("user_id", 1)])

    async def add(self, key_hash: str, user_id: str) -> None:
        await self.auth_keys.insert_one(
            {"_id": key_hash, "user_id": user_id, "created_at": now_ms()}
        )

    async def user_id_for(self, key_hash: str) -> str | None:
        if not self._subscriptions:
            # Nobody listens for revocations: another edge's logout could go unheard.
            return await self._read(key_hash)
        return await self._copies.get(key_hash, lambda: self._read(key_hash))

    async def _read(self, key_hash: str) -> str | None:
        doc = await self.auth_keys.find_one({"_id": key_hash}, {"user_id": 1})
        return doc["user_id"] if doc else None

    async def revoke(self, key_hash: str) -> None:
        self._copies.drop(key_hash)
        await self.auth_keys.delete_one({"_id": key_hash})
        await self.redis.publish(self.revoked_channel, key_hash)

    async def revocations(self, stop: asyncio.Event) -> AsyncIterator[str]:
        """Hashes of keys revoked on any edge, as they happen, until `stop` is set.

        A lost connection is re-established after RESUBSCRIBE_SECONDS; revocations sent
        meanwhile are not heard, which is why the copies go with the subscription.
        """
        while not stop.is_set():
            try:
                # Closed with this generator, so its subscription ends with it.
                async with contextlib.aclosing(self._subscribed(stop)) as heard:
                    async for key_hash in heard:
                        yield key_hash
            except (RedisError, OSError) as exc:
                log.warning("revocation channel lost, subscribing again: %r", exc)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), RESUBSCRIBE_SECONDS)

    async def _subscribed(self, stop: asyncio.Event) -> AsyncIterator[str]:
        """Polled with a timeout rather than cancelled mid-read: cancelling a pub/sub read can
        leave its connection locked, and closing it then waits forever.
        """
        pubsub = self.redis.pubsub()
        confirmed = False
        try:
            await pubsub.subscribe(self.revoked_channel)
            while not stop.is_set():
                message = await pubsub.get_message(timeout=POLL_SECONDS)
                if message is None:
                    continue
                if message["type"] == "subscribe" and not confirmed:
                    # Revocations are heard from here on, so copies can be trusted.
                    confirmed = True
                    self._subscriptions += 1
                elif message["type"] == "message":
                    self._copies.drop(message["data"])
                    yield message["data"]
        finally:
            if confirmed:
                self._subscriptions -= 1
                if not self._subscriptions:
                    self._copies.clear()
            await pubsub.aclose()
