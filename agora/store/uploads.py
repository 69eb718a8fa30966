"""Upload records in MongoDB, and files being received (the files themselves live in the
upload store, `store/file_store.py`)."""

import asyncio
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import IO, Any

from pymongo.asynchronous.database import AsyncDatabase

from agora.core.uploads import (
    UPLOAD_DELETED,
    UPLOAD_PENDING,
    UPLOAD_RECEIVING,
    UPLOAD_SPOOL_BYTES,
    UPLOAD_STORED,
    FileType,
    stored_name,
    url_of,
)
from agora.store.mongo import new_id

# How many stored messages name an upload (counted since 2026-12-07), and whether (1) or not
# (0) a post, a profile or a group shows it: numbers, which nx-27017 and MongoDB compare alike
# (nx-27017 keeps a boolean as 1, and matches no missing field by `$ne`).
USES = "uses"
KEPT = "kept"


class UploadStore:
    def __init__(self, db: AsyncDatabase) -> None:
        self.uploads = db["uploads"]

    async def add_pending(
        self, user_id: str, kind: FileType, title: str, now: int
    ) -> dict[str, Any]:
        """Records an upload the user may now send, under a new id; returns the record."""
        upload_id = new_id()
        upload = {
            "_id": upload_id,
            "user_id": user_id,
            "mime_type": kind.mime_type,
            "size": None,
            "file_url": url_of(stored_name(upload_id, kind)),
            "thumbnail": "",
            "title": title,
            "created_at": now,
            "status": UPLOAD_PENDING,
            USES: 0,
            KEPT: 0,
        }
        await self.uploads.insert_one(upload)
        return upload

    async def claim(self, upload_id: str, user_id: str) -> dict[str, Any] | None:
        """Marks a pending upload as being received; None when it is not pending, so that two
        requests never write the same file."""
        return await self.uploads.find_one_and_update(
            {"_id": upload_id, "user_id": user_id, "status": UPLOAD_PENDING},
            {"$set": {"status": UPLOAD_RECEIVING}},
        )

    async def release(self, upload_id: str) -> None:
        """A refused file does not use the link up: it may be sent again, corrected."""
        await self.uploads.update_one(
            {"_id": upload_id, "status": UPLOAD_RECEIVING}, {"$set": {"status": UPLOAD_PENDING}}
        )

    async def mark_stored(self, upload_id: str, size: int, thumbnail: str) -> None:
        await self.uploads.update_one(
            {"_id": upload_id, "status": UPLOAD_RECEIVING},
            {"$set": {"status": UPLOAD_STORED, "size": size, "thumbnail": thumbnail}},
        )

    async def keep(self, upload_ids: set[str]) -> None:
        """A post, a profile or a group shows these uploads: they are never deleted with the
        messages that name them."""
        if upload_ids:
            query = {"_id": {"$in": list(upload_ids)}, "status": UPLOAD_STORED}
            await self.uploads.update_many(query, {"$set": {KEPT: 1}})

    async def attach(self, upload_ids: set[str]) -> None:
        """One more stored message names each of these uploads (those counted since they were
        made: an older one may be named by messages nobody counted)."""
        if upload_ids:
            query = {"_id": {"$in": list(upload_ids)}, "status": UPLOAD_STORED, USES: {"$gte": 0}}
            await self.uploads.update_many(query, {"$inc": {USES: 1}})

    async def detach(self, upload_ids: set[str]) -> list[dict[str, Any]]:
        """A deleted message named these uploads: one message fewer names each. Those no
        message names any more, and nothing else shows (`keep`), are marked deleted and
        returned (their files are the caller's to delete). Each is marked by a compare-and-set
        on its count, so one attached again meanwhile stays. An upload made before messages
        were counted (no `uses`) is never counted down."""
        if not upload_ids:
            return []
        ids = list(upload_ids)
        counted = {"_id": {"$in": ids}, USES: {"$gte": 1}}
        await self.uploads.update_many(counted, {"$inc": {USES: -1}})
        unused = {"_id": {"$in": ids}, USES: 0, KEPT: 0, "status": UPLOAD_STORED}
        deleted = []
        for upload in await self.uploads.find(unused, {"_id": 1}).to_list():
            marked = await self.uploads.find_one_and_update(
                {**unused, "_id": upload["_id"]}, {"$set": {"status": UPLOAD_DELETED}}
            )
            if marked is not None:
                deleted.append(marked)
        return deleted

    async def stored_of(self, user_id: str, upload_ids: list[str]) -> list[dict[str, Any]]:
        if not upload_ids:  # nx-27017 reads every upload for an empty `$in`
            return []
        query = {"_id": {"$in": upload_ids}, "user_id": user_id, "status": UPLOAD_STORED}
        return await self.uploads.find(query).to_list()


class IncomingFile:
    """A file being received, before it is checked: in memory while small, then in a temporary
    file of the system's (never in the upload store, which gets the checked file). Its
    blocking calls run in worker threads."""

    def __init__(self, spool: IO[bytes]) -> None:
        self.spool = spool

    async def write(self, chunk: bytes) -> None:
        await asyncio.to_thread(self.spool.write, chunk)

    async def read(self) -> bytes:
        return await asyncio.to_thread(self._read)

    def _read(self) -> bytes:
        self.spool.seek(0)
        return self.spool.read()


@asynccontextmanager
async def incoming_file() -> AsyncIterator[IncomingFile]:
    """A file to receive into, gone on exit."""
    with tempfile.SpooledTemporaryFile(max_size=UPLOAD_SPOOL_BYTES) as spool:
        yield IncomingFile(spool)
