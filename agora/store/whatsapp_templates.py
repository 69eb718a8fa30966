"""A channel's approved WhatsApp templates as last synced, and the tracked links of sent
templates' URL buttons."""

from typing import Any

from pymongo.asynchronous.database import AsyncDatabase

from agora.store.mongo import Indexes


def template_id(channel_id: str, name: str, language: str) -> str:
    return f"{channel_id}:{name}:{language}"


class WhatsAppTemplateStore:
    def __init__(self, db: AsyncDatabase) -> None:
        self.templates = db["whatsapp_templates"]
        self.links = db["whatsapp_links"]
        self.channels = db["whatsapp_channels"]

    async def ensure_indexes(self, indexes: Indexes) -> None:
        await indexes.ensure(self.templates, [("channel_id", 1), ("name", 1)])

    async def replace(self, channel_id: str, templates: list[dict[str, Any]], at: int) -> None:
        """The channel's templates become these: each written, then the ones Meta no
        longer lists (or no longer approves) removed."""
        ids = []
        for template in templates:
            key = template_id(channel_id, template["name"], template["language"])
            ids.append(key)
            # The id in the document too: nx-27017's upsert does not take it from the query.
            document = {**template, "_id": key, "channel_id": channel_id, "synced_at": at}
            await self.templates.replace_one({"_id": key}, document, upsert=True)
        await self.templates.delete_many({"channel_id": channel_id, "_id": {"$nin": ids}})

    async def mark_synced(self, channel_id: str, at: int) -> None:
        """The channel shows when its templates were last synced."""
        await self.channels.update_one({"_id": channel_id}, {"$set": {"templates_synced_at": at}})

    async def of_channel(self, channel_id: str) -> list[dict[str, Any]]:
        found = self.templates.find({"channel_id": channel_id}).sort([("name", 1)])
        return await found.to_list()

    async def get(self, channel_id: str, name: str, language: str) -> dict[str, Any] | None:
        return await self.templates.find_one({"_id": template_id(channel_id, name, language)})

    async def add_links(self, links: list[dict[str, Any]]) -> None:
        if links:
            await self.links.insert_many(links)

    async def link(self, token: str) -> dict[str, Any] | None:
        return await self.links.find_one({"_id": token})
