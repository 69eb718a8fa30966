"""The edge's heap probe (agora/tools/heap.py): a snapshot per SIGUSR2, only while asked for."""

import os
import signal
import tracemalloc

from agora.tools.heap import heap_snapshots


def test_each_signal_writes_a_snapshot_that_holds_what_was_allocated_since(tmp_path):
    with heap_snapshots(tmp_path, "edge") as snapshots:
        held = [bytearray(1000) for _ in range(200)]
        os.kill(os.getpid(), signal.SIGUSR2)
        assert snapshots is not None and snapshots.taken == 1
    written = sorted(p.name for p in tmp_path.iterdir())
    pid = os.getpid()
    assert written == [f"edge-{pid}-1-collected.tracemalloc", f"edge-{pid}-1.tracemalloc"]
    snapshot = tracemalloc.Snapshot.load(str(tmp_path / f"edge-{pid}-1.tracemalloc"))
    here = snapshot.filter_traces([tracemalloc.Filter(True, __file__)])
    assert sum(stat.size for stat in here.statistics("filename")) >= 200 * 1000
    assert len(held) == 200
    assert not tracemalloc.is_tracing()


def test_nothing_is_traced_without_a_directory():
    with heap_snapshots(None, "edge") as snapshots:
        assert snapshots is None
        assert not tracemalloc.is_tracing()
