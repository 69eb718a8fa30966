"""When a long-running process (the edge, a shard) collects reference cycles.

CPython's collector stops the process while it works, and a full collection walks every
object it tracks. By count, on the edge at 1,000 people, one came every 10-15 s and took
110-290 ms of CPU: objects that outlive two young collections (requests in flight, copies
kept for a while) soon add up to the quarter more that sets one off, and every request
that arrived meanwhile waited it out. Young collections stay as CPython spaces them (under
20 ms each there); full ones run on a clock instead, never by count: the
cycles they free are few (objects without cycles go when their last reference does), and
a stall every few minutes costs a sliver of the requests that one every ten seconds did.
"""

import asyncio
import contextlib
import gc
from collections.abc import AsyncIterator

from agora.tools.background import sweep_forever

# What the process collected by before it settled: CPython's defaults.
_BY_COUNT = gc.get_threshold()
# Middle collections before a full one is even considered: never, in effect.
_FULL_BY_COUNT_NEVER = 1 << 30


def settle() -> None:
    """Once started, what the process holds (Ray, drivers, modules) lives as long as it does:
    frozen, it is left out of every later collection. Full collections are left to a
    clock from here on."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(_BY_COUNT[0], _BY_COUNT[1], _FULL_BY_COUNT_NEVER)


async def collect_fully(every_seconds: float) -> None:
    """The full collections `settle` leaves to the clock, until cancelled."""

    async def collect() -> None:
        gc.collect()

    await sweep_forever(every_seconds, collect, "reference cycles")


def start_collecting(full_every_seconds: float) -> asyncio.Task:
    """`settle`, then the clock's full collections on the running loop (a shard's: it lives
    as long as its process; the caller keeps the task)."""
    settle()
    return asyncio.get_running_loop().create_task(collect_fully(full_every_seconds), name="gc")


@contextlib.asynccontextmanager
async def collecting(full_every_seconds: float) -> AsyncIterator[None]:
    """`start_collecting` for an edge's lifetime: once it stops, the process (a test run
    holding many edges in turn) collects by count again. What it froze stays frozen: thawed,
    it was walked again by the next edge's start, the whole test process each time (make
    test's Python suite took 577 s against 309)."""
    clock = start_collecting(full_every_seconds)
    try:
        yield
    finally:
        clock.cancel()
        gc.set_threshold(*_BY_COUNT)
