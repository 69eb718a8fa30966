"""Users collection."""

from typing import Any

from pymongo import ReturnDocument
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError

from agora.core.accounts import EMAIL_FIELD, PHONE_FIELD, Identifier, identifier_in_use
from agora.core.clock import now_ms
from agora.store.mongo import ensure_index, new_id


class UserStore:
    def __init__(self, db: AsyncDatabase) -> None:
        self.users = db["users"]

    async def ensure_indexes(self) -> None:
        # Partial indexes: a user may have only an e-mail or only a phone.
        for field in (EMAIL_FIELD, PHONE_FIELD):
            await ensure_index(
                self.users,
                [(field, 1)],
                unique=True,
                partialFilterExpression={field: {"$type": "string"}},
            )

    async def get(self, user_id: str) -> dict[str, Any] | None:
        return await self.users.find_one({"_id": user_id})

    async def by_ids(self, user_ids: list[str]) -> list[dict[str, Any]]:
        return await self.users.find({"_id": {"$in": list(set(user_ids))}}).to_list()

    async def find_by_identifier(self, ident: Identifier) -> dict[str, Any] | None:
        return await self.users.find_one({ident.field: ident.value})

    async def create(self, ident: Identifier, name: str) -> dict[str, Any]:
        """Creates the user, or returns the one a concurrent login just created."""
        doc = {
            "_id": new_id(),
            "name": name,
            "image": "",
            ident.field: ident.value,
            "data": {"notifications_unseen_count": 0},
            "created_at": now_ms(),
        }
        try:
            await self.users.insert_one(doc)
        except DuplicateKeyError:
            existing = await self.find_by_identifier(ident)
            if existing is None:
                raise
            return existing
        return doc

    async def update_fields(self, user_id: str, fields: dict[str, Any]) -> dict[str, Any] | None:
        try:
            return await self.users.find_one_and_update(
                {"_id": user_id}, {"$set": fields}, return_document=ReturnDocument.AFTER
            )
        except DuplicateKeyError as exc:
            field = EMAIL_FIELD if EMAIL_FIELD in fields else PHONE_FIELD
            raise identifier_in_use(field) from exc
