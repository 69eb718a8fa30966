"""Children kept running by `python -m agora run` and `cluster`: started again, with backoff,
when one exits."""

import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Protocol

from agora.launch import embedded
from agora.settings import Settings

log = logging.getLogger("agora")

# A child that exits is started again after a wait, doubled after each exit that follows a
# short run (up to the most), back to the least once it has run a while.
RESTART_LEAST_SECONDS = 1.0
RESTART_MOST_SECONDS = 30.0
RAN_A_WHILE_SECONDS = 60.0
SUPERVISION_PERIOD_SECONDS = 0.5


class Child(Protocol):
    def poll(self) -> int | None: ...


class Restarting:
    """One child of the supervisor kept running: started again, with backoff, when it exits."""

    def __init__(
        self, name: str, start: Callable[[], Child], stop: Callable[[Child], None]
    ) -> None:
        self.name = name
        self._start = start
        self._stop = stop
        self._wait = RESTART_LEAST_SECONDS
        self._started_at = time.monotonic()
        self.child = start()

    def refused(self) -> int | None:
        """Starts the child again if it exited; its exit code if it refused to start (the same
        start would be refused again)."""
        code = self.child.poll()
        if code is None:
            return None
        if code == os.EX_CONFIG:
            return code
        if time.monotonic() - self._started_at > RAN_A_WHILE_SECONDS:
            self._wait = RESTART_LEAST_SECONDS
        log.warning(
            "the %s exited (code %s); starting it again in %.0f s", self.name, code, self._wait
        )
        # What it leaves behind (a head's temp dir, its processes' group) goes first.
        self._stop(self.child)
        time.sleep(self._wait)
        self._wait = min(self._wait * 2, RESTART_MOST_SECONDS)
        self._started_at = time.monotonic()
        self.child = self._start()
        log.info("the %s is started again", self.name)
        return None

    def stop(self) -> None:
        self._stop(self.child)


def _interrupt(*_) -> None:
    raise KeyboardInterrupt


def stop_on_signals() -> None:
    """SIGTERM and SIGINT stop the supervisor as Ctrl-C does: through its `finally` blocks.
    SIGINT explicitly: a shell starts a background job (`make run &`) with SIGINT ignored,
    and Python then leaves it ignored, so `kill -INT` did nothing."""
    for stop in (signal.SIGTERM, signal.SIGINT):
        signal.signal(stop, _interrupt)


def supervise(children: list[Restarting]) -> int:
    """Keeps the children running until one refuses to start (its exit code) or the
    supervisor is interrupted (0). Stops none of them: the caller's `finally` does."""
    try:
        while True:
            time.sleep(SUPERVISION_PERIOD_SECONDS)
            refusal = next(filter(None, (child.refused() for child in children)), None)
            if refusal is not None:
                return refusal
    except KeyboardInterrupt:
        log.info("stopping")
        return 0


def stop_all(children: list[Restarting]) -> None:
    for child in children:
        child.stop()


def edge(name: str, env: Mapping[str, str], log_file: Path | None = None) -> Restarting:
    """`python -m agora serve` with the given environment, in a process group of its own;
    its output goes to log_file, or to ours."""

    def start() -> subprocess.Popen:
        command = [sys.executable, "-m", "agora", "serve"]
        if log_file is None:
            return subprocess.Popen(command, env=env, process_group=0)
        log_file.parent.mkdir(parents=True, exist_ok=True)
        with log_file.open("a") as output:
            return subprocess.Popen(
                command, env=env, stdout=output, stderr=subprocess.STDOUT, process_group=0
            )

    return Restarting(name, start, _stop_edge)


# An edge closes its sockets and leaves Ray within this on SIGTERM.
EDGE_STOP_SECONDS = 10


def _stop_edge(process: subprocess.Popen) -> None:
    embedded.stop_process_group(process, EDGE_STOP_SECONDS)


def ray_head(settings: Settings) -> Restarting:
    embedded.use_ray_token(settings)
    log_file = settings.var_dir / "log" / "ray-head.log"

    def start() -> embedded.RayNode:
        log.info(
            "starting a local Ray cluster on 127.0.0.1:%d (dashboard on :%d)",
            settings.ray_port,
            settings.ray_dashboard_port,
        )
        return embedded.start_ray_head(settings, log_file)

    return Restarting("Ray head", start, embedded.stop_ray_node)
