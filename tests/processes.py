"""The machine's processes as /proc shows them: which belong to a session, and stopping a
session's leftovers by pid (nothing else on the machine)."""

import contextlib
import os
import signal
import time
from pathlib import Path


def process_sessions() -> dict[int, tuple[int, int, str]]:
    """Every live process of the machine: pid -> (session id, parent pid, command line)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            # The command name, in parentheses, may hold spaces: the fields follow the last ')'.
            state, parent, _, session = (entry / "stat").read_text().rsplit(")", 1)[1].split()[:4]
            if state != "Z":
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                found[int(entry.name)] = (int(session), int(parent), command.strip())
    return found


def in_session(session: int) -> dict[int, str]:
    return {pid: cmd for pid, (sid, _, cmd) in process_sessions().items() if sid == session}


# A killed process tearing down a large memory (a Ray worker's) is still listed for a moment,
# its command line already empty.
KILLED_GONE_SECONDS = 10.0


def kill_session(session: int) -> None:
    """What is left of a session, killed by pid (nothing else on the machine); returns once
    they are gone (or only zombies, which hold nothing), at most KILLED_GONE_SECONDS later."""
    killed = in_session(session)
    for pid in killed:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + KILLED_GONE_SECONDS
    while killed.keys() & process_sessions().keys() and time.monotonic() < deadline:
        time.sleep(0.05)
