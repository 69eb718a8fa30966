"""One Ray head for every pytest worker (`-n`): a cluster per worker would cost each its own
start (long on a busy machine, where several at once miss Ray's fixed deadlines) and its own
processes. The first worker whose tests need Ray starts it; the controller stops it at the end
of the run, by its process group, as `make run` stops its own head."""

import contextlib
import fcntl
import json
import os
import shutil
import signal
import tempfile
import time
from pathlib import Path

import ray

from agora.launch import embedded
from agora.settings import Settings
from tests.services import free_port

# Where the workers find the head. Not an AGORA_ setting: edges that tests start as programs
# must not join it.
SHARED_RAY_DIR = "TESTS_SHARED_RAY_DIR"
STOP_SECONDS = 15
HEAD_PORTS = (
    "ray_port",
    "ray_dashboard_port",
    "ray_metrics_port",
    "ray_client_port",
    "ray_dashboard_agent_port",
)


def offer_to_workers() -> Path:
    """Called by the controller before its workers start (they inherit the environment)."""
    place = Path(tempfile.mkdtemp(prefix="agora-tests-ray-"))
    os.environ[SHARED_RAY_DIR] = str(place)
    # As `make run`'s own head: loopback only, no token; the workers inherit the mode.
    os.environ["RAY_AUTH_MODE"] = "disabled"
    return place


def address() -> str | None:
    """The shared head's address, started now if no worker has yet; None without workers."""
    place = os.environ.get(SHARED_RAY_DIR)
    if not place:
        return None
    head_file = Path(place) / "head.json"
    with (Path(place) / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not head_file.exists():
            settings = Settings(**{name: free_port() for name in HEAD_PORTS})
            head = embedded.start_ray_head(settings, Path(place) / "ray-head.log", dashboard=False)
            head_file.write_text(
                json.dumps(
                    {
                        "address": head.address,
                        "pid": head.process.pid,
                        "temp_dir": str(head.temp_dir),
                    }
                )
            )
        return json.loads(head_file.read_text())["address"]


def stop_shards(namespaces: set[str]) -> None:
    """Kills the shard actors of these deployments (Ray namespaces) in the cluster this
    process has joined, if it has."""
    if not namespaces or not ray.is_initialized():
        return
    for actor in ray.util.list_named_actors(all_namespaces=True):
        if actor["namespace"] in namespaces:
            with contextlib.suppress(ValueError):  # gone meanwhile
                shard = ray.get_actor(actor["name"], namespace=actor["namespace"])
                ray.kill(shard, no_restart=True)


def stop(place: Path) -> None:
    head_file = place / "head.json"
    if head_file.exists():
        head = json.loads(head_file.read_text())
        _stop_group(head["pid"])
        shutil.rmtree(head["temp_dir"], ignore_errors=True)
    shutil.rmtree(place, ignore_errors=True)


def _stop_group(pid: int) -> None:
    """`ray start --block` stops what it started when terminated; what is left is killed."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_SECONDS
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.2)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)
