"""Faults under traffic: the store restarted, Redis stopped for a while, an edge killed with
sockets open. Each test starts the service it breaks on ports of its own; the session-wide
nx-27017 and the machine's Redis are never touched."""

import asyncio
import contextlib
import subprocess
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from agora import embedded
from tests.integration.helpers import Member, bearer, member, new_group, until
from tests.services import free_port

# A call to an unreachable store gives up after this long and answers 503.
STORE_WAIT_MS = 300
GUARD_SECONDS = 30  # a hang guard for waiting on a condition, not a speed check


class Traffic:
    """One client repeating `call` until stopped, tallying statuses; every reply must be a
    200 or a clear 503 with `errors`."""

    def __init__(self, call: Callable[[int], Awaitable[tuple[int, dict]]]) -> None:
        self.call = call
        self.statuses: Counter[int] = Counter()
        self.acknowledged: list[dict] = []
        self._stop = asyncio.Event()
        self._task: asyncio.Task | None = None

    async def _run(self) -> None:
        n = 0
        while not self._stop.is_set():
            n += 1
            status, body = await self.call(n)
            assert status in (200, 503), (status, body)
            self.statuses[status] += 1
            if status == 200:
                self.acknowledged.append(body)
            else:
                assert body["errors"], body
            await asyncio.sleep(0.01)

    def __enter__(self) -> "Traffic":
        self._task = asyncio.create_task(self._run())
        return self

    async def wait_for(self, condition: Callable[[], bool]) -> None:
        await until(lambda: condition() or self._task.done(), GUARD_SECONDS)
        if self._task.done():
            await self._task  # raises what failed it
        assert condition(), "the traffic never got there"

    async def stop(self) -> None:
        self._stop.set()
        await self._task

    def __exit__(self, *exc) -> None:
        self._stop.set()


async def posting(user: Member, group_id: str) -> Callable[[int], Awaitable[tuple[int, dict]]]:
    async def post(n: int) -> tuple[int, dict]:
        reply = await user.client.post(
            "/api/item?action=create",
            json={"group_id": group_id, "title": f"Post {n}"},
            headers=bearer(user.key),
        )
        return reply.status, await reply.json()

    return post


@contextlib.contextmanager
def own_store(data_dir: Path):
    """An nx-27017 of the test's own; yields a restart(stop, start) pair working on it."""
    port = free_port()
    processes: list[subprocess.Popen] = []

    def start() -> None:
        log = data_dir / "nx.log"
        processes.append(embedded.start_mongo_wire(data_dir, "127.0.0.1", port, log))

    def stop() -> None:
        embedded.stop(processes)

    start()
    try:
        yield f"mongodb://127.0.0.1:{port}/?directConnection=true", stop, start
    finally:
        stop()


async def test_a_store_restarted_under_traffic_answers_503_meanwhile_and_loses_nothing(
    client_for, smtp_sink, tmp_path
):
    with own_store(tmp_path / "mongo") as (mongo_url, stop_store, start_store):
        client = await client_for(
            mongo_url=mongo_url,
            mongo_server_selection_timeout_ms=STORE_WAIT_MS,
            mongo_connect_timeout_ms=STORE_WAIT_MS,
        )
        poster = await member(client, smtp_sink, "Poster")
        group_id = await new_group(poster, is_public=True)
        with Traffic(await posting(poster, group_id)) as traffic:
            await traffic.wait_for(lambda: len(traffic.acknowledged) >= 5)
            await asyncio.to_thread(stop_store)
            await traffic.wait_for(lambda: traffic.statuses[503] >= 3)
            stored_before_restart = len(traffic.acknowledged)
            await asyncio.to_thread(start_store)
            # The same edge, never restarted, serves again.
            await traffic.wait_for(lambda: len(traffic.acknowledged) >= stored_before_restart + 5)
            await traffic.stop()

        for body in traffic.acknowledged:
            item = body["item"]
            read = await poster.call("/api/item", {"item_id": item["_id"]})
            assert read["item"]["title"] == item["title"]
        feed = await poster.call("/api/feed", {"group_id": group_id})
        assert feed["items"], feed


pytestmark = pytest.mark.timeout(120)
