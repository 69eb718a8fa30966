"""Groups (stored as sessions) and memberships."""

import secrets
from typing import Any

from pymongo import ReturnDocument
from pymongo.asynchronous.collection import AsyncCollection
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.results import UpdateResult

from agora.core.chat.constants import NOTIFICATION_UNMUTED, SESSION_KIND_GROUP, USER_TYPE_MEMBER
from agora.core.clock import now_ms
from agora.core.documents import ChatSession, Membership
from agora.store.mongo import Indexes
from agora.store.session_copies import MEMBERSHIP_COPIED, SessionCopies, membership_id

# A session stored from now on records how far its messages were announced (`announced_seq`):
# one without the field predates it, and counts as announced up to its last message.
NEW_SESSION_COUNTERS = {"announced_seq": 0}


def new_group_id() -> str:
    """A new group's id: 96 random bits, as long as an ObjectId's text. A group's link is its
    invitation (it shows the group's title and picture to whoever holds it, who may ask to
    join), so nothing in it may be guessed from another group's, as an ObjectId's time,
    process and counter could."""
    return secrets.token_hex(12)


async def add_membership(
    members: AsyncCollection, session_id: str, user_id: str, user_type: int
) -> UpdateResult:
    """Adds the user to the session with `user_type` unless they are in it already."""
    now = now_ms()
    return await members.update_one(
        {"_id": membership_id(session_id, user_id)},
        {
            "$setOnInsert": {
                "session_id": session_id,
                "user_id": user_id,
                "session_user_type": user_type,
                "notification_flag": NOTIFICATION_UNMUTED,
                # How far the member has read (the session numbers its messages): unseen
                # counts are computed from it when read, never stored.
                "read_seq": 0,
                "is_dummy": False,
                "created_at": now,
                "updated_at": now,
            }
        },
        upsert=True,
    )


class GroupStore:
    def __init__(self, db: AsyncDatabase, copies: SessionCopies) -> None:
        self.sessions = db["sessions"]
        self.members = db["session_users"]
        # Every feed read needs its group and the reader's membership: the edge's copies,
        # which every change made through a store drops on every edge (`store/session_copies.py`).
        self._copies = copies

    async def ensure_indexes(self, indexes: Indexes) -> None:
        await indexes.ensure(self.members, [("session_id", 1), ("session_user_type", 1)])
        await indexes.ensure(self.members, [("user_id", 1), ("updated_at", -1)])
        await indexes.ensure(self.sessions, [("kind", 1), ("created_at", -1)])

    async def get(self, group_id: str, *, fresh: bool = False) -> ChatSession | None:
        """The group, from this edge's copy unless `fresh`. The copy is of the chat document
        under that id, whatever its kind, the one chats' copies share (`SessionStore.chat`)."""
        copies = self._copies.reload if fresh else self._copies.get
        return _group(await copies(group_id, lambda: self._read_chat(group_id)))

    async def _read_chat(self, session_id: str) -> ChatSession | None:
        return await self.sessions.find_one({"_id": session_id})

    async def create(
        self,
        group_id: str | None,
        *,
        title: str,
        description: str,
        tags: list[str],
        is_public: bool,
        is_read_allowed: bool,
        image: str = "",
        write_permission: int = USER_TYPE_MEMBER,
        **extra: Any,
    ) -> ChatSession:
        """A new group (where members may write unless `write_permission` says otherwise),
        under a new id unless `group_id` is given (a city's group, which exists once however
        often it is created); returns the stored one.
        `extra` holds the fields of its kind (`created_by`; a city group's `city`, kept in its
        data)."""
        data: dict[str, Any] = {"tags": tags, "num_posts": 0, "num_members": 0}
        if "city" in extra:
            data["city"] = extra.pop("city")
        group = {
            "_id": group_id or new_group_id(),
            "title": title,
            "description": description,
            "image": image,
            "is_public": is_public,
            "is_read_allowed": is_read_allowed,
            "write_permission": write_permission,
            "created_at": now_ms(),
            **extra,
            "data": data,
        }
        return await self._create(group)

    async def _create(self, group: dict[str, Any]) -> ChatSession:
        """Inserts the group unless one with its id exists; returns the stored one."""
        fields = {k: v for k, v in group.items() if k != "_id"}
        # update_one, not find_one_and_update: nx-27017 drops $setOnInsert in the latter.
        result = await self.sessions.update_one(
            {"_id": group["_id"]},
            {"$setOnInsert": {**fields, **NEW_SESSION_COUNTERS, "kind": SESSION_KIND_GROUP}},
            upsert=True,
        )
        if result.upserted_id is not None:
            # An edge may have found no group under a city's id before it was created.
            await self._copies.announce(group["_id"])
        stored = _group(
            await self._copies.reload(group["_id"], lambda: self._read_chat(group["_id"]))
        )
        return stored or {**group, "kind": SESSION_KIND_GROUP}

    async def update(self, group_id: str, fields: dict[str, Any]) -> ChatSession | None:
        """Sets the group's fields (its `tags` kept in its data); the group as it is after."""
        stored = {
            ("data.tags" if name == "tags" else name): value for name, value in fields.items()
        }
        return await self._changed(group_id, {"$set": stored})

    async def count_members(self, group_id: str, change: int) -> None:
        """Moves a group's member count; nothing for a chat that is not a group."""
        await self._changed(group_id, {"$inc": {"data.num_members": change}})

    async def count_posts(self, group_id: str, change: int) -> None:
        await self._changed(group_id, {"$inc": {"data.num_posts": change}})

    async def _changed(self, group_id: str, change: dict[str, Any]) -> ChatSession | None:
        """Applies `change`, announced to every edge; the group as it is after."""
        group = await self.sessions.find_one_and_update(
            {"_id": group_id, "kind": SESSION_KIND_GROUP},
            change,
            return_document=ReturnDocument.AFTER,
        )
        await self._copies.announce(group_id)
        return group

    async def changed(self, group_id: str) -> None:
        """Called after a write to the group made by another store: every edge's copy goes."""
        await self._copies.announce(group_id)

    async def latest(self, limit: int) -> list[ChatSession]:
        cursor = (
            self.sessions.find({"kind": SESSION_KIND_GROUP}).sort("created_at", -1).limit(limit)
        )
        return await cursor.to_list()

    async def membership(
        self, group_id: str, user_id: str, *, fresh: bool = False
    ) -> Membership | None:
        """The membership, from this edge's copy unless `fresh`."""
        key = membership_id(group_id, user_id)
        copies = self._copies.reload if fresh else self._copies.get
        return await copies(key, lambda: self._read_membership(key))

    async def _read_membership(self, key: str) -> Membership | None:
        return await self.members.find_one({"_id": key}, MEMBERSHIP_COPIED)

    async def join(self, group_id: str, user_id: str, user_type: int) -> Membership:
        """Adds the user with `user_type` unless already a member; returns the membership."""
        result = await add_membership(self.members, group_id, user_id, user_type)
        key = membership_id(group_id, user_id)
        if result.upserted_id is not None:
            await self._copies.announce(key)
            await self.count_members(group_id, 1)
        return await self._copies.reload(key, lambda: self._read_membership(key)) or {}


def _group(chat: ChatSession | None) -> ChatSession | None:
    return chat if chat is not None and chat.get("kind") == SESSION_KIND_GROUP else None
