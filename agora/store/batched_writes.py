"""MongoDB writes by group commit (`agora/tools/group_commit.py`).

A round trip costs the database far more than one more document in a batch (nx-27017: about
0.35 ms of its CPU per command against 0.15-0.35 ms per document in a batch), so concurrent
callers share `insert_many` / `bulk_write` commands (a 5 ms window per command added 5 ms to
each of the three writes a chat batch waited for in turn). Each caller still learns its own
outcome: an insert that broke a unique index raises `DuplicateKeyError` for that caller
only, and a document BSON cannot hold (an integer beyond 8 bytes, say) fails alone, never
the others that shared its command.
"""

import asyncio
from typing import Any

import bson
from bson.errors import InvalidDocument
from pymongo import UpdateOne
from pymongo.asynchronous.collection import AsyncCollection
from pymongo.errors import BulkWriteError, DuplicateKeyError, OperationFailure

from agora.tools.group_commit import GroupCommit, Pending, fail_all, succeed_all

# What the driver raises, before sending anything, for a document BSON cannot hold.
UNENCODABLE = (InvalidDocument, OverflowError)

BATCH_MAX = 500
DUPLICATE_KEY = 11000


class BatchedWrites:
    def __init__(self, collection: AsyncCollection) -> None:
        self.collection = collection
        self._inserts = GroupCommit(self._flush_inserts, BATCH_MAX)
        self._updates = GroupCommit(self._flush_updates, BATCH_MAX)

    async def insert(self, doc: dict[str, Any]) -> None:
        await self._inserts.add(doc)

    async def insert_each(self, docs: list[dict[str, Any]]) -> list[BaseException | None]:
        """Inserts the documents, each on its own: its error, or None once it is stored."""
        outcomes = self._inserts.enqueue(docs)
        if outcomes:
            await asyncio.wait(outcomes)
        return [outcome.exception() for outcome in outcomes]

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
            fail_all(batch, error)
            return
        succeed_all(batch)


def _error_of(write_error: dict[str, Any]) -> Exception:
    message = write_error.get("errmsg", "write failed")
    if write_error.get("code") == DUPLICATE_KEY:
        return DuplicateKeyError(message, DUPLICATE_KEY, write_error)
    return OperationFailure(message, write_error.get("code"), write_error)
