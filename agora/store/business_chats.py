"""Business chats (WhatsApp): their sessions' customer data, the group's agents, and the
messages known by their WhatsApp id."""

from typing import Any

from pymongo import ReturnDocument
from pymongo.asynchronous.database import AsyncDatabase

from agora.core.chat.constants import USER_TYPE_ADMIN, USER_TYPE_MODERATOR
from agora.core.whatsapp.constants import SESSION_KIND_BUSINESS
from agora.store.groups import NEW_SESSION_COUNTERS
from agora.store.mongo import Indexes
from agora.store.session_copies import SessionCopies

AGENT_TYPES = [USER_TYPE_ADMIN, USER_TYPE_MODERATOR]
WAMID_FIELD = "data.wa.wamid"


class BusinessChatStore:
    def __init__(self, db: AsyncDatabase, copies: SessionCopies) -> None:
        self.sessions = db["sessions"]
        self.members = db["session_users"]
        self.messages = db["messages"]
        # Edges keep copies of chats (`store/session_copies.py`): every change is announced.
        self._copies = copies

    async def ensure_indexes(self, indexes: Indexes) -> None:
        await indexes.ensure(self.sessions, [("data.whatsapp.group_id", 1)])
        await indexes.ensure(
            self.messages,
            [(WAMID_FIELD, 1)],
            partialFilterExpression={WAMID_FIELD: {"$type": "string"}},
        )

    async def chat_ids_of_group(self, group_id: str) -> list[str]:
        """The business chats of every channel the group had."""
        query = {"kind": SESSION_KIND_BUSINESS, "data.whatsapp.group_id": group_id}
        return [chat["_id"] for chat in await self.sessions.find(query, {"_id": 1}).to_list()]

    async def agents(self, group_id: str) -> dict[str, int]:
        """The group's admins and moderators, with their types."""
        found = await self.members.find(
            {"session_id": group_id, "session_user_type": {"$in": AGENT_TYPES}},
            {"user_id": 1, "session_user_type": 1},
        ).to_list()
        return {m["user_id"]: m["session_user_type"] for m in found}

    async def open(self, session: dict[str, Any]) -> bool:
        """Creates the chat unless it exists; says whether this call created it."""
        fields = {k: v for k, v in session.items() if k != "_id"}
        result = await self.sessions.update_one(
            {"_id": session["_id"]},
            {"$setOnInsert": {**fields, **NEW_SESSION_COUNTERS, "kind": SESSION_KIND_BUSINESS}},
            upsert=True,
        )
        created = result.upserted_id is not None
        if created:
            await self._copies.announce(session["_id"])
        return created

    async def customer_wrote(
        self, session_id: str, at: int, window_ends_at: int, profile_name: str | None
    ) -> dict[str, Any] | None:
        """The customer's latest message time (never back) and name; the chat after."""
        change: dict[str, Any] = {
            "$max": {
                "data.whatsapp.last_inbound_at": at,
                "data.whatsapp.window_ends_at": window_ends_at,
            }
        }
        if profile_name:
            change["$set"] = {"title": profile_name, "data.whatsapp.profile_name": profile_name}
        chat = await self.sessions.find_one_and_update(
            {"_id": session_id}, change, return_document=ReturnDocument.AFTER
        )
        await self._copies.announce(session_id)
        return chat

    async def by_wamid(self, session_id: str, wamid: str) -> dict[str, Any] | None:
        return await self.messages.find_one({WAMID_FIELD: wamid, "dest_session_id": session_id})

    async def set_reaction(self, message_id: str, who: str, emoji: str) -> dict[str, Any] | None:
        """`who`'s reaction on the message (an empty emoji takes it away); the message after."""
        place = f"data.reactions.{who}"
        change = {"$set": {place: emoji}} if emoji else {"$unset": {place: ""}}
        return await self.messages.find_one_and_update(
            {"_id": message_id}, change, return_document=ReturnDocument.AFTER
        )
