"""Runs one load step with headless locust in its own process and reads back its figures.

Locust runs as a separate process (never imported here: it patches the standard library
with gevent on import). Its statistics restart once every user is spawned, and the CPU
window opens at that same moment, so both describe the steady part of the step.
"""

import csv
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from agora.settings import REPO_ROOT
from loadtest.measure import CpuMeter, Finder, Window, tree

SPAWNED_LINE = "All users spawned"
START_SECONDS = 60
# Locust's run-time clock starts with spawning; the window closes a little before it ends
# so that stopping users never falls inside the measured window.
WINDOW_MARGIN_SECONDS = 1.5
MEMORY_READ_SECONDS = 5.0


class LoadError(RuntimeError):
    pass


def p99_ms(response_times: dict[int, int]) -> float | None:
    """The highest response time once the slowest 1 % of the calls are left out, and at least
    one of them (None with fewer than two calls). Locust's own p99 is the maximum below a
    hundred calls: one slow picture fetch of fourteen decided a ceiling step (docs/decisions.md,
    "a p99 of few calls")."""
    calls = sum(response_times.values())
    left_out = max(1, calls // 100)
    for time_ms in sorted(response_times, reverse=True):
        left_out -= response_times[time_ms]
        if left_out < 0:
            return float(time_ms)
    return None


SOCKET_CALLS = "socket"  # the request type the people's socket events are reported under


@dataclass(frozen=True)
class CallStats:
    kind: str  # the HTTP method, or SOCKET_CALLS
    name: str
    requests: int
    failures: int
    rps: float
    p50_ms: float | None
    p99_ms: float | None
    mean_ms: float | None


@dataclass(frozen=True)
class StepResult:
    calls: list[CallStats]
    total: CallStats
    window: Window
    failures: list[tuple[str, str, int]] = field(default_factory=list)

    def call(self, name: str) -> CallStats | None:
        return next((c for c in self.calls if c.name == name), None)

    @property
    def http_calls_per_s(self) -> float:
        return sum(c.rps for c in self.calls if c.kind != SOCKET_CALLS)


@dataclass(frozen=True)
class LoadStep:
    locustfile: Path
    user_classes: list[str]
    users: int
    seconds: int
    env: dict[str, str]
    start_seconds: float = START_SECONDS  # for locust to start and spawn every user
    # locust's --run-time when the locustfile ends the run itself `seconds` after spawning
    # (people.py's PEOPLE_HOLD_SECONDS); `seconds` when None.
    run_seconds: float | None = None


def run_step(
    step: LoadStep,
    host: str,
    out: Path,
    roles: dict[str, Finder],
    on_hold: Callable[[], None] = lambda: None,
    after_hold: Callable[[], None] = lambda: None,
) -> StepResult:
    """One locust run; `on_hold` is called once every user is on, as the measured window
    starts, and `after_hold` as it ends."""
    out.mkdir(parents=True, exist_ok=True)
    csv_prefix = out / "locust"
    args = [sys.executable, "-m", "locust", "-f", str(step.locustfile), "--headless"]
    args += ["--host", host, "-u", str(step.users), "-r", str(step.users)]
    run_seconds = round(step.run_seconds or step.seconds)
    args += ["--run-time", f"{run_seconds}s", "--stop-timeout", "2", "--reset-stats"]
    args += ["--csv", str(csv_prefix), "--json-file", str(csv_prefix)]
    args += ["--only-summary", "--exit-code-on-error", "0"]
    args += ["--loglevel", "INFO", *step.user_classes]
    env = {**os.environ, **step.env, "PYTHONPATH": str(REPO_ROOT)}
    log_path = out / "locust.log"
    with log_path.open("w") as log:
        locust = subprocess.Popen(
            args, cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.PIPE, text=True
        )
        spawned = threading.Event()
        reader = threading.Thread(target=_copy_log, args=(locust, log, spawned), daemon=True)
        reader.start()
        # The generator: locust and whatever it starts (the people's Node crowd).
        meter = CpuMeter({**roles, "locust": tree(locust.pid)})
        deadline = time.monotonic() + step.start_seconds
        while not spawned.wait(0.2):
            if locust.poll() is not None or time.monotonic() > deadline:
                locust.kill()
                raise LoadError(f"locust did not start its users; see {log_path}")
        meter.start()
        on_hold()
        meter.read_memory_through(
            max(1.0, step.seconds - 1 - WINDOW_MARGIN_SECONDS), MEMORY_READ_SECONDS
        )
        window = meter.stop()
        after_hold()
        code = locust.wait(timeout=run_seconds + 60)
        reader.join(timeout=5)
    stats_file = Path(f"{csv_prefix}_stats.csv")
    if code != 0 or not stats_file.exists():
        raise LoadError(f"locust exited with {code}; see {log_path}")
    calls, total = _read_stats(stats_file, _read_response_times(Path(f"{csv_prefix}.json")))
    return StepResult(calls, total, window, _read_failures(Path(f"{csv_prefix}_failures.csv")))


def _copy_log(locust: subprocess.Popen, log, spawned: threading.Event) -> None:
    for line in locust.stderr:
        log.write(line)
        if SPAWNED_LINE in line:
            spawned.set()
    log.flush()


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _read_response_times(path: Path) -> dict[tuple[str, str], dict[int, int]]:
    """Each call's response times as locust counted them (its times rounded as in its own
    percentiles), by the call's kind and name."""
    entries = json.loads(path.read_text())
    return {
        (e["method"], e["name"]): {int(ms): n for ms, n in e["response_times"].items()}
        for e in entries
    }


def _read_stats(
    path: Path, response_times: dict[tuple[str, str], dict[int, int]]
) -> tuple[list[CallStats], CallStats]:
    calls: list[CallStats] = []
    total = None
    with path.open(newline="") as stats:
        for row in csv.DictReader(stats):
            entry = CallStats(
                kind=row["Type"],
                name=row["Name"],
                requests=int(row["Request Count"]),
                failures=int(row["Failure Count"]),
                rps=float(row["Requests/s"]),
                p50_ms=_number(row["50%"]),
                p99_ms=(
                    _number(row["99%"])
                    if row["Name"] == "Aggregated"
                    else p99_ms(response_times.get((row["Type"], row["Name"]), {}))
                ),
                mean_ms=_number(row["Average Response Time"]),
            )
            if row["Name"] == "Aggregated":
                total = entry
            else:
                calls.append(entry)
    if total is None:
        raise LoadError(f"no totals in {path}")
    return calls, total


def _read_failures(path: Path) -> list[tuple[str, str, int]]:
    if not path.exists():
        return []
    with path.open(newline="") as failures:
        return [(r["Name"], r["Error"], int(r["Occurrences"])) for r in csv.DictReader(failures)]
