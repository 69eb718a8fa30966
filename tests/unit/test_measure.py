"""The load steps' meter: a role's memory is read through the window, not once at its end."""

import subprocess
import sys

import pytest

from loadtest.measure import CpuMeter, process

# A process that holds 60 MB (touched, so resident) on "grow" and lets it go on "free".
HOLDER = """
import sys
held = []
for line in sys.stdin:
    if line.strip() == "grow":
        held.append(b"x" * 60_000_000)
    else:
        held.clear()
    print("done", flush=True)
"""
MB = 1_000_000


@pytest.fixture
def holder():
    child = subprocess.Popen(
        [sys.executable, "-c", HOLDER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    yield child
    child.kill()
    child.wait()


def tell(child: subprocess.Popen, what: str) -> None:
    child.stdin.write(f"{what}\n")
    child.stdin.flush()
    assert child.stdout.readline().strip() == "done"


def test_a_roles_memory_is_the_median_of_its_readings_through_the_window(holder):
    meter = CpuMeter({"holder": process(holder.pid)})
    meter.start()
    meter.sample_memory()
    meter.sample_memory()
    tell(holder, "grow")  # work in flight as the window ends
    held_at_end = meter.stop().roles["holder"].rss_bytes
    assert held_at_end < 50 * MB

    meter.start()
    meter.sample_memory()
    meter.sample_memory()
    tell(holder, "free")
    assert meter.stop().roles["holder"].rss_bytes > 50 * MB
