"""Faults under traffic: the store restarted, Redis stopped for a while, an edge killed with
sockets open. Each test starts the service it breaks on ports of its own; the session-wide
nx-27017 and the machine's Redis are never touched."""

import asyncio
import contextlib
import subprocess
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiohttp
import pytest
import ray
import socketio

from agora.core.chat.constants import SEND_REPLY_OK
from agora.launch import embedded
from tests.integration.fault_tools import (
    GUARD_SECONDS,
    STORE_WAIT_MS,
    Sender,
    edge_process,
    edges_env,
    http_sender,
    own_store,
    socket_sender,
)
from tests.integration.helpers import (
    Member,
    all_messages,
    bearer,
    item_chat,
    send_as_a_client,
    send_text,
    until,
)
from tests.services import late_bound_port

REDIS_OUTAGE_SECONDS = 3


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


def sending(user: Member, session_id: str) -> Callable[[int], Awaitable[tuple[int, dict]]]:
    async def send(n: int) -> tuple[int, dict]:
        body = {"dest_session_id": session_id, "payload": f"msg {n}", "local_id": f"m{n}"}
        reply = await user.client.post("/session/send", json=body, headers=bearer(user.key))
        return reply.status, await reply.json()

    return send


def socket_sending(sio: socketio.AsyncClient, session_id: str):
    """Sends over a socket: an ack with `errors` counts as the 503 of HTTP; no ack within the
    guard fails the test (the client would be left waiting)."""

    async def send(n: int) -> tuple[int, dict]:
        body = {"dest_session_id": session_id, "payload": f"live {n}", "local_id": f"s{n}"}
        ack = await sio.call("send", body, timeout=GUARD_SECONDS)
        return (503 if "errors" in ack else 200), ack

    return send


async def test_a_store_restarted_under_traffic_answers_503_meanwhile_and_loses_nothing(
    client_for, smtp_sink, tmp_path, ray_cluster
):
    with own_store(tmp_path / "mongo") as (mongo_url, stop_store, start_store):
        client = await client_for(
            mongo_url=mongo_url,
            mongo_server_selection_timeout_ms=STORE_WAIT_MS,
            mongo_connect_timeout_ms=STORE_WAIT_MS,
            session_shards=1,
            # Posts go on until every traffic got there: on a slow machine past the hourly cap.
            posts_per_user=100_000,
        )
        owner, asker, item = await item_chat(client, smtp_sink)
        session_id = f"r_{item['_id']}_{asker.id}"
        # The first send starts the shard, which a busy machine may take past the send bound.
        await send_as_a_client(asker, session_id, "hello", "hello")
        sio = socketio.AsyncClient(reconnection=False)
        await sio.connect(
            str(client.make_url("/")), auth={"auth_key": owner.key}, transports=["websocket"]
        )
        with (
            Traffic(await posting(owner, item["group_id"])) as posts,
            Traffic(sending(asker, session_id)) as sends,
            Traffic(socket_sending(sio, session_id)) as socket_sends,
        ):
            everything = (posts, sends, socket_sends)
            for traffic in everything:
                await traffic.wait_for(lambda t=traffic: len(t.acknowledged) >= 5)
            await asyncio.to_thread(stop_store)
            for traffic in everything:
                await traffic.wait_for(lambda t=traffic: t.statuses[503] >= 3)
            before_restart = {id(t): len(t.acknowledged) for t in everything}
            await asyncio.to_thread(start_store)
            # The same edge, never restarted, serves again.
            for traffic in everything:
                await traffic.wait_for(
                    lambda t=traffic: len(t.acknowledged) >= before_restart[id(t)] + 5
                )
                await traffic.stop()

        for body in posts.acknowledged:
            read = await owner.call("/api/item", {"item_id": body["item"]["_id"]})
            assert read["item"]["title"] == body["item"]["title"]
        stored = {m["id"] for m in await all_messages(owner, session_id)}
        for reply in sends.acknowledged + socket_sends.acknowledged:
            if reply["type"] == SEND_REPLY_OK:
                assert reply["inbox_message"]["id"] in stored, reply
        await sio.disconnect()


SENDERS = 5


async def test_every_send_in_flight_when_the_store_dies_is_answered_in_time_and_stored_once(
    client_for, smtp_sink, tmp_path, ray_cluster
):
    """The store's own waits are the defaults (5 s), as in production."""
    with own_store(tmp_path / "mongo") as (mongo_url, stop_store, start_store):
        client = await client_for(mongo_url=mongo_url, session_shards=1)
        owner, asker, item = await item_chat(client, smtp_sink)
        session_id = f"r_{item['_id']}_{asker.id}"
        # The first send starts the shard, which a busy machine may take past the send bound.
        await send_as_a_client(asker, session_id, "hello", "hello")
        sio = socketio.AsyncClient(reconnection=False)
        await sio.connect(
            str(client.make_url("/")), auth={"auth_key": asker.key}, transports=["websocket"]
        )
        senders = [socket_sender(sio, f"socket{i}") for i in range(SENDERS)]
        senders += [http_sender(asker, f"http{i}") for i in range(SENDERS)]
        stop = asyncio.Event()
        sending = asyncio.gather(*(s.keep_sending(session_id, stop) for s in senders))

        async def each(condition: Callable[[Sender], bool]) -> None:
            await until(lambda: all(map(condition, senders)) or sending.done(), GUARD_SECONDS)
            if sending.done():
                await sending  # raises what failed it
            assert all(map(condition, senders)), "the senders never got there"

        await each(lambda s: len(s.acknowledged) >= 3)
        await asyncio.to_thread(stop_store)
        # Every sender had a send in flight when the store died, and sends on meanwhile.
        await each(lambda s: len(s.refused) >= 2)
        await asyncio.to_thread(start_store)
        acknowledged_before = {s.name: len(s.acknowledged) for s in senders}
        await each(lambda s: len(s.acknowledged) >= acknowledged_before[s.name] + 2)
        stop.set()
        await sending

        # Each refused send, sent again with its local_id, is stored once.
        for sender in senders:
            for local_id in sender.refused:
                status, reply = await sender.answer(sender.bodies[local_id])
                assert status == 200 and reply["type"] == SEND_REPLY_OK, reply
        await sio.disconnect()
        stored = Counter(m["local_id"] for m in await all_messages(owner, session_id))
        for sender in senders:
            for local_id in sender.acknowledged + sender.refused:
                assert stored[local_id] == 1, (local_id, stored[local_id])


@contextlib.contextmanager
def own_redis(log_dir: Path):
    """A redis-server of the test's own, keeping nothing on disk; yields its URL and a
    stop/start pair (started again on the same port, empty)."""
    port = late_bound_port()
    processes: list[subprocess.Popen] = []

    def start() -> None:
        args = ["redis-server", "--bind", "127.0.0.1", "--port", str(port)]
        args += ["--save", "", "--appendonly", "no", "--logfile", str(log_dir / "redis.log")]
        process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        processes.append(process)
        embedded.wait_for_port("127.0.0.1", port, GUARD_SECONDS, process)

    def stop() -> None:
        embedded.stop(processes)

    start()
    try:
        yield f"redis://127.0.0.1:{port}/0", stop, start
    finally:
        stop()


async def test_with_redis_stopped_sends_are_stored_and_realtime_resumes_when_it_is_back(
    client_for, smtp_sink, tmp_path, ray_cluster
):
    with own_redis(tmp_path) as (redis_url, stop_redis, start_redis):
        client = await client_for(redis_url=redis_url, session_shards=1, redis_timeout_seconds=1)
        owner, asker, item = await item_chat(client, smtp_sink)
        session_id = f"r_{item['_id']}_{asker.id}"
        # The first send starts the shard, which a busy machine may take past the send bound.
        await send_as_a_client(asker, session_id, "hello", "hello")
        heard: asyncio.Queue[dict] = asyncio.Queue()
        sio = socketio.AsyncClient(reconnection=False)
        sio.on("message", heard.put_nowait)
        sio.on("messages", lambda batch: [heard.put_nowait(m) for m in batch])
        await sio.connect(
            str(client.make_url("/")), auth={"auth_key": owner.key}, transports=["websocket"]
        )

        asker_socket = socketio.AsyncClient(reconnection=False)
        await asker_socket.connect(
            str(client.make_url("/")), auth={"auth_key": asker.key}, transports=["websocket"]
        )

        with (
            Traffic(sending(asker, session_id)) as sends,
            Traffic(socket_sending(asker_socket, session_id)) as socket_sends,
        ):
            both = (sends, socket_sends)
            for traffic in both:
                await traffic.wait_for(lambda t=traffic: len(t.acknowledged) >= 3)
            await asyncio.to_thread(stop_redis)
            before_outage = {id(t): sum(t.statuses.values()) for t in both}
            # A few seconds down, with sends going on meanwhile.
            await asyncio.sleep(REDIS_OUTAGE_SECONDS)
            for traffic in both:
                await traffic.wait_for(
                    lambda t=traffic: sum(t.statuses.values()) >= before_outage[id(t)] + 10
                )
            await asyncio.to_thread(start_redis)
            for traffic in both:
                await traffic.wait_for(
                    lambda t=traffic: sum(t.statuses.values()) >= before_outage[id(t)] + 25
                )
                await traffic.stop()
        await asker_socket.disconnect()

        stored = {m["local_id"]: m for m in await all_messages(owner, session_id)}
        for reply in sends.acknowledged + socket_sends.acknowledged:
            assert reply["type"] == SEND_REPLY_OK, reply
            message = reply["inbox_message"]
            assert stored[message["local_id"]]["id"] == message["id"]
        # Without Redis, sends are still taken: none was refused.
        assert not (sends.statuses[503] or socket_sends.statuses[503])

        # Realtime is back: a socket that stayed connected hears a new message.
        async def hears_a_new_message() -> bool:
            text = f"after {uuid.uuid4().hex[:6]}"
            await send_text(asker, session_id, text)
            with contextlib.suppress(TimeoutError):
                while True:
                    message = await asyncio.wait_for(heard.get(), 0.5)
                    if message["payload"] == text:
                        return True
            return False

        for _ in range(GUARD_SECONDS):
            if await hears_a_new_message():
                break
        else:
            pytest.fail("the socket never heard a message again")
        await sio.disconnect()


async def test_a_killed_edges_socket_reconnects_to_another_and_catches_up_by_polling(
    mongo_url, redis_url, smtp_sink, tmp_path, ray_cluster
):
    # Both edges join the test's Ray, so they share one set of shard actors.
    env = edges_env(
        mongo_url,
        redis_url,
        smtp_sink.url,
        tmp_path,
        ray.get_runtime_context().gcs_address,
        session_shards=1,
    )
    async with (
        edge_process(env, tmp_path / "edge1.log") as (first_url, kill_first),
        edge_process(env, tmp_path / "edge2.log") as (second_url, _),
        aiohttp.ClientSession(base_url=first_url) as first,
        aiohttp.ClientSession(base_url=second_url) as second,
    ):
        owner, asker, item = await item_chat(first, smtp_sink)
        session_id = f"r_{item['_id']}_{asker.id}"
        heard: dict[str, dict] = {}

        def hear(message: dict) -> None:
            heard[message["id"]] = message

        async def socket_on(base_url: str) -> socketio.AsyncClient:
            sio = socketio.AsyncClient(reconnection=False)
            sio.on("message", hear)
            sio.on("messages", lambda batch: [hear(m) for m in batch])
            await sio.connect(base_url, auth={"auth_key": owner.key}, transports=["websocket"])
            return sio

        sio = await socket_on(first_url)
        # The asker writes through the edge that stays.
        asker_there = Member(second, asker.key, asker.user)

        async def send(n: int) -> tuple[int, dict]:
            reply = await send_as_a_client(asker_there, session_id, f"msg {n}", f"m{n}")
            return 200, reply

        with Traffic(send) as traffic:
            await traffic.wait_for(lambda: len(heard) >= 5)
            await asyncio.to_thread(kill_first)
            sent_when_killed = len(traffic.acknowledged)
            await traffic.wait_for(lambda: len(traffic.acknowledged) >= sent_when_killed + 10)
            # The client notices its socket is gone and moves to the other edge.
            await until(lambda: not sio.connected, GUARD_SECONDS)
            last_heard = max(m["created_at"] for m in heard.values())
            sio = await socket_on(second_url)
            await traffic.wait_for(lambda: len(traffic.acknowledged) >= sent_when_killed + 20)
            await traffic.stop()

        # It catches up by polling from the newest message it heard before its socket went.
        owner_there = Member(second, owner.key, owner.user)
        latest = last_heard
        while True:
            page = await owner_there.call(
                "/session/messages", {"session_id": session_id, "greater_than_timestamp": latest}
            )
            for message in page["inbox_messages"]:
                hear(message)
            if not page["inbox_messages"]:
                break
            latest = page["inbox_messages"][-1]["created_at"]
        await sio.disconnect()

        acknowledged = {reply["inbox_message"]["id"] for reply in traffic.acknowledged}
        assert acknowledged <= set(heard), "messages the client never got"


# Stops and starts the store, Redis and edges: on the worker of the other such tests (-n).
pytestmark = [pytest.mark.timeout(120), pytest.mark.xdist_group("own-processes"), pytest.mark.slow]
