"""Group commit: operations that arrive while a command is in flight travel in the next one.

A round trip costs the server and the client far more than one more operation in a command,
so concurrent callers share commands (MongoDB's `insert_many` / `bulk_write`, a Redis
pipeline). An operation finding no command in flight goes with the event loop's next pass
(callers of the same pass join it) rather than after a fixed window: a quiet server answers
in one round trip, and a busy one gets larger commands, since more operations gather while
each command is in flight.
"""

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

Pending = list[tuple[Any, asyncio.Future]]


class GroupCommit:
    """Operations waiting for a command, sent one command at a time by `send`, which
    settles each operation's future (the outcome its caller awaits)."""

    def __init__(
        self, send: Callable[[Pending], Awaitable[None]], most: int, *, linger: float = 0.0
    ) -> None:
        self.send = send
        self.most = most
        # Seconds a batch short of `most` waits for more before it is sent: for operations
        # nobody waits for, which arrive spread out rather than together.
        self.linger = linger
        self.waiting: Pending = []
        # Operations their callers wait for (`add(at_once=True)`): they go in the next batch,
        # ahead of whatever waits without a caller. Queued behind the receipts written behind,
        # a chat's opening waited for all of them: p50 3.4-6.2 s at 1,000 people.
        self.awaited: Pending = []
        self.sending = False
        self._drainer: asyncio.Future | None = None
        self._hurry = asyncio.Event()

    async def add(self, operation: Any, *, at_once: bool = False) -> Any:
        """`operation`'s outcome. `at_once`: it goes in the next batch, ahead of the operations
        nobody waits for, and that batch goes without lingering (the caller waits for it, and
        it takes along what room is left)."""
        [future] = self._queue(self.awaited if at_once else self.waiting, [operation])
        if at_once:
            self._hurry.set()
        return await future

    def enqueue(self, operations: list[Any]) -> list[asyncio.Future]:
        """Futures of the operations' outcomes, in order. A caller with many operations awaits
        these rather than a task per operation (a shard's batch inserts hundreds at a time)."""
        return self._queue(self.waiting, operations)

    def _queue(self, queue: Pending, operations: list[Any]) -> list[asyncio.Future]:
        loop = asyncio.get_running_loop()
        futures = [loop.create_future() for _ in operations]
        queue.extend(zip(operations, futures, strict=True))
        if not self.sending:
            self.sending = True
            self._drainer = asyncio.ensure_future(self._drain())
        return futures

    async def _drain(self) -> None:
        try:
            while self.awaited or self.waiting:
                if self.linger and len(self.waiting) < self.most and not self.awaited:
                    self._hurry.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._hurry.wait(), self.linger)
                batch = self._next_batch()
                try:
                    await self.send(batch)
                except Exception as error:
                    # `send` answers the failures it knows; anything else still answers its
                    # callers rather than strand them.
                    fail_all(batch, error)
        finally:
            self.sending = False

    def _next_batch(self) -> Pending:
        batch = _taken(self.awaited, self.most)
        return batch + _taken(self.waiting, self.most - len(batch))


def _taken(queue: Pending, most: int) -> Pending:
    """The first `most` of `queue`, taken off it."""
    taken = queue[:most]
    del queue[:most]
    return taken


def succeed_all(batch: Pending) -> None:
    for _, future in batch:
        if not future.done():
            future.set_result(None)


def fail_all(batch: Pending, error: Exception) -> None:
    for _, future in batch:
        if not future.done():
            future.set_exception(error)
