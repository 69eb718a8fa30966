"""Error reports sent by browsers."""

from typing import Any

from pymongo.asynchronous.database import AsyncDatabase

from agora.core.clock import now_ms
from agora.store.mongo import new_id


class ClientErrorStore:
    def __init__(self, db: AsyncDatabase) -> None:
        self.reports = db["client_errors"]

    async def add(self, **report: str | None) -> None:
        """Keeps one report (its fields as the browser named them), stamped now."""
        await self.reports.insert_one({"_id": new_id(), **report, "created_at": now_ms()})

    async def recent(self, limit: int) -> list[dict[str, Any]]:
        return await self.reports.find().sort("created_at", -1).limit(limit).to_list()
