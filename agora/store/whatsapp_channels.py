"""WhatsApp channels: one per group and per business number, their secrets kept sealed."""

from typing import Any

from pymongo import ReturnDocument
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError

from agora.core.clock import now_ms
from agora.store.mongo import Indexes, new_id


class ChannelTaken(Exception):
    """Another group's channel has this number, or another connect won the race."""


class WhatsAppChannelStore:
    def __init__(self, db: AsyncDatabase) -> None:
        self.channels = db["whatsapp_channels"]

    async def ensure_indexes(self, indexes: Indexes) -> None:
        await indexes.ensure(self.channels, [("group_id", 1)], unique=True)
        await indexes.ensure(self.channels, [("phone_number_id", 1)], unique=True)

    def new_id(self) -> str:
        return new_id()

    async def for_group(self, group_id: str) -> dict[str, Any] | None:
        return await self.channels.find_one({"group_id": group_id})

    async def get(self, channel_id: str) -> dict[str, Any] | None:
        return await self.channels.find_one({"_id": channel_id})

    async def with_number(self, phone_number_id: str) -> dict[str, Any] | None:
        return await self.channels.find_one({"phone_number_id": phone_number_id})

    async def enabled(self) -> list[dict[str, Any]]:
        return await self.channels.find({"enabled": True}).to_list()

    async def save(
        self, channel_id: str, group_id: str, fields: dict[str, Any], sealed: dict[str, str]
    ) -> dict[str, Any]:
        """Creates the group's channel (enabled) or updates it; `sealed` replaces only the
        secrets it names."""
        now = now_ms()
        changes = {**fields, **{f"secrets.{name}": value for name, value in sealed.items()}}
        try:
            await self.channels.update_one(
                {"_id": channel_id},
                {
                    "$set": {**changes, "updated_at": now},
                    "$setOnInsert": {
                        "group_id": group_id,
                        "enabled": True,
                        "created_at": now,
                        "last_event_at": None,
                        "templates_synced_at": None,
                    },
                },
                upsert=True,
            )
        except DuplicateKeyError as error:
            raise ChannelTaken() from error
        return await self.get(channel_id) or {}

    async def set_enabled(self, group_id: str, enabled: bool) -> dict[str, Any] | None:
        return await self.channels.find_one_and_update(
            {"group_id": group_id},
            {"$set": {"enabled": enabled, "updated_at": now_ms()}},
            return_document=ReturnDocument.AFTER,
        )

    async def event_received(self, channel_id: str, at: int) -> None:
        await self.channels.update_one({"_id": channel_id}, {"$set": {"last_event_at": at}})
