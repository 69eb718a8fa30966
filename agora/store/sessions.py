"""Chat sessions (item chats and groups alike) and their members, as chat needs them."""

from typing import Any

from pymongo import ReturnDocument
from pymongo.asynchronous.database import AsyncDatabase

from agora.store.groups import add_membership, membership_id
from agora.store.mongo import ensure_index


class SessionStore:
    def __init__(self, db: AsyncDatabase) -> None:
        self.sessions = db["sessions"]
        self.members = db["session_users"]
        self.users = db["users"]

    async def ensure_indexes(self) -> None:
        # The group store creates the membership indexes chat lists rely on.
        await ensure_index(self.sessions, [("data.item_id", 1), ("updated_at", -1)])

    async def get(self, session_id: str) -> dict[str, Any] | None:
        return await self.sessions.find_one({"_id": session_id})

    async def by_ids(self, session_ids: list[str]) -> list[dict[str, Any]]:
        return await self.sessions.find({"_id": {"$in": list(set(session_ids))}}).to_list()

    async def create_once(
        self, session: dict[str, Any], members: dict[str, int]
    ) -> tuple[dict[str, Any], bool]:
        """Creates the session with its members unless it exists; says whether it created it."""
        fields = {k: v for k, v in session.items() if k != "_id"}
        result = await self.sessions.update_one(
            {"_id": session["_id"]}, {"$setOnInsert": fields}, upsert=True
        )
        created = result.upserted_id is not None
        if created:
            for user_id, user_type in members.items():
                await self.add_member(session["_id"], user_id, user_type)
        return await self.get(session["_id"]) or session, created

    async def add_member(self, session_id: str, user_id: str, user_type: int) -> None:
        await add_membership(self.members, session_id, user_id, user_type)

    async def item_chats(self, item_id: str) -> list[dict[str, Any]]:
        query = {"kind": "item_chat", "data.item_id": item_id}
        return await self.sessions.find(query).sort("updated_at", -1).to_list()

    async def member_types(self, session_id: str) -> dict[str, int]:
        found = await self.members.find(
            {"session_id": session_id}, {"user_id": 1, "session_user_type": 1}
        ).to_list()
        return {m["user_id"]: m["session_user_type"] for m in found}

    async def members_page(
        self, session_id: str, after_id: str | None, limit: int
    ) -> list[dict[str, Any]]:
        query: dict[str, Any] = {"session_id": session_id}
        if after_id:
            query["_id"] = {"$gt": after_id}
        return await self.members.find(query).sort("_id", 1).limit(limit).to_list()

    async def count_members(self, session_id: str) -> int:
        return await self.members.count_documents({"session_id": session_id})

    async def membership(self, session_id: str, user_id: str) -> dict[str, Any] | None:
        return await self.members.find_one({"_id": membership_id(session_id, user_id)})

    async def update(self, session_id: str, fields: dict[str, Any]) -> dict[str, Any] | None:
        return await self.sessions.find_one_and_update(
            {"_id": session_id}, {"$set": fields}, return_document=ReturnDocument.AFTER
        )

    async def set_member(
        self, session_id: str, user_id: str, fields: dict[str, Any]
    ) -> dict[str, Any] | None:
        return await self.members.find_one_and_update(
            {"_id": membership_id(session_id, user_id)},
            {"$set": fields},
            return_document=ReturnDocument.AFTER,
        )

    async def remove_member(self, session_id: str, user_id: str) -> None:
        await self.members.delete_one({"_id": membership_id(session_id, user_id)})

    async def record_activity(
        self, session_id: str, increments: dict[str, int], senders: set[str], at: int
    ) -> dict[str, dict[str, int]]:
        """New messages moved the chat up everyone's list and added to others' unseen counts.

        Returns, for each user whose counts rose, their unseen count in this session and their
        notifications count, to be pushed to their screens.
        """
        await self.sessions.update_one({"_id": session_id}, {"$max": {"updated_at": at}})
        await self.members.update_many({"session_id": session_id}, {"$max": {"updated_at": at}})
        for count in set(increments.values()):
            users = [u for u, n in increments.items() if n == count]
            ids = [membership_id(session_id, u) for u in users]
            await self.members.update_many({"_id": {"$in": ids}}, {"$inc": {"unseen_count": count}})
            await self.users.update_many(
                {"_id": {"$in": users}}, {"$inc": {"data.notifications_unseen_count": count}}
            )
        for sender in senders - increments.keys():
            await self.reset_unseen(session_id, sender)
        if not increments:
            return {}
        members = await self.memberships_of(session_id, list(increments))
        # No projection on the nested field: nx-27017 answers such projections wrongly.
        users = await self.users.find({"_id": {"$in": list(increments)}}).to_list()
        notifications = {
            u["_id"]: int((u.get("data") or {}).get("notifications_unseen_count", 0)) for u in users
        }
        return {
            m["user_id"]: {
                "unseen_count": int(m.get("unseen_count", 0)),
                "notifications_unseen_count": notifications.get(m["user_id"], 0),
            }
            for m in members
        }

    async def memberships_of(self, session_id: str, user_ids: list[str]) -> list[dict[str, Any]]:
        ids = [membership_id(session_id, u) for u in set(user_ids)]
        return await self.members.find({"_id": {"$in": ids}}).to_list()

    async def chats_of(
        self, user_id: str, before: tuple[int, str] | None, limit: int
    ) -> list[dict[str, Any]]:
        """The user's memberships, latest activity first, after the (updated_at, id) cursor."""
        query: dict[str, Any] = {"user_id": user_id}
        if before is not None:
            updated_at, member_id = before
            query["$or"] = [
                {"updated_at": {"$lt": updated_at}},
                {"updated_at": updated_at, "_id": {"$lt": member_id}},
            ]
        order = [("updated_at", -1), ("_id", -1)]
        return await self.members.find(query).sort(order).limit(limit).to_list()

    async def memberships_for_user(
        self, user_id: str, session_ids: list[str]
    ) -> list[dict[str, Any]]:
        ids = [membership_id(s, user_id) for s in set(session_ids)]
        return await self.members.find({"_id": {"$in": ids}}).to_list()

    async def reset_unseen(self, session_id: str, user_id: str) -> None:
        await self.set_member(session_id, user_id, {"unseen_count": 0})

    async def reset_notifications(self, user_id: str) -> None:
        await self.users.update_one(
            {"_id": user_id}, {"$set": {"data.notifications_unseen_count": 0}}
        )
