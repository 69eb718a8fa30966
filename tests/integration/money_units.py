"""Money moves stopped half-way, for the tests of their units of work (`store/unit_of_work.py`).

The services are built as an edge builds them (`app.build_services`), over a MongoDB client of
their own that tells a `HalfWay` of every command it sends; `HalfWay` cancels the tasks it is
told to half-way through their money move, as an edge that dies there would leave it.
"""

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from pymongo import AsyncMongoClient, monitoring

from agora.app import Built, build_services
from agora.settings import Settings
from agora.store.mongo import ensure_indexes
from agora.store.redis import connect_redis

Wanted = Callable[[dict[str, Any]], bool]


@dataclass(frozen=True)
class Doomed:
    task: asyncio.Task
    collection: str
    wanted: Wanted  # the document whose insert stops the task


class HalfWay(monitoring.CommandListener):
    """Cancels a doomed task once the document it is doomed by is stored, before its move
    writes anything more:

    - the task sent the insert itself (a unit in a transaction): at the next read it sends,
      so that no write of its is in flight when the transaction aborts (one in flight could
      reach nx-27017 after the abort, outside it);
    - a batch of several callers' writes sent it (writes that stand alone): at once, while
      the task waits for the batch's outcome.

    A command is told of in the task that sends it (`asyncio.current_task()`)."""

    def __init__(self) -> None:
        self.stopped: list[asyncio.Task] = []
        self._doomed: list[Doomed] = []
        self._inserts: dict[tuple[Any, int], asyncio.Task] = {}
        self._at_next_read: set[asyncio.Task] = set()

    def doom(self, task: asyncio.Task, collection: str, wanted: Wanted) -> None:
        self._doomed.append(Doomed(task, collection, wanted))

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        task = asyncio.current_task()
        if event.command_name == "find" and task in self._at_next_read:
            self._at_next_read.discard(task)
            self._stop(task)
        if event.command_name != "insert":
            return
        documents = event.command.get("documents", [])
        for doomed in list(self._doomed):
            if event.command["insert"] == doomed.collection and any(map(doomed.wanted, documents)):
                self._doomed.remove(doomed)
                self._inserts[(event.connection_id, event.request_id)] = doomed.task

    def succeeded(self, event: monitoring.CommandSucceededEvent) -> None:
        task = self._inserts.pop((event.connection_id, event.request_id), None)
        if task is None:
            return
        if task is asyncio.current_task():
            self._at_next_read.add(task)
        else:
            self._stop(task)

    def failed(self, event: monitoring.CommandFailedEvent) -> None:
        self._inserts.pop((event.connection_id, event.request_id), None)

    def _stop(self, task: asyncio.Task) -> None:
        self.stopped.append(task)
        task.cancel()


@asynccontextmanager
async def edge_services(
    settings: Settings, *listeners: monitoring.CommandListener
) -> AsyncIterator[Built]:
    """One edge's services (without Ray: nothing here sends a chat message), indexes made."""
    mongo = AsyncMongoClient(settings.mongo_url, tz_aware=True, event_listeners=list(listeners))
    redis = connect_redis(settings)
    try:
        db = mongo[settings.mongo_db]
        built = build_services(settings, db, redis)
        await ensure_indexes(db, built.indexed)
        yield built
    finally:
        await redis.aclose()
        await mongo.close()
