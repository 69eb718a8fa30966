"""The shard map: jump consistent hash over a count that grows, and the handover between
shards (`actors/ownership.py`) run on several in-process owners that tell each other."""

import asyncio
import uuid
from collections import Counter

from agora.actors.ownership import Ownership
from agora.core.shard_map import FIRST_VERSION, ShardMap, shard_of

KEYS = [f"r_{uuid.UUID(int=n).hex}_{n}" for n in range(20_000)]


def test_one_shard_hosts_everything_and_placement_is_stable_across_processes():
    assert {shard_of(key, 1) for key in KEYS[:100]} == {0}
    # A fixed key's place is part of the deployment's state: it must not change with the
    # process (str hashing is salted per process) or the release.
    assert [shard_of(f"session-{n}", 5) for n in range(8)] == [
        shard_of(f"session-{n}", 5) for n in range(8)
    ]


def test_growing_from_n_to_n_plus_1_moves_about_a_share_and_only_into_the_new_shard():
    for count in (1, 2, 3, 7):
        moved = [key for key in KEYS if shard_of(key, count) != shard_of(key, count + 1)]
        assert {shard_of(key, count + 1) for key in moved} == {count}
        share = len(moved) / len(KEYS)
        assert abs(share - 1 / (count + 1)) < 0.02, (count, share)
    # And the pool stays balanced.
    spread = Counter(shard_of(key, 4) for key in KEYS)
    assert min(spread.values()) > 0.9 * len(KEYS) / 4


class Pool:
    """Owners of one pool in one process, telling each other directly (the Ray calls of
    `SessionShard._tell_peer`), each holding the keys it serves as a shard holds sessions."""

    def __init__(self, stored: ShardMap) -> None:
        self.stored = stored
        self.owners: dict[int, Ownership] = {}
        self.held: dict[int, set[str]] = {}
        # Kept busy until released: the drop must wait for a batch under way.
        self.batch_under_way = asyncio.Event()

    def start(self, index: int) -> Ownership:
        self.held[index] = set()

        async def read_map() -> ShardMap:
            return self.stored

        async def drop_lost() -> None:
            await self.batch_under_way.wait()
            self.held[index] = {k for k in self.held[index] if self.owners[index].owns(k)}

        async def tell_peer(peer: int, newer: ShardMap) -> None:
            if peer in self.owners:
                await self.owners[peer].adopt(newer)

        self.owners[index] = Ownership(index, read_map, drop_lost, tell_peer)
        return self.owners[index]

    async def serve(self, index: int, key: str, edge_map: ShardMap) -> bool:
        owner = self.owners[index]
        if await owner.serving(edge_map) and owner.owns(key):
            self.held[index].add(key)
            return True
        return False


async def test_a_grown_map_is_served_only_once_the_old_owner_let_go():
    first = ShardMap(1, FIRST_VERSION)
    pool = Pool(first)
    pool.batch_under_way.set()
    pool.start(0)
    moving = next(k for k in KEYS if shard_of(k, 2) == 1)
    staying = next(k for k in KEYS if shard_of(k, 2) == 0)
    assert await pool.serve(0, moving, first)
    assert await pool.serve(0, staying, first)

    grown = ShardMap(2, FIRST_VERSION + 1)
    pool.stored = grown
    pool.batch_under_way.clear()
    new_shard = pool.start(1)
    # The new shard starts under the grown map and tells shard 0 before it serves; shard 0
    # is busy, so the new shard waits.
    serving = asyncio.ensure_future(pool.serve(1, moving, grown))
    await asyncio.sleep(0.05)
    assert not serving.done()
    assert moving in pool.held[0]
    # An edge still under the old map is told "moved" by shard 0 once it learnt the new one.
    old_edge = asyncio.ensure_future(pool.serve(0, staying, first))
    pool.batch_under_way.set()
    assert await serving
    assert not await old_edge
    assert pool.held == {0: {staying}, 1: {moving}}
    assert new_shard.map == grown == pool.owners[0].map
    # Under the grown map, shard 0 still serves what it kept.
    assert await pool.serve(0, staying, grown)
    assert not await pool.serve(0, moving, grown)


async def test_shards_learning_a_map_from_edges_at_once_tell_each_other_without_a_deadlock():
    first = ShardMap(2, FIRST_VERSION)
    pool = Pool(first)
    pool.batch_under_way.set()
    for index in range(3):
        pool.start(index)
    for index in range(2):
        await pool.serve(index, KEYS[index], first)
    grown = ShardMap(3, FIRST_VERSION + 1)
    pool.stored = grown
    served = await asyncio.wait_for(
        asyncio.gather(*(pool.serve(i, k, grown) for i in range(3) for k in KEYS[:30])), 10
    )
    assert sum(served) == 30
    assert all(owner.map == grown for owner in pool.owners.values())
