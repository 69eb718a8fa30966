"""An edge's copies of auth keys: used only while it hears revocations, dropped by them."""

import asyncio

import pytest

from agora.store.auth_keys import AuthKeyStore
from agora.store.mongo import connect_mongo, database
from agora.store.redis import Keys, connect_redis


@pytest.fixture
async def edges(settings_for):
    """Two edges' key stores on one database and Redis prefix, and the database."""
    settings = settings_for()
    mongo = connect_mongo(settings)
    redis = connect_redis(settings)
    db = database(mongo, settings)
    keys = Keys(settings.redis_prefix)
    yield AuthKeyStore(db, redis, keys), AuthKeyStore(db, redis, keys), db
    await redis.aclose()
    await mongo.close()


async def _heard(heard: asyncio.Queue, key_hash: str) -> None:
    while (await asyncio.wait_for(heard.get(), timeout=10)) != key_hash:
        pass


async def _listening(edge: AuthKeyStore, other: AuthKeyStore, heard: asyncio.Queue) -> None:
    """Returns once `edge` hears revocations: a probe sent before its subscription is lost."""
    for attempt in range(100):
        await other.revoke(f"probe-{attempt}")
        try:
            await asyncio.wait_for(_heard(heard, f"probe-{attempt}"), timeout=0.1)
            return
        except TimeoutError:
            continue
    raise AssertionError("the edge never heard a revocation")


async def test_keys_are_kept_only_while_revocations_are_heard_and_a_revocation_drops_them(edges):
    edge, other, db = edges
    await edge.add("hash-1", "user-1")
    assert await edge.user_id_for("hash-1") == "user-1"
    await db.auth_keys.delete_one({"_id": "hash-1"})
    # Nobody listens for revocations yet, so nothing was kept.
    assert await edge.user_id_for("hash-1") is None

    stop, heard = asyncio.Event(), asyncio.Queue()

    async def listen() -> None:
        async for key_hash in edge.revocations(stop):
            heard.put_nowait(key_hash)

    listener = asyncio.create_task(listen())
    try:
        await _listening(edge, other, heard)
        await edge.add("hash-2", "user-2")
        assert await edge.user_id_for("hash-2") == "user-2"
        await db.auth_keys.delete_one({"_id": "hash-2"})
        assert await edge.user_id_for("hash-2") == "user-2"  # the edge's copy
        await other.revoke("hash-2")  # a logout on another edge
        await _heard(heard, "hash-2")
        assert await edge.user_id_for("hash-2") is None
    finally:
        stop.set()
        await listener

    await edge.add("hash-3", "user-3")
    assert await edge.user_id_for("hash-3") == "user-3"
    await db.auth_keys.delete_one({"_id": "hash-3"})
    # The subscription ended, and with it every copy.
    assert await edge.user_id_for("hash-3") is None
