"""A Ray cluster of two nodes on loopback for one test: a head (`ray start --head`, as `make
run` starts it) and a second raylet joining it (`ray start --address`), each a process group
of its own, stopped or killed by its pid (never `ray stop`, which stops every Ray here)."""

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psutil
from ray.util.state.api import StateApiClient
from ray.util.state.common import ListApiOptions, StateResource

from agora.launch import embedded
from agora.settings import Settings
from tests.services import free_port
from tests.shared_ray import HEAD_PORTS

JOIN_SECONDS = 60


@dataclass
class TwoNodes:
    head: embedded.RayNode
    dashboard: str
    worker: subprocess.Popen

    def nodes(self) -> list[dict]:
        return nodes(self.dashboard)

    def worker_node_id(self) -> str:
        return next(n["node_id"] for n in self.nodes() if not n["is_head_node"])

    def actors(self, class_name: str) -> list[dict]:
        return live_actors(self.dashboard, class_name)

    def kill_worker(self) -> None:
        """The second node dies at once: its raylet and every process it started."""
        with contextlib.suppress(psutil.Error):
            for child in psutil.Process(self.worker.pid).children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    child.kill()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.worker.pid, signal.SIGKILL)
        self.worker.wait()


def nodes(dashboard: str, token: str | None = None) -> list[dict]:
    """The cluster's nodes: node_id, is_head_node, state (the dashboard's Cluster view)."""
    return _listed(dashboard, token, StateResource.NODES, ListApiOptions())


def live_actors(dashboard: str, class_name: str, token: str | None = None) -> list[dict]:
    """The live actors of a class: name, node_id, pid (the dashboard's Actors view)."""
    alive = [("class_name", "=", class_name), ("state", "=", "ALIVE")]
    return _listed(
        dashboard, token, StateResource.ACTORS, ListApiOptions(filters=alive, detail=True)
    )


def _listed(
    dashboard: str, token: str | None, resource: StateResource, options: ListApiOptions
) -> list[dict]:
    """The dashboard's list of a resource; `token` for a cluster with Ray's token
    authentication (this process's Ray read its mode when it was imported)."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    client = StateApiClient(address=dashboard, headers=headers)
    return [
        found.__dict__ for found in client.list(resource, options, raise_on_missing_output=False)
    ]


@contextlib.contextmanager
def two_nodes(log_dir: Path) -> Iterator[TwoNodes]:
    """Needs RAY_AUTH_MODE=disabled in the environment (the head, the second node and the
    edges read it). The nodes start with the deployment's environment
    (`embedded.ray_node_env`: its health checks, its preloaded modules)."""
    settings = Settings(**{name: free_port() for name in HEAD_PORTS})
    head = embedded.start_ray_head(settings, log_dir / "ray-head.log")
    worker = None
    try:
        worker = _join(head.address, log_dir / "ray-node.log")
        cluster = TwoNodes(head, f"http://127.0.0.1:{settings.ray_dashboard_port}", worker)
        _wait_for(lambda: _alive(cluster) == 2, "the second node never joined")
        yield cluster
    finally:
        if worker is not None and worker.poll() is None:
            worker.terminate()
            try:
                worker.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(worker.pid, signal.SIGKILL)
                worker.wait()
        embedded.stop_ray_node(head)


def _join(address: str, log_file: Path) -> subprocess.Popen:
    ray = str(Path(sys.executable).with_name("ray"))
    args = [ray, "start", f"--address={address}", "--block", "--node-ip-address=127.0.0.1"]
    args += ["--num-cpus=1", "--disable-usage-stats"]
    # Every port a node takes by default is one the head (or another Ray here) may hold.
    for option in (
        "node-manager-port",
        "object-manager-port",
        "metrics-export-port",
        "dashboard-agent-listen-port",
        "dashboard-agent-grpc-port",
        "runtime-env-agent-port",
    ):
        args.append(f"--{option}={free_port()}")
    with log_file.open("a") as output:
        return subprocess.Popen(
            args,
            env=embedded.ray_node_env(),
            stdout=output,
            stderr=subprocess.STDOUT,
            process_group=0,
        )


def _alive(cluster: TwoNodes) -> int:
    with contextlib.suppress(Exception):  # the dashboard is still starting
        return sum(1 for n in cluster.nodes() if n["state"] == "ALIVE")
    return 0


def _wait_for(condition, failure: str) -> None:
    deadline = time.monotonic() + JOIN_SECONDS
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.5)
    raise AssertionError(failure)
