"""Scenarios "fanout", "relay" and "noderelay": one group of 1,000 members on sockets.

A few members send over HTTP at a stepped rate; every message reaches all 1,000 sockets,
held by the Node load generator (loadtest/node/crowd.mjs). "fanout" runs it against Agora,
"relay" against a bare python-socketio relay (loadtest/relay.py) and "noderelay" against a
bare Node socket.io relay (loadtest/node/relay.mjs); each relay prints Agora's share of its
deliveries per second at the same p99. The python relay uses python-socketio's own Redis
manager; AGORA_BENCH_RELAY=rooms gives it Agora's instead.
"""

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from contextlib import ExitStack, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import psutil

from agora.launch.embedded import mongo_address, redis_address
from agora.settings import REPO_ROOT
from loadtest import profile
from loadtest.chat_seed import Seeder
from loadtest.crowd import Member, Received, Sends
from loadtest.measure import (
    CpuMeter,
    Finder,
    Window,
    descendants,
    listening_on,
    process,
    processes,
    tree,
)
from loadtest.node_crowd import NODE_DIR, NodeCrowd
from loadtest.relay import SEND_PATH
from loadtest.report import TARGETS, TargetRow, cpu_lines, load_now, ms, say
from loadtest.stack import Stack
from tests.services import free_port

MEMBERS = 1_000
SENDERS = 4
PROCESSES = 2  # Node load generator processes
# Messages a second from all senders together: on past 240, where Agora held in issue 45's
# run, until each side's knee (a ramp stops after MISSES_TO_STOP misses in a row).
RATES = (1, 2, 5, 10, 20, 40, 80, 160, 240, 480, 960, 1920, 3840)
STEP_SECONDS = 10
DRAIN_SECONDS = 8
IDLE_SECONDS = 3
SERVER_START_SECONDS = 30

TARGET_P99_MS = 250
# Steps in a row that miss the target before a ramp stops.
MISSES_TO_STOP = 2
TARGET_RELAY_SHARE = 2.0  # of the bare python-socketio relay
TARGET_NODE_RELAY_SHARE = 2.0  # of the bare Node socket.io relay (issue 45)
TARGET_KIB_PER_SOCKET = 50

# "stock": python-socketio's AsyncRedisManager (the baseline); "rooms": Agora's.
RELAY_MANAGER = os.environ.get("AGORA_BENCH_RELAY", "stock")

LOAD_GENERATOR = "load generator"  # the role of the Node crowd's processes in each step
# Roles whose CPU is the server's cost of a delivery; the load generator is not among them.
AGORA_SERVER_ROLES = ("edge", "session shards", "nx-27017", "redis")
RELAY_SERVER_ROLES = ("relay", "redis")

# The fan-out Agora reached in this run and the load before its ramp, for the relays to
# compare against; a Ceiling of 0 deliveries/s when no step met the target, None when
# fanout did not run.
agora_result: "tuple[Ceiling, float] | None" = None


@dataclass(frozen=True)
class Figures:
    """One step of sending, from the senders', the receivers' and the server's side."""

    rate: float
    seconds: float
    sends: Sends
    received: Received
    expected: int
    window: Window
    server_roles: tuple[str, ...]

    @property
    def deliveries(self) -> int:
        acked = {key for key, _, _ in self.sends.acked}
        return sum(n for key, n in self.received.counts.items() if key in acked)

    @property
    def losses(self) -> int:
        return self.expected - self.deliveries

    def latency(self, quantile: int) -> float | None:
        return percentile(self.received.latencies_ms, quantile)

    def ack(self, quantile: int) -> float | None:
        return percentile([ms for _, _, ms in self.sends.acked], quantile)

    @property
    def within(self) -> bool:
        p99 = self.latency(99)
        return (
            p99 is not None
            and p99 <= TARGET_P99_MS
            and self.losses == 0
            and self.sends.refused == 0
            and self.sends.backlogged == 0
        )

    @property
    def cpu_seconds_per_1000(self) -> float | None:
        if not self.deliveries:
            return None
        used = sum(self.window.roles[r].cores for r in self.server_roles) * self.window.seconds
        return used / (self.deliveries / 1000)


@dataclass(frozen=True)
class Ceiling:
    deliveries_per_s: float
    p99_ms: float | None
    rate: float


def percentile(values, nth: int) -> float | None:
    if len(values) < 2:
        return values[0] if values else None
    return statistics.quantiles(values, n=100, method="inclusive")[nth - 1]


def shard_processes(ray_pids: list[int], actor: str = "SessionShard") -> Finder:
    """Ray's worker processes (under `ray_pids`: the edge's local Ray, or the Ray nodes of a
    cluster) hosting an actor class (they are named after it)."""

    def find() -> list[psutil.Process]:
        found = []
        for child in (child for pid in ray_pids for child in descendants(pid)()):
            with suppress(psutil.Error):
                if actor in " ".join(child.cmdline()):
                    found.append(child)
        return found

    return find


def agora_roles(stack: Stack) -> dict[str, Finder]:
    """The server's processes by role. A cluster's edges are one role, and so are its
    shards; the rest of Ray is a role per node (a second node's own cost), HAProxy one."""
    shards = shard_processes(stack.ray_pids)
    users = shard_processes(stack.ray_pids, "UserShard")
    apart = lambda: set(stack.edge_pids) | {p.pid for p in shards() + users()}  # noqa: E731

    def rest_of(node: int) -> Finder:
        everything = tree(node)

        def find() -> list[psutil.Process]:
            skip = apart()
            return [p for p in everything() if p.pid not in skip]

        return find

    head, *more_nodes = stack.ray_pids
    # The head's (the GCS, the dashboard, its raylet), then each more node's own.
    rest = {"rest of Ray": rest_of(head)} | {
        f"rest of Ray node {n}": rest_of(pid) for n, pid in enumerate(more_nodes, 2)
    }
    haproxy = {"HAProxy": process(stack.haproxy_pid)} if stack.haproxy_pid else {}
    return {
        "edge": processes(stack.edge_pids),
        **haproxy,
        "session shards": shards,
        "user shards": users,
        **rest,
        "nx-27017": listening_on(mongo_address(stack.mongo_url)[1]),
        "redis": listening_on(redis_address(stack.redis_url)[1]),
    }


def rss(pid: int) -> int:
    return psutil.Process(pid).memory_info().rss


def open_sockets(crowd: NodeCrowd, server_pid: int, what: str) -> tuple[int, float]:
    """Opens every socket, then prints the server's memory per idle socket; returns the
    sockets opened and that memory in KiB."""
    before = rss(server_pid)
    started = time.monotonic()
    opened, failures = crowd.open()
    took = time.monotonic() - started
    time.sleep(IDLE_SECONDS)
    per_socket = (rss(server_pid) - before) / max(opened, 1)
    say(f"  {opened:,} sockets connected and joined in {took:.1f} s ({len(failures)} failed)")
    for failure in failures[:3]:
        say(f"  ! {failure}")
    verdict = "within" if per_socket < TARGET_KIB_PER_SOCKET * 1024 else "OVER"
    say(
        f"  {what} RSS per idle socket: {per_socket / 1024:.1f} KiB (RSS before "
        f"{before / 1e6:.0f} MB, after {rss(server_pid) / 1e6:.0f} MB); target: under "
        f"{TARGET_KIB_PER_SOCKET} KiB -> {verdict}"
    )
    if not opened:
        raise RuntimeError("no socket could connect")
    return opened, per_socket / 1024


def expected_deliveries(sends: Sends, listeners: dict[str, int]) -> int:
    return sum(listeners[session] for _, session, _ in sends.acked)


def step(
    crowd: NodeCrowd,
    roles: dict[str, Finder],
    server_roles: tuple[str, ...],
    listeners: dict[str, int],
    rate: float,
    per_sender: float,
    poisson: bool,
    seconds: float = STEP_SECONDS,
) -> Figures:
    meter = CpuMeter({**roles, LOAD_GENERATOR: processes(crowd.pids)})
    meter.start()
    sends = crowd.send(seconds, per_sender, poisson)
    expected = expected_deliveries(sends, listeners)
    crowd.wait_for(expected, DRAIN_SECONDS)
    received = crowd.collect()
    window = meter.stop()
    return Figures(rate, seconds, sends, received, expected, window, server_roles)


def step_lines(figures: Figures) -> list[str]:
    s, seconds = figures.sends, figures.seconds
    cpu = figures.cpu_seconds_per_1000
    lines = [
        f"  offered {s.offered / seconds:.1f} msg/s · acked {len(s.acked) / seconds:.1f} msg/s "
        f"(ack p50 {ms(figures.ack(50))} / p99 {ms(figures.ack(99))} ms) · deliveries "
        f"{figures.deliveries / seconds:,.0f}/s",
        f"  send-to-receive p50 {ms(figures.latency(50))} ms, p99 {ms(figures.latency(99))} ms"
        f" · losses {figures.losses:,} of {figures.expected:,} expected"
        f" · {_per_frame(figures)} messages per frame · other events "
        f"{figures.received.other_events:,}",
        f"  server CPU per 1,000 deliveries ({' + '.join(figures.server_roles)}): "
        + (f"{cpu:.3f} CPU-s" if cpu is not None else "-"),
    ]
    if s.refused or s.backlogged:
        lines.append(f"  ! {s.refused} sends refused or failed, {s.backlogged} not sent (backlog)")
        lines += [f"  ! {n} x {error}" for error, n in s.errors.most_common(3)]
    return lines + cpu_lines(figures.window)


def _per_frame(figures: Figures) -> str:
    frames = figures.received.frames
    return f"{sum(figures.received.counts.values()) / frames:.1f}" if frames else "-"


def start_spies(pids: dict[str, int], prefix: Path, seconds: int = STEP_SECONDS) -> list:
    """py-spy on each server process for one step (it pauses them to sample: p99 suffers)."""
    return [
        (name, out, profile.start(pid, seconds, out))
        for name, pid in pids.items()
        for out in [prefix.with_name(f"{prefix.name}-{name.replace(' ', '-')}.py-spy.txt")]
    ]


def report_spies(spies: list) -> None:
    for name, out, spy in spies:
        if spy is not None:
            spy.wait()
            say(f"  py-spy profile of the {name} during this step:")
            for line in profile.summary(out, top=8):
                say(line)


def server_pids(stack: Stack, roles: dict[str, Finder]) -> dict[str, int]:
    pids = {"edge": stack.edge_pid}
    pids.update({f"session shard {p.pid}": p.pid for p in roles["session shards"]()})
    return pids


class Climbing(Protocol):
    """One side of a comparison, stepping up the rates until it misses its target."""

    @property
    def done(self) -> bool: ...

    def step(self, rate: float) -> None: ...


def climb(ramps: Sequence[Climbing], rates: Sequence[float]) -> None:
    """Every ramp takes each rate in turn, so that the sides compared meet the same machine:
    a shared machine's speed drifts between minutes by more than a code change moves a
    ceiling. The order turns with each rate, so that no side always follows the same one."""
    for turn, rate in enumerate(rates):
        climbing = [r for r in ramps if not r.done]
        if not climbing:
            return
        shift = turn % len(climbing)
        for ramp in climbing[shift:] + climbing[:shift]:
            ramp.step(rate)


@dataclass(kw_only=True)
class Climber:
    """A side's way up the rates: its best step within the target so far, the figures of
    each step that met it, and how many steps in a row missed it (MISSES_TO_STOP end it:
    other work on the machine can spoil one step)."""

    best: Ceiling | None = None
    held: dict[float, Figures] = field(default_factory=dict)
    misses: int = 0

    @property
    def done(self) -> bool:
        return self.misses == MISSES_TO_STOP

    def judge(self, figures: Figures, within: bool, reached: Ceiling, missed: str) -> None:
        """A step taken: held (`reached`), or one more miss in a row (`missed` says why)."""
        if within:
            self.best = reached
            self.held[reached.rate] = figures
        self.misses = 0 if within else self.misses + 1
        if self.misses:
            say(f"  ({missed}: {stops(self.misses)})")


@dataclass
class Ramp(Climber):
    """Fan-out at each rate until p99 passes the target or messages go missing."""

    label: str
    crowd: NodeCrowd
    roles: dict[str, Finder]
    server_roles: tuple[str, ...]
    listeners: dict[str, int]
    spy_pids: dict[str, int]
    work: Path
    profile_it: bool

    def step(self, rate: float) -> None:
        say()
        say(
            f"{self.label} · {rate} msg/s from {SENDERS} senders to {MEMBERS:,} sockets, "
            f"{STEP_SECONDS} s"
        )
        spies = (
            start_spies(self.spy_pids, self.work / f"{self.label}-{rate}")
            if self.profile_it
            else []
        )
        figures = step(
            self.crowd,
            self.roles,
            self.server_roles,
            self.listeners,
            rate,
            rate / SENDERS,
            False,
        )
        for line in step_lines(figures):
            say(line)
        report_spies(spies)
        self.judge(
            figures,
            figures.within,
            Ceiling(figures.deliveries / figures.seconds, figures.latency(99), rate),
            f"p99 over {TARGET_P99_MS} ms or messages lost",
        )


def ramp(
    label: str,
    crowd: NodeCrowd,
    roles: dict[str, Finder],
    server_roles: tuple[str, ...],
    listeners: dict[str, int],
    spy_pids: dict[str, int],
    work: Path,
    profile_it: bool,
) -> Ceiling | None:
    """One side alone up the rates; its best step within the target."""
    alone = Ramp(label, crowd, roles, server_roles, listeners, spy_pids, work, profile_it)
    climb([alone], RATES)
    return alone.best


def stops(misses: int) -> str:
    return "the ramp stops here" if misses == MISSES_TO_STOP else "one more step"


def _members(people, group_id: str) -> list[Member]:
    return [
        Member(p.auth_key, (group_id,), group_id if n < SENDERS else None)
        for n, p in enumerate(people)
    ]


def _best_line(label: str, best: Ceiling | None) -> Ceiling:
    say()
    if best is None:
        say(f"{label}: no step kept p99 within {TARGET_P99_MS} ms without losses")
        return Ceiling(0.0, None, 0)
    say(
        f"{label}: {best.deliveries_per_s:,.0f} deliveries/s at p99 "
        f"{ms(best.p99_ms)} ms with zero losses ({best.rate} msg/s)"
    )
    return best


def seed_hall(stack: Stack) -> tuple[str, list[Member]]:
    """The group of MEMBERS, and its members as the crowd holds them (SENDERS of them send)."""
    started = time.monotonic()
    seeder = Seeder(stack, "fanout")
    group_id = seeder.group("Fan-out hall")
    people = seeder.people(MEMBERS - 1)
    seeder.join(group_id, people)
    say(
        f"seeded a group of {MEMBERS:,} members in {time.monotonic() - started:.1f} s "
        f"(1 login and the group through the API, {MEMBERS - 1:,} people written directly)"
    )
    return group_id, _members([seeder.owner, *people], group_id)


def warm_up(crowd: NodeCrowd) -> None:
    """The first send loads the shard and the group's state; it is not part of a step."""
    crowd.send(1, 1, False)
    crowd.wait_for(SENDERS * MEMBERS, DRAIN_SECONDS)
    crowd.collect()


def run(stack: Stack, work: Path, *, profile_edge: bool = False) -> None:
    global agora_result
    group_id, members = seed_hall(stack)
    roles = agora_roles(stack)
    with NodeCrowd(stack.base_url, members, PROCESSES, "/session/send") as crowd:
        opened, _ = open_sockets(crowd, stack.edge_pid, "edge")
        warm_up(crowd)
        load = load_now()
        best = ramp(
            "fanout",
            crowd,
            roles,
            AGORA_SERVER_ROLES,
            {group_id: opened},
            server_pids(stack, roles),
            work,
            profile_edge,
        )
    agora_result = (_best_line("fanout", best), load)


def start_baseline(
    command: list[str], name: str, work: Path, stop: ExitStack
) -> tuple[subprocess.Popen, str]:
    """Starts a relay on a free port (the port is the command's last argument)."""
    port = free_port()
    log = stop.enter_context((work / f"{name}.log").open("w"))
    server = subprocess.Popen(
        [*command, str(port)], cwd=REPO_ROOT, stdout=log, stderr=subprocess.STDOUT
    )
    stop.callback(_stop, server)
    wait_listening(server, port, work / f"{name}.log")
    return server, f"http://127.0.0.1:{port}"


def wait_listening(server: subprocess.Popen, port: int, log: Path) -> None:
    """Until a baseline server the harness started listens on its port."""
    deadline = time.monotonic() + SERVER_START_SECONDS
    while not any(c.laddr.port == port for c in psutil.Process(server.pid).net_connections()):
        if server.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"a baseline server did not start; see {log}")
        time.sleep(0.2)


def _stop(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def _relay_ramp(
    name: str, server: subprocess.Popen, base_url: str, stack: Stack, work: Path, profile_it: bool
) -> tuple[Ceiling, float]:
    session_id = "relay-room"
    members = [
        Member(f"relay-{n}", (session_id,), session_id if n < SENDERS else None)
        for n in range(MEMBERS)
    ]
    roles = {"relay": process(server.pid), "redis": listening_on(redis_address(stack.redis_url)[1])}
    with NodeCrowd(base_url, members, PROCESSES, SEND_PATH) as crowd:
        opened, _ = open_sockets(crowd, server.pid, name)
        load = load_now()
        best = ramp(
            name,
            crowd,
            roles,
            RELAY_SERVER_ROLES,
            {session_id: opened},
            {"relay": server.pid},
            work,
            profile_it,
        )
    return _best_line(name, best), load


def _compare(name: str, relay: tuple[Ceiling, float], wanted: float) -> None:
    """Agora's fan-out against this relay's, both at p99 within the target, zero losses."""
    if agora_result is None:
        say(
            "  Agora's figure comes from the fanout scenario: run `python -m loadtest.bench "
            f"fanout {name}` for the ratio"
        )
        return
    (agora, agora_load), (baseline, baseline_load) = agora_result, relay
    TARGETS.append(
        TargetRow(
            f"2. fan-out / {name}",
            agora.deliveries_per_s,
            name,
            baseline.deliveries_per_s,
            wanted,
            "deliveries/s at p99 <= 250 ms, none lost",
            (agora_load, baseline_load),
        )
    )
    if baseline.deliveries_per_s:
        share = agora.deliveries_per_s / baseline.deliveries_per_s
        say(
            f"Agora / {name} deliveries/s: {agora.deliveries_per_s:,.0f} / "
            f"{baseline.deliveries_per_s:,.0f} = {share:.2f}; target: at least {wanted}"
        )


def run_relay(stack: Stack, work: Path, *, profile_edge: bool = False) -> None:
    with ExitStack() as stop:
        command = [sys.executable, "-m", "loadtest.relay"]
        command += [stack.redis_url, f"{stack.redis_prefix}relay:", RELAY_MANAGER]
        relay, base_url = start_baseline(command, "relay", work, stop)
        say(
            f"relay: python-socketio AsyncServer on aiohttp at {base_url} with "
            + (
                "python-socketio's AsyncRedisManager"
                if RELAY_MANAGER == "stock"
                else "Agora's room-channel manager"
            )
            + " on the same Redis (own channels); no actors, no storage"
        )
        result = _relay_ramp("relay", relay, base_url, stack, work, profile_edge)
    _compare("relay", result, TARGET_RELAY_SHARE)


def run_node_relay(stack: Stack, work: Path, *, profile_edge: bool = False) -> None:
    with ExitStack() as stop:
        command = ["node", str(NODE_DIR / "relay.mjs")]
        relay, base_url = start_baseline(command, "noderelay", work, stop)
        say(f"noderelay: socket.io (npm) on Node's http at {base_url}, one process, no Redis")
        result = _relay_ramp("noderelay", relay, base_url, stack, work, False)
    _compare("noderelay", result, TARGET_NODE_RELAY_SHARE)
