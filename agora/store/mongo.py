"""MongoDB connection (PyMongo's async API)."""

from bson import ObjectId
from pymongo import AsyncMongoClient
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
