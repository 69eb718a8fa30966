"""The embedded services `make run` starts on one machine: the MongoDB-wire server and Redis."""

import contextlib
import logging
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

log = logging.getLogger("agora.embedded")


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


def start_ray_head(port: int, dashboard_port: int, metrics_port: int, temp_dir: Path) -> None:
    """A local Ray cluster the edges join, as in production (`ray start --head`); its
    metrics (docs/operations.md) at http://127.0.0.1:<metrics_port>/metrics."""
    if port_open("127.0.0.1", port):
        log.info("a Ray cluster already listens on 127.0.0.1:%d; joining it", port)
        return
    args = [_executable("ray") or "ray", "start", "--head", f"--port={port}"]
    args += ["--dashboard-host=127.0.0.1", f"--dashboard-port={dashboard_port}"]
    args += [f"--metrics-export-port={metrics_port}"]
    # Loopback only: the embedded cluster is not reachable from other machines.
    args += ["--node-ip-address=127.0.0.1", "--disable-usage-stats", f"--temp-dir={temp_dir}"]
    result = subprocess.run(args, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise ServiceError(f"ray start failed:\n{result.stdout}\n{result.stderr}")


def stop_ray_head() -> None:
    subprocess.run(
        [_executable("ray") or "ray", "stop", "--force"],
        capture_output=True,
        check=False,
    )
