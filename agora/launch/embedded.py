"""The embedded services `make run` and `python -m agora cluster` start on one machine: the
MongoDB-wire server, Redis, Ray nodes and HAProxy."""

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

import grpc

from agora.settings import Settings

log = logging.getLogger("agora.launch.embedded")

# A head starts in 5-20 s on two busy cores; a stopped one ends its processes in a few.
RAY_START_SECONDS = 120
RAY_START_ATTEMPTS = 3
# What Ray logs when a new node missed its fixed registration deadline.
RAY_START_MISSED = "timed out during startup"
RAY_STOP_SECONDS = 15
# What holds the Ray port has this long to answer as a Ray head's GCS does (a running one
# answers in milliseconds).
RAY_ANSWER_SECONDS = 2.0
# The modules of the shards' actor classes, imported by each of a node's worker processes as
# it starts, before it is given an actor (Ray's `preload_python_modules`): a shard restarted
# after its node died then starts on an idle worker that has them. Imported at the restart,
# they took 1 s of a core each, and four shards at once 2.5-3 s of the 5 s a lost node's
# sends may wait (docs/operations.md).
SHARD_MODULES = ("agora.actors.sessions", "agora.actors.users")
# How Ray's GCS (on the head) tells a node dead: a health check every half second, each given a
# second, three failed in a row. A node whose raylet died refuses the checks at once: dead in
# about 1.5 s, and its shards start again on a node that lives. Ray's defaults (every 3 s, 10 s
# each, 5 failures) left a lost node's shards, and every send to them, waiting 15 s or more
# (issue 41). A raylet that answers nothing for about 4.5 s (a machine gone, a network cut) is
# dead too; one busy that long on a loaded machine would be taken for dead and its shards
# restarted, a pause of its chats but no loss (docs/operations.md, "A node lost"). An
# operator's own RAY_health_check_* settings win.
NODE_HEALTH_CHECKS = {
    "RAY_health_check_period_ms": "500",
    "RAY_health_check_timeout_ms": "1000",
    "RAY_health_check_failure_threshold": "3",
}


def ray_node_env() -> dict[str, str]:
    """The environment a Ray node of the deployment starts with."""
    return {
        **NODE_HEALTH_CHECKS,
        **os.environ,
        # Stopped, a node stops its processes at once: its detached shard actors would hold
        # up the drain Ray otherwise grants a node's work (30 s).
        "RAY_GRACEFUL_SHUTDOWN_DRAIN_TIMEOUT_S": "0",
        "RAY_preload_python_modules": ",".join(SHARD_MODULES),
    }


class ServiceError(RuntimeError):
    pass


def port_open(host: str, port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5):
        return True
    return False


def answers_as_ray(host: str, port: int) -> bool:
    """Whether what listens at host:port completes gRPC's handshake, as a Ray head's GCS
    does. Another program on Ray's port (a second Redis, a database) never does, and an edge
    sent to join it would wait for a GCS for ever."""
    channel = grpc.insecure_channel(f"{host}:{port}")
    try:
        grpc.channel_ready_future(channel).result(timeout=RAY_ANSWER_SECONDS)
    except grpc.FutureTimeoutError:
        return False
    finally:
        channel.close()
    return True


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


def install_debian_package(package: str, instead: str) -> None:
    """apt-get installs the package when run as root; otherwise says what to do (`instead`)."""
    if os.geteuid() != 0:
        raise ServiceError(
            f"{package} is not installed. Install it (sudo apt-get install {package}) {instead}."
        )
    log.warning("%s is missing; installing it with apt-get", package)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", package], check=True, env=env)


def ensure_redis(redis_url: str, log_file: Path) -> subprocess.Popen | None:
    """Uses the Redis that answers, or starts one (returned so the caller can stop it)."""
    host, port = redis_address(redis_url)
    if port_open(host, port):
        return None
    if _executable("redis-server") is None:
        install_debian_package("redis-server", "or point AGORA_REDIS_URL at a running Redis")
    log_file.parent.mkdir(parents=True, exist_ok=True)
    args = ["redis-server", "--bind", host, "--port", str(port), "--save", "", "--appendonly", "no"]
    args += ["--logfile", str(log_file)]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_port(host, port, 15, process)
    log.info("started redis-server on %s:%d", host, port)
    return process


def start_stores(settings: Settings) -> list[subprocess.Popen]:
    """Starts the MongoDB-wire server and Redis where none answers at the configured address;
    returns what it started, for `stop`."""
    var = settings.var_dir
    started = []
    host, port = mongo_address(settings.mongo_url)
    if not port_open(host, port):
        started.append(start_mongo_wire(var / "mongo", host, port, var / "log" / "nx-27017.log"))
        log.info("started the MongoDB-wire server (nx-27017) on %s:%d", host, port)
    redis = ensure_redis(settings.redis_url, var / "log" / "redis.log")
    if redis is not None:
        started.append(redis)
    return started


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


def secret_key(settings: Settings) -> str:
    """The signing secret set for this start, or else this machine's kept one."""
    configured = settings.secret_key.get_secret_value()
    return configured or kept_secret_key(settings.var_dir / "secret_key")


def ray_token_env(settings: Settings) -> dict[str, str]:
    """Ray's token authentication for the cluster this machine's run starts, as environment
    variables for every process of it (Ray nodes, edges, `python -m agora shards`); an
    operator's own RAY_AUTH_* settings win. Ray's GCS and raylets listen on every interface
    whatever `--node-ip-address` names, and without a token anyone who reaches their ports
    runs code in the cluster. The token is kept like the signing secret, so a restarted head
    and the edges still joined to it agree."""
    return {
        "RAY_AUTH_MODE": os.environ.get("RAY_AUTH_MODE", "token"),
        "RAY_AUTH_TOKEN": os.environ.get("RAY_AUTH_TOKEN")
        or kept_secret_key(settings.var_dir / "ray_auth_token"),
    }


def use_ray_token(settings: Settings) -> None:
    """This process, and what it starts with its environment, uses `ray_token_env`."""
    os.environ.update(ray_token_env(settings))


# Debian installs it outside a non-root user's PATH.
HAPROXY_DEBIAN_PATH = Path("/usr/sbin/haproxy")


def haproxy_executable() -> str:
    """Debian's HAProxy, installed first when it is missing."""
    found = _executable("haproxy")
    if found is None and not HAPROXY_DEBIAN_PATH.exists():
        install_debian_package("haproxy", "to run the local cluster")
    return found or str(HAPROXY_DEBIAN_PATH)


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
class RayNode:
    """A Ray node this program started: `ray start --block`, a child of ours in a process
    group of its own, keeping its files in a temp dir of its own. Stopping it stops what it
    started and nothing else: another program's Ray on this machine is left alone (`ray stop`
    would stop every Ray on the machine)."""

    process: subprocess.Popen
    temp_dir: Path
    # The GCS address it wrote once started (`ray_current_cluster` in its temp dir).
    address: str

    def poll(self) -> int | None:
        """Its exit code once it has exited (a process of the node died: it stops the rest)."""
        return self.process.poll()


def start_ray_head(settings: Settings, log_file: Path, *, dashboard: bool = True) -> RayNode:
    """A local Ray cluster the edges join, as in production (`ray start --head`); its
    metrics (docs/operations.md) at http://127.0.0.1:<ray_metrics_port>/metrics. Returns
    once it is ready to be joined. Without `dashboard` (a head nobody looks at, as the
    tests' shared one) its dashboard's processes are not started: they are most of an idle
    head's memory and a steady share of a core."""
    args = ["--head", f"--port={settings.ray_port}"]
    if dashboard:
        args += ["--dashboard-host=127.0.0.1", f"--dashboard-port={settings.ray_dashboard_port}"]
    else:
        args += ["--include-dashboard=false"]
    args += [f"--metrics-export-port={settings.ray_metrics_port}"]
    args += [f"--ray-client-server-port={settings.ray_client_port}"]
    args += [f"--dashboard-agent-listen-port={settings.ray_dashboard_agent_port}"]
    return _start_ray_node(args, log_file)


def start_ray_worker_node(
    head_address: str, agent_port: int, metrics_port: int, log_file: Path
) -> RayNode:
    """One more raylet of the cluster at head_address, on this machine: the ports a node
    serves on its own (its dashboard agent and its metrics) must differ from every other
    node's here; the rest Ray picks. Returns once the node has joined."""
    args = [f"--address={head_address}", f"--dashboard-agent-listen-port={agent_port}"]
    args += [f"--metrics-export-port={metrics_port}"]
    return _start_ray_node(args, log_file)


def _start_ray_node(role_args: list[str], log_file: Path, attempt: int = 1) -> RayNode:
    # A short path of its own: Ray's sockets live under it, and a socket path may not
    # exceed 107 bytes.
    temp_dir = Path(tempfile.mkdtemp(prefix="agora-ray-"))
    args = [_executable("ray") or "ray", "start", *role_args, "--block"]
    args += [f"--temp-dir={temp_dir}", "--node-ip-address=127.0.0.1", "--disable-usage-stats"]
    log_file.parent.mkdir(parents=True, exist_ok=True)
    with log_file.open("a") as output:
        process = subprocess.Popen(
            args, env=ray_node_env(), stdout=output, stderr=subprocess.STDOUT, process_group=0
        )
    node = RayNode(process, temp_dir, "")
    try:
        address = _wait_for_file(temp_dir / "ray_current_cluster", RAY_START_SECONDS, process)
    except ServiceError:
        stop_ray_node(node)
        # Ray gives a new node a fixed 30 s to register with its GCS; a busy machine can miss
        # that, which another start can make.
        if attempt < RAY_START_ATTEMPTS and RAY_START_MISSED in log_file.read_text():
            log.warning("a Ray node missed Ray's start deadline; starting it again")
            return _start_ray_node(role_args, log_file, attempt + 1)
        raise
    except BaseException:
        stop_ray_node(node)
        raise
    return RayNode(process, temp_dir, address)


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


def stop_ray_node(node: RayNode) -> None:
    """`ray start --block` stops the processes it started when terminated; whatever is left
    of its process group after a while is killed."""
    stop_process_group(node.process, RAY_STOP_SECONDS)
    shutil.rmtree(node.temp_dir, ignore_errors=True)


def stop_process_group(process: subprocess.Popen, seconds: float) -> None:
    """Terminates a child started in a process group of its own, and after `seconds` kills
    whatever is left of the group."""
    if process.poll() is None:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=seconds)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()
