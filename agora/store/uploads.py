"""Upload records in MongoDB, and the uploaded files in a local directory."""

import asyncio
import os
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from pymongo.asynchronous.database import AsyncDatabase

from agora.core.constants import UPLOAD_PENDING, UPLOAD_RECEIVING, UPLOAD_STORED
from agora.core.uploads import FileType, stored_name, url_of
from agora.store.mongo import new_id


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

    async def stored_of(self, user_id: str, upload_ids: list[str]) -> list[dict[str, Any]]:
        if not upload_ids:  # nx-27017 reads every upload for an empty `$in`
            return []
        query = {"_id": {"$in": upload_ids}, "user_id": user_id, "status": UPLOAD_STORED}
        return await self.uploads.find(query).to_list()


class IncomingFile:
    """A file being received, beside the stored ones so that publishing it is one rename.
    Its blocking calls run in worker threads."""

    def __init__(self, root: Path) -> None:
        fd, name = tempfile.mkstemp(dir=root, prefix=".incoming-")
        self.path = Path(name)
        self.handle = os.fdopen(fd, "w+b")
        self.published = False

    async def write(self, chunk: bytes) -> None:
        await asyncio.to_thread(self.handle.write, chunk)

    async def read(self) -> bytes:
        return await asyncio.to_thread(self._read)

    def _read(self) -> bytes:
        self.handle.seek(0)
        return self.handle.read()

    def move_to(self, target: Path) -> None:
        self.handle.close()
        os.replace(self.path, target)
        self.published = True

    def discard(self) -> None:
        self.handle.close()
        if not self.published:
            self.path.unlink(missing_ok=True)


class UploadFiles:
    """Stored files under their final names; a name appears only once its file is complete."""

    def __init__(self, root: Path) -> None:
        self.root = root

    @asynccontextmanager
    async def incoming(self) -> AsyncIterator[IncomingFile]:
        """A temporary file, gone on exit unless it was published."""
        await asyncio.to_thread(self.root.mkdir, parents=True, exist_ok=True)
        part = await asyncio.to_thread(IncomingFile, self.root)
        try:
            yield part
        finally:
            await asyncio.to_thread(part.discard)

    async def publish(self, part: IncomingFile, name: str) -> None:
        await asyncio.to_thread(part.move_to, self.root / name)

    async def save(self, name: str, data: bytes) -> None:
        async with self.incoming() as part:
            await part.write(data)
            await self.publish(part, name)

    async def existing(self, name: str) -> Path | None:
        """The stored file's path; `name` must already be known to be a stored file's name."""
        path = self.root / name
        return path if await asyncio.to_thread(path.is_file) else None
