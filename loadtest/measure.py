"""CPU and memory of the processes taking part in a load step, read with psutil."""

import statistics
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass

import psutil

Finder = Callable[[], list[psutil.Process]]


@dataclass(frozen=True)
class Usage:
    cores: float  # CPU-seconds per wall second: 1.0 is one core kept fully busy
    rss_bytes: int
    processes: int


@dataclass(frozen=True)
class Window:
    seconds: float
    roles: dict[str, Usage]
    machine_busy_cores: float
    machine_cores: int

    @property
    def others_cores(self) -> float:
        """Whatever else ran on the machine meanwhile (other jobs share these cores)."""
        return max(0.0, self.machine_busy_cores - sum(u.cores for u in self.roles.values()))


def _cpu_seconds(process: psutil.Process) -> float | None:
    with suppress(psutil.Error):
        times = process.cpu_times()
        return times.user + times.system
    return None


def _rss(process: psutil.Process) -> int:
    with suppress(psutil.Error):
        return process.memory_info().rss
    return 0


def _rss_of(processes: list[psutil.Process]) -> int:
    return sum(_rss(process) for process in processes)


def _busy(times) -> float:
    idle = times.idle + getattr(times, "iowait", 0.0)
    return sum(times) - idle


class CpuMeter:
    """Measures each role's CPU over a window; a role is a way to find its processes.

    Processes are found at the start, so short-lived ones born during the window (a Ray
    worker, say) are not counted; the roles measured here are long-lived servers. A role's
    memory is the median of the readings taken through the window (`sample_memory`) and at
    its end: one reading at the end caught whatever work was in flight then, and Ray's idle
    processes moved by up to 43 MB between readings (docs/decisions.md, "memory per person
    read through the hold").
    """

    def __init__(self, roles: dict[str, Finder]) -> None:
        self.roles = roles

    def start(self) -> None:
        self._started = time.monotonic()
        self._machine = _busy(psutil.cpu_times())
        self._found = {role: find() for role, find in self.roles.items()}
        self._before = {
            process.pid: _cpu_seconds(process)
            for processes in self._found.values()
            for process in processes
        }
        self._memory: dict[str, list[int]] = {role: [] for role in self._found}

    def sample_memory(self) -> None:
        for role, processes in self._found.items():
            self._memory[role].append(_rss_of(processes))

    def read_memory_through(self, seconds: float, every: float) -> None:
        """Waits `seconds`, reading the processes' memory every `every` seconds meanwhile."""
        ends = time.monotonic() + seconds
        while (left := ends - time.monotonic()) > 0:
            time.sleep(min(every, left))
            self.sample_memory()

    def stop(self) -> Window:
        self.sample_memory()
        seconds = time.monotonic() - self._started
        machine = _busy(psutil.cpu_times()) - self._machine
        usage = {}
        for role, processes in self._found.items():
            used = 0.0
            for process in processes:
                before, after = self._before.get(process.pid), _cpu_seconds(process)
                if before is not None and after is not None:
                    used += after - before
            rss = int(statistics.median(self._memory[role]))
            usage[role] = Usage(used / seconds, rss, len(processes))
        cores = psutil.cpu_count() or 1
        return Window(seconds, usage, machine / seconds, cores)


def process(pid: int) -> Finder:
    return processes([pid])


def processes(pids: list[int]) -> Finder:
    return lambda: _alive(pids)


def descendants(pid: int) -> Finder:
    def find() -> list[psutil.Process]:
        with suppress(psutil.Error):
            return psutil.Process(pid).children(recursive=True)
        return []

    return find


def tree(pid: int) -> Finder:
    """A process and every process under it (locust and the Node crowd it starts)."""
    own, under = process(pid), descendants(pid)
    return lambda: own() + under()


def listening_on(port: int) -> Finder:
    """The server process behind a local port (found by its listening socket)."""

    def find() -> list[psutil.Process]:
        with suppress(psutil.Error):
            for conn in psutil.net_connections(kind="tcp"):
                if conn.status == psutil.CONN_LISTEN and conn.laddr.port == port and conn.pid:
                    return _alive([conn.pid])
        return []

    return find


def _alive(pids: list[int]) -> list[psutil.Process]:
    found = []
    for pid in pids:
        with suppress(psutil.Error):
            found.append(psutil.Process(pid))
    return found
