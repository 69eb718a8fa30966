"""When a long-running process (the edge, a shard) collects reference cycles.

CPython's collector stops the process while it works, and a full collection walks every
object it tracks. On the edge at 1,000 people that was 110-290 ms of CPU, every 10-15 s:
requests promoted into the oldest generation (alive across two young collections, 0.5 s
at the default thresholds) soon set one off, and every request that arrived meanwhile
waited it out. Young collections here are spaced wider (fewer short-lived objects
survive into the oldest generation), and the full collection runs on a clock instead:
the cycles it frees are few, and a stall every few minutes costs a sliver of the
requests that one every ten seconds did.
"""

import asyncio
import contextlib
import gc
from collections.abc import AsyncIterator
from dataclasses import dataclass

from agora.background import sweep_forever

# What the process collected by before a schedule was settled: CPython's defaults.
_BY_COUNT = gc.get_threshold()
# Young collections per middle one: CPython's default.
_MIDDLE_EVERY = 10
# Middle collections before a full one is even considered: never, in effect; the clock
# runs it.
_FULL_BY_COUNT_NEVER = 1 << 30


@dataclass(frozen=True)
class CollectorSchedule:
    young_every_objects: int
    full_every_seconds: float


def settle(schedule: CollectorSchedule) -> None:
    """Once started, what the process holds (Ray, drivers, modules) lives as long as it does:
    frozen, it is left out of every later collection."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(schedule.young_every_objects, _MIDDLE_EVERY, _FULL_BY_COUNT_NEVER)


async def collect_fully(schedule: CollectorSchedule) -> None:
    """The full collections the schedule leaves to the clock, until cancelled."""

    async def collect() -> None:
        gc.collect()

    await sweep_forever(schedule.full_every_seconds, collect, "reference cycles")


def start_collecting(schedule: CollectorSchedule) -> asyncio.Task:
    """`settle`, then the clock's full collections on the running loop (a shard's: it lives
    as long as its process; the caller keeps the task)."""
    settle(schedule)
    return asyncio.get_running_loop().create_task(collect_fully(schedule), name="gc")


@contextlib.asynccontextmanager
async def collecting(schedule: CollectorSchedule) -> AsyncIterator[None]:
    """`start_collecting` for an edge's lifetime: once it stops, the process (a test run
    holding many edges in turn) collects everything by count again."""
    clock = start_collecting(schedule)
    try:
        yield
    finally:
        clock.cancel()
        gc.set_threshold(*_BY_COUNT)
        gc.unfreeze()
