"""Real backing services for tests: a MongoDB-wire server per test session, the machine's Redis."""

import random
import socket
import subprocess
from contextlib import ExitStack, contextmanager
from pathlib import Path

from agora.launch import embedded

# Ray waits a fixed 30 s for a new node to register; on a machine busy with other work a node
# can take longer, which is no failure of ours: it is started again.
RAY_START_ATTEMPTS = 3


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# Below Linux's ephemeral range (32768-60999 here).
RESTARTABLE_PORTS = range(20_000, 32_000)


def restartable_port() -> int:
    """A free port for a server a test stops and starts again on the same port. An
    ephemeral port can be taken while the server is down: a client reconnecting to its own
    port number may be given that same number as its source, and connects to itself."""
    for port in random.sample(RESTARTABLE_PORTS, 200):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port below the ephemeral range")


def free_ports_in_a_row(count: int) -> int:
    """The first of `count` consecutive free ports (below the ephemeral range)."""
    for first in random.sample(RESTARTABLE_PORTS, 200):
        with ExitStack() as held:
            try:
                for port in range(first, first + count):
                    held.enter_context(socket.socket()).bind(("127.0.0.1", port))
            except OSError:
                continue
            return first
    raise RuntimeError(f"no {count} free ports in a row")


@contextmanager
def mongo_wire_server(data_dir: Path):
    """Yields the URL of a fresh nx-27017 server storing under data_dir."""
    port = free_port()
    process = embedded.start_mongo_wire(data_dir, "127.0.0.1", port, data_dir / "nx.log")
    try:
        yield f"mongodb://127.0.0.1:{port}/?directConnection=true"
    finally:
        embedded.stop([process])


@contextmanager
def redis_server(redis_url: str, log_file: Path):
    """The Redis at redis_url, started for the tests when none answers there."""
    process: subprocess.Popen | None = embedded.ensure_redis(redis_url, log_file)
    try:
        yield redis_url
    finally:
        if process is not None:
            embedded.stop([process])


def web_dist_stand_in(dist: Path) -> Path:
    """A stand-in for the built web app (`web/dist`) the edges serve, written to `dist`."""
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text("<!doctype html><title>Agora</title><div id=root></div>")
    (dist / "assets" / "app-1234.js").write_text("console.log('agora')")
    return dist
