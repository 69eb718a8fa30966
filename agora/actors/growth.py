"""`python -m agora shards`: grows a deployment's shard pools while its edges serve.

The new count goes to the store's map (a new version); the running session shards are told
at once, and each lets go of the sessions that move and tells the others (`ownership.py`)
before it serves under the new map. Edges learn it from the first shard that answers them
"moved", and the new shards start on first use. User shards need no telling: each edge
reads their map with its next presence report.
"""

import asyncio
import logging

import ray

from agora.actors.ownership import deployment_namespace, shard_name
from agora.actors.sessions import SESSION_POOL
from agora.actors.users import USER_POOL
from agora.core.shard_map import ShardMap
from agora.launch import embedded
from agora.settings import Settings
from agora.store.mongo import connect_mongo, database
from agora.store.shard_maps import ShardMapStore

log = logging.getLogger("agora.shards")


async def grow(settings: Settings, sessions: int | None, users: int | None) -> None:
    mongo = connect_mongo(settings)
    maps = ShardMapStore(database(mongo, settings), settings.redis_prefix)
    try:
        await _show(maps, settings)
        if users is not None:
            before, after = await maps.grow(USER_POOL, users, settings.user_shards)
            log.info("user shards: %d -> %d (map %d)", before.count, after.count, after.version)
        if sessions is not None:
            before, after = await maps.grow(SESSION_POOL, sessions, settings.session_shards)
            log.info("session shards: %d -> %d (map %d)", before.count, after.count, after.version)
            if after.newer_than(before):
                told = await asyncio.to_thread(_tell_running_shards, settings, before, after)
                log.info("told %d running session shards; edges follow as they send", told)
    finally:
        await mongo.close()


async def _show(maps: ShardMapStore, settings: Settings) -> None:
    for pool, initial in (
        (SESSION_POOL, settings.session_shards),
        (USER_POOL, settings.user_shards),
    ):
        shard_map = await maps.current(pool, initial)
        log.info("%s: %d shards (map %d)", pool, shard_map.count, shard_map.version)


def _tell_running_shards(settings: Settings, before: ShardMap, after: ShardMap) -> int:
    """Tells the pool's running shards of the grown map; returns how many were told. Blocks
    (Ray's calls), so it runs in a thread; joins the cluster unless this process already has."""
    joining = not ray.is_initialized()
    if joining:
        if not settings.ray_address:
            embedded.use_ray_token(settings)
        address = settings.ray_address or f"127.0.0.1:{settings.ray_port}"
        ray.init(address=address, log_to_driver=False, configure_logging=False)
    try:
        running = []
        for index in range(before.count):
            name = shard_name(SESSION_POOL, index)
            try:
                running.append(ray.get_actor(name, namespace=deployment_namespace(settings)))
            except ValueError:  # never started: it reads the map when it does
                continue
        ray.get([shard.adopt.remote(after) for shard in running])
        return len(running)
    finally:
        if joining:
            ray.shutdown()
