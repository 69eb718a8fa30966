"""Chat messages. A unique (src_id, dest_session_id, local_id) index makes a resent message a
no-op; the same local id in another chat is another message."""

import asyncio
from dataclasses import dataclass, field
from typing import Any

from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError

from agora.core.documents import Message
from agora.store.batched_writes import BatchedWrites
from agora.store.mongo import drop_index, ensure_index, new_id

# The local id a sender gives a message is theirs within one chat (clients number messages
# per chat): the index before, across all of a sender's chats, is dropped at startup.
RESEND_KEY = [("src_id", 1), ("dest_session_id", 1), ("local_id", 1)]
SENDER_WIDE_RESEND_KEY = [("src_id", 1), ("local_id", 1)]


def resend_key(message: dict[str, Any]) -> tuple[str, str, str]:
    """What makes two sends the same message."""
    return message["src_id"], message["dest_session_id"], message["local_id"]


def new_message(request: dict[str, Any], created_at: int, seq: int) -> dict[str, Any]:
    """The document of a message the shard numbered (`created_at`, `seq`), with its id."""
    return {
        "_id": new_id(),
        "dest_session_id": request["session_id"],
        "src_id": request["src_id"],
        "local_id": request["local_id"],
        "created_at": created_at,
        "seq": seq,
        "client_created_at": request.get("client_created_at"),
        "type": request["type"],
        "payload": request["payload"],
        "payload1": request.get("payload1", []),
        "data": request.get("data", {}),
        "flags": {"status": "sent"},
        # Flags known when it is sent (a WhatsApp template's `s0`).
        "info": request.get("info", {}),
    }


@dataclass(frozen=True)
class Inserted:
    """What became of a batch of messages, by position."""

    resent: set[int] = field(default_factory=set)  # stored before: the same message again
    failed: dict[int, Exception] = field(default_factory=dict)  # not stored


class MessageStore:
    def __init__(self, db: AsyncDatabase) -> None:
        self.messages = db["messages"]
        # The batches of all sessions a shard serves share insert commands.
        self._writes = BatchedWrites(self.messages)

    async def ensure_indexes(self) -> None:
        await ensure_index(self.messages, [("dest_session_id", 1), ("created_at", -1)])
        # The new index first, so resends are recognised throughout the change.
        await ensure_index(
            self.messages,
            RESEND_KEY,
            unique=True,
            partialFilterExpression={"local_id": {"$type": "string"}},
        )
        await drop_index(self.messages, SENDER_WIDE_RESEND_KEY)

    async def insert(self, messages: list[dict[str, Any]]) -> Inserted:
        """Stores the messages, each on its own: one that fails leaves the others stored."""
        outcomes = await asyncio.gather(
            *(self._writes.insert(m) for m in messages), return_exceptions=True
        )
        inserted = Inserted()
        for position, outcome in enumerate(outcomes):
            if isinstance(outcome, DuplicateKeyError):
                inserted.resent.add(position)
            elif isinstance(outcome, Exception):
                inserted.failed[position] = outcome
            elif isinstance(outcome, BaseException):
                raise outcome
        return inserted

    async def renumber(self, message_id: str, seq: int) -> None:
        await self._writes.update({"_id": message_id}, {"$set": {"seq": seq}})

    async def resent(self, keys: list[tuple[str, str, str]]) -> list[dict[str, Any]]:
        """The stored messages of these resend keys (`resend_key`)."""
        if not keys:
            return []
        query = {
            "$or": [
                {"src_id": src, "dest_session_id": session, "local_id": local}
                for src, session, local in keys
            ]
        }
        return await self.messages.find(query).to_list()

    async def newest(self, session_id: str, limit: int) -> list[Message]:
        """The session's latest messages, oldest first."""
        found = await (
            self.messages.find({"dest_session_id": session_id})
            .sort("created_at", -1)
            .limit(limit)
            .to_list()
        )
        return found[::-1]

    async def latest(self, session_ids: list[str]) -> dict[str, dict[str, Any]]:
        """Each session's newest message by session id; sessions without one are left out.
        One indexed read per session: a page of chats is a few dozen sessions."""
        found = await asyncio.gather(*(self.newest(s, 1) for s in set(session_ids)))
        return {page[0]["dest_session_id"]: page[0] for page in found if page}

    async def page(
        self,
        session_id: str,
        *,
        after: int | None = None,
        before: int | None = None,
        limit: int,
    ) -> list[dict[str, Any]]:
        """Up to `limit` messages, oldest first: the first ones after `after`, or the last ones
        before `before` (or the newest when neither is given)."""
        query: dict[str, Any] = {"dest_session_id": session_id}
        if after is not None:
            query["created_at"] = {"$gt": after}
            return await self.messages.find(query).sort("created_at", 1).limit(limit).to_list()
        if before is not None:
            query["created_at"] = {"$lt": before}
        found = await self.messages.find(query).sort("created_at", -1).limit(limit).to_list()
        return found[::-1]

    async def get(self, session_id: str, created_at: int) -> Message | None:
        return await self.messages.find_one(
            {"dest_session_id": session_id, "created_at": created_at}
        )
