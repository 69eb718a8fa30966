"""A Ray node lost under load (issue 31, item 4): two Ray nodes, two edges, a group of 50
members whose sockets are spread over both edges, a burst of sends over HTTP and sockets, and
the node holding the group's shard killed. Nothing acknowledged is lost or stored twice,
every member hears every acknowledged message (dropping copies by id, as the web app does,
and filling a gap from the message pages, as the web app does after a reconnect), no
acknowledgement waits longer than the stall bound (issue 41, item 5: the head's health checks
are the deployment's own, `embedded.NODE_HEALTH_CHECKS`), and every answer meanwhile is a
clear "try again" within the answer bound. The shards are spread over both nodes as they
start (issue 41, item 6)."""

import asyncio
import contextlib
import itertools
import time
from collections import Counter

import aiohttp
import pytest
import socketio

from agora.core.shard_map import shard_of
from tests.integration.fault_tools import (
    GUARD_SECONDS,
    edge_process,
    edges_env,
    http_sender,
    socket_sender,
)
from tests.integration.helpers import Member, all_messages, member, new_group, until
from tests.integration.ray_nodes import two_nodes

MEMBERS = 50
# One on each node (`actors/placement.py`): the group is put on the second node's. Four (two
# a node, a workaround for SPREAD's misses) made the head start a worker process for the
# second shard it took over: 2-6 s more on this shared machine (docs/operations.md).
SESSION_SHARDS = 2
SENDERS_PER_WAY = 3
# No acknowledgement waits longer after the node is killed (issue 41): the GCS's health checks
# (about 1.5 s), the shard's restart on the other node and its reload from MongoDB. A bound the
# docs promise (docs/operations.md), not a speed measurement: Ray's own checks made it 15 s.
STALL_SECONDS = 3


async def test_a_killed_ray_node_loses_and_doubles_nothing_and_sends_resume(
    mongo_url, redis_url, smtp_sink, tmp_path, monkeypatch
):
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    with two_nodes(tmp_path) as cluster:
        env = edges_env(
            mongo_url,
            redis_url,
            smtp_sink.url,
            tmp_path,
            cluster.head.address,
            session_shards=SESSION_SHARDS,
            push_enabled="false",
            # Groups are made until one lives on the second node's shard: past the hourly
            # cap of 10 about one run in twenty.
            groups_per_user=1000,
        )
        async with contextlib.AsyncExitStack() as stack:
            urls = await asyncio.gather(
                *(
                    stack.enter_async_context(edge_process(env, tmp_path / f"edge{i}.log"))
                    for i in range(2)
                )
            )
            edges = [
                await stack.enter_async_context(aiohttp.ClientSession(base_url=url))
                for url, _ in urls
            ]
            await _measured_node_loss(cluster, edges, [url for url, _ in urls], smtp_sink)


async def _measured_node_loss(cluster, edges, urls, smtp_sink) -> None:
    placed = await _placed(cluster)
    worker_node = cluster.worker_node_id()
    on_worker = sorted(name for name, a in placed.items() if a["node_id"] == worker_node)
    print(f"\nplacement: {on_worker} of {sorted(placed)} on the second node")
    assert len(on_worker) == SESSION_SHARDS // 2, placed
    busiest = int(on_worker[0].rsplit("-", 1)[1])

    # The group's chat lives on the shard the second node holds.
    owner = await member(edges[0], smtp_sink, "Owner")
    group_id = await new_group(owner, is_public=True)
    while shard_of(group_id, SESSION_SHARDS) != busiest:
        group_id = await new_group(owner, is_public=True)
    others = [member(edges[n % 2], smtp_sink, f"M{n}") for n in range(1, MEMBERS)]
    people = [owner, *await asyncio.gather(*others)]
    await asyncio.gather(
        *(p.call("/api/group?action=join", {"group_id": group_id}) for p in people[1:])
    )

    heard: list[Counter[str]] = [Counter() for _ in people]
    sockets = await asyncio.gather(
        *(_listening(urls[n % 2], person, heard[n]) for n, person in enumerate(people))
    )
    senders = [http_sender(people[n], f"http{n}") for n in range(SENDERS_PER_WAY)]
    senders += [
        socket_sender(sockets[n], f"socket{n}") for n in range(SENDERS_PER_WAY, 2 * SENDERS_PER_WAY)
    ]
    stop = asyncio.Event()
    sending = asyncio.gather(*(s.keep_sending(group_id, stop) for s in senders))

    async def each(condition) -> None:
        await until(lambda: all(map(condition, senders)) or sending.done(), 2 * GUARD_SECONDS)
        if sending.done():
            await sending  # raises what failed it
        assert all(map(condition, senders)), "the senders never got there"

    await each(lambda s: len(s.acknowledged) >= 5)
    killed_at = time.monotonic()
    await asyncio.to_thread(cluster.kill_worker)
    await each(lambda s: s.acknowledged_since(killed_at) >= 5)
    stop.set()
    await sending

    # Ray restarted the shard on the node that lives.
    restarted = (await _placed(cluster))[on_worker[0]]
    assert restarted["node_id"] != placed[on_worker[0]]["node_id"]

    # A refused send, sent again with its local_id, is stored once.
    for sender in senders:
        for local_id in sender.refused:
            status, reply = await sender.answer(sender.bodies[local_id])
            assert status == 200, reply

    stored = await all_messages(owner, group_id)
    copies = Counter(m["local_id"] for m in stored)
    acknowledged = {local_id for s in senders for local_id in s.acknowledged + s.refused}
    assert all(copies[local_id] == 1 for local_id in acknowledged), "lost or doubled"
    by_local_id = {m["local_id"]: m for m in stored}
    acked_ids = [by_local_id[local_id]["id"] for local_id in sorted(acknowledged)]
    # The senders' messages in stored order (the group's notices came before the sockets).
    sent = [m for m in stored if m["local_id"] in acknowledged]

    # Every member heard every acknowledged message: live, or from the pages after the
    # newest message it heard before a gap.
    await until(lambda: all(set(acked_ids) <= set(h) for h in heard), 10)
    caught_up = await asyncio.gather(
        *(_catch_up(person, group_id, sent, heard[n]) for n, person in enumerate(people))
    )
    for n, counter in enumerate(heard):
        assert set(acked_ids) <= set(counter), f"member {n} missed messages"
    for sio in sockets:
        await sio.disconnect()

    stall, stalled_from = longest_stall(senders)
    refused = sum(len(s.refused) for s in senders)
    duplicates = sum(count - 1 for counter in heard for count in counter.values() if count > 1)
    print(
        f"\nnode loss: {len(acknowledged)} sends acknowledged ({refused} first answered 503 or"
        f" a socket error, each within the bound); no acknowledgement for {stall:.2f} s from"
        f" {stalled_from - killed_at:+.2f} s after the kill; {duplicates} duplicates heard"
        f" (dropped by id) over {len(people)} members; {sum(1 for c in caught_up if c)} members"
        f" filled a gap from the pages ({sum(caught_up)} messages)"
    )
    assert stall < STALL_SECONDS


def longest_stall(senders) -> tuple[float, float]:
    """The longest time without an acknowledgement to any sender, and when it began."""
    acknowledged = sorted(
        answered for s in senders for _, answered, status in s.answers if status == 200
    )
    return max((later - earlier, earlier) for earlier, later in itertools.pairwise(acknowledged))


async def _placed(cluster) -> dict[str, dict]:
    """The session shards by name, once all of them run (read off the dashboard's API)."""
    for _ in range(GUARD_SECONDS):
        placed = {a["name"]: a for a in await asyncio.to_thread(cluster.actors, "SessionShard")}
        if len(placed) == SESSION_SHARDS:
            return placed
        await asyncio.sleep(1)
    pytest.fail(f"the session shards did not all run: {placed}")


async def _listening(url: str, person: Member, heard: Counter) -> socketio.AsyncClient:
    sio = socketio.AsyncClient(reconnection=False)
    sio.on("message", lambda message: heard.update([message["id"]]))
    sio.on("messages", lambda messages: heard.update(m["id"] for m in messages))
    await sio.connect(url, auth={"auth_key": person.key}, transports=["websocket"])
    return sio


async def _catch_up(person: Member, group_id: str, sent: list[dict], heard: Counter) -> int:
    """The web app's catch-up: pages of messages after the newest one it had before the gap
    in `sent`. Returns how many messages the pages filled in."""
    missing = [m for m in sent if m["id"] not in heard]
    if not missing:
        return 0
    before_gap = [
        m["created_at"]
        for m in sent
        if m["id"] in heard and m["created_at"] < missing[0]["created_at"]
    ]
    latest = max(before_gap, default=0)
    filled = 0
    while True:
        page = await person.call(
            "/session/messages", {"session_id": group_id, "greater_than_timestamp": latest}
        )
        for message in page["inbox_messages"]:
            if message["id"] not in heard:
                heard[message["id"]] += 1
                filled += 1
        if not page["inbox_messages"]:
            return filled
        latest = page["inbox_messages"][-1]["created_at"]


# Starts a Ray cluster of its own and edges: on the worker of the other such tests (-n).
pytestmark = [
    pytest.mark.timeout(240),
    pytest.mark.xdist_group("own-processes"),
    pytest.mark.slow,
    pytest.mark.cluster,
]
