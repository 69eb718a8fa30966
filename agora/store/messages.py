"""Chat messages. A unique (src_id, dest_session_id, local_id) index makes a resent message a
no-op; the same local id in another chat is another message."""

import asyncio
from dataclasses import dataclass, field
from typing import Any, Protocol

from pymongo import ReturnDocument
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError

from agora.core.chat.constants import MESSAGE_TYPE_SYSTEM
from agora.core.documents import Message
from agora.core.reactions import REACTIONS_FIELD
from agora.store.batched_writes import BatchedWrites
from agora.store.local_copies import LocalCopies
from agora.store.mongo import Indexes, new_id
from agora.store.reads_together import Read

# The local id a sender gives a message is theirs within one chat (clients number messages
# per chat). Led by the session, the key needs no index of its own for its first field: the
# session's index serves. Every index costs each insert (nx-27017 evaluates each over the
# stored JSON), so the keys before, and the sender index they brought, are dropped at startup.
RESEND_KEY = [("dest_session_id", 1), ("src_id", 1), ("local_id", 1)]
RETIRED_KEYS = [
    [("src_id", 1), ("dest_session_id", 1), ("local_id", 1)],
    [("src_id", 1), ("local_id", 1)],
    [("src_id", 1)],
]


def resend_key(message: dict[str, Any]) -> tuple[str, str, str]:
    """What makes two sends the same message."""
    return message["src_id"], message["dest_session_id"], message["local_id"]


# Left out of a message's document when the send had none: their absence reads as empty
# (`message_view`). Each stored field costs every insert and every index's read of it.
OPTIONAL_FIELDS = (
    "client_created_at",
    "payload1",
    "data",
    # Flags known when it is sent (a WhatsApp template's `s0`).
    "info",
)

# A message's place in its chat never changes: its copy is kept ten minutes (its receipts
# come within seconds), or until the table of copies is full.
PLACE_FIELDS = {"_id": 0, "dest_session_id": 1, "created_at": 1, "seq": 1, "src_id": 1}
PLACE_COPY_SECONDS = 600.0


class MessageToStore(Protocol):
    """What a shard stores of a send (`actors.protocol.StoreMessage`)."""

    @property
    def session_id(self) -> str: ...
    @property
    def src_id(self) -> str: ...
    @property
    def local_id(self) -> str: ...
    @property
    def type(self) -> int: ...
    @property
    def payload(self) -> str: ...
    @property
    def payload1(self) -> list[dict[str, Any]]: ...
    @property
    def client_created_at(self) -> int | None: ...
    @property
    def data(self) -> dict[str, Any] | None: ...
    @property
    def info(self) -> dict[str, Any] | None: ...


def new_message(send: MessageToStore, created_at: int, seq: int) -> dict[str, Any]:
    """The document of a message the shard numbered (`created_at`, `seq`), with its id."""
    message = {
        "_id": new_id(),
        "dest_session_id": send.session_id,
        "src_id": send.src_id,
        "local_id": send.local_id,
        "created_at": created_at,
        "seq": seq,
        "type": send.type,
        "payload": send.payload,
    }
    for name in OPTIONAL_FIELDS:
        if value := getattr(send, name):
            message[name] = value
    return message


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
        self._places: LocalCopies[dict[str, Any]] = LocalCopies(
            "message place",
            fresh_for=PLACE_COPY_SECONDS,
            refresh_after=PLACE_COPY_SECONDS,
            keep_missing=False,
        )

    async def ensure_indexes(self, indexes: Indexes) -> None:
        await indexes.ensure(self.messages, [("dest_session_id", 1), ("created_at", -1)])
        # The new index first, so resends are recognised throughout the change.
        await indexes.ensure(
            self.messages,
            RESEND_KEY,
            unique=True,
            partialFilterExpression={"local_id": {"$type": "string"}},
        )
        await indexes.drop(self.messages, RETIRED_KEYS)
        # Searches in a chat (`search`); an edited message's new text is indexed as it is set.
        await indexes.ensure_text(self.messages, "dest_session_id", "payload")

    async def insert(self, messages: list[dict[str, Any]]) -> Inserted:
        """Stores the messages, each on its own: one that fails leaves the others stored."""
        inserted = Inserted()
        for position, error in enumerate(await self._writes.insert_each(messages)):
            if isinstance(error, DuplicateKeyError):
                inserted.resent.add(position)
            elif isinstance(error, Exception):
                inserted.failed[position] = error
            elif error is not None:
                raise error
        return inserted

    async def renumber(self, message_id: str, seq: int) -> None:
        await self._writes.update({"_id": message_id}, {"$set": {"seq": seq}})

    async def resent(self, keys: list[tuple[str, str, str]]) -> list[dict[str, Any]]:
        """The stored messages of these resend keys (`resend_key`), read by session: both
        servers answer that from an index, where nx-27017 scans the whole collection for an
        `$or` of keys (1.3 s among 60,000 messages)."""
        by_session: dict[str, set[tuple[str, str]]] = {}
        for src, session, local in keys:
            by_session.setdefault(session, set()).add((src, local))
        found = await asyncio.gather(
            *(self._resent_in(session, wanted) for session, wanted in by_session.items())
        )
        return [message for page in found for message in page]

    async def _resent_in(
        self, session_id: str, wanted: set[tuple[str, str]]
    ) -> list[dict[str, Any]]:
        query = {
            "dest_session_id": session_id,
            "src_id": {"$in": sorted({src for src, _ in wanted})},
            "local_id": {"$in": sorted({local for _, local in wanted})},
        }
        found = await self.messages.find(query).to_list()
        return [m for m in found if (m["src_id"], m.get("local_id")) in wanted]

    async def newest(self, session_id: str, limit: int) -> list[Message]:
        """The session's latest messages, oldest first."""
        return (await self.newest_read(session_id, limit).find())[::-1]

    def newest_read(self, session_id: str, limit: int) -> Read:
        """The read of `newest`, which finds the messages newest first: for sharing a command
        with other reads (`store/chat_reads.py`)."""
        return Read(
            self.messages, {"dest_session_id": session_id}, sort=("created_at", -1), limit=limit
        )

    async def latest_from(
        self, session_id: str, src_id: str, since: int, types: list[int]
    ) -> dict[str, Any] | None:
        """The sender's newest message of these types in the session since `since`, if any:
        read from the session's index over that window only (slow mode's, at most an hour)."""
        query = {
            "dest_session_id": session_id,
            "created_at": {"$gte": since},
            "src_id": src_id,
            "type": {"$in": types},
        }
        return await self.messages.find_one(
            query, {"created_at": 1, "local_id": 1}, sort=[("created_at", -1)]
        )

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

    async def around(
        self, session_id: str, created_at: int, *, before: int, from_on: int
    ) -> tuple[list[Message], list[Message]]:
        """Up to `before` messages before `created_at` and up to `from_on` from it on, each
        oldest first: a chat opened at one of its messages."""
        earlier, later = await asyncio.gather(
            self.page(session_id, before=created_at, limit=before),
            # Times are whole milliseconds: after the one before is from this one on.
            self.page(session_id, after=created_at - 1, limit=from_on),
        )
        return earlier, later

    async def search(
        self, session_id: str, words: list[str], *, before: int | None, limit: int
    ) -> list[Message]:
        """The chat's messages holding every one of `words` (whole words, any case and
        accents), newest first, older than `before` when given; deleted ones never.

        From the text index (`Indexes.ensure_text`), never by reading the chat's history: each
        word quoted, because MongoDB matches any of several bare words and all of several
        quoted ones (nx-27017 all of either)."""
        query: dict[str, Any] = {
            "dest_session_id": session_id,
            "$text": {"$search": " ".join(f'"{word}"' for word in words)},
            "deleted_at": {"$exists": False},
        }
        if before is not None:
            query["created_at"] = {"$lt": before}
        return await self.messages.find(query).sort("created_at", -1).limit(limit).to_list()

    async def get(self, session_id: str, created_at: int) -> Message | None:
        return await self.messages.find_one(
            {"dest_session_id": session_id, "created_at": created_at}
        )

    async def at_times(self, session_id: str, created_ats: list[int]) -> list[Message]:
        """The session's messages at these times (a chat's pins: a few), in no order."""
        if not created_ats:
            return []
        query = {"dest_session_id": session_id, "created_at": {"$in": created_ats}}
        return await self.messages.find(query).to_list()

    async def change(
        self, session_id: str, created_at: int, fields: dict[str, Any], removed: tuple[str, ...]
    ) -> None:
        """Sets the message's `fields` and removes `removed` (an edit, a deletion)."""
        change: dict[str, Any] = {"$set": fields}
        if removed:
            change["$unset"] = dict.fromkeys(removed, "")
        await self.messages.update_one(
            {"dest_session_id": session_id, "created_at": created_at}, change
        )

    async def place(self, session_id: str, created_at: int) -> dict[str, Any] | None:
        """The message's place in its chat (`dest_session_id`, `created_at`, `seq`), from this
        process's copy when it has one: a message to a big group brings every present
        member's receipt for it, each of which read it again."""
        return await self._places.get(
            (session_id, created_at),
            lambda: self.messages.find_one(
                {"dest_session_id": session_id, "created_at": created_at}, PLACE_FIELDS
            ),
        )

    def placed(self, session_id: str, created_at: int, seq: int, src_id: str) -> None:
        """A message this process saw its shard store: its place (as `place` gives it) is
        kept without a read, for its receipts."""
        place = {
            "dest_session_id": session_id,
            "created_at": created_at,
            "seq": seq,
            "src_id": src_id,
        }
        self._places.put((session_id, created_at), place)

    async def set_reaction(
        self, session_id: str, created_at: int, user_id: str, emoji: str
    ) -> dict[str, str] | None:
        """`user_id`'s reaction on the message ('' takes it away) in one write of its own
        field, whatever the others' reactions: the message's reactions after it, or None
        when the chat holds no such message that takes reactions (a notice takes none:
        `core.reactions.takes_reactions`)."""
        place = f"{REACTIONS_FIELD}.{user_id}"
        change = {"$set": {place: emoji}} if emoji else {"$unset": {place: ""}}
        found = await self.messages.find_one_and_update(
            {
                "dest_session_id": session_id,
                "created_at": created_at,
                "type": {"$ne": MESSAGE_TYPE_SYSTEM},
            },
            change,
            # The whole of `data` (a few small fields): nx-27017 answers a projection of
            # `data.reactions` with a field of that dotted name, MongoDB with it nested.
            projection={"_id": 0, "data": 1},
            return_document=ReturnDocument.AFTER,
        )
        if found is None:
            return None
        return dict((found.get("data") or {}).get("reactions") or {})
