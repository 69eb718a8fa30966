"""MongoDB connection (PyMongo's async API)."""

from typing import Any

from bson import ObjectId
from pymongo import AsyncMongoClient
from pymongo.asynchronous.collection import AsyncCollection
from pymongo.asynchronous.database import AsyncDatabase

from agora.settings import Settings


def connect_mongo(settings: Settings) -> AsyncMongoClient:
    return AsyncMongoClient(
        settings.mongo_url,
        tz_aware=True,
        serverSelectionTimeoutMS=5000,
        uuidRepresentation="standard",
    )


def database(client: AsyncMongoClient, settings: Settings) -> AsyncDatabase:
    return client[settings.mongo_db]


def new_id() -> str:
    """Ids are strings in the API; ObjectId text keeps them time-ordered and unique."""
    return str(ObjectId())


async def ensure_index(collection: AsyncCollection, keys: list[tuple[str, Any]], **options) -> None:
    """Creates the index once, remembering that it did in the `schema_indexes` collection.

    Asking for an existing index is a no-op on MongoDB, but nx-27017 fails when re-creating a
    text index over existing documents and does not list text indexes, hence the record.
    """
    name = options.pop("name", None) or "_".join(f"{field}_{kind}" for field, kind in keys)
    record = f"{collection.name}.{name}"
    created = collection.database["schema_indexes"]
    if name in await collection.index_information() or await created.find_one({"_id": record}):
        return
    await collection.create_index(keys, name=name, **options)
    await created.update_one({"_id": record}, {"$set": {"keys": keys}}, upsert=True)
