"""Real backing services for tests: a MongoDB-wire server per test session, the machine's Redis."""

import socket
import subprocess
from contextlib import contextmanager
from pathlib import Path

from agora import embedded


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


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
