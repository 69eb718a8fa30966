"""Growing the session shards while two edges serve a burst (`python -m agora shards`):
every acknowledged message stored once, in order, and each session served by one shard."""

import asyncio
import uuid
from collections import Counter

import pytest
import ray

from agora.actors import growth
from agora.actors.ownership import deployment_namespace
from agora.actors.protocol import NotHeld, ReadPage
from agora.core.shard_map import ShardMap, shard_of
from tests.integration.helpers import Member, all_messages, member, new_group, send_as_a_client

pytestmark = pytest.mark.usefixtures("ray_cluster")

BURST = 40


async def test_growing_the_pool_under_a_burst_moves_sessions_without_a_duplicate_or_a_gap(
    client_for, settings_for, smtp_sink
):
    prefix = f"test:grow:{uuid.uuid4().hex[:8]}:"
    edges = [await client_for(session_shards=1, redis_prefix=prefix) for _ in range(2)]
    owner = await member(edges[0], smtp_sink, "Owner")
    # Groups until one stays on shard 0 and one moves to shard 1 when the pool grows to two.
    groups: dict[int, str] = {}
    while len(groups) < 2:
        group_id = await new_group(owner, is_public=True)
        groups.setdefault(shard_of(group_id, 2), group_id)
    writers = [Member(edge, owner.key, owner.user) for edge in edges]

    async def send(n: int, group_id: str, edge: int) -> dict:
        local_id = f"{group_id}-{n}"
        return await send_as_a_client(writers[edge], group_id, local_id, local_id)

    async def burst(start: int) -> list[dict]:
        sends = [
            send(n, group_id, n % 2)
            for n in range(start, start + BURST)
            for group_id in groups.values()
        ]
        return await asyncio.gather(*sends)

    before = await burst(0)
    during, _ = await asyncio.gather(
        burst(BURST), growth.grow(settings_for(redis_prefix=prefix), sessions=2, users=None)
    )
    after = await burst(2 * BURST)
    # A message acknowledged before the growth, sent again through the other edge, is
    # recognised by the session's new shard.
    moved_group = groups[1]
    again = await send(0, moved_group, 1)
    first = next(r for r in before if r["inbox_message"]["local_id"] == f"{moved_group}-0")
    assert again["inbox_message"]["id"] == first["inbox_message"]["id"]

    acknowledged = {r["inbox_message"]["id"] for r in before + during + after}
    newest = {}
    for group_id in groups.values():
        stored = await all_messages(owner, group_id)
        newest[group_id] = stored[-1]["created_at"]
        stamps = [m["created_at"] for m in stored]
        assert stamps == sorted(stamps) and len(set(stamps)) == len(stamps)
        sent = Counter(
            m.get("local_id", "") for m in stored if m.get("local_id", "").startswith(group_id)
        )
        assert len(sent) == 3 * BURST and set(sent.values()) == {1}
        acknowledged -= {m["id"] for m in stored}
    assert not acknowledged, "acknowledged but not stored"

    # The moved session is served by the new shard only; the old one let go of it.
    grown = ShardMap(2, 2)
    namespace = deployment_namespace(settings_for(redis_prefix=prefix))
    shards = [ray.get_actor(f"session-shard-{i}", namespace=namespace) for i in range(2)]
    last_of = {group: ReadPage(group, newest[group] - 1, 5) for group in groups.values()}
    assert await shards[0].read_page.remote(last_of[moved_group], grown) == NotHeld()
    assert (await shards[1].read_page.remote(last_of[moved_group], grown)).messages
    assert (await shards[0].read_page.remote(last_of[groups[0]], grown)).messages
