"""A fresh Agora stack for one scenario, started the way the browser suite starts it, the
way `make run` starts it, or the way `make cluster` starts it.

A new MongoDB-wire server in a temporary directory, the machine's Redis under a prefix of
its own, an SMTP sink for login codes, and either the edge as `python -m agora serve` (which
starts its own local Ray without its dashboard, as the browser suite's edge does), or `python
-m agora run`, the supervisor `make run` starts: a Ray head of its own with its dashboard and
metrics on (on ports of the harness's choosing), and an edge joined to it, which seeds the
demo city. Either one finds the harness's nx-27017 and Redis already listening and uses them.
The third, `running_cluster`, is `python -m agora cluster`'s own code with any number of edges
and Ray nodes, against the harness's nx-27017 and Redis too.
"""

import json
import os
import secrets
import subprocess
import sys
import uuid
from collections import ChainMap
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any
from urllib.error import HTTPError
from urllib.request import Request, urlopen

import psutil
from pymongo import MongoClient
from redis import Redis

import agora.launch.cluster
from agora.settings import REPO_ROOT, Settings
from tests.e2e.harness import wait_for_edge
from tests.mail import SmtpSink
from tests.services import (
    free_port,
    free_ports_in_a_row,
    late_bound_port,
    mongo_wire_server,
    redis_server,
)

MONGO_DB = "agora_bench"
# `agora run` starts a Ray head (which Ray may start again on a busy machine), then its edge.
MAKE_RUN_START_SECONDS = 360
# `agora run` stops its edge, then its Ray head (15 s at most), when terminated.
MAKE_RUN_STOP_SECONDS = 60
# The settings `make run` has for the Ray head it starts, each a port of its own here so that
# the bench runs beside a developer's `make run` (restartable: the supervisor starts a head
# that exits again on the same ports).
MAKE_RUN_PORTS = (
    "AGORA_RAY_PORT",
    "AGORA_RAY_DASHBOARD_PORT",
    "AGORA_RAY_METRICS_PORT",
    "AGORA_RAY_CLIENT_PORT",
    "AGORA_RAY_DASHBOARD_AGENT_PORT",
)
# How the supervisor's children are told apart by their command lines.
EDGE_COMMAND = "-m agora serve"
RAY_HEAD_COMMAND = "start --head"


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
    return _answer(Request(base_url + path, data=data, headers=headers, method="POST"))


def api_get(base_url: str, path: str, key: str | None = None) -> dict[str, Any]:
    """GETs from the API as the web app does; an ApiError for any status but 200."""
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return _answer(Request(base_url + path, headers=headers, method="GET"))


def _answer(request: Request) -> dict[str, Any]:
    try:
        with urlopen(request, timeout=30) as response:
            return json.loads(response.read())
    except HTTPError as exc:
        path = request.selector
        raise ApiError(f"{request.method} {path} -> {exc.code}: {exc.read()[:500]!r}") from exc


@dataclass
class Stack:
    work: Path
    base_url: str
    mongo_url: str
    redis_url: str
    redis_prefix: str
    edge_pid: int
    # Ray's processes (the session and user shards among them) are this one and those under
    # it: the edge, whose local Ray they are, or the Ray head `agora run` started.
    ray_pid: int
    edge_log: Path  # what the edge (and, for `agora run`, its supervisor) wrote
    mail: SmtpSink
    # Ray's dashboard and its metrics in Prometheus text; empty when off (`serve` here).
    dashboard_url: str
    metrics_url: str
    # Every process of a `running_cluster`; None for one edge started alone or by `agora run`.
    cluster: agora.launch.cluster.Cluster | None = None
    # A cluster's Ray nodes' metrics, the head's (metrics_url) first.
    node_metrics_urls: tuple[str, ...] = ()
    # Stops the edge and its Ray, leaving the store and Redis running (the ceiling's floor
    # runs on the same store); a no-op for a cluster, which stops as a whole.
    stop_serving: Callable[[], None] = lambda: None

    mongo_db = MONGO_DB

    @property
    def edge_pids(self) -> list[int]:
        if self.cluster is None:
            return [self.edge_pid]
        return [edge.child.pid for edge in self.cluster.edges.values()]

    @property
    def ray_pids(self) -> list[int]:
        """The Ray nodes' processes (each node's processes are under it), the head's first."""
        if self.cluster is None:
            return [self.ray_pid]
        return [node.child.process.pid for node in self.cluster.ray_nodes]

    @property
    def haproxy_pid(self) -> int | None:
        return self.cluster.haproxy.child.pid if self.cluster else None

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
def running_stack(
    work: Path, settings: dict[str, str] | None = None, *, as_make_run: bool = False
) -> Iterator[Stack]:
    """`settings`: AGORA_* variables a scenario sets on top of the harness's own.
    `as_make_run`: the stack `make run` starts (`python -m agora run`) instead of one edge
    with a local Ray of its own and no dashboard."""
    with ExitStack() as stack:
        services = stack.enter_context(_services(work))
        port = free_port()
        base_url = f"http://127.0.0.1:{port}"
        ray_ports = {name: str(late_bound_port()) for name in MAKE_RUN_PORTS} if as_make_run else {}
        env = {
            **os.environ,
            **services.settings(work, port),
            **(ray_ports if as_make_run else {"AGORA_RAY_DASHBOARD": "false"}),
            **(settings or {}),
        }
        edge_log = work / "edge.log"
        log_file = stack.enter_context(edge_log.open("w"))
        started = subprocess.Popen(
            [sys.executable, "-m", "agora", "run" if as_make_run else "serve"],
            cwd=REPO_ROOT,
            env=env,
            stdout=log_file,
            stderr=subprocess.STDOUT,
        )
        stop_serving = partial(_stop_make_run if as_make_run else _stop, started)
        stack.callback(stop_serving)
        if as_make_run:
            wait_for_edge(base_url, started, edge_log, MAKE_RUN_START_SECONDS)
            edge_pid, ray_pid = supervised_pids(_children(started.pid))
            dashboard = f"http://127.0.0.1:{ray_ports['AGORA_RAY_DASHBOARD_PORT']}"
            metrics = f"http://127.0.0.1:{ray_ports['AGORA_RAY_METRICS_PORT']}/metrics"
        else:
            wait_for_edge(base_url, started, edge_log)
            edge_pid = ray_pid = started.pid
            dashboard = metrics = ""
        yield Stack(
            work,
            base_url,
            services.mongo_url,
            services.redis_url,
            services.redis_prefix,
            edge_pid,
            ray_pid,
            edge_log,
            services.mail,
            dashboard,
            metrics,
            stop_serving=stop_serving,
        )


@dataclass(frozen=True)
class _Services:
    """What the harness starts beside a deployment: a fresh nx-27017, an SMTP sink for
    login codes, and a prefix of its own in the machine's Redis."""

    mongo_url: str
    redis_url: str
    redis_prefix: str
    mail: SmtpSink

    def settings(self, work: Path, port: int) -> dict[str, str]:
        """The deployment's AGORA_* settings, serving on `port`."""
        return {
            "AGORA_PORT": str(port),
            "AGORA_PUBLIC_BASE_URL": f"http://127.0.0.1:{port}",
            "AGORA_MONGO_URL": self.mongo_url,
            "AGORA_MONGO_DB": MONGO_DB,
            "AGORA_REDIS_URL": self.redis_url,
            "AGORA_REDIS_PREFIX": self.redis_prefix,
            "AGORA_SMTP_URL": self.mail.url,
            "AGORA_SECRET_KEY": secrets.token_urlsafe(32),
            "AGORA_VAR_DIR": str(work / "var"),
            # The load comes from one address; the per-IP login limits are not under test.
            "AGORA_LOGIN_ATTEMPTS_PER_IP": "100000",
            "AGORA_OTP_SENDS_PER_IP": "100000",
            # The feed scenario's poster is one person posting all through the run.
            "AGORA_POSTS_PER_USER": "100000",
            # The seeders make every group (cities, item chats' groups) as one owner.
            "AGORA_GROUPS_PER_USER": "100000",
        }


@contextmanager
def _services(work: Path) -> Iterator[_Services]:
    redis_url = os.environ.get("AGORA_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    with ExitStack() as stack:
        mongo_url = stack.enter_context(mongo_wire_server(work / "mongo"))
        live_redis = stack.enter_context(redis_server(redis_url, work / "redis.log"))
        mail = stack.enter_context(SmtpSink())
        prefix = f"bench:{uuid.uuid4().hex[:10]}:"
        stack.callback(_forget_keys, live_redis, prefix)
        yield _Services(mongo_url, live_redis, prefix, mail)


@contextmanager
def running_cluster(
    work: Path,
    settings: dict[str, str],
    *,
    edges: int,
    worker_nodes: int,
    through_haproxy: bool = False,
) -> Iterator[Stack]:
    """The deployment `python -m agora cluster` starts (`agora.launch.cluster.started`, the
    command's own code): a Ray head and `worker_nodes` more Ray nodes (real raylets), `edges`
    edges joined to it, HAProxy in front of them, on ports of the harness's choosing. The
    stack's address is HAProxy's; with one edge it is the edge's own, as `make run` serves
    one edge (HAProxy then runs unused), unless `through_haproxy`."""
    with ExitStack() as stack:
        services = stack.enter_context(_services(work))
        # The n-th worker node serves its agent and its metrics on the head's port + n.
        per_node = 1 + worker_nodes
        values = {
            **services.settings(work, free_port()),
            **{name: str(free_port()) for name in MAKE_RUN_PORTS},
            "AGORA_RAY_DASHBOARD_AGENT_PORT": str(free_ports_in_a_row(per_node)),
            "AGORA_RAY_METRICS_PORT": str(free_ports_in_a_row(per_node)),
            "AGORA_CLUSTER_EDGES": str(edges),
            "AGORA_CLUSTER_FIRST_EDGE_PORT": str(free_ports_in_a_row(edges)),
            "AGORA_CLUSTER_RAY_WORKER_NODES": str(worker_nodes),
            "AGORA_CLUSTER_STATS_PORT": str(free_port()),
            **settings,
        }
        parsed = Settings(**{name.removeprefix("AGORA_").lower(): v for name, v in values.items()})
        # The edges' environment is read when they start, after the Ray head has set Ray's
        # own variables in ours (agora.launch.supervision.ray_head).
        deployment = stack.enter_context(
            agora.launch.cluster.started(parsed, ChainMap(values, os.environ))
        )
        first = next(iter(deployment.places.values()))
        head = deployment.ray_nodes[0].child.process.pid
        metrics_ports = [parsed.ray_metrics_port] + [
            agora.launch.cluster.worker_node_ports(parsed, n)[1] for n in range(1, worker_nodes + 1)
        ]
        metrics = tuple(f"http://127.0.0.1:{port}/metrics" for port in metrics_ports)
        yield Stack(
            work,
            deployment.base_url if edges > 1 or through_haproxy else first.url,
            services.mongo_url,
            services.redis_url,
            services.redis_prefix,
            deployment.edges[first.name].child.pid,
            head,
            parsed.var_dir / "log" / f"{first.name}.log",
            services.mail,
            f"http://127.0.0.1:{parsed.ray_dashboard_port}",
            metrics[0],
            deployment,
            metrics,
        )


def supervised_pids(children: list[tuple[int, str]]) -> tuple[int, int]:
    """The edge's and the Ray head's pids among `agora run`'s children (pid, command line)."""
    edges = [pid for pid, command in children if EDGE_COMMAND in command]
    heads = [pid for pid, command in children if RAY_HEAD_COMMAND in command]
    if len(edges) != 1 or len(heads) != 1:
        raise RuntimeError(f"`agora run` should run one edge and one Ray head: {children}")
    return edges[0], heads[0]


def _children(pid: int) -> list[tuple[int, str]]:
    found = []
    for child in psutil.Process(pid).children():
        with suppress(psutil.Error):
            found.append((child.pid, " ".join(child.cmdline())))
    return found


def _forget_keys(redis_url: str, prefix: str) -> None:
    """The machine's Redis outlives the run, so the run's keys go with it."""
    with Redis.from_url(redis_url, decode_responses=True) as redis:
        found = list(redis.scan_iter(match=f"{prefix}*", count=1000))
        for start in range(0, len(found), 1000):
            redis.delete(*found[start : start + 1000])


def _stop_make_run(run: subprocess.Popen) -> None:
    """`agora run` stops what it started when terminated; whatever of it is still there
    after a while (its Ray head keeps a process group of its own) is killed by pid. Once it
    has been reaped, its pid may name another program's process: nothing more is done."""
    if run.poll() is not None:
        return
    started: list[psutil.Process] = []
    with suppress(psutil.Error):
        started = psutil.Process(run.pid).children(recursive=True)
    run.terminate()
    try:
        run.wait(timeout=MAKE_RUN_STOP_SECONDS)
    except subprocess.TimeoutExpired:
        run.kill()
        run.wait()
    for process in started:
        # psutil refuses a pid that now names another process.
        with suppress(psutil.Error):
            process.kill()


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
