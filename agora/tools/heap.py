"""Snapshots of what a process's Python heap holds, on demand (an operator's or a bench's
probe of memory per person; off unless `AGORA_HEAP_SNAPSHOTS_DIR` is set).

tracemalloc records where each live block was allocated from the process's start, at a
cost in CPU and memory that is no production setting's. Each SIGUSR2 writes a snapshot
(`<dir>/<role>-<pid>-<n>.tracemalloc`); two taken at different loads, compared with
`tracemalloc.Snapshot.load(a).compare_to(Snapshot.load(b), "traceback")`, say which lines
hold what the extra people cost. Cyclic garbage left for the next full collection (which
runs on a clock: agora/tools/garbage.py) is written apart, as the count of what a full
collection then found, so that it is not read as live state.
"""

import contextlib
import gc
import logging
import os
import signal
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

log = logging.getLogger("agora.tools.heap")

# Frames kept per allocation: enough to reach Agora's own line past the libraries' helpers.
FRAMES = 25


class HeapSnapshots:
    def __init__(self, directory: Path, role: str) -> None:
        self.directory = directory
        self.role = role
        self.taken = 0

    def take(self) -> Path:
        """Writes one snapshot, then collects cycles and writes what that left: the two
        differ by the garbage the clock had not yet collected."""
        self.taken += 1
        stem = f"{self.role}-{os.getpid()}-{self.taken}"
        path = self.directory / f"{stem}.tracemalloc"
        tracemalloc.take_snapshot().dump(str(path))
        found = gc.collect()
        tracemalloc.take_snapshot().dump(str(self.directory / f"{stem}-collected.tracemalloc"))
        log.warning(
            "heap snapshot %s written (a full collection then found %d objects; tracemalloc "
            "itself holds %d bytes)",
            path,
            found,
            tracemalloc.get_tracemalloc_memory(),
        )
        return path


@contextlib.contextmanager
def heap_snapshots(directory: Path | None, role: str) -> Iterator[HeapSnapshots | None]:
    """While open, SIGUSR2 writes a snapshot into `directory` (None: nothing is traced)."""
    if directory is None:
        yield None
        return
    directory.mkdir(parents=True, exist_ok=True)
    snapshots = HeapSnapshots(directory, role)
    tracemalloc.start(FRAMES)
    previous = signal.signal(signal.SIGUSR2, lambda *_: snapshots.take())
    try:
        yield snapshots
    finally:
        signal.signal(signal.SIGUSR2, previous)
        tracemalloc.stop()
