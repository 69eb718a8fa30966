"""What a session shard owns under the newest shard map it knows, and the handover when the
pool grows.

Edges place sessions by the map they last read from the store (`core/shard_map.py`) and name
its version in every call. A shard answers a call made under an older map "moved" (the edge
reads the map again and sends to the new owner), and adopts a newer one before acting. Growth
moves sessions only from the shards that ran to the new ones, and a session must never be
served by two shards at once (each would number its messages on its own). So a shard that
learns a newer map, from an edge, the store or a peer:
1. stops serving the sessions it no longer owns: their batches under way finish first, and
   what they announced is recorded, so the new owner starts from MongoDB where they ended;
2. tells every other shard of the pool (each does step 1 for itself before answering);
and it serves calls under that map only once both are done. A peer's telling is answered
once step 1 is done, never after that peer's own step 2: shards telling each other at once
do not wait for each other. A shard that starts reads the map from the store and, when the
pool has grown since the deployment began, does step 2 before it serves.
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable

from agora.core.shard_map import FIRST_VERSION, ShardMap
from agora.settings import Settings

log = logging.getLogger("agora.actors.ownership")


def shard_name(pool: str, index: int) -> str:
    """A shard's Ray actor name in the deployment's namespace."""
    return f"{pool}-{index}"


def deployment_namespace(settings: Settings) -> str:
    """The Ray namespace of one deployment's shards (its database and Redis prefix)."""
    return f"agora-{settings.mongo_db}-{settings.redis_prefix}"


class Ownership:
    def __init__(
        self,
        index: int,
        read_map: Callable[[], Awaitable[ShardMap]],
        drop_lost: Callable[[], Awaitable[None]],
        tell_peer: Callable[[int, ShardMap], Awaitable[None]],
    ) -> None:
        self.index = index
        self._read_map = read_map
        # Stops serving the sessions `owns` now denies.
        self._drop_lost = drop_lost
        self._tell_peer = tell_peer
        self.map = ShardMap(count=0, version=0)
        self._loaded: asyncio.Future | None = None
        # The handover of the newest map learnt: this shard's part, and the peers'.
        self._dropped: asyncio.Future | None = None
        self._told: asyncio.Future | None = None

    def owns(self, key: str) -> bool:
        return self.map.owner(key) == self.index

    async def serving(self, edge_map: ShardMap) -> bool:
        """Whether to serve a call the edge made under `edge_map` (False: moved, the edge
        reads the map again). A newer map is adopted first, and handed over."""
        await self._load()
        self._learn(edge_map)
        await _settled(self._dropped)
        await _settled(self._told)
        return edge_map.version == self.map.version

    async def adopt(self, newer: ShardMap) -> None:
        """Told by a peer or the `shards` command: returns once this shard serves none of
        the sessions it lost."""
        await self._load()
        self._learn(newer)
        await _settled(self._dropped)

    async def _load(self) -> None:
        if self._loaded is None or (self._loaded.done() and self._loaded.exception()):
            self._loaded = asyncio.ensure_future(self._first_map())
        await asyncio.shield(self._loaded)

    async def _first_map(self) -> None:
        read = await self._read_map()
        if read.newer_than(self.map):
            self.map = read
            if read.version > FIRST_VERSION:
                # Started after a growth: a peer may not know of it yet.
                self._told = asyncio.ensure_future(self._tell_peers(read))

    def _learn(self, newer: ShardMap) -> None:
        """Adopts `newer` if it is newer; no await before the map changes, so a batch that
        checks ownership after this sees the new map."""
        if not newer.newer_than(self.map):
            return
        log.info(
            "shard %d: the pool grows to %d shards (map %d)", self.index, newer.count, newer.version
        )
        self.map = newer
        self._dropped = asyncio.ensure_future(_after(self._dropped, self._drop_lost))
        self._told = asyncio.ensure_future(_after(self._told, lambda: self._tell_peers(newer)))

    async def _tell_peers(self, newer: ShardMap) -> None:
        """A peer that cannot be told is restarting (Ray retries the call on its next
        incarnation, which reads the map from the store first) or gone for good."""
        peers = [i for i in range(newer.count) if i != self.index]
        told = await asyncio.gather(
            *(self._tell_peer(i, newer) for i in peers), return_exceptions=True
        )
        for peer, outcome in zip(peers, told, strict=True):
            if isinstance(outcome, Exception):
                log.warning(
                    "shard %d could not tell shard %d of map %d: %r",
                    self.index,
                    peer,
                    newer.version,
                    outcome,
                )


async def _after(previous: asyncio.Future | None, step: Callable[[], Awaitable[None]]) -> None:
    """`step` once `previous` has ended, however it ended (each growth's handover in turn)."""
    if previous is not None:
        await asyncio.wait([previous])
    await step()


async def _settled(step: asyncio.Future | None) -> None:
    if step is not None:
        await asyncio.shield(step)
