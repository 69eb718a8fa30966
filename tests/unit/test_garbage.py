"""The edge's and the shards' schedule of cycle collections (agora/tools/garbage.py)."""

import asyncio
import gc
import weakref

from agora.tools.garbage import collecting


class Node:
    pass


def full_collections() -> int:
    return gc.get_stats()[2]["collections"]


async def test_objects_that_live_on_set_off_no_full_collection():
    async with collecting(full_every_seconds=3600):
        before = full_collections()
        # What requests in flight and filling caches look like to the collector: objects
        # that outlive young collections and reach the oldest generation. By count, a
        # quarter more of them than it held would set off a full collection.
        kept = [[n] for n in range(300_000)]
        assert full_collections() == before
    del kept


async def test_the_clock_frees_cycles_that_reached_the_oldest_generation():
    async with collecting(full_every_seconds=0.2):
        node = Node()
        node.itself = node
        gone = weakref.ref(node)
        gc.collect(1)  # moves the cycle, still referenced, into the oldest generation
        del node
        gc.collect(1)
        assert gone() is not None, "young collections left it to a full one"
        for _ in range(50):
            await asyncio.sleep(0.05)
            if gone() is None:
                break
        assert gone() is None


async def test_a_stopped_schedule_leaves_the_process_collecting_by_count():
    default = gc.get_threshold()
    async with collecting(full_every_seconds=60):
        assert gc.get_threshold()[:2] == default[:2]
    assert gc.get_threshold() == default


async def test_the_next_start_walks_only_what_came_after_the_last():
    async with collecting(full_every_seconds=60):
        frozen = gc.get_freeze_count()
        assert frozen > 0
    # A test process starts edge after edge: each start collects once, over what is not
    # frozen, so what the last start froze must still be (but what died since).
    assert gc.get_freeze_count() > frozen // 2
