"""Uploaded files in GridFS, in the product's own MongoDB: every edge reads what any edge wrote,
and a replica set keeps them as it keeps the rest of the data."""

from collections.abc import AsyncGenerator
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime

from gridfs import AsyncGridFSBucket, NoFile
from gridfs.asynchronous.grid_file import AsyncGridOut
from pymongo.asynchronous.database import AsyncDatabase


@dataclass
class GridFsFile:
    stream: AsyncGridOut

    @property
    def size(self) -> int:
        return int(self.stream.length)

    @property
    def modified(self) -> datetime:
        return self.stream.upload_date

    async def chunks(self, start: int, count: int) -> AsyncGenerator[bytes, None]:
        try:
            await self.stream.seek(start)
            while count > 0:
                # GridFS's own chunk size: each read is one chunk document, mostly.
                piece = await self.stream.read(min(count, self.stream.chunk_size))
                if not piece:
                    return
                count -= len(piece)
                yield piece
        finally:
            await self.stream.close()


class GridFsFiles:
    def __init__(self, db: AsyncDatabase, bucket: str) -> None:
        self.bucket = AsyncGridFSBucket(db, bucket_name=bucket)

    async def save(self, name: str, content_type: str, data: bytes) -> None:
        # The file's document is inserted last, after its chunks: readers, who look files up
        # by name, never see a partial file.
        stream = self.bucket.open_upload_stream(name, metadata={"contentType": content_type})
        try:
            await stream.write(data)
            await stream.close()
        except BaseException:
            # The context manager would only mark the stream closed, leaving written chunks.
            await stream.abort()
            raise

    async def open(self, name: str) -> GridFsFile | None:
        try:
            return GridFsFile(await self.bucket.open_download_stream_by_name(name))
        except NoFile:
            return None

    async def delete(self, name: str) -> None:
        # Each version by its id: nx-27017 refuses `delete_by_name`'s delete of an `$in` of
        # ids (it answers that no such file exists).
        async for version in self.bucket.find({"filename": name}):
            with suppress(NoFile):
                await self.bucket.delete(version._id)

    async def close(self) -> None:
        """The MongoDB client is the edge's own, closed with it."""
