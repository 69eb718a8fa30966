"""Group commit against the MongoDB-wire server: shared commands, separate outcomes."""

import asyncio
import uuid

import pytest
from pymongo import AsyncMongoClient
from pymongo.errors import DuplicateKeyError

from agora.store.batched_writes import BatchedWrites


@pytest.fixture
async def collection(mongo_url):
    client = AsyncMongoClient(mongo_url)
    yield client["agora_test"][f"batched_{uuid.uuid4().hex[:8]}"]
    await client.close()


async def test_each_caller_learns_whether_its_own_insert_went_in(collection):
    await collection.create_index("key", unique=True)
    writes = BatchedWrites(collection)
    docs = [{"_id": f"d{n}", "key": n % 7} for n in range(30)]
    outcomes = await asyncio.gather(*(writes.insert(d) for d in docs), return_exceptions=True)
    refused = [d["_id"] for d, o in zip(docs, outcomes, strict=True) if o is not None]
    assert all(isinstance(o, DuplicateKeyError) for o in outcomes if o is not None)
    stored = {d["_id"] async for d in collection.find({})}
    assert len(stored) == 7
    assert stored.isdisjoint(refused)
    assert stored | set(refused) == {d["_id"] for d in docs}


async def test_updates_in_one_batch_all_apply(collection):
    await collection.insert_many([{"_id": n, "seen": 0} for n in range(20)])
    writes = BatchedWrites(collection)
    await asyncio.gather(
        *(writes.update({"_id": n}, {"$inc": {"seen": 1}}) for n in range(20) for _ in range(3))
    )
    assert sorted([d["seen"] async for d in collection.find({})]) == [3] * 20


async def test_a_document_bson_cannot_hold_fails_alone(collection):
    writes = BatchedWrites(collection)
    docs = [{"_id": f"d{n}", "at": 10**20 if n == 3 else n} for n in range(10)]
    outcomes = await asyncio.gather(*(writes.insert(d) for d in docs), return_exceptions=True)
    assert isinstance(outcomes[3], OverflowError)
    assert [o for n, o in enumerate(outcomes) if n != 3] == [None] * 9
    stored = sorted([d["_id"] async for d in collection.find({})])
    assert stored == sorted(f"d{n}" for n in range(10) if n != 3)


async def test_many_documents_at_once_each_get_their_own_outcome(collection):
    await collection.create_index("key", unique=True)
    await collection.insert_one({"_id": "before", "key": 2})
    writes = BatchedWrites(collection)
    docs = [{"_id": f"d{n}", "key": n, "at": 10**20 if n == 4 else n} for n in range(6)]
    alone = asyncio.ensure_future(writes.insert({"_id": "alone", "key": 100}))

    outcomes = await writes.insert_each(docs)

    await alone
    assert [type(o).__name__ for o in outcomes] == [
        "NoneType", "NoneType", "DuplicateKeyError", "NoneType", "OverflowError", "NoneType"
    ]  # fmt: skip
    stored = sorted([d["_id"] async for d in collection.find({})])
    assert stored == ["alone", "before", "d0", "d1", "d3", "d5"]
    assert await writes.insert_each([]) == []
