"""Group commit: writes that arrive while a command is in flight travel in the next one.

A round trip costs the database far more than one more document in a batch (nx-27017: about
0.35 ms of its CPU per command against 0.15-0.35 ms per document in a batch), so concurrent callers
share `insert_many` / `bulk_write` commands. A write finding no command in flight goes with the
event loop's next pass (callers of the same pass join it) rather than after a fixed window:
a quiet store answers in one round trip, and a busy one gets larger commands, since more
writes gather while each command is in flight (a 5 ms window per command added 5 ms to each
of the three writes a chat batch waits for in turn). Each caller still learns its own outcome: an
insert that broke a unique index raises `DuplicateKeyError` for that caller only, and a
document BSON cannot hold (an integer beyond 8 bytes, say) fails alone, never the others
that shared its command.
"""

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import bson
from bson.errors import InvalidDocument
from pymongo import UpdateOne
from pymongo.asynchronous.collection import AsyncCollection
from pymongo.errors import BulkWriteError, DuplicateKeyError, OperationFailure

# What the driver raises, before sending anything, for a document BSON cannot hold.
UNENCODABLE = (InvalidDocument, OverflowError)

BATCH_MAX = 500
DUPLICATE_KEY = 11000

Pending = list[tuple[Any, asyncio.Future]]


class _Commands:
    """Operations waiting for a command, sent one command at a time by `send`, which
    settles each operation's future."""

    def __init__(self, send: Callable[[Pending], Awaitable[None]]) -> None:
        self.send = send
        self.waiting: Pending = []
        self.sending = False
        self._drainer: asyncio.Future | None = None

    async def add(self, operation: Any) -> None:
        future = asyncio.get_running_loop().create_future()
        self.waiting.append((operation, future))
        if not self.sending:
            self.sending = True
            self._drainer = asyncio.ensure_future(self._drain())
        await future

    async def _drain(self) -> None:
        try:
            while self.waiting:
                batch, self.waiting = self.waiting[:BATCH_MAX], self.waiting[BATCH_MAX:]
                try:
                    await self.send(batch)
                except Exception as error:
                    # `send` answers the failures it knows; anything else still answers its
                    # callers rather than strand them.
                    _fail(batch, error)
        finally:
            self.sending = False


def _fail(batch: Pending, error: Exception) -> None:
    for _, future in batch:
        if not future.done():
            future.set_exception(error)


class BatchedWrites:
    def __init__(self, collection: AsyncCollection) -> None:
        self.collection = collection
        self._inserts = _Commands(self._flush_inserts)
        self._updates = _Commands(self._flush_updates)

    async def insert(self, doc: dict[str, Any]) -> None:
        await self._inserts.add(doc)

    async def update(self, query: dict[str, Any], change: dict[str, Any]) -> None:
        """An update whose outcome the caller does not need (it may match nothing)."""
        await self._updates.add(UpdateOne(query, change))

    async def _flush_inserts(self, batch: Pending) -> None:
        failures = await self._insert_many([doc for doc, _ in batch])
        for index, (_, future) in enumerate(batch):
            if future.done():
                continue
            if index in failures:
                future.set_exception(failures[index])
            else:
                future.set_result(None)

    async def _insert_many(
        self, docs: list[dict[str, Any]], *, split_unencodable: bool = True
    ) -> dict[int, Exception]:
        """Inserts the documents in one command; returns the failures by position."""
        try:
            await self.collection.insert_many(docs, ordered=False)
        except BulkWriteError as error:
            return {e["index"]: _error_of(e) for e in error.details.get("writeErrors", [])}
        except UNENCODABLE as error:
            if split_unencodable:
                return await self._insert_encodable(docs)
            return dict.fromkeys(range(len(docs)), error)
        except Exception as error:
            return dict.fromkeys(range(len(docs)), error)
        return {}

    async def _insert_encodable(self, docs: list[dict[str, Any]]) -> dict[int, Exception]:
        """The driver refused the whole command for one document it cannot encode: those
        fail on their own and the rest are inserted (only on this rare path is each
        document encoded ahead)."""
        failures: dict[int, Exception] = {}
        encodable: list[int] = []
        for index, doc in enumerate(docs):
            try:
                bson.encode(doc, codec_options=self.collection.codec_options)
            except UNENCODABLE as error:
                failures[index] = error
            else:
                encodable.append(index)
        if encodable:
            rest = await self._insert_many([docs[i] for i in encodable], split_unencodable=False)
            failures.update({encodable[i]: error for i, error in rest.items()})
        return failures

    async def _flush_updates(self, batch: Pending) -> None:
        try:
            await self.collection.bulk_write([op for op, _ in batch], ordered=False)
        except Exception as error:
            _fail(batch, error)
            return
        for _, future in batch:
            if not future.done():
                future.set_result(None)


def _error_of(write_error: dict[str, Any]) -> Exception:
    message = write_error.get("errmsg", "write failed")
    if write_error.get("code") == DUPLICATE_KEY:
        return DuplicateKeyError(message, DUPLICATE_KEY, write_error)
    return OperationFailure(message, write_error.get("code"), write_error)
