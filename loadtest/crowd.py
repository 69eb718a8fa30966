"""Hundreds of chat members in a few processes: each holds a Socket.IO websocket and sends.

The sockets speak Engine.IO 4 / Socket.IO 5 frames over aiohttp websockets rather than
being python-socketio AsyncClients: a received message here is one string test and one
regex, where the full client decodes JSON and dispatches a handler task per frame, and at
a thousand deliveries per message the load generator shares the same two cores as the
server it measures. Message payloads carry a key and the send time, so a receiver knows
its send-to-receive latency without asking anyone.

Workers take commands over a pipe: open the sockets, send for a while, report.
"""

import asyncio
import contextlib
import json
import multiprocessing
import random
import re
import time
from array import array
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from agora.core.chat.constants import SEND_REPLY_OK

OPEN_AT_ONCE = 16
MAX_IN_FLIGHT = 256
REPLY_SECONDS = 120
SEND_TIMEOUT_SECONDS = 30
PAYLOAD = re.compile(r'"payload":\s*"lt (\S+) ([0-9.]+)"')


@dataclass(frozen=True)
class Member:
    auth_key: str
    joins: tuple[str, ...]  # sessions whose rooms the socket joins
    sends_to: str | None = None  # the session this member sends to, if any
    user_id: str = ""  # lets a behaving member (crowd.mjs `behave`) skip its own messages


@dataclass
class Sends:
    offered: int = 0
    backlogged: int = 0  # not sent: MAX_IN_FLIGHT sends were already waiting for replies
    refused: int = 0
    acked: list[tuple[str, str, float]] = field(default_factory=list)  # key, session, ack ms
    errors: Counter = field(default_factory=Counter)

    def add(self, other: "Sends") -> None:
        self.offered += other.offered
        self.backlogged += other.backlogged
        self.refused += other.refused
        self.acked += other.acked
        self.errors.update(other.errors)


@dataclass
class Received:
    counts: Counter = field(default_factory=Counter)  # message key -> sockets it reached
    latencies_ms: array = field(default_factory=lambda: array("d"))
    frames: int = 0  # frames carrying messages: a busy room's frame carries several
    other_events: int = 0  # "unseen" and the like, pushed to users' own rooms

    def add(self, other: "Received") -> None:
        self.counts.update(other.counts)
        self.latencies_ms.extend(other.latencies_ms)
        self.frames += other.frames
        self.other_events += other.other_events


class _Worker:
    def __init__(self, index: int, base_url: str, send_path: str, members: list[Member]):
        self.index = index
        self.base_url = base_url
        self.send_url = base_url + send_path
        self.members = members
        self.sockets: list[aiohttp.ClientWebSocketResponse] = []
        self.readers: list[asyncio.Task] = []
        self.received = Received()
        self.sends = Sends()
        self.in_flight: set[asyncio.Task] = set()
        self.sequence = 0
        self.rng = random.Random(index)

    async def serve(self, conn) -> None:
        # Websockets hold their connection for good, so they get a pool without a limit.
        async with (
            aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as self.ws_http,
            aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=64)) as self.http,
        ):
            while True:
                command, *args = await asyncio.to_thread(conn.recv)
                if command == "close":
                    break
                conn.send(await getattr(self, command)(*args))
            for task in self.readers:
                task.cancel()
            for ws in self.sockets:
                with contextlib.suppress(Exception):
                    await ws.close()

    async def open(self) -> tuple[int, list[str]]:
        gate = asyncio.Semaphore(OPEN_AT_ONCE)
        failures: list[str] = []

        async def one(member: Member) -> None:
            async with gate:
                try:
                    await self._open(member)
                except Exception as error:  # reported back; the scenario decides
                    failures.append(f"{type(error).__name__}: {error}"[:200])

        await asyncio.gather(*(one(m) for m in self.members))
        return len(self.sockets), failures

    async def _open(self, member: Member) -> None:
        url = self.base_url.replace("http", "ws", 1) + "/socket.io/?EIO=4&transport=websocket"
        ws = await self.ws_http.ws_connect(url, max_msg_size=0)
        await self._next(ws, "0")
        await ws.send_str("40" + json.dumps({"auth_key": member.auth_key}))
        await self._next(ws, "40")
        for ack, session_id in enumerate(member.joins):
            await ws.send_str(f"42{ack}" + json.dumps(["join", {"session_id": session_id}]))
            reply = await self._next(ws, f"43{ack}")
            if '"ok"' not in reply:
                raise RuntimeError(f"join refused: {reply[:120]}")
        self.sockets.append(ws)
        self.readers.append(asyncio.create_task(self._read(ws)))

    async def _next(self, ws: aiohttp.ClientWebSocketResponse, prefix: str) -> str:
        """The next frame starting with prefix; events arriving meanwhile count as usual."""
        while True:
            frame = await ws.receive_str(timeout=30)
            if frame.startswith(prefix):
                return frame
            if frame.startswith("44"):
                raise RuntimeError(f"refused: {frame[:120]}")
            await self._frame(ws, frame)

    async def _read(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        async for message in ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            await self._frame(ws, message.data)

    async def _frame(self, ws: aiohttp.ClientWebSocketResponse, frame: str) -> None:
        # "message" carries one message, "messages" (a busy room's frame) several.
        if frame.startswith('42["message"') or frame.startswith('42["messages"'):
            now = time.time()
            self.received.frames += 1
            for found in PAYLOAD.finditer(frame):
                self.received.counts[found[1]] += 1
                self.received.latencies_ms.append((now - float(found[2])) * 1000)
        elif frame == "2":
            # Engine.IO pings come from the server; a socket that stays silent is dropped.
            await ws.send_str("3")
        elif frame.startswith("42"):
            self.received.other_events += 1

    async def send(self, seconds: float, rate: float, poisson: bool) -> Sends:
        """Every sending member sends `rate` messages a second for `seconds`, open loop."""
        self.sends = Sends()
        senders = [m for m in self.members if m.sends_to]
        if senders and rate > 0:
            loop = asyncio.get_running_loop()
            until = loop.time() + seconds
            await asyncio.gather(*(self._pace(m, rate, poisson, until) for m in senders))
        if self.in_flight:
            await asyncio.wait(self.in_flight, timeout=SEND_TIMEOUT_SECONDS)
        return self.sends

    async def _pace(self, member: Member, rate: float, poisson: bool, until: float) -> None:
        loop = asyncio.get_running_loop()

        def gap() -> float:
            return self.rng.expovariate(rate) if poisson else 1 / rate

        # Fixed-rate senders start at random offsets so that they do not fire in step; a
        # think time is memoryless, so its first wait is a think time like any other.
        at = loop.time() + (gap() if poisson else self.rng.random() / rate)
        while at < until:
            await asyncio.sleep(max(0.0, at - loop.time()))
            self.sends.offered += 1
            if len(self.in_flight) >= MAX_IN_FLIGHT:
                self.sends.backlogged += 1
            else:
                task = asyncio.create_task(self._send_one(member))
                self.in_flight.add(task)
                task.add_done_callback(self.in_flight.discard)
            at += gap()

    async def _send_one(self, member: Member) -> None:
        self.sequence += 1
        key = f"{self.index}.{self.sequence}"
        sent = time.time()
        body = {"dest_session_id": member.sends_to, "payload": f"lt {key} {sent:.6f}"}
        headers = {"Authorization": f"Bearer {member.auth_key}"}
        try:
            async with self.http.post(
                self.send_url,
                json={**body, "local_id": key},
                headers=headers,
                timeout=aiohttp.ClientTimeout(total=SEND_TIMEOUT_SECONDS),
            ) as response:
                reply = await response.json(content_type=None)
        except Exception as error:
            self.sends.refused += 1
            self.sends.errors[type(error).__name__] += 1
            return
        if response.status == 200 and reply.get("type") == SEND_REPLY_OK:
            self.sends.acked.append((key, member.sends_to, (time.time() - sent) * 1000))
        else:
            self.sends.refused += 1
            self.sends.errors[f"HTTP {response.status}: {str(reply)[:100]}"] += 1

    async def count(self) -> int:
        return sum(self.received.counts.values())

    async def collect(self) -> Received:
        received, self.received = self.received, Received()
        return received


def _work(conn, index: int, base_url: str, send_path: str, members: list[Member]) -> None:
    asyncio.run(_Worker(index, base_url, send_path, members).serve(conn))


def wait_for_deliveries(received: Callable[[], int], deliveries: int, seconds: float) -> None:
    """Until a crowd's sockets got `deliveries` messages in all, or `seconds` passed."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and received() < deliveries:
        time.sleep(0.2)


class Crowd:
    """The members spread round-robin over `processes` worker processes."""

    def __init__(
        self, base_url: str, members: list[Member], processes: int, send_path: str
    ) -> None:
        # Spawned, not forked: the harness holds MongoDB clients and threads a fork would copy.
        context = multiprocessing.get_context("spawn")
        self.conns = []
        self.processes = []
        for index in range(processes):
            parent, child = context.Pipe()
            share = members[index::processes]
            process = context.Process(
                target=_work, args=(child, index, base_url, send_path, share), daemon=True
            )
            process.start()
            self.conns.append(parent)
            self.processes.append(process)

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.processes if p.pid is not None]

    def _all(self, *command: Any) -> list[Any]:
        for conn in self.conns:
            conn.send(command)
        replies = []
        for conn in self.conns:
            if not conn.poll(REPLY_SECONDS):
                raise TimeoutError(f"a crowd worker did not answer {command[0]!r}")
            replies.append(conn.recv())
        return replies

    def open(self) -> tuple[int, list[str]]:
        replies = self._all("open")
        return sum(n for n, _ in replies), [f for _, fails in replies for f in fails]

    def send(self, seconds: float, rate: float, poisson: bool = False) -> Sends:
        total = Sends()
        for sends in self._all("send", seconds, rate, poisson):
            total.add(sends)
        return total

    def wait_for(self, deliveries: int, seconds: float) -> None:
        wait_for_deliveries(lambda: sum(self._all("count")), deliveries, seconds)

    def collect(self) -> Received:
        total = Received()
        for received in self._all("collect"):
            total.add(received)
        return total

    def close(self) -> None:
        for conn in self.conns:
            with contextlib.suppress(Exception):
                conn.send(("close",))
        for process in self.processes:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()
                process.join()

    def __enter__(self) -> "Crowd":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
