"""Scenario "sends": persisted, acknowledged sends in 40 item chats, beside a naive server.

Both sides of 40 item chats hold a socket joined to their chat and send with random
(exponential) think times at a stepped total rate, over HTTP (`/session/send`) and as the
socket `send` event. A naive server (loadtest/naive.py: aiohttp, one `insert_one` per
message into the same nx-27017, no sockets) takes the same HTTP load. The three climb the
rates together: each rate is sent over HTTP, over the socket and to the naive server one
after the other (`climb`). A step counts when its acknowledgement p99 is within 250 ms,
nothing was refused or left unsent, and every acknowledged message is read back from
MongoDB exactly once. Agora's ceilings are printed as ratios to the naive server's. The load
generator is Node (loadtest/node/crowd.mjs).
"""

import sys
import time
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from agora.core.clock import now_ms
from agora.embedded import mongo_address
from loadtest.chat_seed import Seeder, item_chats_through_api
from loadtest.crowd import Member
from loadtest.fanout import (
    DRAIN_SECONDS,
    MISSES_TO_STOP,
    TARGET_P99_MS,
    Ceiling,
    Figures,
    agora_roles,
    expected_deliveries,
    report_spies,
    start_baseline,
    start_spies,
    step,
    step_lines,
    stops,
)
from loadtest.measure import Finder, listening_on, process
from loadtest.naive import COLLECTION
from loadtest.node_crowd import NodeCrowd
from loadtest.relay import SEND_PATH
from loadtest.report import TARGETS, TargetRow, load_now, ms, say
from loadtest.stack import MONGO_DB, Stack

CHATS = 40
# msg/s from everyone; steps of a sixth or less near the ceilings, which on these machines fell
# anywhere from 800 to 3,200.
RATES = (100, 200, 400, 800, 1000, 1200, 1400, 1600, 2000, 2400, 2800, 3200, 3600, 4000, 4800)
STEP_SECONDS = 8
# Unmeasured sends at the step's rate before it: the side whose turn it is finds its processes
# (and nx-27017's cache of its collection) as warm as the side that ran just before it.
WARM_UP_SECONDS = 2
PROCESSES = 2
TARGET_NAIVE_SHARE = 1.0
# A message's stored `created_at` is the server's clock; the window read back starts a
# little before the step so that no clock step hides a stored message.
READ_BACK_SLACK_MS = 2_000


@dataclass(frozen=True)
class ReadBack:
    acked: int
    lost: int  # acknowledged, not stored
    duplicated: int  # acknowledged, stored more than once

    @property
    def exact(self) -> bool:
        return not self.lost and not self.duplicated


def read_back(stack: Stack, collection: str, chats: list[str], since_ms: int, figures: Figures):
    """Each acknowledged message of the step, looked up in MongoDB by its local id."""
    query = {"dest_session_id": {"$in": chats}, "created_at": {"$gte": since_ms}}
    with stack.mongo() as client:
        found = Counter(
            doc.get("local_id") for doc in client[MONGO_DB][collection].find(query, {"local_id": 1})
        )
    keys = [key for key, _, _ in figures.sends.acked]
    return ReadBack(
        len(keys), sum(1 for k in keys if not found[k]), sum(1 for k in keys if found[k] > 1)
    )


def per_message_line(figures: Figures) -> str:
    """CPU milliseconds per acknowledged message, by process role."""
    acked = len(figures.sends.acked)
    if not acked:
        return "  CPU per message: -"
    window = figures.window
    parts = [
        f"{role} {usage.cores * window.seconds * 1000 / acked:.2f}"
        for role, usage in window.roles.items()
    ]
    total = sum(u.cores for u in window.roles.values()) * window.seconds * 1000 / acked
    return f"  CPU-ms per acknowledged message: {' · '.join(parts)} · all {total:.2f}"


@dataclass
class Ramp:
    """One side's steps up the rates (Agora over HTTP or the socket, or the naive server):
    its best step within the target so far, and how many steps in a row missed it."""

    label: str
    crowd: NodeCrowd
    via: str
    roles: dict[str, Finder]
    listeners: int
    collection: str
    spy_pids: dict[str, int]
    best: Ceiling | None = None
    misses: int = 0

    @property
    def done(self) -> bool:
        return self.misses == MISSES_TO_STOP

    def _warm_up(self, per_sender: float, listeners: dict[str, int]) -> None:
        """Sends that are not measured, and their deliveries, drained before the step."""
        sends = self.crowd.send(WARM_UP_SECONDS, per_sender, True)
        self.crowd.wait_for(expected_deliveries(sends, listeners), DRAIN_SECONDS)
        self.crowd.collect()

    def step(self, rate: int, stack: Stack, chats: list[str], work: Path) -> None:
        senders = 2 * CHATS
        say()
        say(
            f"{self.label} · {rate} msg/s from {senders} senders in {CHATS} chats, {STEP_SECONDS} s"
        )
        self.crowd.via = self.via
        listeners = dict.fromkeys(chats, self.listeners)
        self._warm_up(rate / senders, listeners)
        spies = start_spies(self.spy_pids, work / f"{self.label}-{rate}", STEP_SECONDS)
        since = now_ms() - READ_BACK_SLACK_MS
        figures = step(
            self.crowd,
            self.roles,
            (),
            listeners,
            rate,
            rate / senders,
            True,
            STEP_SECONDS,
        )
        back = read_back(stack, self.collection, chats, since, figures)
        acked_per_s = back.acked / figures.seconds
        say(
            f"  acknowledged {acked_per_s:.0f} msg/s, ack p50 {ms(figures.ack(50))} / p99 "
            f"{ms(figures.ack(99))} ms · read back: {back.lost} of {back.acked} acknowledged "
            f"missing, {back.duplicated} stored twice"
        )
        for line in step_lines(figures)[:2] if self.listeners else []:
            say(line)
        say(per_message_line(figures))
        for line in step_lines(figures)[3:]:
            say(line)
        report_spies(spies)
        ack_p99 = figures.ack(99)
        within = (
            ack_p99 is not None
            and ack_p99 <= TARGET_P99_MS
            and back.exact
            and not figures.sends.refused
            and not figures.sends.backlogged
        )
        self.misses = 0 if within else self.misses + 1
        if within:
            self.best = Ceiling(acked_per_s, ack_p99, rate)
        else:
            say(
                f"  (ack p99 over {TARGET_P99_MS} ms, a send refused or a message not read back "
                f"exactly once: {stops(self.misses)})"
            )


def climb(ramps: list[Ramp], stack: Stack, chats: list[str], work: Path) -> None:
    """Every ramp takes each rate in turn, so that Agora and the naive server meet the same
    machine: a shared machine's speed drifts between minutes by more than a code change
    moves a ceiling. The order turns with each rate, so that no side always follows the
    same one."""
    for turn, rate in enumerate(RATES):
        climbing = [r for r in ramps if not r.done]
        if not climbing:
            return
        shift = turn % len(climbing)
        for ramp in climbing[shift:] + climbing[:shift]:
            ramp.step(rate, stack, chats, work)


def _agora_roles(stack: Stack) -> dict[str, Finder]:
    """Agora's roles with each session shard on its own."""
    roles = agora_roles(stack)
    shards = roles.pop("session shards")()
    for n, shard in enumerate(sorted(shards, key=lambda p: p.pid)):
        roles[f"shard {n}"] = process(shard.pid)
    return roles


def _ceiling_line(label: str, ceiling: Ceiling | None) -> str:
    if ceiling is None:
        return f"{label}: no step met the target"
    return (
        f"{label}: {ceiling.deliveries_per_s:,.0f} acknowledged msg/s at ack p99 "
        f"{ms(ceiling.p99_ms)} ms, every one read back once ({ceiling.rate} msg/s offered)"
    )


def run(stack: Stack, work: Path, *, profile_edge: bool = False) -> None:
    started = time.monotonic()
    seeder = Seeder(stack, "sends")
    people = seeder.people(2 * CHATS)
    owners, askers = people[:CHATS], people[CHATS:]
    chats = item_chats_through_api(stack, seeder, owners, askers)
    members = [
        Member(person.auth_key, (chat,), chat)
        for owner, asker, chat in zip(owners, askers, chats, strict=True)
        for person in (owner, asker)
    ]
    say(f"seeded {CHATS} item chats through the API in {time.monotonic() - started:.1f} s")
    roles = _agora_roles(stack)
    spy_pids = (
        {"edge": stack.edge.pid} | {r: roles[r]()[0].pid for r in roles if r.startswith("shard")}
        if profile_edge
        else {}
    )
    with ExitStack() as stop:
        command = [sys.executable, "-m", "loadtest.naive", stack.mongo_url, MONGO_DB]
        naive, base_url = start_baseline(command, "naive", work, stop)
        say(f"naive: aiohttp, one insert_one per message into the same nx-27017, at {base_url}")
        agora = stop.enter_context(NodeCrowd(stack.base_url, members, PROCESSES, SEND_PATH))
        opened, failures = agora.open()
        say(f"  {opened} sockets joined their chats ({len(failures)} failed)")
        bare = [Member("naive", (), chat) for chat in chats for _ in range(2)]
        naive_crowd = stop.enter_context(
            NodeCrowd(base_url, bare, PROCESSES, SEND_PATH, sockets=False)
        )
        naive_roles = {
            "naive server": process(naive.pid),
            "nx-27017": listening_on(mongo_address(stack.mongo_url)[1]),
        }
        ramps = [
            Ramp(f"sends over {via}", agora, via, roles, 2, "messages", spy_pids)
            for via in ("http", "socket")
        ]
        naive_ramp = Ramp("naive sends", naive_crowd, "http", naive_roles, 0, COLLECTION, {})
        load = load_now()
        climb([*ramps, naive_ramp], stack, chats, work)
    say()
    for ramp in ramps:
        say(_ceiling_line(f"Agora over {ramp.via}", ramp.best))
    say(_ceiling_line("naive server", naive_ramp.best))
    for ramp in ramps:
        TARGETS.append(
            TargetRow(
                f"1. persisted sends ({ramp.via})",
                _held(ramp),
                "naive",
                _held(naive_ramp),
                TARGET_NAIVE_SHARE,
                "msg/s offered, each acknowledged at p99 <= 250 ms and read back once",
                (load, load),
            )
        )


def _held(ramp: Ramp) -> float:
    """The highest rate the side held. Two sides that held the same rate tie: the messages
    they acknowledged differ only by the generator's random draw of send times."""
    return float(ramp.best.rate) if ramp.best else 0.0
