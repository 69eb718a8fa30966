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
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import ray

from agora.actors import placement
from agora.actors.ownership import deployment_namespace, shard_name
from agora.actors.protocol import (
    ChangeOutcome,
    MessageChange,
    Moved,
    Newest,
    NewestOf,
    NewestOutcome,
    Page,
    PageOutcome,
    React,
    ReactOutcome,
    ReadPage,
    SendBatch,
    SendOutcome,
    SendOutcomes,
    Stored,
    StoredMessage,
    StoreMessage,
    Unavailable,
)
from agora.actors.runtime import SHARD_START_SECONDS, RayAway, RayLink
from agora.actors.sessions import SESSION_POOL, SessionShard
from agora.actors.wiring import StoreFactory
from agora.core.shard_map import ShardMap
from agora.settings import Settings
from agora.store.shard_maps import ShardMapStore
from agora.tools import metrics
from agora.tools.background import BackgroundTasks

# A shard's answer to one call, `Moved` aside.
Outcome = TypeVar("Outcome")

log = logging.getLogger("agora.actors.client")

# The user shards' batching window (actors/user_client.py).
BATCH_WINDOW_SECONDS = 0.002
BATCH_MAX = 256
BATCHES_IN_FLIGHT = 1
FULL_BATCHES_IN_FLIGHT = 2
# A batch whose shard has not answered for this long is given up: its call went to a cluster
# the edge has left (a shard under a store outage answers within a few of the store's waits).
ABANDONED_AFTER_SECONDS = 60
# A send whose shard let go of its session is sent again under the map read anew; a pool
# grows once in a long while, so more moves than this mean the store's map is not settling.
MOVES = 3
# As many as a shard holds (`SESSIONS_PER_SHARD`) for a few shards.
HELD_SESSIONS_KNOWN = 100_000


class ShardHandles:
    """The handles of one pool's shards, each made on first use. Shard `index` is shared by
    every edge of one deployment (database and Redis prefix): the first edge to ask starts
    it, on the node of slot `first_slot + index` (`placement.py`), the others find it by
    name. Handles are made anew once the edge has joined Ray anew (a new cluster: the old
    handles lead nowhere)."""

    def __init__(
        self, link: RayLink, actor_class: Any, kind: str, stores: StoreFactory, first_slot: int
    ) -> None:
        self.link = link
        self.actor_class = actor_class
        self.kind = kind
        self.stores = stores
        self.first_slot = first_slot
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
        return self.actor_class.options(
            name=shard_name(self.kind, index),
            namespace=deployment_namespace(self.stores.settings),
            get_if_exists=True,
            lifetime="detached",
            num_cpus=placement.SHARD_CPUS,
            # The nodes take the pools' shards in turn; a shard whose node died starts again
            # on one that lives (docs/decisions.md, "Shards placed by node").
            scheduling_strategy=placement.node_for(self.first_slot + index),
        ).remote(self.stores)

    async def started(self, index: int) -> None:
        """Returns once shard `index` has started; RayAway when Ray is away or the shard does
        not start in time (`RayLink.shard_start_seconds`)."""
        self.link.require()
        if not self._running(index):
            await self._start(index, self.link.shard_start_seconds)

    def _running(self, index: int) -> bool:
        """Whether shard `index` is known to have started in this cluster: every send asks,
        and nearly always it has (no handle or start to wait for, nor their coroutines)."""
        started = self._started.get(index)
        return (
            self._generation == self.link.generation
            and started is not None
            and started.done()
            and not started.cancelled()
            and started.exception() is None
        )

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


class SessionShardCalls:
    """A session shard's Ray handle with its remote methods' types (`SessionShard`'s own:
    tests/unit/test_shard_protocol.py holds them equal), so that what the edge sends and
    reads is checked as the protocol's commands and outcomes (`make lint` runs mypy)."""

    def __init__(self, actor: Any) -> None:
        self.actor = actor

    async def send_batch(self, batch: SendBatch, shard_map: ShardMap) -> SendOutcomes:
        return await self.actor.send_batch.remote(batch, shard_map)

    async def read_page(self, command: ReadPage, shard_map: ShardMap) -> PageOutcome:
        return await self.actor.read_page.remote(command, shard_map)

    async def change_message(self, command: MessageChange, shard_map: ShardMap) -> ChangeOutcome:
        return await self.actor.change_message.remote(command, shard_map)

    async def newest(self, command: NewestOf, shard_map: ShardMap) -> NewestOutcome:
        return await self.actor.newest.remote(command, shard_map)

    async def forget(self, session_id: str, shard_map: ShardMap | None = None) -> bool:
        return await self.actor.forget.remote(session_id, shard_map)

    async def react(self, command: React, shard_map: ShardMap) -> ReactOutcome:
        return await self.actor.react.remote(command, shard_map)

    async def member_changed(self, session_id: str, user_id: str, shard_map: ShardMap) -> bool:
        return await self.actor.member_changed.remote(session_id, user_id, shard_map)


class SessionShards:
    def __init__(
        self, *, settings: Settings, stores: StoreFactory, link: RayLink, maps: ShardMapStore
    ) -> None:
        self.stores = stores
        self.initial_count = settings.session_shards
        self.maps = maps
        self.link = link
        # How long a caller waits for a shard's answer (the shard may still answer later).
        self.answer_seconds = link.answer_seconds
        self._actors = ShardHandles(link, SessionShard, SESSION_POOL, stores, first_slot=0)
        # The shard map sessions are placed by, read from the store on first use and again
        # when a shard answers that the pool has grown.
        self.map: ShardMap | None = None
        self._reading: asyncio.Future | None = None
        self._pending: dict[int, list[Queued]] = {}
        # When the oldest send waiting for each shard arrived (for the metrics).
        self._first_queued: dict[int, float] = {}
        self._in_flight: dict[int, int] = {}
        self._starting: set[int] = set()
        self._flushes = BackgroundTasks()
        # Sessions this edge's sends (or a read's answer) showed a shard holding, newest use
        # last: only those are asked of the shards for messages. A Ray call costs its edge and
        # its shard about as much CPU as MongoDB's page read, so a question to a shard that
        # does not hold the session (it loads one on its first send) only cost more.
        self._held: OrderedDict[str, None] = OrderedDict()

    def _hold(self, session_id: str) -> None:
        self._held[session_id] = None
        self._held.move_to_end(session_id)
        while len(self._held) > HELD_SESSIONS_KNOWN:
            self._held.popitem(last=False)

    async def shard_map(self) -> ShardMap:
        return self.map if self.map is not None else await self.read_map(None)

    async def read_map(self, stale: ShardMap | None) -> ShardMap:
        """Reads the map from the store unless one newer than `stale` was read meanwhile;
        callers who find a read under way wait for it. Returns the newest map known."""
        if self.map is not None and stale is not None and self.map.newer_than(stale):
            return self.map
        if self._reading is None or self._reading.done():
            self._reading = asyncio.ensure_future(
                self.maps.current(SESSION_POOL, self.initial_count)
            )
        read = await asyncio.shield(self._reading)
        if self.map is None or read.newer_than(self.map):
            self.map = read
        return self.map

    async def actor(self, index: int) -> SessionShardCalls:
        return SessionShardCalls(await self._actors.get(index))

    async def started(self, session_id: str) -> None:
        """Returns once the session's shard has started: a send's answer bound counts from
        then (see `RayLink.shard_start_seconds`)."""
        shard_map = await self.shard_map()
        await self._actors.started(shard_map.owner(session_id))

    async def start_all(self) -> None:
        shard_map = await self.read_map(self.map)
        await self._actors.start_all(shard_map.count)

    async def for_session(self, session_id: str) -> tuple[SessionShardCalls, ShardMap]:
        shard_map = await self.shard_map()
        return await self.actor(shard_map.owner(session_id)), shard_map

    def send(self, message: StoreMessage) -> "asyncio.Future[SendOutcome]":
        """The shard's outcome to come (never `Moved`: the send goes to the session's shard
        under the map read anew). A caller that stops waiting for it leaves it be: the send
        goes to its shard all the same, and its outcome settles the future. Refused at once
        (RayAway) while Ray is away."""
        self.link.require()
        future: asyncio.Future[SendOutcome] = asyncio.get_running_loop().create_future()
        queued = Queued(message, future)
        if self.map is None:
            self._flushes.start(self._queue_once_mapped(queued))
        else:
            self._queue(queued, self.map)
        return future

    async def _queue_once_mapped(self, queued: "Queued") -> None:
        try:
            shard_map = await self.shard_map()
        except Exception as error:
            queued.future.set_exception(error)
            return
        self._queue(queued, shard_map)

    def _queue(self, queued: "Queued", shard_map: ShardMap) -> None:
        index = shard_map.owner(queued.message.session_id)
        pending = self._pending.setdefault(index, [])
        if not pending:
            self._first_queued[index] = time.monotonic()
        pending.append(queued)
        if index not in self._starting:
            # Sends of the same event-loop pass join this batch.
            self._starting.add(index)
            asyncio.get_running_loop().call_soon(self._start, index)

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
        shard_map = await self.shard_map()
        try:
            answered = await self._answers(index, SendBatch([q.message for q in batch]), shard_map)
        except Exception as error:
            for queued in batch:
                if not queued.future.done():
                    queued.future.set_exception(error)
            return
        metrics.acknowledged(first_queued)
        moved = []
        for queued, outcome in zip(batch, answered.outcomes, strict=True):
            if isinstance(outcome, Moved):
                moved.append(queued)
                continue
            if isinstance(outcome, Stored):
                self._hold(queued.message.session_id)
            if not queued.future.done():
                queued.future.set_result(outcome)
        if moved:
            await self._send_again(moved, shard_map)

    async def _send_again(self, moved: list["Queued"], stale: ShardMap) -> None:
        """Sends a shard no longer serves go to their shard under the map read anew."""
        try:
            shard_map = await self.read_map(stale)
        except Exception as error:
            for queued in moved:
                queued.future.set_exception(error)
            return
        for queued in moved:
            queued.moves += 1
            if queued.moves <= MOVES:
                self._queue(queued, shard_map)
            else:
                queued.future.set_result(Unavailable())

    async def _answers(self, index: int, batch: SendBatch, shard_map: ShardMap) -> SendOutcomes:
        """The shard's outcomes of a batch. Past the answer bound its senders have had an
        answer: the next batch goes out beside this one, which still settles them if its
        shard answers."""
        try:
            shard = await self.actor(index)
            call = asyncio.ensure_future(shard.send_batch(batch, shard_map))
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
        """The session's shard reads it again from MongoDB on next use."""
        await self._tell(session_id, lambda shard, shard_map: shard.forget(session_id, shard_map))

    async def member_changed(self, session_id: str, user_id: str) -> None:
        """The session's shard, if it holds the session, reads the member's type again before
        this returns: their next message is taken or refused by it."""
        await self._tell(
            session_id,
            lambda shard, shard_map: shard.member_changed(session_id, user_id, shard_map),
        )

    async def _tell(
        self, session_id: str, call: Callable[[SessionShardCalls, ShardMap], Awaitable[bool]]
    ) -> None:
        """`call` to the session's shard, which answers whether the edge's map is current;
        told again under the map read anew when the session has moved."""
        for _ in range(MOVES):
            shard, shard_map = await self.for_session(session_id)
            if await self.link.answer(call(shard, shard_map)):
                return
            await self.read_map(shard_map)
        raise RayAway()

    async def react(self, command: React) -> ReactOutcome:
        """The session's shard's outcome of a reaction. One call per reaction: reactions are
        far fewer than sends."""
        return await self._asked(
            command.session_id, lambda shard, shard_map: shard.react(command, shard_map)
        )

    async def change(self, command: MessageChange) -> ChangeOutcome:
        """The session's shard's outcome of an edit, a deletion or a pin. Changes are rare:
        each is a call of its own, not batched."""
        await self.started(command.session_id)
        return await self._asked(
            command.session_id, lambda shard, shard_map: shard.change_message(command, shard_map)
        )

    async def _asked(
        self,
        session_id: str,
        call: Callable[[SessionShardCalls, ShardMap], Awaitable[Outcome | Moved]],
    ) -> Outcome | Unavailable:
        """The session's shard's outcome, never `Moved`: asked again of the session's shard
        under the map read anew. RayAway while Ray is away or does not answer in time."""
        for _ in range(MOVES):
            shard, shard_map = await self.for_session(session_id)
            outcome = await self.link.answer(call(shard, shard_map))
            if not isinstance(outcome, Moved):
                return outcome
            await self.read_map(shard_map)
        return Unavailable()

    async def read_page(self, command: ReadPage) -> list[StoredMessage] | None:
        """The page from the session's shard's memory; None when it cannot tell (it does not
        hold the session, or the page; the session moved), or Ray does not answer: the page
        is then read from MongoDB."""
        if command.session_id not in self._held:
            return None
        with contextlib.suppress(RayAway):
            shard, shard_map = await self.for_session(command.session_id)
            found = await self.link.answer(shard.read_page(command, shard_map))
            if isinstance(found, Page):
                self._hold(command.session_id)
                return found.messages
            self._held.pop(command.session_id, None)
        return None

    async def newest(self, session_ids: list[str]) -> dict[str, StoredMessage]:
        """Each session's newest message from its shard's memory, by session id: one call per
        shard. Sessions a shard does not hold, or all while Ray does not answer, are left out
        (they are read from MongoDB)."""
        asked = [s for s in session_ids if s in self._held]
        if not asked:
            return {}
        with contextlib.suppress(RayAway):
            shard_map = await self.shard_map()
            by_shard: dict[int, list[str]] = {}
            for session_id in asked:
                by_shard.setdefault(shard_map.owner(session_id), []).append(session_id)
            found = await asyncio.gather(
                *(self._newest_held(i, ids, shard_map) for i, ids in by_shard.items())
            )
            newest = {s: message for held in found for s, message in held.items()}
            for session_id in asked:
                if session_id in newest:
                    self._hold(session_id)
                else:
                    self._held.pop(session_id, None)
            return newest
        return {}

    async def _newest_held(
        self, index: int, session_ids: list[str], shard_map: ShardMap
    ) -> dict[str, StoredMessage]:
        shard = await self.actor(index)
        found = await self.link.answer(shard.newest(NewestOf(session_ids), shard_map))
        return found.messages if isinstance(found, Newest) else {}


@dataclass
class Queued:
    """A send waiting for its shard, and how often it was sent to one that had let go of
    its session."""

    message: StoreMessage
    future: "asyncio.Future[SendOutcome]"
    moves: int = 0
