"""Meta's webhook deliveries as received, kept until processed: a delivery is answered 200
once it is stored here, and what an edge could not finish is taken up again by any edge."""

from typing import Any

from pymongo import ReturnDocument
from pymongo.asynchronous.database import AsyncDatabase

from agora.store.mongo import Indexes, new_id


class WhatsAppEventStore:
    def __init__(self, db: AsyncDatabase) -> None:
        self.events = db["whatsapp_events"]

    async def ensure_indexes(self, indexes: Indexes) -> None:
        await indexes.ensure(self.events, [("processed_at", 1), ("lease_until", 1)])

    async def add(self, raw: str, channel_ids: list[str], at: int, lease_until: int) -> str:
        """The delivery, held by the storing edge until `lease_until` (it processes it now)."""
        event_id = new_id()
        await self.events.insert_one(
            {
                "_id": event_id,
                "raw": raw,
                "channel_ids": channel_ids,
                "received_at": at,
                "processed_at": None,
                "lease_until": lease_until,
                "attempts": 1,
            }
        )
        return event_id

    async def processed(self, event_id: str, at: int, outcome: str = "done") -> None:
        await self.events.update_one(
            {"_id": event_id}, {"$set": {"processed_at": at, "outcome": outcome}}
        )

    async def take_stalled(self, now: int, lease_until: int) -> dict[str, Any] | None:
        """An unprocessed delivery whose lease ran out (its edge died or failed), now held by
        the caller until `lease_until`; None when there is none."""
        return await self.events.find_one_and_update(
            {"processed_at": None, "lease_until": {"$lt": now}},
            {"$set": {"lease_until": lease_until}, "$inc": {"attempts": 1}},
            sort=[("received_at", 1)],
            return_document=ReturnDocument.AFTER,
        )

    async def forget_processed(self, before: int) -> None:
        await self.events.delete_many({"processed_at": {"$ne": None, "$lt": before}})
