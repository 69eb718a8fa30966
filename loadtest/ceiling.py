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

Then the floors: Agora's edge and Ray stop, and the same people climb the same steps (from the
last one Agora held) against loadtest/naive_people.py on the same store, a server that does
one store command per HTTP call and nothing else: first on Agora's transport ("floor"), then
on a stock python-socketio server ("stock floor", what a user would write instead). No change
of Agora's holds more people on this machine than the first floor does: what it held is the
most this machine, this stack and this generator allow, and Agora's figure is read against
it (`--no-floor` leaves both out).

Each step also counts the store's commands from every process on it (the edges' and shards'
census in Ray's metrics; the naive server's own count) against the HTTP calls locust made in
the same window. The closing table (loadtest/ceiling_table.py) puts Agora's people held, CPU
per present person-minute, store commands per HTTP call, memory per present person, idle
memory and the generator's CPU beside each floor's.
"""

import json
import math
import os
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from urllib.request import urlopen

from loadtest.ceiling_table import Climbed, StepCost, closing_rows
from loadtest.fanout import agora_roles, report_spies, start_baseline, start_spies
from loadtest.locust_run import LoadStep, StepResult, run_step
from loadtest.measure import CpuMeter, Finder, process
from loadtest.naive_people import COMMANDS_PATH
from loadtest.people_model import model_from_env
from loadtest.people_seed import seed, write
from loadtest.push import standin_thread, subscribe
from loadtest.ramp import ActionFigures, StepFigures, last_held, misses
from loadtest.report import TARGETS, calls_table, cpu_lines, load_now, mb, say
from loadtest.sends import METRICS_TIMEOUT_SECONDS, summed_in_metrics
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
    # Store commands counted in every process (the census's count in Ray's metrics, and its
    # shapes in each process's log once a minute).
    "AGORA_MONGO_COMMAND_CENSUS_SECONDS": "60",
    # Ray's metrics as each process had them up to 2 s before (not 10): a step's window of
    # store commands is off by at most that at either end.
    "RAY_metrics_report_interval_ms": "2000",
}
GENERATOR = "locust"  # run_step's name for locust and the processes it starts
# Ray gives its node 30 s to start, which a busy machine sometimes misses: the edge exits.
STACK_ATTEMPTS = 3
IDLE_MEMORY_SECONDS = 4.0  # five readings, a second apart (the last as the meter stops)
PROFILED_ROLES = ("edge", "session shards", "user shards", "nx-27017")
SERVER_ROLES = ("edge", "session shards", "user shards", "rest of Ray", "nx-27017", "redis")
# Agora's count of store commands, one sample per process (docs/operations.md).
STORE_COMMANDS_SAMPLE = "ray_agora_store_commands_total{"


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
    """`--profile`: py-spy on the edge, one session shard, one user shard and the store."""
    found = {role: roles[role]() for role in PROFILED_ROLES} if wanted else {}
    return {role: ps[0].pid for role, ps in found.items() if ps}


def _figures(people: int, result: StepResult) -> StepFigures:
    return StepFigures(
        people,
        [ActionFigures(c.name, c.requests, c.failures, c.p50_ms, c.p99_ms) for c in result.calls],
    )


def _idle_rss(roles: dict[str, Finder], server_roles: tuple[str, ...]) -> int:
    """The server's processes' memory before the ramp, read as a step's is: each role's median
    of readings through a window."""
    meter = CpuMeter({role: roles[role] for role in server_roles})
    meter.start()
    meter.read_memory_through(IDLE_MEMORY_SECONDS, every=1.0)
    return sum(usage.rss_bytes for usage in meter.stop().roles.values())


class CommandRate:
    """Store commands a second over a step's measured window, from a running count."""

    def __init__(self, count: Callable[[], int]) -> None:
        self.count = count
        self.per_s: float | None = None

    def start(self) -> None:
        self._at, self._before = time.monotonic(), self.count()

    def stop(self) -> None:
        self.per_s = (self.count() - self._before) / (time.monotonic() - self._at)


def _cost(
    people: int,
    result: StepResult,
    idle_rss: int,
    server_roles: tuple[str, ...],
    commands: CommandRate,
    load_before: float,
) -> StepCost:
    window = result.window
    server = [window.roles[r] for r in server_roles if r in window.roles]
    generator = window.roles.get(GENERATOR)
    return StepCost(
        people,
        sum(u.cores for u in server),
        generator.cores if generator else 0.0,
        sum(u.rss_bytes for u in server),
        idle_rss,
        commands.per_s,
        result.http_calls_per_s,
        load_before,
    )


def _step_lines(result: StepResult, cost: StepCost) -> list[str]:
    delivery = result.call(DELIVERY)
    commands = cost.commands_per_call
    return [
        *calls_table(result),
        *cpu_lines(result.window),
        f"  deliveries to sockets: {delivery.rps if delivery else 0:,.0f}/s · "
        f"the server's processes {cost.server_cores:.2f} cores "
        f"({cost.cpu_ms_per_person_minute:.1f} ms per present person-minute), the "
        f"generator's {cost.generator_cores:.2f} cores apart · memory per person "
        f"{cost.kb_per_person:,.0f} kB over the idle server's {mb(cost.idle_rss)} "
        f"({mb(cost.server_rss)} in all)",
        "  store commands: "
        + (
            "none counted (no HTTP call in the window)"
            if commands is None
            else f"{cost.store_commands_per_s:,.0f}/s from every process on the store, "
            f"{commands:.2f} per HTTP call ({cost.http_calls_per_s:,.0f} calls/s)"
        ),
    ]


def _ray_store_commands(stack: Stack) -> int:
    """Every edge's and shard's count (the census's, summed over Ray's metrics)."""
    with urlopen(stack.metrics_url, timeout=METRICS_TIMEOUT_SECONDS) as reply:
        return summed_in_metrics(reply.read().decode(), STORE_COMMANDS_SAMPLE)


def _naive_store_commands(base_url: str) -> int:
    with urlopen(f"{base_url}{COMMANDS_PATH}", timeout=METRICS_TIMEOUT_SECONDS) as reply:
        return json.load(reply)["commands"]


@dataclass(frozen=True)
class Served:
    """One server the people are ramped against: Agora, or a floor beside it."""

    name: str
    base_url: str
    roles: dict[str, Finder]
    server_roles: tuple[str, ...]
    profiled: dict[str, int]  # `--profile`: py-spy on these processes through each hold
    store_commands: Callable[[], int]  # every process's on the store, so far


@dataclass
class Step:
    """One step taken: its figures, its cost and its printed lines."""

    figures: StepFigures
    cost: StepCost
    lines: list[str]


def _climb(served: Served, steps, hold: int, work: Path) -> list[Step]:
    """Steps up the people until a step does not hold."""
    idle_rss = _idle_rss(served.roles, served.server_roles)
    done: list[Step] = []
    for people_now in steps:
        step = _take_step(served, people_now, hold, work, idle_rss)
        done.append(step)
        missed = misses(step.figures)
        if missed:
            say(f"  did not hold: {'; '.join(missed)}")
            break
    return done


def _take_step(served: Served, people_now: int, hold: int, work: Path, idle_rss: int) -> Step:
    load_before = load_now()
    say()
    say(
        f"{served.name}: {people_now} present people, {hold} s "
        f"(1-minute load before: {load_before:.1f})"
    )
    env = {
        "PEOPLE_FILE": str(work / "people.json"),
        "PEOPLE_SOCKET_PROCESSES": str(SOCKET_PROCESSES),
        "PEOPLE_HOLD_SECONDS": str(hold),
    }
    start_seconds = 60 + people_now / SOCKETS_PER_SECOND
    load = LoadStep(
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
    commands = CommandRate(served.store_commands)

    def on_hold() -> None:
        _spy_on_the_hold(spies, served.profiled, out / "profile", hold)
        commands.start()

    result = run_step(load, served.base_url, out, served.roles, on_hold, commands.stop)
    cost = _cost(people_now, result, idle_rss, served.server_roles, commands, load_before)
    lines = _step_lines(result, cost)
    for line in lines:
        say(line)
    report_spies(spies)
    return Step(_figures(people_now, result), cost, lines)


def _held(name: str, done: list[Step], steps) -> Climbed:
    """Prints the last step that held; the ramp's figures for the closing table."""
    held = last_held([step.figures for step in done])
    costs = {step.figures.people: step.cost for step in done}
    say()
    if held is None:
        say(f"{name}: no step held (the first, {steps[0]} people, did not)")
        return Climbed(name, None, costs)
    say(f"{name}: {held.people} present people held every action's p99 within 250 ms")
    for line in next(step.lines for step in done if step.figures is held):
        say(line)
    return Climbed(name, held, costs)


@dataclass(frozen=True)
class Floor:
    """A naive server the people climb against after Agora, on one of its socket servers."""

    name: str
    sockets: str  # loadtest.naive_people.SOCKET_SERVERS's key
    about: str


FLOORS = (
    Floor(
        "floor",
        "transport",
        "the same people against loadtest/naive_people.py on the same store, Agora stopped: "
        "Agora's frameworks and transport, one store command per HTTP call, nothing else",
    ),
    Floor(
        "stock floor",
        "stock",
        "the same naive server on a stock python-socketio AsyncServer (its rooms in memory, "
        "the standard library's json, a frame per recipient, asyncio's loop): what a user "
        "would write instead",
    ),
)


def _floor(
    floor: Floor, stack: Stack, roles: dict[str, Finder], work: Path, exits: ExitStack
) -> Served:
    """A naive server on the same store, Agora's edge and Ray stopped."""
    command = [sys.executable, "-m", "loadtest.naive_people", stack.mongo_url, stack.mongo_db]
    command += [stack.redis_url, stack.redis_prefix, floor.sockets]
    naive, base_url = start_baseline(command, f"naive-people-{floor.sockets}", work, exits)
    floor_roles = {
        "naive server": process(naive.pid),
        "nx-27017": roles["nx-27017"],
        "redis": roles["redis"],
    }
    commands = partial(_naive_store_commands, base_url)
    return Served(floor.name, base_url, floor_roles, tuple(floor_roles), {}, commands)


def _floors(
    stack: Stack, roles: dict[str, Finder], work: Path, steps, hold: int, agora: Climbed
) -> list[Climbed]:
    """Each floor in turn from the step Agora held, the one before stopped."""
    stack.stop_serving()
    from_step = floor_steps(steps, agora.held)
    climbed = []
    for floor in FLOORS:
        say()
        say(f"{floor.name}: {floor.about}")
        with ExitStack() as exits:
            served = _floor(floor, stack, roles, work, exits)
            climbed.append(_held(floor.name, _climb(served, from_step, hold, work), from_step))
    return climbed


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
        agora_served = Served(
            "Agora",
            stack.base_url,
            roles,
            SERVER_ROLES,
            _server_pids(profile_edge, roles),
            partial(_ray_store_commands, stack),
        )
        agora = _held("ceiling", _climb(agora_served, steps, hold, work), steps)
        floors = _floors(stack, roles, work, steps, hold, agora) if floor else []
    say()
    say(
        f"Agora held {agora.people_held:,} present people"
        + "".join(f", the {f.name} {f.people_held:,}{_beyond(f, steps)}" for f in floors)
        + " on this machine; the goal is 10,000"
    )
    TARGETS.extend(closing_rows(agora, floors, steps[0]))


def _beyond(climbed: Climbed, steps) -> str:
    return " (its last step: it may hold more)" if climbed.people_held == steps[-1] else ""


def floor_steps(steps: tuple[int, ...], held: StepFigures | None) -> tuple[int, ...]:
    """The floors' ramps start at the step Agora held last (they hold at least as many
    people, doing less for each), or at the first step when Agora held none."""
    return tuple(s for s in steps if held is None or s >= held.people)
