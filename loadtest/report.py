"""Printing of the figures: per-call tables, CPU and memory per process role, targets."""

import os
from dataclasses import dataclass

from loadtest.locust_run import CallStats, StepResult
from loadtest.measure import Window

SATURATED = 0.85


def say(text: str = "") -> None:
    # Flushed at once: a run takes minutes and is often piped into a file or CI log.
    print(text, flush=True)


def ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


def mb(value: int) -> str:
    return f"{value / 1e6:.0f} MB"


def calls_table(result: StepResult) -> list[str]:
    name_width = max(len("call"), *(len(c.name) for c in result.calls))
    header = f"  {'call':<{name_width}}  {'requests':>8}  {'fail':>5}  {'req/s':>7}"
    header += f"  {'p50 ms':>6}  {'p99 ms':>6}  {'mean ms':>7}"

    def row(c: CallStats, name: str) -> str:
        line = f"  {name:<{name_width}}  {c.requests:>8,}  {c.failures:>5,}  {c.rps:>7.1f}"
        return line + f"  {ms(c.p50_ms):>6}  {ms(c.p99_ms):>6}  {ms(c.mean_ms):>7}"

    lines = [header]
    lines += [row(c, c.name) for c in result.calls]
    lines.append(row(result.total, "all calls"))
    for name, error, count in result.failures[:5]:
        lines.append(f"  ! {count} x {name}: {error[:160]}")
    return lines


def cpu_lines(window: Window) -> list[str]:
    used = " · ".join(f"{role} {u.cores:.2f}" for role, u in window.roles.items())
    memory = " · ".join(
        f"{role} {mb(u.rss_bytes)}" + (f" ({u.processes} processes)" if u.processes > 1 else "")
        for role, u in window.roles.items()
    )
    lines = [
        f"  CPU in cores over {window.seconds:.1f} s: {used}",
        f"  machine: {window.machine_busy_cores:.2f} of {window.machine_cores} cores busy, "
        f"{window.others_cores:.2f} of it by processes outside this run",
        f"  RSS at the end: {memory}",
    ]
    if window.machine_busy_cores > SATURATED * window.machine_cores:
        lines.append("  (the machine's cores were nearly all busy: timings include CPU waits)")
    return lines


def load_now() -> float:
    """The machine's 1-minute load average: how busy it was before a ramp started."""
    return os.getloadavg()[0]


@dataclass(frozen=True)
class TargetRow:
    """One line of the closing table: Agora's figure against a baseline run beside it."""

    target: str
    agora: float
    baseline_name: str
    baseline: float
    wanted_ratio: float | None  # None: printed beside the goals, with no goal of its own
    unit: str
    load_before: tuple[float, float]  # 1-minute load before Agora's and the baseline's ramp
    at_most: bool = False  # the ratio must stay at or under wanted_ratio (a limit, not a floor)

    @property
    def ratio(self) -> float | None:
        return self.agora / self.baseline if self.baseline else None

    @property
    def met(self) -> bool | None:
        if self.wanted_ratio is None:
            return None
        ratio = self.ratio
        if ratio is None:
            # A baseline that held no step is outdone by any step Agora held (for a floor).
            return True if self.agora and not self.at_most else None
        return ratio <= self.wanted_ratio if self.at_most else ratio >= self.wanted_ratio


TARGETS: list[TargetRow] = []


def figure(value: float) -> str:
    """A figure as wide as it needs: people and rates whole, small ones to two places."""
    if abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:.1f}" if abs(value) >= 10 else f"{value:.2f}"


def target_table(rows: list[TargetRow] = TARGETS) -> list[str]:
    if not rows:
        return []
    lines = [
        "",
        "targets (ratios to baselines started in this run; rows without a wanted ratio are "
        "printed beside the goals):",
        f"  {'target':<44} {'Agora':>9} {'baseline':>26} {'ratio':>6} {'wanted':>7}  "
        "load before (Agora / baseline)",
    ]
    for row in rows:
        ratio, met = row.ratio, row.met
        if row.wanted_ratio is None:
            verdict, wanted = "", "-"
        else:
            verdict = "-" if met is None else ("met" if met else "NOT MET")
            if met and ratio is None:
                verdict = "met, the baseline held no step"
            wanted = f"{'<=' if row.at_most else '>='} {row.wanted_ratio}"
        baseline = f"{row.baseline_name} {figure(row.baseline)}"
        lines.append(
            f"  {row.target:<44} {figure(row.agora):>9} {baseline:>26} "
            f"{'-' if ratio is None else f'{ratio:.2f}':>6} {wanted:>7}  "
            f"{row.load_before[0]:.1f} / {row.load_before[1]:.1f}  "
            + (f"{verdict} ({row.unit})" if verdict else f"({row.unit})")
        )
    return lines
