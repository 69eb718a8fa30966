"""The deployment's VAPID key pair, made once and kept in MongoDB: every edge signs with
the same key, the one the browsers subscribed with."""

import contextlib
from collections.abc import Callable
from typing import Any

from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError

from agora.core.clock import now_ms

VAPID_DOC_ID = "vapid"


class VapidKeyStore:
    def __init__(self, db: AsyncDatabase) -> None:
        self.settings = db["push_settings"]

    async def get_or_create(self, generate: Callable[[], dict[str, str]]) -> dict[str, Any]:
        """The stored pair, or a new one; edges starting together all end up with the pair
        whose insert won (insert-if-absent on a fixed id)."""
        found = await self.settings.find_one({"_id": VAPID_DOC_ID})
        if found is not None:
            return found
        with contextlib.suppress(DuplicateKeyError):
            await self.settings.insert_one(
                {"_id": VAPID_DOC_ID, **generate(), "created_at": now_ms()}
            )
        return await self.settings.find_one({"_id": VAPID_DOC_ID})
