"""The embedded services `make run` starts on one machine: the MongoDB-wire server, Redis and
a Ray head."""

import contextlib
import logging
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from agora.settings import Settings

log = logging.getLogger("agora.embedded")

# A head starts in 5-20 s on two busy cores; a stopped one ends its processes in a few.
RAY_START_SECONDS = 120
RAY_START_ATTEMPTS = 3
# What Ray logs when a new node missed its fixed registration deadline.
RAY_START_MISSED = "timed out during startup"
RAY_STOP_SECONDS = 15


class ServiceError(RuntimeError):
    pass


def port_open(host: str, port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5):
        return True
    return False


def wait_for_port(host: str, port: int, seconds: float, process: subprocess.Popen | None) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if port_open(host, port):
            return
        if process is not None and process.poll() is not None:
            raise ServiceError(f"the process meant to listen on {host}:{port} exited")
        time.sleep(0.1)
    raise ServiceError(f"nothing listens on {host}:{port} after {seconds:.0f} s")


def _executable(name: str) -> str | None:
    beside_python = Path(sys.executable).parent / name
    return str(beside_python) if beside_python.exists() else shutil.which(name)


def start_mongo_wire(data_dir: Path, host: str, port: int, log_file: Path) -> subprocess.Popen:
    """nx-27017 stores in SQLite files under data_dir; production uses a MongoDB replica set."""
    binary = _executable("nx-27017")
    if binary is None:
        raise ServiceError("nx-27017 is not installed: run `make run` to set up the virtualenv")
    data_dir.mkdir(parents=True, exist_ok=True)
    log_file.parent.mkdir(parents=True, exist_ok=True)
    args = [binary, "--data-dir", str(data_dir), "--host", host, "-p", str(port)]
    args += ["--log-file", str(log_file), "--pid-file", str(data_dir / "nx-27017.pid")]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_port(host, port, 30, process)
    return process


def mongo_address(mongo_url: str) -> tuple[str, int]:
    parts = urlsplit(mongo_url)
    return parts.hostname or "127.0.0.1", parts.port or 27017


def redis_address(redis_url: str) -> tuple[str, int]:
    parts = urlsplit(redis_url)
    return parts.hostname or "127.0.0.1", parts.port or 6379


def _install_redis() -> None:
    if os.geteuid() != 0:
        raise ServiceError(
            "Redis is not running and redis-server is not installed. Install it "
            "(sudo apt-get install redis-server) or point AGORA_REDIS_URL at a running Redis."
        )
    log.warning("redis-server is missing; installing it with apt-get")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", "redis-server"], check=True, env=env)


def ensure_redis(redis_url: str, log_file: Path) -> subprocess.Popen | None:
    """Uses the Redis that answers, or starts one (returned so the caller can stop it)."""
    host, port = redis_address(redis_url)
    if port_open(host, port):
        return None
    if _executable("redis-server") is None:
        _install_redis()
    log_file.parent.mkdir(parents=True, exist_ok=True)
    args = ["redis-server", "--bind", host, "--port", str(port), "--save", "", "--appendonly", "no"]
    args += ["--logfile", str(log_file)]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_port(host, port, 15, process)
    log.info("started redis-server on %s:%d", host, port)
    return process


def kept_secret_key(path: Path) -> str:
    """The signing secret of this machine's `make run`: made at random on the first start,
    readable by its owner only, and the same on every later start (signed links and guest
    cookies stay valid across restarts)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        secret = path.read_text().strip()
        if not secret:
            raise ServiceError(f"{path} is empty: delete it to have a new secret made") from None
        return secret
    secret = secrets.token_urlsafe(48)
    with os.fdopen(descriptor, "w") as file:
        file.write(secret + "\n")
    log.info("made a new signing secret in %s", path)
    return secret


def stop(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


@dataclass(frozen=True)
class RayHead:
    """The Ray head this run started: `ray start --head --block`, a child of ours in a
    process group of its own, keeping its files in a temp dir of its own. Stopping it stops
    what it started and nothing else: another program's Ray on this machine is left alone
    (`ray stop` would stop every Ray on the machine)."""

    process: subprocess.Popen
    temp_dir: Path
    # The GCS address it wrote once started (`ray_current_cluster` in its temp dir).
    address: str

    def poll(self) -> int | None:
        """Its exit code once it has exited (a process of the head died: it stops the rest)."""
        return self.process.poll()


def start_ray_head(settings: Settings, log_file: Path, attempt: int = 1) -> RayHead:
    """A local Ray cluster the edges join, as in production (`ray start --head`); its
    metrics (docs/operations.md) at http://127.0.0.1:<ray_metrics_port>/metrics. Returns
    once it is ready to be joined."""
    # A short path of its own: Ray's sockets live under it, and a socket path may not
    # exceed 107 bytes.
    temp_dir = Path(tempfile.mkdtemp(prefix="agora-ray-"))
    args = [_executable("ray") or "ray", "start", "--head", "--block"]
    args += [f"--port={settings.ray_port}", f"--temp-dir={temp_dir}"]
    args += ["--dashboard-host=127.0.0.1", f"--dashboard-port={settings.ray_dashboard_port}"]
    args += [f"--metrics-export-port={settings.ray_metrics_port}"]
    args += [f"--ray-client-server-port={settings.ray_client_port}"]
    args += [f"--dashboard-agent-listen-port={settings.ray_dashboard_agent_port}"]
    args += ["--node-ip-address=127.0.0.1", "--disable-usage-stats"]
    # Stopped, the head stops its processes at once: its detached shard actors would hold
    # up the drain Ray otherwise grants a node's work (30 s).
    env = {**os.environ, "RAY_GRACEFUL_SHUTDOWN_DRAIN_TIMEOUT_S": "0"}
    log_file.parent.mkdir(parents=True, exist_ok=True)
    with log_file.open("a") as output:
        process = subprocess.Popen(
            args, env=env, stdout=output, stderr=subprocess.STDOUT, process_group=0
        )
    head = RayHead(process, temp_dir, "")
    try:
        address = _wait_for_file(temp_dir / "ray_current_cluster", RAY_START_SECONDS, process)
    except ServiceError:
        stop_ray_head(head)
        # Ray gives a new node a fixed 30 s to register with its GCS; a busy machine can miss
        # that, which another start can make.
        if attempt < RAY_START_ATTEMPTS and RAY_START_MISSED in log_file.read_text():
            log.warning("the Ray head missed Ray's start deadline; starting it again")
            return start_ray_head(settings, log_file, attempt + 1)
        raise
    except BaseException:
        stop_ray_head(head)
        raise
    return RayHead(process, temp_dir, address)


def _wait_for_file(path: Path, seconds: float, process: subprocess.Popen) -> str:
    """The file's text once `process` has written it."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists() and (text := path.read_text().strip()):
            return text
        if process.poll() is not None:
            raise ServiceError(f"{process.args[0]} exited before writing {path}")
        time.sleep(0.2)
    raise ServiceError(f"{path} was not written within {seconds:.0f} s")


def stop_ray_head(head: RayHead) -> None:
    """`ray start --block` stops the processes it started when terminated; whatever is left
    of its process group after a while is killed."""
    if head.poll() is None:
        head.process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            head.process.wait(timeout=RAY_STOP_SECONDS)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(head.process.pid, signal.SIGKILL)
    head.process.wait()
    shutil.rmtree(head.temp_dir, ignore_errors=True)
