"""Scenario "ceiling": how many people, doing what people do, one machine serves in time.

The user model of docs/load-model.md (loadtest/people_model.py; its PEOPLE_* settings
apply) is seeded once on a fresh stack with push on: enough people for the largest step
with the model's share of them away, each away person subscribed for pushes on a local push
service stand-in (tests/push_standin.py, as the `push` scenario does), on the stack `make
run` starts (Ray's dashboard and metrics on). Then loadtest/people.py runs with more present
people at each step (locust for HTTP, the Node crowd for the sockets), each step held for a
fixed time, until a step does not hold: p99 of an action over 250 ms or errors over 0.1 %
(loadtest/ramp.py). The last step that held is printed with its per-action p50/p99,
deliveries per second, CPU per process and memory per person; the generator's CPU (locust
and its Node crowd) is printed apart.

Then the floor: Agora's edge and Ray stop, and the same people climb the same steps (from the
last one Agora held) against loadtest/naive_people.py on the same store, a server that does
one store command per HTTP call and nothing else. No change of Agora's holds more people on
this machine than the floor does: what it held is the most this machine, this stack and this
generator allow, and Agora's figure is read against it (`--no-floor` leaves it out).
"""

import math
import os
import sys
import time
from contextlib import ExitStack, suppress
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import psutil

from loadtest.fanout import agora_roles, report_spies, start_baseline, start_spies
from loadtest.locust_run import LoadStep, StepResult, run_step
from loadtest.measure import Finder, process
from loadtest.people_model import model_from_env
from loadtest.people_seed import seed, write
from loadtest.push import standin_thread, subscribe
from loadtest.ramp import ActionFigures, StepFigures, last_held, misses
from loadtest.report import calls_table, cpu_lines, load_now, mb, say
from loadtest.stack import Stack, running_stack

# 1,500 between the two: on two cores the ceiling lies between 1,000 and 2,000 (docs/decisions.md);
# 3,000 and 7,500 for the floor, which climbs further.
STEPS = (100, 200, 500, 1000, 1500, 2000, 3000, 5000, 7500, 10000)
HOLD_SECONDS = 60
LOCUSTFILE = Path(__file__).with_name("people.py")
DELIVERY = "socket: delivery"  # as people.py names it
# The Node crowd opens about this many sockets a second on a quiet machine; locust waits.
SOCKETS_PER_SECOND = 100
SOCKET_PROCESSES = 2
SETTINGS = {
    "AGORA_PUSH_ENABLED": "true",
    "AGORA_PUSH_ALLOW_LOOPBACK_ENDPOINTS": "true",
    # Ray aborts a node whose agents are slow to register (as tests/conftest.py says): on a
    # busy machine the edge's local Ray then never starts.
    "RAY_agent_register_timeout_ms": "120000",
}
GENERATOR = "locust"  # run_step's name for locust and the processes it starts
# Ray gives its node 30 s to start, which a busy machine sometimes misses: the edge exits.
STACK_ATTEMPTS = 3
PROFILED_ROLES = ("edge", "nx-27017")
SERVER_ROLES = ("edge", "session shards", "user shards", "rest of Ray", "nx-27017", "redis")
FLOOR = "floor (naive server)"
FLOOR_ABOUT = (
    "the same people against loadtest/naive_people.py on the same store, Agora stopped: "
    "Agora's frameworks and transport, one store command per HTTP call, nothing else"
)


def _start_stack(exits: ExitStack, work: Path) -> Stack:
    def attempt_work(attempt: int) -> Path:
        path = work / f"stack-{attempt}"
        path.mkdir(parents=True)
        return path

    for attempt in range(1, STACK_ATTEMPTS):
        try:
            return exits.enter_context(
                running_stack(attempt_work(attempt), SETTINGS, as_make_run=True)
            )
        except SystemExit as refusal:  # the harness's word for an edge that did not start
            say(f"the stack did not start ({refusal}); starting another")
    return exits.enter_context(
        running_stack(attempt_work(STACK_ATTEMPTS), SETTINGS, as_make_run=True)
    )


def _spy_on_the_hold(into: list, pids: dict[str, int], prefix: Path, seconds: int) -> None:
    """Started once every person is on: sockets connecting would say little of what people
    then cost."""
    into.extend(start_spies(pids, prefix, seconds))


def _server_pids(wanted: bool, roles: dict[str, Finder]) -> dict[str, int]:
    """`--profile`: py-spy on the edge and the store, the two that spend the most."""
    found = {role: roles[role]() for role in PROFILED_ROLES} if wanted else {}
    return {role: ps[0].pid for role, ps in found.items() if ps}


def _figures(people: int, result: StepResult) -> StepFigures:
    return StepFigures(
        people,
        [ActionFigures(c.name, c.requests, c.failures, c.p50_ms, c.p99_ms) for c in result.calls],
    )


def _server_rss(roles: dict[str, Finder], server_roles: tuple[str, ...]) -> int:
    """The server's processes' memory now (idle, before the ramp)."""
    total = 0
    for role in server_roles:
        for found in roles[role]():
            with suppress(psutil.Error):
                total += found.memory_info().rss
    return total


def _step_lines(
    people: int, result: StepResult, idle_rss: int, server_roles: tuple[str, ...]
) -> list[str]:
    window = result.window
    delivery = result.call(DELIVERY)
    server = [window.roles[r] for r in server_roles if r in window.roles]
    server_cores = sum(u.cores for u in server)
    server_rss = sum(u.rss_bytes for u in server)
    generator = window.roles.get(GENERATOR)
    return [
        *calls_table(result),
        *cpu_lines(window),
        f"  deliveries to sockets: {delivery.rps if delivery else 0:,.0f}/s · "
        f"the server's processes {server_cores:.2f} cores, the generator's "
        f"{generator.cores if generator else 0:.2f} cores apart · memory per person "
        f"{(server_rss - idle_rss) / people / 1e3:,.0f} kB over the idle server's "
        f"{mb(idle_rss)} ({mb(server_rss)} in all)",
    ]


@dataclass(frozen=True)
class Served:
    """One server the people are ramped against: Agora, or the floor beside it."""

    name: str
    base_url: str
    roles: dict[str, Finder]
    server_roles: tuple[str, ...]
    profiled: dict[str, int]  # `--profile`: py-spy on these processes through each hold


def _climb(served: Served, steps, hold: int, work: Path) -> list[tuple[StepFigures, list[str]]]:
    """Steps up the people until a step does not hold; each step's figures and lines."""
    idle_rss = _server_rss(served.roles, served.server_roles)
    done: list[tuple[StepFigures, list[str]]] = []
    for people_now in steps:
        say()
        say(
            f"{served.name}: {people_now} present people, {hold} s "
            f"(1-minute load before: {load_now():.1f})"
        )
        env = {
            "PEOPLE_FILE": str(work / "people.json"),
            "PEOPLE_SOCKET_PROCESSES": str(SOCKET_PROCESSES),
            "PEOPLE_HOLD_SECONDS": str(hold),
        }
        start_seconds = 60 + people_now / SOCKETS_PER_SECOND
        step = LoadStep(
            LOCUSTFILE,
            ["Person"],
            people_now,
            hold,
            env,
            start_seconds=start_seconds,
            run_seconds=start_seconds + hold,
        )
        out = work / f"{served.name.split()[0].lower()}-step-{people_now}"
        spies: list = []
        spy = partial(_spy_on_the_hold, spies, served.profiled, out / "profile", hold)
        result = run_step(step, served.base_url, out, served.roles, on_hold=spy)
        lines = _step_lines(people_now, result, idle_rss, served.server_roles)
        for line in lines:
            say(line)
        report_spies(spies)
        figures = _figures(people_now, result)
        done.append((figures, lines))
        missed = misses(figures)
        if missed:
            say(f"  did not hold: {'; '.join(missed)}")
            break
    return done


def _held_line(name: str, done: list[tuple[StepFigures, list[str]]], steps) -> StepFigures | None:
    held = last_held([figures for figures, _ in done])
    say()
    if held is None:
        say(f"{name}: no step held (the first, {steps[0]} people, did not)")
        return None
    say(f"{name}: {held.people} present people held every action's p99 within 250 ms")
    for line in next(lines for figures, lines in done if figures is held):
        say(line)
    return held


def _floor(stack: Stack, roles: dict[str, Finder], work: Path, exits: ExitStack) -> Served:
    """The naive server on the same store, Agora's edge and Ray stopped."""
    stack.stop_serving()
    command = [sys.executable, "-m", "loadtest.naive_people", stack.mongo_url, stack.mongo_db]
    command += [stack.redis_url, stack.redis_prefix]
    naive, base_url = start_baseline(command, "naive-people", work, exits)
    floor_roles = {
        "naive server": process(naive.pid),
        "nx-27017": roles["nx-27017"],
        "redis": roles["redis"],
    }
    return Served(FLOOR, base_url, floor_roles, tuple(floor_roles), {})


def run(
    work: Path, *, profile_edge: bool = False, steps=STEPS, hold=HOLD_SECONDS, floor: bool = True
) -> None:
    model = model_from_env(dict(os.environ))
    total = math.ceil(max(steps) / (1 - model.away_share))
    say(
        f"model: city groups of {model.city_members}, {model.item_chats} item chats each, "
        f"{model.away_share:.0%} away with push on, {model.per_person_minute():.1f} actions per "
        f"present person-minute ({', '.join(f'{n} {r:g}' for n, r in model.rates.items())})"
    )
    say("(a shared machine: figures measured while others load it are not the ceiling)")
    with ExitStack() as exits:
        standin = exits.enter_context(standin_thread())
        stack = _start_stack(exits, work)
        started = time.monotonic()
        people = seed(stack, model, total, "ceiling")
        write(people, work / "people.json")
        away = [p.auth_key for p in people if p.away]
        subscribe(stack, standin, away)
        say(
            f"seeded {len(people)} people ({len(away)} away, subscribed for pushes) in "
            f"{time.monotonic() - started:.0f} s"
        )
        roles = {**agora_roles(stack), "push stand-in (harness)": process(os.getpid())}
        agora = Served(
            "Agora", stack.base_url, roles, SERVER_ROLES, _server_pids(profile_edge, roles)
        )
        held = _held_line("ceiling", _climb(agora, steps, hold, work), steps)
        if not floor:
            return
        say()
        say(f"{FLOOR}: {FLOOR_ABOUT}")
        from_step = floor_steps(steps, held)
        floor_held = _held_line(
            FLOOR, _climb(_floor(stack, roles, work, exits), from_step, hold, work), from_step
        )
    if held and floor_held:
        beyond = " (its last step: it may hold more)" if floor_held.people == steps[-1] else ""
        say(
            f"Agora held {held.people:,} present people, the floor {floor_held.people:,}{beyond}, "
            f"on this machine; the goal is 10,000"
        )


def floor_steps(steps: tuple[int, ...], held: StepFigures | None) -> tuple[int, ...]:
    """The floor's ramp starts at the step Agora held last (it holds at least as many people,
    doing less for each), or at the first step when Agora held none."""
    return tuple(s for s in steps if held is None or s >= held.people)
