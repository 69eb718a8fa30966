"""Scenario "cluster": fan-out and persisted sends through two edges behind HAProxy and two
Ray nodes, against one edge and one Ray node, on the same machine in the same run.

Both deployments are `python -m agora cluster`'s own code (`agora.launch.cluster.started`, through
`loadtest.stack.running_cluster`), each with an nx-27017 and a Redis prefix of its own:
- the cluster: two edges, HAProxy in front of them (clients go through it), a Ray head and a
  second Ray node (`ray start --address`, a real raylet);
- one edge: the edge and the Ray head alone, sent to directly as `make run` serves it (its
  HAProxy is started by the same code and left out of the path);
- one edge behind HAProxy: the same, reached through its HAProxy, so that the cluster against
  it shows what the second edge and node cost apart from the load balancer's hop.

Both run all along, and each rate is taken by each side in turn (`fanout.climb`):
- fan-out: the fanout scenario's group of 1,000 members on sockets, a few senders at a
  stepped rate (HAProxy spreads the cluster's sockets over its two edges);
- sends: the sends scenario's item chats, recipients away (the common case: the asker holds
  no socket and is subscribed for pushes) and online, over HTTP as the web app sends (HAProxy
  spreads the requests over the edges).

Printed: the ratio cluster / one edge, and cluster / one edge behind HAProxy, of what each
side held (target: at least 0.8; on two cores no gain is expected, only no great loss),
p50/p99, throughput and the load generator's CPU at the highest rate both held, and each
process role's CPU per unit of work there side by side: where the second node's cost goes.
"""

import os
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from urllib.request import urlopen

import psutil

from loadtest import fanout, sends
from loadtest.fanout import LOAD_GENERATOR, Figures, agora_roles, climb, shard_processes
from loadtest.measure import process
from loadtest.node_crowd import NodeCrowd
from loadtest.push import StandinThread, standin_thread
from loadtest.report import TARGETS, TargetRow, load_now, ms, say
from loadtest.stack import Stack, running_cluster

TARGET_SHARE = 0.8  # of one edge's held rate (issue 31)
# Batches of sends the edges handed the session shards (docs/operations.md, "Metrics").
BATCHES_SAMPLE = "ray_agora_send_batch_size_count"
# The cluster's sends go over HTTP only: the web app sends so, and HAProxy's hop is per
# request there (a socket's frames go through a tunnel HAProxy set up once).
VIAS = ("http",)


@dataclass(frozen=True)
class Side:
    name: str
    edges: int
    worker_nodes: int
    through_haproxy: bool


ONE_EDGE = Side("one edge", 1, 0, False)
ONE_BEHIND_HAPROXY = Side("one edge behind HAProxy", 1, 0, True)
CLUSTER = Side("cluster", 2, 1, True)
SIDES = (ONE_EDGE, ONE_BEHIND_HAPROXY, CLUSTER)
# The cluster is set against each of these.
BASES = (ONE_EDGE, ONE_BEHIND_HAPROXY)

# How a step's work is counted, for the cost per unit: deliveries or acknowledged messages.
Units = Callable[[Figures], float]


def _deliveries_in_thousands(figures: Figures) -> float:
    return figures.deliveries / 1000


def _acknowledged(figures: Figures) -> float:
    return len(figures.sends.acked)


def _started(side: Side, work: Path, stop: ExitStack) -> Stack:
    started = time.monotonic()
    stack = stop.enter_context(
        running_cluster(
            work / side.name.replace(" ", "-"),
            sends.SETTINGS,
            edges=side.edges,
            worker_nodes=side.worker_nodes,
            through_haproxy=side.through_haproxy,
        )
    )
    say(
        f"{side.name}: {side.edges} edge(s), {1 + side.worker_nodes} Ray node(s), up in "
        f"{time.monotonic() - started:.1f} s; clients go to {stack.base_url}"
    )
    return stack


def _placement(stack: Stack) -> str:
    """Which Ray node holds which shards: a call to a shard on another node than the edge's
    crosses nodes (on one machine, loopback all the same)."""
    parts = []
    for n, pid in enumerate(stack.ray_pids, 1):
        shards = len(shard_processes([pid])())
        users = len(shard_processes([pid], "UserShard")())
        parts.append(f"node {n}: {shards} session shard(s), {users} user shard(s)")
    return "; ".join(parts)


def _batching(stack: Stack) -> str:
    """Messages the shards stored and the batches the edges handed them, read off every
    node's metrics: each edge batches its own sends, so more edges make smaller batches."""
    texts = []
    for url in stack.node_metrics_urls:
        with urlopen(url, timeout=sends.METRICS_TIMEOUT_SECONDS) as reply:
            texts.append(reply.read().decode())
    stored = sum(sends.stored_in_metrics(text) for text in texts)
    batches = sum(sends.summed_in_metrics(text, BATCHES_SAMPLE) for text in texts)
    each = f"{stored / batches:.1f}" if batches else "-"
    return f"{stored:,} messages stored in {batches:,} batches ({each} a batch)"


def _sockets_per_edge(stack: Stack) -> str:
    """Established connections on each edge's port: where HAProxy (or the crowd) put them."""
    if stack.cluster is None:
        return ""
    counts = []
    for name, place in stack.cluster.places.items():
        edge = psutil.Process(stack.cluster.edges[name].child.pid)
        held = sum(
            1
            for c in edge.net_connections(kind="tcp")
            if c.status == psutil.CONN_ESTABLISHED and c.laddr.port == place.port
        )
        counts.append(f"{name} {held}")
    return ", ".join(counts)


def _fanout_ramp(side: Side, stack: Stack, work: Path, stop: ExitStack) -> fanout.Ramp:
    group_id, members = fanout.seed_hall(stack)
    roles = agora_roles(stack)
    crowd = stop.enter_context(
        NodeCrowd(stack.base_url, members, fanout.PROCESSES, "/session/send")
    )
    opened, failures = crowd.open()
    say(
        f"  {side.name}: {opened:,} sockets connected and joined ({len(failures)} failed); "
        f"connections per edge: {_sockets_per_edge(stack) or 'one edge'}"
    )
    fanout.warm_up(crowd)
    return fanout.Ramp(
        f"{side.name} · fanout",
        crowd,
        roles,
        tuple(roles),
        {group_id: opened},
        {},
        work,
        False,
    )


def _send_ramps(
    stack: Stack, side: Side, work: Path, standin: StandinThread, stop: ExitStack
) -> list[sends.Ramp]:
    chats = sends.seed_cases(stack, standin)
    roles = sends.roles_by_shard(stack) | {sends.HARNESS_ROLE: process(os.getpid())}
    return sends.case_ramps(f"{side.name} · ", stack, work, chats, VIAS, roles, {}, standin, stop)


def run(work: Path, *, profile_edge: bool = False) -> None:
    """Starts the three deployments, beside the away askers' push service (one for all)."""
    with ExitStack() as stop:
        standin = stop.enter_context(standin_thread())
        stacks = {side: _started(side, work, stop) for side in SIDES}
        with ExitStack() as fanning:
            fans = {side: _fanout_ramp(side, stacks[side], work, fanning) for side in SIDES}
            fan_load = load_now()
            climb(list(fans.values()), fanout.RATES)
        sending = {side: _send_ramps(stacks[side], side, work, standin, stop) for side in SIDES}
        send_load = load_now()
        # The same case of each side one after the other: each rate goes to each in turn.
        climb([r for same in zip(*sending.values(), strict=True) for r in same], sends.RATES)
        placement = {side: _placement(stacks[side]) for side in SIDES}
        batching = {side: _batching(stacks[side]) for side in SIDES}

    say()
    for side in SIDES:
        say(f"{side.name}: shards placed: {placement[side]}; over the run, {batching[side]}")
    for base in BASES:
        _compare(
            "fan-out",
            base,
            fans[base],
            fans[CLUSTER],
            "deliveries/s at p99 <= 250 ms, none lost",
            fan_load,
        )
    for n, case in enumerate(sends.CASES):
        for base in BASES:
            _compare(
                f"{case.name} sends",
                base,
                sending[base][n],
                sending[CLUSTER][n],
                "msg/s offered, each acknowledged at p99 <= 250 ms and read back once",
                send_load,
            )


Ramp = fanout.Ramp | sends.Ramp


def _held(ramp: Ramp) -> float:
    if isinstance(ramp, fanout.Ramp):
        return ramp.best.deliveries_per_s if ramp.best else 0.0
    return sends.held_rate(ramp)


def _compare(what: str, base: Side, one: Ramp, two: Ramp, unit: str, load: float) -> None:
    """The cluster's ceiling against the base side's as a ratio, and their figures at the
    highest rate both held."""
    cluster, single = _held(two), _held(one)
    say()
    say(f"{what}: cluster {cluster:,.0f} / {base.name} {single:,.0f} ({unit})")
    TARGETS.append(
        TargetRow(
            f"5. cluster {what} (against {base.name})",
            cluster,
            base.name,
            single,
            TARGET_SHARE,
            unit,
            (load, load),
        )
    )
    common = sorted(set(one.held) & set(two.held))
    if not common:
        say("  no rate was held by both sides: nothing to set side by side")
        return
    rate = common[-1]
    figures = {base: one.held[rate], CLUSTER: two.held[rate]}
    is_fanout = isinstance(one, fanout.Ramp)
    units: Units = _deliveries_in_thousands if is_fanout else _acknowledged
    per = "1,000 deliveries" if is_fanout else "acknowledged message"
    say(f"  at {rate} msg/s, the highest rate both held:")
    for side, f in figures.items():
        latency = (
            f"send-to-receive p50 {ms(f.latency(50))} / p99 {ms(f.latency(99))} ms, "
            f"{f.deliveries / f.seconds:,.0f} deliveries/s"
            if is_fanout
            else f"ack p50 {ms(f.ack(50))} / p99 {ms(f.ack(99))} ms, "
            f"{len(f.sends.acked) / f.seconds:,.0f} acknowledged msg/s"
        )
        window = f.window
        say(
            f"    {side.name:<23} {latency}; load generator "
            f"{window.roles[LOAD_GENERATOR].cores:.2f} cores; machine "
            f"{window.machine_busy_cores:.2f} of {window.machine_cores} busy "
            f"({window.others_cores:.2f} outside this run)"
        )
    for line in cost_lines(figures[base], figures[CLUSTER], units, per, base.name):
        say(line)


def cost_lines(
    one: Figures, two: Figures, units: Units, per: str, base: str = ONE_EDGE.name
) -> list[str]:
    """Each server role's CPU-ms per unit on both sides, and what the cluster adds or saves."""
    excluded = {LOAD_GENERATOR, sends.HARNESS_ROLE}

    def costs(f: Figures) -> dict[str, float]:
        done = units(f) or 1
        return {
            role: usage.cores * f.window.seconds * 1000 / done
            for role, usage in f.window.roles.items()
            if role not in excluded
        }

    single, cluster = costs(one), costs(two)
    roles = list(single) + [role for role in cluster if role not in single]
    width = max(len(role) for role in roles)
    lines = [
        f"  CPU-ms per {per}, by process role:",
        f"    {'':<{width}} {base:>9} {'cluster':>9} {'change':>8}",
    ]
    for role in roles:
        a, b = single.get(role, 0.0), cluster.get(role, 0.0)
        lines.append(f"    {role:<{width}} {a:>9.3f} {b:>9.3f} {b - a:>+8.3f}")
    total_a, total_b = sum(single.values()), sum(cluster.values())
    lines.append(f"    {'all':<{width}} {total_a:>9.3f} {total_b:>9.3f} {total_b - total_a:>+8.3f}")
    changes = sorted(((cluster.get(r, 0.0) - single.get(r, 0.0), r) for r in roles), reverse=True)
    added = [f"{role} {change:+.3f}" for change, role in changes if change > 0][:3]
    if added:
        lines.append(f"  the cluster's extra cost goes mostly to: {', '.join(added)}")
    return lines
