"""The browser suite's harness (tests/e2e/harness.py) stopped with SIGTERM, as a CI runner or a
developer's `kill` stops it, or with SIGINT to its process group when a script started it as a
background job (`nohup ... &`: SIGINT ignored, issue 41): it stops everything it started, as
when its command ends: the command (in a process group of its own), the edge and the Ray
processes in the edge's session, and the MongoDB-wire server."""

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agora.settings import REPO_ROOT
from tests.integration.fault_tools import AS_BACKGROUND_JOB
from tests.processes import in_session, kill_session, process_sessions

GUARD_SECONDS = 180  # a hang guard for an edge starting its Ray on two busy cores

# Stands for the browser suite: tells where it runs, then waits to be stopped.
COMMAND = """
import os, sys, time
from pathlib import Path
Path(sys.argv[1]).write_text(f"{os.getpid()} {os.environ['AGORA_E2E_BASE_URL']}")
time.sleep(600)
"""


def until_written(path: Path, harness: subprocess.Popen) -> str:
    deadline = time.monotonic() + GUARD_SECONDS
    while not (path.exists() and path.read_text()):
        assert harness.poll() is None, "the harness exited before running its command"
        assert time.monotonic() < deadline, "the harness did not run its command"
        time.sleep(0.3)
    return path.read_text()


def alive(pids) -> dict[int, str]:
    running = process_sessions()
    return {pid: running[pid][2] for pid in pids if pid in running}


def sigterm(harness: subprocess.Popen) -> None:
    harness.send_signal(signal.SIGTERM)


def sigint_to_its_group(harness: subprocess.Popen) -> None:
    """As `kill -INT -- -<group>`: the MongoDB-wire server in it stops at once (it handles
    SIGINT itself)."""
    os.killpg(harness.pid, signal.SIGINT)


@pytest.mark.parametrize(
    ("started_as", "stop", "exit_code"),
    [
        ([], sigterm, 128 + signal.SIGTERM),
        (AS_BACKGROUND_JOB, sigint_to_its_group, 128 + signal.SIGINT),
    ],
    ids=["sigterm", "sigint-to-a-background-job"],
)
def test_a_stop_signal_stops_the_command_the_edge_its_ray_and_the_store(
    tmp_path, started_as, stop, exit_code
):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AGORA_", "RAY_"))}
    told = tmp_path / "command.txt"
    harness = subprocess.Popen(
        [
            *started_as,
            *(sys.executable, "-m", "tests.e2e.harness", sys.executable, "-c", COMMAND),
            str(told),
        ],
        cwd=REPO_ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    started: dict[int, str] = {}
    try:
        command_pid, base_url = until_written(told, harness).split()
        sessions = process_sessions()
        # The edge: the harness's child leading a session of its own, serving base_url.
        (edge,) = [
            pid
            for pid, (session, parent, cmd) in sessions.items()
            if parent == harness.pid and session == pid and "agora serve" in cmd
        ]
        started = {
            **in_session(harness.pid),  # the harness, its command and the MongoDB-wire server
            **in_session(edge),  # the edge and its Ray processes
        }
        started.pop(harness.pid)
        assert int(command_pid) in started
        assert any("nx-27017" in cmd for cmd in started.values()), started
        assert any("raylet" in cmd for cmd in in_session(edge).values()), in_session(edge)

        stop(harness)
        code = harness.wait(timeout=GUARD_SECONDS)

        assert alive(started) == {}, f"left running after {stop.__name__} ({base_url})"
        assert code == exit_code
    finally:
        if harness.poll() is None:
            harness.kill()
            harness.wait()
        # What a failed test left running, by pid.
        for pid in alive(started):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        kill_session(harness.pid)


pytestmark = [
    pytest.mark.timeout(3 * GUARD_SECONDS),
    pytest.mark.xdist_group("own-processes"),
    pytest.mark.slow,
]
