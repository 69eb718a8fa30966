"""The edge's side of the session shards: stable placement and batching.

A Ray call costs about a millisecond of CPU, so sends travel to their shard in batches: one
batch per shard is in flight, and the sends that arrive meanwhile go together in the next. A
quiet edge sends at once (no window to wait out); a busy one sends fewer, larger batches (with
a fixed 2 ms window, a few hundred sends a second still made one call each). With two in
flight, each batch was half as large and the shard's fixed cost per batch (a Ray call, an
insert, a count, a publish) was paid twice as often: the CPU that cost is what the
acknowledgement's p99 under load waited for (docs/decisions.md, "Fourth pass"). A full batch
need not wait, though: once BATCH_MAX sends are waiting, a second batch goes out beside the
one in flight. Near the ceiling the batches are full anyway, so this adds no batch per
message, and the sends stop queueing behind the one in flight ("Eighth pass").
"""

import asyncio
import contextlib
import logging
import time
import zlib
from typing import Any

import ray

from agora import metrics
from agora.actors.runtime import SHARD_START_SECONDS, RayAway, RayLink
from agora.actors.sessions import SessionShard
from agora.background import BackgroundTasks
from agora.settings import Settings
from agora.wiring import StoreFactory

log = logging.getLogger("agora.actors.client")

# The user shards' batching window (actors/user_client.py).
BATCH_WINDOW_SECONDS = 0.002
BATCH_MAX = 256
BATCHES_IN_FLIGHT = 1
FULL_BATCHES_IN_FLIGHT = 2
# A batch whose shard has not answered for this long is given up: its call went to a cluster
# the edge has left (a shard under a store outage answers within a few of the store's waits).
ABANDONED_AFTER_SECONDS = 60


class ShardHandles:
    """The handles of one pool's shards, each made on first use. Shard `index` is shared by
    every edge of one deployment (database and Redis prefix): the first edge to ask starts
    it, the others find it by name. Handles are made anew once the edge has joined Ray anew
    (a new cluster: the old handles lead nowhere)."""

    def __init__(self, link: RayLink, actor_class: Any, kind: str, stores: StoreFactory) -> None:
        self.link = link
        self.actor_class = actor_class
        self.kind = kind
        self.stores = stores
        self._handles: dict[int, asyncio.Future] = {}
        self._started: dict[int, asyncio.Future] = {}
        self._generation = link.generation

    async def get(self, index: int) -> Any:
        """Shard `index`'s handle; RayAway when Ray is away or does not answer in time."""
        self.link.require()
        return await self._handle(index)

    async def _handle(self, index: int) -> Any:
        """Finding a named actor is a blocking call to the GCS, which would hold up the whole
        edge while the GCS does not answer: a handle is made in a thread, once, and callers
        waiting for it go on in the order they came (a shard's events keep their order)."""
        if self._generation != self.link.generation:
            self._handles.clear()
            self._started.clear()
            self._generation = self.link.generation
        made = self._handles.get(index)
        if made is None or _failed(made):
            made = asyncio.ensure_future(asyncio.to_thread(self._make, index))
            self._handles[index] = made
        return await _settled(made, self.link.answer_seconds, f"{self.kind}-{index}")

    def _make(self, index: int) -> Any:
        if not ray.is_initialized():
            raise RayAway()
        settings = self.stores.settings
        return self.actor_class.options(
            name=f"{self.kind}-{index}",
            namespace=f"agora-{settings.mongo_db}-{settings.redis_prefix}",
            get_if_exists=True,
            lifetime="detached",
            num_cpus=0,
        ).remote(self.stores)

    async def started(self, index: int) -> None:
        """Returns once shard `index` has started; RayAway when Ray is away or the shard does
        not start in time (`RayLink.shard_start_seconds`)."""
        self.link.require()
        await self._start(index, self.link.shard_start_seconds)

    async def start_all(self, count: int) -> None:
        """Starts shards 0..count-1 and returns once they run (Ray away or not: the link
        starts them before it serves again)."""
        await asyncio.gather(*(self._start(i, SHARD_START_SECONDS) for i in range(count)))

    async def _start(self, index: int, seconds: float) -> None:
        handle = await self._handle(index)
        started = self._started.get(index)
        if started is None or _failed(started):
            started = asyncio.ensure_future(handle.__ray_ready__.remote())
            self._started[index] = started
        await _settled(started, seconds, f"{self.kind}-{index}")


def _failed(future: asyncio.Future) -> bool:
    return future.done() and future.exception() is not None


async def _settled(future: asyncio.Future, seconds: float, shard: str) -> Any:
    """The future's result, waited for at most `seconds`; RayAway past them or on a failure."""
    try:
        if not future.done():
            await asyncio.wait_for(asyncio.shield(future), seconds)
        return future.result()
    except Exception as error:
        log.warning("%s cannot be reached: %r", shard, error)
        raise RayAway() from error


def shard_of(session_id: str, count: int) -> int:
    return zlib.crc32(session_id.encode()) % count


class SessionShards:
    def __init__(self, settings: Settings, stores: StoreFactory, link: RayLink) -> None:
        self.stores = stores
        self.count = settings.session_shards
        self.link = link
        # How long a caller waits for a shard's answer (the shard may still answer later).
        self.answer_seconds = link.answer_seconds
        self._actors = ShardHandles(link, SessionShard, "session-shard", stores)
        self._pending: dict[int, list[tuple[dict[str, Any], asyncio.Future]]] = {}
        # When the oldest send waiting for each shard arrived (for the metrics).
        self._first_queued: dict[int, float] = {}
        self._in_flight: dict[int, int] = {}
        self._starting: set[int] = set()
        self._flushes = BackgroundTasks()

    async def actor(self, index: int):
        return await self._actors.get(index)

    async def started(self, session_id: str) -> None:
        """Returns once the session's shard has started: a send's answer bound counts from
        then (see `RayLink.shard_start_seconds`)."""
        await self._actors.started(shard_of(session_id, self.count))

    async def start_all(self) -> None:
        await self._actors.start_all(self.count)

    async def for_session(self, session_id: str):
        return await self.actor(shard_of(session_id, self.count))

    def send(self, request: dict[str, Any]) -> asyncio.Future:
        """The shard's reply to come. A caller that stops waiting for it leaves it be: the
        send goes to its shard all the same, and its reply settles the future. Refused at
        once (RayAway) while Ray is away."""
        self.link.require()
        index = shard_of(request["session_id"], self.count)
        future = asyncio.get_running_loop().create_future()
        pending = self._pending.setdefault(index, [])
        if not pending:
            self._first_queued[index] = time.monotonic()
        pending.append((request, future))
        if index not in self._starting:
            # Sends of the same event-loop pass join this batch.
            self._starting.add(index)
            asyncio.get_running_loop().call_soon(self._start, index)
        return future

    def _start(self, index: int) -> None:
        self._starting.discard(index)
        waiting = len(self._pending.get(index, ()))
        in_flight = self._in_flight.get(index, 0)
        most = FULL_BATCHES_IN_FLIGHT if waiting >= BATCH_MAX else BATCHES_IN_FLIGHT
        if waiting and in_flight < most:
            self._in_flight[index] = in_flight + 1
            self._flushes.start(self._flush(index))

    async def _flush(self, index: int) -> None:
        pending = self._pending[index]
        batch, self._pending[index] = pending[:BATCH_MAX], pending[BATCH_MAX:]
        first_queued = self._first_queued[index]
        self._first_queued[index] = time.monotonic()
        try:
            replies = await self._answers(index, [r for r, _ in batch])
        except Exception as error:
            for _, future in batch:
                if not future.done():
                    future.set_exception(error)
            return
        metrics.acknowledged(first_queued)
        for (_, future), reply in zip(batch, replies, strict=True):
            if not future.done():
                future.set_result(reply)

    async def _answers(self, index: int, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The shard's replies to a batch. Past the answer bound its senders have had an
        answer: the next batch goes out beside this one, which still settles them if its
        shard answers."""
        try:
            shard = await self.actor(index)
            call = asyncio.ensure_future(shard.send_batch.remote(requests))
            answered, _ = await asyncio.wait([call], timeout=self.answer_seconds)
        finally:
            # What gathered while this batch was out goes next.
            self._in_flight[index] -= 1
            self._start(index)
        if answered:
            return call.result()
        return await asyncio.wait_for(call, ABANDONED_AFTER_SECONDS)

    @staticmethod
    def running() -> bool:
        """Whether this process is connected to Ray (edges started without it post no
        system notices rather than starting a Ray of their own on first use)."""
        return ray.is_initialized()

    async def forget(self, session_id: str) -> None:
        shard = await self.for_session(session_id)
        await self.link.answer(shard.forget.remote(session_id))

    async def buffered(self, session_id: str, after: int | None, limit: int) -> list | None:
        """The shard's newest messages after `after`; None when it cannot tell, or Ray does
        not answer (the page is then read from MongoDB)."""
        with contextlib.suppress(RayAway):
            shard = await self.for_session(session_id)
            return await self.link.answer(shard.buffered.remote(session_id, after, limit))
        return None
