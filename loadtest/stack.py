"""A fresh Agora stack for one scenario, started the way the browser suite starts it.

A new MongoDB-wire server in a temporary directory, the machine's Redis under a prefix of
its own, an SMTP sink for login codes, and the edge as `python -m agora serve` (which
starts its own local Ray, as an edge without AGORA_RAY_ADDRESS does).
"""

import json
import os
import secrets
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.error import HTTPError
from urllib.request import Request, urlopen

from pymongo import MongoClient
from redis import Redis

from agora.settings import REPO_ROOT
from tests.e2e.harness import wait_for_edge
from tests.mail import SmtpSink
from tests.services import free_port, mongo_wire_server, redis_server

MONGO_DB = "agora_bench"


class ApiError(RuntimeError):
    pass


def api_call(
    base_url: str, path: str, body: dict[str, Any], key: str | None = None
) -> dict[str, Any]:
    """POSTs JSON to the API as the web app does; an ApiError for any status but 200."""
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    data = json.dumps(body).encode()
    request = Request(base_url + path, data=data, headers=headers, method="POST")
    try:
        with urlopen(request, timeout=30) as response:
            return json.loads(response.read())
    except HTTPError as exc:
        raise ApiError(f"POST {path} -> {exc.code}: {exc.read()[:500]!r}") from exc


@dataclass
class Stack:
    work: Path
    base_url: str
    mongo_url: str
    redis_url: str
    redis_prefix: str
    edge: subprocess.Popen
    edge_log: Path
    mail: SmtpSink

    mongo_db = MONGO_DB

    def call(self, path: str, body: dict[str, Any], key: str | None = None) -> dict[str, Any]:
        return api_call(self.base_url, path, body, key)

    def login(self, email: str, name: str) -> tuple[dict[str, Any], str]:
        """Logs in through the real two-step login; returns the user and their auth key."""
        self.call("/api/user/login", {"email_id": email})
        code = self.mail.last_code(email)
        reply = self.call("/api/user/login", {"email_id": email, "name": name, "otp": code})
        return reply["user"], reply["allspark_auth_key"]

    def mongo(self) -> MongoClient:
        return MongoClient(self.mongo_url, tz_aware=True)

    def redis(self) -> Redis:
        return Redis.from_url(self.redis_url, decode_responses=True)

    def count_redis_keys(self, pattern: str) -> int:
        with self.redis() as redis:
            return sum(1 for _ in redis.scan_iter(match=self.redis_prefix + pattern, count=1000))


@contextmanager
def running_stack(work: Path, settings: dict[str, str] | None = None) -> Iterator[Stack]:
    """`settings`: AGORA_* variables a scenario sets on top of the harness's own."""
    redis_url = os.environ.get("AGORA_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    with ExitStack() as stack:
        mongo_url = stack.enter_context(mongo_wire_server(work / "mongo"))
        live_redis = stack.enter_context(redis_server(redis_url, work / "redis.log"))
        mail = stack.enter_context(SmtpSink())
        port = free_port()
        base_url = f"http://127.0.0.1:{port}"
        prefix = f"bench:{uuid.uuid4().hex[:10]}:"
        env = {
            **os.environ,
            "AGORA_PORT": str(port),
            "AGORA_PUBLIC_BASE_URL": base_url,
            "AGORA_MONGO_URL": mongo_url,
            "AGORA_MONGO_DB": MONGO_DB,
            "AGORA_REDIS_URL": live_redis,
            "AGORA_REDIS_PREFIX": prefix,
            "AGORA_SMTP_URL": mail.url,
            "AGORA_RAY_DASHBOARD": "false",
            "AGORA_SECRET_KEY": secrets.token_urlsafe(32),
            "AGORA_VAR_DIR": str(work / "var"),
            # The load comes from one address; the per-IP login limits are not under test.
            "AGORA_LOGIN_ATTEMPTS_PER_IP": "100000",
            "AGORA_OTP_SENDS_PER_IP": "100000",
            # The feed scenario's poster is one person posting all through the run.
            "AGORA_POSTS_PER_USER": "100000",
            **(settings or {}),
        }
        stack.callback(_forget_keys, live_redis, prefix)
        edge_log = work / "edge.log"
        log_file = stack.enter_context(edge_log.open("w"))
        edge = subprocess.Popen(
            [sys.executable, "-m", "agora", "serve"],
            cwd=REPO_ROOT,
            env=env,
            stdout=log_file,
            stderr=subprocess.STDOUT,
        )
        stack.callback(_stop, edge)
        wait_for_edge(base_url, edge, edge_log)
        result = Stack(work, base_url, mongo_url, live_redis, prefix, edge, edge_log, mail)
        yield result


def _forget_keys(redis_url: str, prefix: str) -> None:
    """The machine's Redis outlives the run, so the run's keys go with it."""
    with Redis.from_url(redis_url, decode_responses=True) as redis:
        found = list(redis.scan_iter(match=f"{prefix}*", count=1000))
        for start in range(0, len(found), 1000):
            redis.delete(*found[start : start + 1000])


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
