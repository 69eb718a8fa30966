"""MongoDB connection (PyMongo's async API)."""

import asyncio
import contextvars
import logging
import os
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any, Protocol

from bson import ObjectId
from pymongo import AsyncMongoClient, monitoring
from pymongo.asynchronous.collection import AsyncCollection
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import OperationFailure

from agora.settings import Settings
from agora.tools import metrics

INDEX_NOT_FOUND = 27
# Unless told a batch size (the driver tells none), nx-27017 answers a find with 101
# documents and each getMore with 101 more: a city group's 500 memberships (a push
# decision's, a shard's load) took five commands. Told, it gives them in one.
DOCUMENTS_PER_BATCH = 1000
slow_log = logging.getLogger("agora.mongo.slow")
census_log = logging.getLogger("agora.mongo.census")
CENSUS_SHAPES = 15
CENSUS_CALLERS = 6
AGORA_DIR = str(Path(__file__).parents[1]) + os.sep
# Not who asked, but what asks for everybody: the store, and the tools that batch and retry
# (a group commit's command is named after the caller that started its drain).
HELPER_DIRS = tuple(str(Path(__file__).parents[1] / part) + os.sep for part in ("store", "tools"))
# The census's caller of the code that started a task (or scheduled the callback that did),
# for the commands the task sends: a task's frames end at its own coroutine (`find_in`'s
# queries, gathered).
_spawned_by: contextvars.ContextVar[str] = contextvars.ContextVar("census_spawned_by")


def connect_mongo(settings: Settings) -> AsyncMongoClient:
    slow_ms = settings.mongo_slow_command_ms
    census_seconds = settings.mongo_command_census_seconds
    watching = slow_ms or census_seconds
    if census_seconds:
        _census_heard(settings.var_dir / "log")
    return AsyncMongoClient(
        settings.mongo_url,
        tz_aware=True,
        serverSelectionTimeoutMS=settings.mongo_server_selection_timeout_ms,
        connectTimeoutMS=settings.mongo_connect_timeout_ms,
        uuidRepresentation="standard",
        event_listeners=(
            [CommandWatch(slow_ms, census_seconds, callers=settings.mongo_command_census_callers)]
            if watching
            else []
        ),
    )


def _census_heard(log_dir: Path) -> None:
    """The census is logged in every process that asks the store, the shards included: a Ray
    worker configures no logging (and keeps no log of its stderr), so there it goes to a file
    of its own in the deployment's log directory, `census-<pid>.log`."""
    census_log.setLevel(logging.INFO)
    if not census_log.hasHandlers():
        log_dir.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(log_dir / f"census-{os.getpid()}.log")
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(message)s"))
        census_log.addHandler(handler)


class CommandWatch(monitoring.CommandListener):
    """What this client asks of the store, by shape (which command on which collection, and
    the fields it filtered and sorted on, never their values): each command slower than
    `slow_ms` as seen from here (the wait for a connection and the server's queue included)
    is logged, and every `census_seconds` the commands of the last period are counted. While
    the census is on, each command is also counted in Ray's metrics, where a bench sums the
    edges' and the shards' (every process on the store) over the time it measures.

    `callers` names who asked each shape too. Only when asked: it walks the frames of every
    command and of every task the loop starts, 6-8 % of an edge's and a session shard's CPU
    at 500 people, which a bench counting commands would measure as the product's."""

    def __init__(self, slow_ms: int, census_seconds: int = 0, *, callers: bool = False) -> None:
        self.slow_us = slow_ms * 1000 if slow_ms else None
        self.census_seconds = census_seconds
        self.callers = callers
        self._shapes: dict[tuple[int, int], str] = {}
        self._census: Counter[str] = Counter()
        self._callers: defaultdict[str, Counter[str]] = defaultdict(Counter)
        self._census_since = time.monotonic()

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        shape = _shape(event.command_name, event.command)
        self._shapes[(event.connection_id, event.request_id)] = shape
        if self.census_seconds:
            self._count(shape, sys._getframe(1))

    def _count(self, shape: str, frame: Any) -> None:
        metrics.store_command()
        self._census[shape] += 1
        if self.callers:
            loop = asyncio.get_running_loop()
            _attribute_tasks(loop)
            self._callers[shape][_caller(frame, loop) or _spawned_by.get("unknown")] += 1
        now = time.monotonic()
        if now - self._census_since < self.census_seconds:
            return
        seconds, self._census_since = now - self._census_since, now
        counted, self._census = self._census, Counter()
        callers, self._callers = self._callers, defaultdict(Counter)
        top = counted.most_common(CENSUS_SHAPES)
        census_log.info(
            "store commands of process %d over %.0f s: %.1f/s; %s",
            os.getpid(),
            seconds,
            counted.total() / seconds,
            " | ".join(f"{n / seconds:.1f}/s {shape}" for shape, n in top),
        )
        for shape, n in top if self.callers else []:
            by_caller = callers[shape].most_common(CENSUS_CALLERS)
            census_log.info(
                "%.1f/s %s from: %s",
                n / seconds,
                shape,
                " | ".join(f"{c / seconds:.1f}/s {caller}" for caller, c in by_caller),
            )

    def succeeded(self, event: monitoring.CommandSucceededEvent) -> None:
        self._ended(event)

    def failed(self, event: monitoring.CommandFailedEvent) -> None:
        self._ended(event)

    def _ended(self, event) -> None:
        shape = self._shapes.pop((event.connection_id, event.request_id), event.command_name)
        if self.slow_us is not None and event.duration_micros >= self.slow_us:
            slow_log.warning("slow command %d ms: %s", event.duration_micros // 1000, shape)


def _caller(frame: Any, loop: asyncio.AbstractEventLoop) -> str | None:
    """The census's name for who asked: the innermost function of agora outside the store and
    its tools in the running task's frames. None outside a task (a callback of the loop) and
    past the task's own coroutine, below which are the loop and whatever started it."""
    task = asyncio.current_task(loop)
    if task is None:
        return None
    bottom = getattr(task.get_coro(), "cr_frame", None)
    while frame is not None:
        file = frame.f_code.co_filename
        if file.startswith(AGORA_DIR) and not file.startswith(HELPER_DIRS):
            return f"{frame.f_globals.get('__name__')}.{frame.f_code.co_qualname}"
        if frame is bottom:
            return None
        frame = frame.f_back
    return None


def _attribute_tasks(loop: asyncio.AbstractEventLoop) -> None:
    """While the census counts, each task this loop starts remembers who started it
    (`_spawned_by`), unless the loop has a task factory of its own already."""
    if loop.get_task_factory() is None:
        loop.set_task_factory(_task_remembering_its_caller)


def _task_remembering_its_caller(
    loop: asyncio.AbstractEventLoop, coro: Any, context: contextvars.Context | None = None
) -> asyncio.Task:
    context = (contextvars.copy_context() if context is None else context).copy()
    if (caller := _caller(sys._getframe(1), loop)) is not None:
        context.run(_spawned_by.set, caller)
    return asyncio.Task(coro, loop=loop, context=context)


def _shape(name: str, command: Any) -> str:
    collection = command.get(name)
    parts = [f"{name} {collection}" if isinstance(collection, str) else name]
    for part in ("filter", "query", "q", "sort", "update"):
        if isinstance(command.get(part), dict):
            parts.append(f"{part} {sorted(command[part])}")
    for batch in ("updates", "deletes"):
        if isinstance(command.get(batch), list) and command[batch]:
            parts.append(
                f"{batch} {len(command[batch])} q {sorted(command[batch][0].get('q', {}))}"
            )
    if isinstance(command.get("pipeline"), list):
        parts.append(f"pipeline {[_stage_name(stage) for stage in command['pipeline']]}")
    return " ".join(parts)


def _stage_name(stage: dict[str, Any]) -> str:
    """An aggregate's stage by its name; a union's with the collection it reads
    (`store/reads_together.py`: the reads that share a command)."""
    name = next(iter(stage), "")
    if name == "$unionWith" and isinstance(stage[name], dict):
        return f"{name} {stage[name].get('coll')}"
    return name


def database(client: AsyncMongoClient, settings: Settings) -> AsyncDatabase:
    return client[settings.mongo_db]


def new_id() -> str:
    """Ids are strings in the API; ObjectId text keeps them time-ordered and unique."""
    return str(ObjectId())


async def count_matching(collection: AsyncCollection, query: dict[str, Any]) -> int:
    """How many documents match, counted from their ids.

    nx-27017 runs `count_documents` as an aggregation over the whole collection (about
    370 ms among 30,000 documents, index or not) but finds indexed ids in a few ms.
    """
    return len(await collection.find(query, {"_id": 1}).to_list())


class Indexed(Protocol):
    """A store with indexes of its own, which each edge's start ensures."""

    async def ensure_indexes(self, indexes: "Indexes") -> None: ...


async def ensure_indexes(db: AsyncDatabase, stores: Iterable[Indexed]) -> None:
    """Every index of the stores exists once this returns (an edge's start)."""
    indexes = await Indexes.recorded_in(db)
    for store in stores:
        await store.ensure_indexes(indexes)


class Indexes:
    """Creates indexes once, remembering that it did in the `schema_indexes` collection.

    Asking for an existing index is a no-op on MongoDB, but nx-27017 fails when re-creating a
    text index over existing documents and does not list text indexes, hence the record. The
    records are read once (one query for every index ever created), and a collection's indexes
    are listed only when one asked for has no record, once: an edge's start on a database that
    has them all asks three commands, where asking index by index took 150 (a listing and a
    record's look-up each, as nx-27017 lists indexes under names of its own).
    """

    def __init__(self, db: AsyncDatabase, recorded: set[str]) -> None:
        self._records = db["schema_indexes"]
        self._recorded = recorded
        self._listings: dict[str, dict[str, Any]] = {}
        self._nx_27017: bool | None = None

    @classmethod
    async def recorded_in(cls, db: AsyncDatabase) -> "Indexes":
        records = await db["schema_indexes"].find({}, {"_id": 1}).to_list()
        return cls(db, {record["_id"] for record in records})

    async def ensure(
        self, collection: AsyncCollection, keys: list[tuple[str, Any]], **options
    ) -> None:
        """Creates the index once, and a plain index on the first field of a compound one.

        nx-27017 (neosqlite) writes an equality as an indexable predicate only for a field
        with an index named after it: without the plain index, every query on the compound's
        first field is a scan of the whole collection (18 ms against 1 ms for a session's
        messages among 30,000); with it, SQLite's planner uses the compound one too. On MongoDB
        the extra index is redundant and cheap.
        """
        leading, direction = keys[0]
        if len(keys) > 1 and direction in (1, -1):
            await self._ensure_one(collection, [(leading, 1)])
        await self._ensure_one(collection, keys, **options)

    async def ensure_text(self, collection: AsyncCollection, equality: str, text: str) -> None:
        """The text index `$text` queries that name one value of `equality` are answered from.

        On MongoDB a compound one led by `equality` (`{equality: 1, text: "text"}`): a query
        reads only that value's keys, never another's. nx-27017 has no compound text index (it
        makes that key a plain index on both fields, and answers `$text` by reading every
        document), but answers `$text` from a full-text table for a single-field text index: it
        gets that one, and filters on `equality` beside it. Words are indexed as they are
        written (`default_language` "none": no stemming, no stop words), as nx-27017 does.
        """
        keys: list[tuple[str, Any]] = [(text, "text")]
        if not await self._is_nx_27017(collection.database):
            keys.insert(0, (equality, 1))
        await self._ensure_one(collection, keys, default_language="none")

    async def once(self, change: str, make: Callable[[], Awaitable[None]]) -> None:
        """Makes a change to stored documents (`make`, idempotent) unless an earlier start made
        it: documents stored in an earlier shape, brought to the one the code reads now."""
        record = f"once.{change}"
        if record in self._recorded:
            return
        await make()
        await self._records.update_one({"_id": record}, {"$set": {"done": True}}, upsert=True)
        self._recorded.add(record)

    async def drop(self, collection: AsyncCollection, retired: list[list[tuple[str, Any]]]) -> None:
        """Drops the indexes on each of the `retired` keys that has one (replaced indexes, at
        startup), from one listing of the collection's indexes.

        Found by their keys, not their names: nx-27017 lists and drops indexes under names of its
        own (`idx_<collection>_<fields>`) and silently ignores a drop by the name they were created
        with. Another edge dropping one at the same time is not an error.
        """
        wanted = [_key_spec(keys) for keys in retired]
        listing = await self._listing(collection)
        for name, index in list(listing.items()):
            if _key_spec(index["key"]) not in wanted:
                continue
            try:
                await collection.drop_index(name)
            except OperationFailure as error:
                if error.code != INDEX_NOT_FOUND:
                    raise
            del listing[name]
        records = [f"{collection.name}.{_default_name(keys)}" for keys in retired]
        if kept := [record for record in records if record in self._recorded]:
            await self._records.delete_many({"_id": {"$in": kept}})
            self._recorded.difference_update(kept)

    async def _ensure_one(
        self, collection: AsyncCollection, keys: list[tuple[str, Any]], **options
    ) -> None:
        name = options.pop("name", None) or _default_name(keys)
        record = f"{collection.name}.{name}"
        if record in self._recorded:
            return
        if name not in await self._listing(collection):
            await collection.create_index(keys, name=name, **options)
        # Listed but not recorded (made before the records were kept): recorded now, so the
        # next start need not list the collection.
        await self._records.update_one({"_id": record}, {"$set": {"keys": keys}}, upsert=True)
        self._recorded.add(record)

    async def _listing(self, collection: AsyncCollection) -> dict[str, Any]:
        if collection.name not in self._listings:
            self._listings[collection.name] = await collection.index_information()
        return self._listings[collection.name]

    async def _is_nx_27017(self, db: AsyncDatabase) -> bool:
        """Whether the server is nx-27017, which says so in `buildInfo` (MongoDB has no
        `process` there); asked once."""
        if self._nx_27017 is None:
            self._nx_27017 = (await db.command("buildInfo")).get("process") == "nx_27017"
        return self._nx_27017


def _default_name(keys: list[tuple[str, Any]]) -> str:
    return "_".join(f"{field}_{kind}" for field, kind in keys)


def _key_spec(keys: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """Index keys comparable whatever the server reports (MongoDB may say 1.0 for 1)."""
    return [(field, kind if isinstance(kind, str) else int(kind)) for field, kind in keys]
