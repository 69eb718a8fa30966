"""Work started to run on its own, kept referenced until it ends.

asyncio holds only weak references to tasks: one nobody keeps may be collected before it
finishes. Edges, shard clients and services that start work off their callers' path hold it
here, and wait for it on a clean stop.
"""

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Hashable, Iterable
from typing import TypeVar

log = logging.getLogger("agora.tools.background")

Result = TypeVar("Result")


class BackgroundTasks:
    def __init__(self) -> None:
        self._running: set[asyncio.Future] = set()

    def start(self, work: Awaitable) -> None:
        task = asyncio.ensure_future(work)
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def settled(self) -> None:
        """Until every task has ended, those the running ones start meanwhile included."""
        while self._running:
            await asyncio.gather(*list(self._running), return_exceptions=True)


async def sweep_forever(seconds: float, sweep: Callable[[], Awaitable[object]], what: str) -> None:
    """Runs `sweep` every `seconds` until cancelled: a round that fails is logged as "the
    sweep of {what} failed" and the next one runs."""
    while True:
        await asyncio.sleep(seconds)
        try:
            await sweep()
        except Exception:
            log.warning("the sweep of %s failed", what, exc_info=True)


class Backoff:
    """The waits between attempts at something that failed: `first`, then twice as long each
    time, at most `longest`."""

    def __init__(self, first: float = 0.1, longest: float = 2.0) -> None:
        self.first = first
        self.longest = longest
        self.next = first

    async def wait(self) -> None:
        await asyncio.sleep(self.next)
        self.next = min(2 * self.next, self.longest)

    def reset(self) -> None:
        self.next = self.first


async def retried(
    attempt: Callable[[], Awaitable[Result]], what: str, give_up_after: float
) -> Result:
    """What `attempt()` gives, called again after each failure (logged as "{what} failed"),
    with a Backoff's waits; a failure past `give_up_after` seconds is raised."""
    deadline = time.monotonic() + give_up_after
    backoff = Backoff()
    while True:
        try:
            return await attempt()
        except Exception as error:
            if time.monotonic() + backoff.next > deadline:
                raise
            log.warning("%s failed (%r); trying again in %.1f s", what, error, backoff.next)
            await backoff.wait()


class Turns:
    """Turns per key, in the order they were taken: work that must keep the order it arrived
    in takes its turn where it arrives (no await in between) and waits for it later, so the
    awaits on its way (store writes, lookups) cannot reorder it."""

    def __init__(self) -> None:
        self._last: dict[Hashable, asyncio.Future] = {}

    def take(self, keys: Iterable[Hashable]) -> "Turn":
        keys = set(keys)
        mine = asyncio.get_running_loop().create_future()
        before = {self._last[key] for key in keys if key in self._last}
        for key in keys:
            self._last[key] = mine
        return Turn(self, keys, before, mine)

    def _end(self, keys: set[Hashable], mine: asyncio.Future) -> None:
        if not mine.done():
            mine.set_result(None)
        for key in keys:
            if self._last.get(key) is mine:
                del self._last[key]

    def _end_after(
        self, keys: set[Hashable], mine: asyncio.Future, before: set[asyncio.Future]
    ) -> None:
        """A turn given up while it waited ends when the turns before it end: those after it
        wait for it alone, and must not start beside one still running."""
        waiting = {turn for turn in before if not turn.done()}

        def one_ended(turn: asyncio.Future) -> None:
            waiting.discard(turn)
            if not waiting:
                self._end(keys, mine)

        for turn in waiting:
            turn.add_done_callback(one_ended)
        if not waiting:
            self._end(keys, mine)


class Turn:
    def __init__(
        self, turns: Turns, keys: set[Hashable], before: set[asyncio.Future], mine: asyncio.Future
    ) -> None:
        self._turns = turns
        self._keys = keys
        self._before = before
        self._mine = mine

    async def __aenter__(self) -> None:
        try:
            if self._before:
                # wait() leaves the futures as they are when this task is cancelled.
                await asyncio.wait(self._before)
        except BaseException:
            self._turns._end_after(self._keys, self._mine, self._before)
            raise

    async def __aexit__(self, *exc_info: object) -> None:
        self._turns._end(self._keys, self._mine)
