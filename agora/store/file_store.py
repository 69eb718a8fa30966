"""Where uploaded files (and their thumbnails) live: a store every edge reads and writes, chosen
by AGORA_UPLOADS_STORE (GridFS in the product's MongoDB, or an S3-compatible bucket)."""

import asyncio
import logging
from collections.abc import AsyncGenerator
from datetime import datetime
from pathlib import Path
from typing import Protocol

from pymongo.asynchronous.database import AsyncDatabase

from agora.core.uploads import served_type
from agora.settings import Settings
from agora.store.gridfs_files import GridFsFiles
from agora.store.s3_files import S3Files

log = logging.getLogger("agora.uploads")


class OpenedFile(Protocol):
    """A stored file found by name, ready to be read."""

    size: int
    modified: datetime

    def chunks(self, start: int, count: int) -> AsyncGenerator[bytes, None]:
        """`count` bytes from `start`, in pieces."""
        ...


class FileStore(Protocol):
    """Files under names that are written once (`core.uploads.stored_name`): a name is found
    only once its file is complete."""

    async def save(self, name: str, content_type: str, data: bytes) -> None: ...

    async def open(self, name: str) -> OpenedFile | None: ...

    async def delete(self, name: str) -> None:
        """Nothing happens when there is no such file."""
        ...

    async def close(self) -> None: ...


def file_store(settings: Settings, db: AsyncDatabase) -> FileStore:
    if settings.uploads_store == "s3":
        return S3Files(settings)
    return GridFsFiles(db, settings.uploads_gridfs_bucket)


async def import_local_files(root: Path, files: FileStore) -> int:
    """Copies into the store the files an older version wrote under `root` (one edge's disk)
    that the store does not have yet; idempotent, so every start may run it. The local files
    are left in place. Returns how many were copied."""
    names = await asyncio.to_thread(_local_names, root)
    copied = 0
    for name in names:
        kind = served_type(name)
        if kind is None or await files.open(name) is not None:
            continue
        await files.save(name, kind.mime_type, await asyncio.to_thread((root / name).read_bytes))
        copied += 1
    if copied:
        log.info("copied %d uploaded files from %s into the upload store", copied, root)
    return copied


def _local_names(root: Path) -> list[str]:
    return sorted(path.name for path in root.iterdir() if path.is_file()) if root.is_dir() else []
