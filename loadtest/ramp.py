"""Which step of a ramp of people held: the `ceiling` scenario's rule, apart from its I/O.

A step holds when every action's p99 is within the limit and the failures of all actions
together are within the error share. The ramp stops at the first step that does not hold
(a step after it would only hold by chance on a machine that is already late).
"""

from dataclasses import dataclass

P99_LIMIT_MS = 250.0
ERROR_SHARE_LIMIT = 0.001


@dataclass(frozen=True)
class ActionFigures:
    name: str
    requests: int  # failures included, as locust counts them
    failures: int
    p50_ms: float | None
    p99_ms: float | None


@dataclass(frozen=True)
class StepFigures:
    people: int
    actions: list[ActionFigures]


def misses(
    step: StepFigures, p99_limit_ms: float = P99_LIMIT_MS, error_limit: float = ERROR_SHARE_LIMIT
) -> list[str]:
    """Why the step did not hold; empty when it held."""
    found = [
        f"{a.name} p99 {a.p99_ms:.0f} ms"
        for a in step.actions
        if a.p99_ms is not None and a.p99_ms > p99_limit_ms
    ]
    requests = sum(a.requests for a in step.actions)
    failures = sum(a.failures for a in step.actions)
    if not requests:
        found.append("no action was measured")
    elif failures / requests > error_limit:
        found.append(f"errors {100 * failures / requests:.2f} % of {requests:,} calls")
    return found


def last_held(steps: list[StepFigures]) -> StepFigures | None:
    """The last step that held before the first that did not (None: not even the first)."""
    held = None
    for step in steps:
        if misses(step):
            break
        held = step
    return held
