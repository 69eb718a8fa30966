"""Users collection. Every signed-in call needs its user: edges keep copies, and every
change to a user is announced so that no edge serves an old one (`store/announced_copies.py`).
"""

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from pymongo import ReturnDocument
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError
from redis.asyncio import Redis

from agora.core.accounts import EMAIL_FIELD, PHONE_FIELD, Identifier, identifier_in_use
from agora.core.clock import now_ms
from agora.core.documents import User
from agora.core.routes import SHARED_ROUTES
from agora.store.announced_copies import AnnouncedCopies
from agora.store.mongo import Indexes, new_id
from agora.store.reads_together import find_in
from agora.store.redis import Keys


class UserStore:
    def __init__(self, db: AsyncDatabase, redis: Redis, keys: Keys) -> None:
        self.users = db["users"]
        self._copies: AnnouncedCopies[dict[str, Any]] = AnnouncedCopies(
            "user",
            redis,
            keys("users-changed"),
            # A user is looked up by an id some key or link named; unknown ids are not kept.
            keep_missing=False,
        )

    async def ensure_indexes(self, indexes: Indexes) -> None:
        # Partial indexes: a user may have only an e-mail or only a phone.
        for field in (EMAIL_FIELD, PHONE_FIELD):
            await indexes.ensure(
                self.users,
                [(field, 1)],
                unique=True,
                partialFilterExpression={field: {"$type": "string"}},
            )

    async def get(self, user_id: str) -> User | None:
        return await self._copies.get(user_id, lambda: self.users.find_one({"_id": user_id}))

    async def changed(self, user_id: str) -> None:
        """Called after any write to the user: every edge's copy goes."""
        await self._copies.announce(user_id)

    def changes(self, stop: asyncio.Event) -> AsyncIterator[str]:
        """Ids of users changed on any edge, as they happen; edges listen while they serve."""
        return self._copies.changes(stop)

    async def by_ids(self, user_ids: list[str]) -> list[User]:
        """The users found, from this edge's copies where it has them (a page of messages
        names its senders, mostly the same few people)."""
        found = await self._copies.get_many(user_ids, self._read_many)
        return list(found.values())

    async def _read_many(self, user_ids: list[str]) -> dict[str, User]:
        return {user["_id"]: user for user in await find_in(self.users, "_id", user_ids)}

    async def find_by_identifier(self, ident: Identifier) -> User | None:
        return await self.users.find_one({ident.field: ident.value})

    async def create(self, ident: Identifier, name: str) -> User:
        """Creates the user, or returns the one a concurrent login just created."""
        doc = {
            "_id": new_id(),
            "name": name,
            "image": "",
            ident.field: ident.value,
            "data": {"notifications_unseen_count": 0},
            "created_at": now_ms(),
            SHARED_ROUTES: 0,
        }
        try:
            await self.users.insert_one(doc)
        except DuplicateKeyError:
            existing = await self.find_by_identifier(ident)
            if existing is None:
                raise
            return existing
        return doc

    async def count_shared_routes(self, user_id: str, by: int) -> None:
        """Moves the user's count of routes shared (`core.routes.SHARED_ROUTES`)."""
        await self.users.update_one({"_id": user_id}, {"$inc": {SHARED_ROUTES: by}})
        await self.changed(user_id)

    async def update_fields(self, user_id: str, fields: dict[str, Any]) -> User | None:
        try:
            updated = await self.users.find_one_and_update(
                {"_id": user_id}, {"$set": fields}, return_document=ReturnDocument.AFTER
            )
        except DuplicateKeyError as exc:
            field = EMAIL_FIELD if EMAIL_FIELD in fields else PHONE_FIELD
            raise identifier_in_use(field) from exc
        await self.changed(user_id)
        return updated
