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
import time
import zlib
from typing import Any

import ray

from agora import metrics
from agora.actors.sessions import SessionShard
from agora.background import BackgroundTasks
from agora.settings import Settings
from agora.wiring import StoreFactory

# The user shards' batching window (actors/user_client.py).
BATCH_WINDOW_SECONDS = 0.002
BATCH_MAX = 256
BATCHES_IN_FLIGHT = 1
FULL_BATCHES_IN_FLIGHT = 2


def shard_actor(actor_class: Any, kind: str, index: int, stores: StoreFactory) -> Any:
    """Shard `index` of a pool, shared by every edge of one deployment (database and Redis
    prefix): the first edge to ask starts it, the others find it by name."""
    settings = stores.settings
    return actor_class.options(
        name=f"{kind}-{index}",
        namespace=f"agora-{settings.mongo_db}-{settings.redis_prefix}",
        get_if_exists=True,
        lifetime="detached",
        num_cpus=0,
    ).remote(stores)


def shard_of(session_id: str, count: int) -> int:
    return zlib.crc32(session_id.encode()) % count


class SessionShards:
    def __init__(self, settings: Settings, stores: StoreFactory) -> None:
        self.stores = stores
        self.count = settings.session_shards
        # Shards are named per deployment, so every edge of it reaches the same actors.
        self._actors: dict[int, Any] = {}
        self._pending: dict[int, list[tuple[dict[str, Any], asyncio.Future]]] = {}
        # When the oldest send waiting for each shard arrived (for the metrics).
        self._first_queued: dict[int, float] = {}
        self._in_flight: dict[int, int] = {}
        self._starting: set[int] = set()
        self._flushes = BackgroundTasks()

    def actor(self, index: int):
        if index not in self._actors:
            self._actors[index] = shard_actor(SessionShard, "session-shard", index, self.stores)
        return self._actors[index]

    def for_session(self, session_id: str):
        return self.actor(shard_of(session_id, self.count))

    async def send(self, request: dict[str, Any]) -> dict[str, Any]:
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
        return await future

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
            replies = await self.actor(index).send_batch.remote([r for r, _ in batch])
        except Exception as error:
            for _, future in batch:
                if not future.done():
                    future.set_exception(error)
            return
        finally:
            # What gathered while this batch was out goes next.
            self._in_flight[index] -= 1
            self._start(index)
        metrics.acknowledged(first_queued)
        for (_, future), reply in zip(batch, replies, strict=True):
            if not future.done():
                future.set_result(reply)

    @staticmethod
    def running() -> bool:
        """Whether this process is connected to Ray (edges started without it post no
        system notices rather than starting a Ray of their own on first use)."""
        return ray.is_initialized()

    async def forget(self, session_id: str) -> None:
        await self.for_session(session_id).forget.remote(session_id)

    async def buffered(self, session_id: str, after: int | None, limit: int) -> list | None:
        return await self.for_session(session_id).buffered.remote(session_id, after, limit)
