"""The WhatsApp flags of our messages (`info`), their wamids, and statuses that came early.

Every flag is written by one conditional update (set where missing), so a status racing
another, or racing our own `s1`, never loses either. A status whose wamid no message has
yet (Meta may report "sent" before our write of the wamid lands) waits in
`whatsapp_early_statuses` until the wamid is recorded.
"""

import contextlib
from typing import Any

from pymongo import ReturnDocument
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError

from agora.core.whatsapp.statuses import Status, StatusChange
from agora.store.mongo import Indexes

WAMID = "data.wa.wamid"
# The channel that sent it: only that channel's (signed) webhooks report on it.
CHANNEL = "data.wa.channel_id"
# An agent's reply waiting for its outcome (ms it was stored), and since when an edge sends it.
QUEUED = "info.wa_q"
CLAIMED = "info.wa_claim"
# Meta retries a webhook for days; a status for a wamid still unknown after a week is not ours.
EARLY_STATUS_TTL_SECONDS = 7 * 24 * 3600


class WhatsAppFlags:
    def __init__(self, db: AsyncDatabase) -> None:
        self.messages = db["messages"]
        self.early = db["whatsapp_early_statuses"]

    async def ensure_indexes(self, indexes: Indexes) -> None:
        await indexes.ensure(
            self.messages, [(WAMID, 1)], partialFilterExpression={WAMID: {"$type": "string"}}
        )
        await indexes.ensure(self.messages, [(QUEUED, 1)], sparse=True)
        await indexes.ensure(self.early, [("wamid", 1)])
        await indexes.ensure(
            self.early, [("received", 1)], expireAfterSeconds=EARLY_STATUS_TTL_SECONDS
        )

    async def set_once(
        self, message_id: str, fields: dict[str, Any], *, also: dict[str, Any] | None = None
    ) -> dict[str, Any] | None:
        """Sets the info `fields` (and other `also` fields) if the message has none of these
        flags yet, and takes it off the queue; the message after, or None when it had one (or
        is gone)."""
        query: dict[str, Any] = {"_id": message_id}
        query.update({f"info.{key}": {"$exists": False} for key in fields})
        update = {f"info.{key}": value for key, value in fields.items()} | (also or {})
        return await self.messages.find_one_and_update(
            query,
            {"$set": update, "$unset": {QUEUED: "", CLAIMED: ""}},
            return_document=ReturnDocument.AFTER,
        )

    async def claim(self, message_id: str, now: int) -> bool:
        """Whether this caller sends the queued message (no one else took it)."""
        claimed = await self.messages.find_one_and_update(
            {"_id": message_id, QUEUED: {"$exists": True}, CLAIMED: {"$exists": False}},
            {"$set": {CLAIMED: now}},
        )
        return claimed is not None

    async def queued_before(self, before: int, limit: int) -> list[dict[str, Any]]:
        """Replies stored before `before` and still without an outcome, oldest first."""
        found = self.messages.find({QUEUED: {"$lt": before}}).sort(QUEUED, 1).limit(limit)
        return await found.to_list()

    async def apply(
        self, channel_id: str, wamid: str, change: StatusChange
    ) -> tuple[bool, dict | None]:
        """(known, the message after) for a status of `wamid` from this channel: the message
        is None when the status added nothing, `known` False when the channel sent no message
        with this wamid (yet)."""
        query: dict[str, Any] = {WAMID: wamid, CHANNEL: channel_id}
        for key in (*change.fields.keys(), *change.blocked_by):
            if key != "wa_errors":
                query[f"info.{key}"] = {"$exists": False}
        update = {f"info.{key}": value for key, value in change.fields.items()}
        found = await self.messages.find_one_and_update(
            query, {"$set": update}, return_document=ReturnDocument.AFTER
        )
        if found is not None:
            return True, found
        sent = await self.messages.find_one({WAMID: wamid, CHANNEL: channel_id}, {"_id": 1})
        return sent is not None, None

    async def add_click(self, session_id: str, src_id: str, local_id: str) -> dict | None:
        return await self.messages.find_one_and_update(
            {"dest_session_id": session_id, "src_id": src_id, "local_id": local_id},
            {"$inc": {"info.wa_click": 1}},
            return_document=ReturnDocument.AFTER,
        )

    async def keep_early(self, channel_id: str, status: Status, received: Any) -> None:
        """One record per (channel, wamid, status): Meta's redeliveries are kept once."""
        document = {
            "_id": f"{channel_id}:{status.wamid}:{status.status}",
            "channel_id": channel_id,
            "wamid": status.wamid,
            "status": status.status,
            "at": status.at,
            "errors": list(status.errors),
            "received": received,
        }
        with contextlib.suppress(DuplicateKeyError):
            await self.early.insert_one(document)

    async def take_early(self, channel_id: str, wamid: str) -> list[Status]:
        """The statuses this channel reported for `wamid`, each handed to one caller only."""
        taken = []
        for kept in await self.early.find({"wamid": wamid, "channel_id": channel_id}).to_list():
            if await self.early.find_one_and_delete({"_id": kept["_id"]}) is not None:
                taken.append(
                    Status(kept["wamid"], kept["status"], kept["at"], tuple(kept["errors"]))
                )
        return taken
