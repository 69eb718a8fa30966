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
LATE_BOUND_PORTS = range(20_000, 32_000)


def late_bound_port() -> int:
    """A free port for a server that binds it later (another process, after a start of
    seconds) or again (stopped and started on the same port). An ephemeral port can be taken
    meanwhile: by a port-0 bind (Ray's many servers took the e2e edge's port during its
    start), or by a client reconnecting to its own port number, given that same number as its
    source, which then connects to itself."""
    for port in random.sample(LATE_BOUND_PORTS, 200):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port below the ephemeral range")


def free_ports_in_a_row(count: int) -> int:
    """The first of `count` consecutive free ports (below the ephemeral range)."""
    for first in random.sample(LATE_BOUND_PORTS, 200):
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
