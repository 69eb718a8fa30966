"""Scenario "sends": persisted, acknowledged sends in item chats, recipients online and away,
beside a naive server, on the stack `make run` starts.

The stack is `python -m agora run` (loadtest/stack.py, `as_make_run`): a Ray head of its own
with its dashboard and metrics on, an edge joined to it, push on with the VAPID key pair it
makes on its first start. The push service is the stand-in tests/push_standin.py, on a thread
of the harness, checking and decrypting every push as a browser's push service would; the
edge is allowed to push to its loopback address (the one setting `make run` does not have).

Two cases of 40 item chats each (made through the API: a post each, the asker's first
message):
- online: both members of each chat hold a socket joined to it and both send;
- away: the post's owner holds a socket joined to the chat and sends; the asker holds none
  and is subscribed for pushes, so every message is counted unseen for them and goes through
  the push decision (the common case). Pushes are coalesced per person and chat over the
  product's 30 s, so about one a chat and window reaches the stand-in; each step prints how
  many did.

The senders send with random (exponential) think times at a stepped total rate, over HTTP
(`/session/send`) and as the socket `send` event. A naive server (loadtest/naive.py: aiohttp,
one `insert_one` per message into the same nx-27017, no sockets) takes the same HTTP load.
The five ramps (each case over HTTP and over the socket, and the naive server) climb the same
rates together: each rate is sent by each ramp in turn (`climb`). A step counts when its
acknowledgement p99 is within 250 ms, nothing was refused or left unsent, and every
acknowledged message is read back from MongoDB exactly once; a ramp stops after two steps
in a row that miss, so the away ramps, whose ceilings are lower, end early and add little to
the run's time. Agora's ceilings in both cases are printed as ratios to the naive server's,
the target being 1.5x in both. The load generator is Node (loadtest/node/crowd.mjs).
"""

import os
import sys
import time
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple
from urllib.request import urlopen

from agora.core.clock import now_ms
from agora.launch.embedded import mongo_address
from loadtest.chat_seed import Person, Seeder, item_chats_through_api
from loadtest.crowd import Member
from loadtest.fanout import (
    DRAIN_SECONDS,
    TARGET_P99_MS,
    Ceiling,
    Climber,
    Figures,
    agora_roles,
    climb,
    expected_deliveries,
    report_spies,
    start_baseline,
    start_spies,
    step,
    step_lines,
)
from loadtest.measure import Finder, listening_on, process
from loadtest.naive import COLLECTION
from loadtest.node_crowd import NodeCrowd
from loadtest.push import StandinThread, standin_thread, subscribe
from loadtest.relay import SEND_PATH
from loadtest.report import TARGETS, TargetRow, load_now, ms, say
from loadtest.stack import MONGO_DB, Stack, running_stack

CHATS = 40  # in each case
# msg/s from everyone; steps of a sixth or less near the ceilings, which on these machines fell
# anywhere from 800 to 3,200.
RATES = (100, 200, 400, 800, 1000, 1200, 1400, 1600, 2000, 2400, 2800, 3200, 3600, 4000, 4800)
STEP_SECONDS = 8
# Unmeasured sends at the step's rate before it: the side whose turn it is finds its processes
# (and nx-27017's cache of its collection) as warm as the side that ran just before it.
WARM_UP_SECONDS = 2
PROCESSES = 2  # Node generator processes of each crowd
VIAS = ("http", "socket")
TARGET_NAIVE_SHARE = 1.5
# The push service stand-in listens on a loopback address; the rest is as `make run` has it.
SETTINGS = {"AGORA_PUSH_ALLOW_LOOPBACK_ENDPOINTS": "true"}
# The push stand-in runs on a thread of the harness's own process.
HARNESS_ROLE = "push stand-in (harness)"
# The shards' count of stored messages, one sample per Ray worker (docs/operations.md).
STORED_SAMPLE = "ray_agora_messages_total{"
STORED_OUTCOME = 'outcome="stored"'
METRICS_TIMEOUT_SECONDS = 10
# A message's stored `created_at` is the server's clock; the window read back starts a
# little before the step so that no clock step hides a stored message.
READ_BACK_SLACK_MS = 2_000


class ItemChat(NamedTuple):
    owner: Person  # the post's
    asker: Person
    session_id: str


@dataclass(frozen=True)
class Case:
    """Who of each item chat is on a socket. Online: both members, both sending. Away: the
    post's owner, sending; the asker holds no socket (and is subscribed for pushes)."""

    name: str
    askers_away: bool

    @property
    def listeners(self) -> int:
        """Sockets that hear each message of a chat: both members', or the sender's own."""
        return 1 if self.askers_away else 2

    def members(self, chats: list[ItemChat]) -> list[Member]:
        """The crowd of the case: each member on a socket joined to their chat, sending to it."""
        return [
            Member(person.auth_key, (chat.session_id,), chat.session_id)
            for chat in chats
            for person in ((chat.owner,) if self.askers_away else (chat.owner, chat.asker))
        ]


ONLINE = Case("online", askers_away=False)
AWAY = Case("away", askers_away=True)
CASES = (ONLINE, AWAY)


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
class Ramp(Climber):
    """One side's steps up the rates: Agora in one case over HTTP or the socket, or the naive
    server."""

    label: str
    stack: Stack  # the one sent to (the naive server's: the store read back)
    work: Path
    crowd: NodeCrowd
    via: str
    roles: dict[str, Finder]
    chats: list[str]
    senders: int
    listeners: int  # sockets that hear each message of a chat
    collection: str
    spy_pids: dict[str, int]
    standin: StandinThread | None = None  # the away askers' push service

    def _warm_up(self, per_sender: float, listeners: dict[str, int]) -> None:
        """Sends that are not measured, and their deliveries, drained before the step."""
        sends = self.crowd.send(WARM_UP_SECONDS, per_sender, True)
        self.crowd.wait_for(expected_deliveries(sends, listeners), DRAIN_SECONDS)
        self.crowd.collect()

    def step(self, rate: float) -> None:
        say()
        say(
            f"{self.label} · {rate} msg/s from {self.senders} senders in {len(self.chats)} "
            f"chats, {STEP_SECONDS} s"
        )
        self.crowd.via = self.via
        listeners = dict.fromkeys(self.chats, self.listeners)
        self._warm_up(rate / self.senders, listeners)
        pushes_before = self.standin.count() if self.standin else 0
        spies = start_spies(self.spy_pids, self.work / f"{self.label}-{rate}", STEP_SECONDS)
        since = now_ms() - READ_BACK_SLACK_MS
        figures = step(
            self.crowd,
            self.roles,
            (),
            listeners,
            rate,
            rate / self.senders,
            True,
            STEP_SECONDS,
        )
        back = read_back(self.stack, self.collection, self.chats, since, figures)
        acked_per_s = back.acked / figures.seconds
        say(
            f"  acknowledged {acked_per_s:.0f} msg/s, ack p50 {ms(figures.ack(50))} / p99 "
            f"{ms(figures.ack(99))} ms · read back: {back.lost} of {back.acked} acknowledged "
            f"missing, {back.duplicated} stored twice"
        )
        for line in step_lines(figures)[:2] if self.listeners else []:
            say(line)
        if self.standin:
            pushes = self.standin.count()
            say(
                f"  pushes to the away askers (coalesced per chat over the product's window): "
                f"{pushes - pushes_before} during the step, {pushes} in all, "
                f"{len(self.standin.standin.refused)} refused by the stand-in's checks"
            )
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
        self.judge(
            figures,
            within,
            Ceiling(acked_per_s, ack_p99, rate),
            f"ack p99 over {TARGET_P99_MS} ms, a send refused or a message not read back "
            "exactly once",
        )


def roles_by_shard(stack: Stack) -> dict[str, Finder]:
    """Agora's roles with each session shard on its own."""
    roles = agora_roles(stack)
    shards = roles.pop("session shards")()
    for n, shard in enumerate(sorted(shards, key=lambda p: p.pid)):
        roles[f"shard {n}"] = process(shard.pid)
    return roles


def ceiling_line(label: str, ceiling: Ceiling | None) -> str:
    if ceiling is None:
        return f"{label}: no step met the target"
    return (
        f"{label}: {ceiling.deliveries_per_s:,.0f} acknowledged msg/s at ack p99 "
        f"{ms(ceiling.p99_ms)} ms, every one read back once ({ceiling.rate} msg/s offered)"
    )


def stored_in_metrics(text: str) -> int:
    """Messages stored, summed over the samples of Ray's metrics in Prometheus text."""
    return summed_in_metrics(text, STORED_SAMPLE, STORED_OUTCOME)


def summed_in_metrics(text: str, sample: str, label: str = "") -> int:
    """A series summed over its samples (one per Ray worker) in Prometheus text."""
    return round(
        sum(
            float(line.rsplit(" ", 1)[1])
            for line in text.splitlines()
            if line.startswith(sample) and label in line
        )
    )


def _seed(stack: Stack, case: Case) -> list[ItemChat]:
    seeder = Seeder(stack, f"sends-{case.name}")
    people = seeder.people(2 * CHATS)
    owners, askers = people[:CHATS], people[CHATS:]
    sessions = item_chats_through_api(stack, seeder, owners, askers)
    return [ItemChat(*chat) for chat in zip(owners, askers, sessions, strict=True)]


def seed_cases(stack: Stack, standin: StandinThread) -> dict[Case, list[ItemChat]]:
    """Each case's item chats, the away askers subscribed for pushes on the stand-in."""
    started = time.monotonic()
    chats = {case: _seed(stack, case) for case in CASES}
    subscribe(stack, standin, [chat.asker.auth_key for chat in chats[AWAY]])
    say(
        f"seeded {CHATS} item chats for each case through the API and subscribed the away "
        f"askers for pushes in {time.monotonic() - started:.1f} s"
    )
    return chats


def case_ramps(
    label: str,
    stack: Stack,
    work: Path,
    chats: dict[Case, list[ItemChat]],
    vias: tuple[str, ...],
    roles: dict[str, Finder],
    spy_pids: dict[str, int],
    standin: StandinThread,
    stop: ExitStack,
) -> list[Ramp]:
    """A ramp for each case over each way of sending, each case's members on their sockets
    (held until `stop` closes); `label` names the deployment sent to, if any."""
    ramps = []
    for case in CASES:
        members = case.members(chats[case])
        crowd = stop.enter_context(NodeCrowd(stack.base_url, members, PROCESSES, SEND_PATH))
        opened, failures = crowd.open()
        say(f"  {label}{case.name}: {opened} sockets joined their chats ({len(failures)} failed)")
        ramps += [
            Ramp(
                f"{label}{case.name} sends over {via}",
                stack,
                work,
                crowd,
                via,
                roles,
                [chat.session_id for chat in chats[case]],
                len(members),
                case.listeners,
                "messages",
                spy_pids,
                standin if case.askers_away else None,
            )
            for via in vias
        ]
    return ramps


def run(work: Path, *, profile_edge: bool = False) -> None:
    """Starts its own stack, as `make run` starts it, beside the away askers' push service."""
    with ExitStack() as stop:
        standin = stop.enter_context(standin_thread())
        started = time.monotonic()
        stack = stop.enter_context(running_stack(work, SETTINGS, as_make_run=True))
        say(
            f"stack up as `make run` starts it in {time.monotonic() - started:.1f} s: edge "
            f"{stack.base_url}, its own Ray head with the dashboard at {stack.dashboard_url} "
            f"and metrics at {stack.metrics_url}"
        )
        chats = seed_cases(stack, standin)
        roles = roles_by_shard(stack) | {HARNESS_ROLE: process(os.getpid())}
        spy_pids = (
            {"edge": stack.edge_pid}
            | {r: roles[r]()[0].pid for r in roles if r.startswith("shard")}
            if profile_edge
            else {}
        )
        command = [sys.executable, "-m", "loadtest.naive", stack.mongo_url, MONGO_DB]
        naive, base_url = start_baseline(command, "naive", work, stop)
        say(f"naive: aiohttp, one insert_one per message into the same nx-27017, at {base_url}")
        ramps = case_ramps("", stack, work, chats, VIAS, roles, spy_pids, standin, stop)
        online = [chat.session_id for chat in chats[ONLINE]]
        bare = [Member("naive", (), chat) for chat in online for _ in range(2)]
        naive_crowd = stop.enter_context(
            NodeCrowd(base_url, bare, PROCESSES, SEND_PATH, sockets=False)
        )
        naive_roles = {
            "naive server": process(naive.pid),
            "nx-27017": listening_on(mongo_address(stack.mongo_url)[1]),
        }
        naive_ramp = Ramp(
            "naive sends",
            stack,
            work,
            naive_crowd,
            "http",
            naive_roles,
            online,
            len(bare),
            0,
            COLLECTION,
            {},
        )
        load = load_now()
        climb([*ramps, naive_ramp], RATES)
        pushes, refused = standin.count(), len(standin.standin.refused)
        with urlopen(stack.metrics_url, timeout=METRICS_TIMEOUT_SECONDS) as reply:
            stored = stored_in_metrics(reply.read().decode())
    say()
    for ramp in ramps:
        say(ceiling_line(f"Agora, {ramp.label}", ramp.best))
    say(ceiling_line("naive server", naive_ramp.best))
    say(f"pushes the away askers' push service received: {pushes:,} ({refused} refused)")
    say(f"messages stored by the shards as Ray's metrics counted them: {stored:,}")
    for ramp in ramps:
        TARGETS.append(
            TargetRow(
                f"1. {ramp.label}",
                held_rate(ramp),
                "naive",
                held_rate(naive_ramp),
                TARGET_NAIVE_SHARE,
                "msg/s offered, each acknowledged at p99 <= 250 ms and read back once",
                (load, load),
            )
        )


def held_rate(ramp: Ramp) -> float:
    """The highest rate the side held. Two sides that held the same rate tie: the messages
    they acknowledged differ only by the generator's random draw of send times."""
    return float(ramp.best.rate) if ramp.best else 0.0
