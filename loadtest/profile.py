"""Optional sampling profile of the edge with py-spy (`pip install py-spy`), summarised.

py-spy reads the edge's stacks from outside the process, so the edge runs unmodified.
Only the thread holding the GIL is sampled (--gil): the edge is one event loop, and its
other threads (Ray's, the executor's) mostly wait, which py-spy cannot always tell apart
from work.
"""

import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

SAMPLES_PER_SECOND = 100


def py_spy() -> str | None:
    beside_python = Path(sys.executable).parent / "py-spy"
    return str(beside_python) if beside_python.exists() else shutil.which("py-spy")


def start(pid: int, seconds: int, out: Path) -> subprocess.Popen | None:
    binary = py_spy()
    if binary is None:
        return None
    args = [binary, "record", "--pid", str(pid), "--duration", str(seconds), "--gil"]
    args += ["--rate", str(SAMPLES_PER_SECOND), "--format", "raw", "--output", str(out)]
    return subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _frames(stack: str) -> list[str]:
    return [frame.strip() for frame in stack.split(";") if frame.strip()]


# Under every busy sample of the edge; counting them would crowd out the telling lines.
SCAFFOLDING = ("<frozen", "agora.__main__", "asyncio", "aiohttp.web")


def _package(frame: str) -> str:
    """'impl (aiohttp/web_middlewares.py:117)' -> 'aiohttp'; the edge's own code by module.

    py-spy names files relative to their sys.path entry, so the first part is the package.
    """
    location = frame.rpartition(" (")[2].rstrip(")")
    path = location.rpartition(":")[0] or location
    if path.startswith("agora/"):
        return path.removesuffix(".py").replace("/", ".")
    if path == "aiohttp/web.py":
        return "aiohttp.web"
    return path.split("/", 1)[0].removesuffix(".py")


def summary(raw: Path, top: int = 12) -> list[str]:
    """Where the busy samples were: packages on the stack (inclusive) and innermost frames."""
    inclusive: Counter[str] = Counter()
    innermost: Counter[str] = Counter()
    total = 0
    if not raw.exists():
        return ["  (py-spy wrote no profile; it needs permission to trace the edge)"]
    for line in raw.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = _frames(stack)
        if not frames:
            continue
        total += count
        for package in {_package(frame) for frame in frames}:
            inclusive[package] += count
        innermost[frames[-1]] += count
    if not total:
        return ["  (no busy samples)"]
    telling = [(n, c) for n, c in inclusive.most_common() if not n.startswith(SCAFFOLDING)]
    lines = [f"  {total:,} samples holding the GIL; share of them with this code on the stack:"]
    lines += [f"    {n / total:6.1%}  {name}" for name, n in telling[:top]]
    lines.append("  innermost frames (self time):")
    lines += [f"    {n / total:6.1%}  {name[:110]}" for name, n in innermost.most_common(top)]
    return lines
