"""Clients and edges the fault tests share: senders whose every answer is bounded, edges as
processes of their own that a test can kill, and a store a test can stop."""

import asyncio
import contextlib
import os
import secrets
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
import socketio

from agora.core.chat.constants import SEND_REPLY_OK
from agora.launch import embedded
from agora.settings import REPO_ROOT
from tests.e2e.harness import wait_for_edge
from tests.integration.helpers import Member, bearer
from tests.services import late_bound_port

GUARD_SECONDS = 30  # a hang guard for waiting on a condition, not a speed check
# The documented bound on a send's answer (AGORA_SEND_ANSWER_SECONDS's default, and the
# store's own wait), and the margin each answer is given on top: a bound the docs promise,
# not a speed measurement.
SEND_ANSWER_SECONDS = 5
ANSWER_MARGIN_SECONDS = 2
# A call to an unreachable store gives up after this long (and answers 503).
STORE_WAIT_MS = 300


class Sender:
    """One client sending one message after another, each with a `local_id` of its own;
    every answer must come within the bound: acknowledged, or refused for a retry."""

    def __init__(self, name: str, send: Callable[[dict], Awaitable[tuple[int, dict]]]) -> None:
        self.name = name
        self.send = send
        self.bodies: dict[str, dict] = {}
        self.acknowledged: list[str] = []
        self.refused: list[str] = []
        # (sent at, answered at, status) of each send, on the monotonic clock.
        self.answers: list[tuple[float, float, int]] = []

    async def answer(self, body: dict) -> tuple[int, dict]:
        try:
            return await asyncio.wait_for(
                self.send(body), SEND_ANSWER_SECONDS + ANSWER_MARGIN_SECONDS
            )
        except TimeoutError:
            pytest.fail(f"{self.name}: no answer within {SEND_ANSWER_SECONDS} s to {body}")

    async def keep_sending(self, session_id: str, stop: asyncio.Event) -> None:
        n = 0
        while not stop.is_set():
            n += 1
            local_id = f"{self.name}-{n}"
            body = {"dest_session_id": session_id, "payload": local_id, "local_id": local_id}
            self.bodies[local_id] = body
            sent_at = time.monotonic()
            status, reply = await self.answer(body)
            self.answers.append((sent_at, time.monotonic(), status))
            assert status in (200, 503), (status, reply)
            if status == 200:
                assert reply["type"] == SEND_REPLY_OK, reply
                self.acknowledged.append(local_id)
            else:
                assert reply["errors"], reply
                self.refused.append(local_id)
            await asyncio.sleep(0.05)

    def acknowledged_since(self, moment: float) -> int:
        """How many sends made at `moment` or later were acknowledged."""
        return sum(1 for sent_at, _, status in self.answers if sent_at >= moment and status == 200)


def http_sender(user: Member, name: str) -> Sender:
    async def send(body: dict) -> tuple[int, dict]:
        reply = await user.client.post("/session/send", json=body, headers=bearer(user.key))
        if reply.status == 503:
            assert reply.headers["Retry-After"], reply.headers
        return reply.status, await reply.json()

    return Sender(name, send)


def socket_sender(sio: socketio.AsyncClient, name: str) -> Sender:
    async def send(body: dict) -> tuple[int, dict]:
        ack = await sio.call("send", body, timeout=GUARD_SECONDS)
        return (503 if "errors" in ack else 200), ack

    return Sender(name, send)


def edges_env(
    mongo_url: str, redis_url: str, smtp_url: str, tmp_path: Path, ray_address: str, **settings
) -> dict[str, str]:
    """The environment of edges of one deployment of the test's own (a Redis prefix of its
    own) that join the Ray cluster at `ray_address`; `settings` are more AGORA_ settings."""
    return {
        **os.environ,
        "AGORA_MONGO_URL": mongo_url,
        "AGORA_MONGO_DB": "agora_test",
        "AGORA_REDIS_URL": redis_url,
        "AGORA_REDIS_PREFIX": f"test:edges:{uuid.uuid4().hex[:8]}:",
        "AGORA_SMTP_URL": smtp_url,
        "AGORA_VAR_DIR": str(tmp_path / "var"),
        "AGORA_WEB_DIST": str(tmp_path / "dist"),
        "AGORA_RAY_ADDRESS": ray_address,
        "AGORA_LOGIN_ATTEMPTS_PER_IP": "1000",
        "AGORA_OTP_SENDS_PER_IP": "1000",
        # The edges sign alike (guest cookies, upload links), as edges of one site must.
        "AGORA_SECRET_KEY": secrets.token_urlsafe(32),
        **{f"AGORA_{name.upper()}": str(value) for name, value in settings.items()},
    }


# Runs the command that follows as a shell runs `command &` from a script: with SIGINT ignored.
AS_BACKGROUND_JOB = ["bash", "-c", "trap '' INT; exec \"$@\"", "bash"]


def agora_process(
    command: str, env: dict[str, str], log_path: Path, *, as_background_job: bool = False
) -> subprocess.Popen:
    """`python -m agora <command>` in a session (process group) of its own, logging to
    `log_path`: a kill of its group takes nothing else with it. As a background job, it starts
    with SIGINT ignored, as a shell starts `command &`."""
    ignoring = AS_BACKGROUND_JOB if as_background_job else []
    with log_path.open("w") as log:
        return subprocess.Popen(
            [*ignoring, sys.executable, "-m", "agora", command],
            cwd=REPO_ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


@contextlib.asynccontextmanager
async def edge_process(env: dict[str, str], log_path: Path):
    """An edge as `python -m agora serve` in a process group of its own (so a kill takes
    nothing else with it); yields its base URL and a kill() that SIGKILLs it."""
    port = late_bound_port()
    base_url = f"http://127.0.0.1:{port}"
    edge_env = {**env, "AGORA_PORT": str(port), "AGORA_PUBLIC_BASE_URL": base_url}
    process = agora_process("serve", edge_env, log_path)

    def kill() -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()

    try:
        await asyncio.to_thread(wait_for_edge, base_url, process, log_path)
        yield base_url, kill
    finally:
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                await asyncio.to_thread(process.wait, GUARD_SECONDS)
            except subprocess.TimeoutExpired:
                kill()


@contextlib.contextmanager
def own_store(data_dir: Path):
    """An nx-27017 of the test's own; yields a restart(stop, start) pair working on it."""
    port = late_bound_port()
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
