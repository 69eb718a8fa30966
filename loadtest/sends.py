"""Scenario "sends": persisted, acknowledged sends in 40 item chats, beside a naive server.

Both sides of 40 item chats hold a socket joined to their chat and send with random
(exponential) think times at a stepped total rate, first over HTTP (`/session/send`), then
as the socket `send` event. A step counts when its acknowledgement p99 is within 250 ms,
nothing was refused or left unsent, and every acknowledged message is read back from
MongoDB exactly once. Then a naive server (loadtest/naive.py: aiohttp, one `insert_one` per
message into the same nx-27017, no sockets) takes the same HTTP load, and Agora's ceilings
are printed as ratios to its ceiling. The load generator is Node (loadtest/node/crowd.mjs).
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
    MISSES_TO_STOP,
    TARGET_P99_MS,
    Ceiling,
    Figures,
    agora_roles,
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


def ramp(
    label: str,
    crowd: NodeCrowd,
    stack: Stack,
    roles: dict[str, Finder],
    chats: list[str],
    listeners: int,
    collection: str,
    spy_pids: dict[str, int],
    work: Path,
) -> Ceiling | None:
    senders = 2 * CHATS
    best: Ceiling | None = None
    misses = 0
    for rate in RATES:
        say()
        say(f"{label} · {rate} msg/s from {senders} senders in {CHATS} chats, {STEP_SECONDS} s")
        spies = start_spies(spy_pids, work / f"{label}-{rate}", STEP_SECONDS)
        since = now_ms() - READ_BACK_SLACK_MS
        per_sender = rate / senders
        figures = step(
            crowd, roles, (), dict.fromkeys(chats, listeners), rate, per_sender, True, STEP_SECONDS
        )
        back = read_back(stack, collection, chats, since, figures)
        acked_per_s = back.acked / figures.seconds
        say(
            f"  acknowledged {acked_per_s:.0f} msg/s, ack p50 {ms(figures.ack(50))} / p99 "
            f"{ms(figures.ack(99))} ms · read back: {back.lost} of {back.acked} acknowledged "
            f"missing, {back.duplicated} stored twice"
        )
        for line in step_lines(figures)[:2] if listeners else []:
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
        misses = 0 if within else misses + 1
        if within:
            best = Ceiling(acked_per_s, ack_p99, rate)
        else:
            say(
                f"  (ack p99 over {TARGET_P99_MS} ms, a send refused or a message not read back "
                f"exactly once: {stops(misses)})"
            )
        if misses == MISSES_TO_STOP:
            break
    return best


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
    results: dict[str, tuple[Ceiling | None, float]] = {}
    with NodeCrowd(stack.base_url, members, PROCESSES, "/session/send") as crowd:
        opened, failures = crowd.open()
        say(f"  {opened} sockets joined their chats ({len(failures)} failed)")
        for via in ("http", "socket"):
            crowd.via = via
            load = load_now()
            label = f"sends over {via}"
            results[via] = (
                ramp(label, crowd, stack, roles, chats, 2, "messages", spy_pids, work),
                load,
            )
    with ExitStack() as stop:
        command = [sys.executable, "-m", "loadtest.naive", stack.mongo_url, MONGO_DB]
        naive, base_url = start_baseline(command, "naive", work, stop)
        say()
        say(f"naive: aiohttp, one insert_one per message into the same nx-27017, at {base_url}")
        naive_roles = {
            "naive server": process(naive.pid),
            "nx-27017": listening_on(mongo_address(stack.mongo_url)[1]),
        }
        load = load_now()
        bare = [Member("naive", (), chat) for chat in chats for _ in range(2)]
        with NodeCrowd(base_url, bare, PROCESSES, SEND_PATH, sockets=False) as crowd:
            naive_result = ramp(
                "naive sends", crowd, stack, naive_roles, chats, 0, COLLECTION, {}, work
            )
    say()
    for via, (ceiling, _) in results.items():
        say(_ceiling_line(f"Agora over {via}", ceiling))
    say(_ceiling_line("naive server", naive_result))
    baseline = naive_result.deliveries_per_s if naive_result else 0.0
    for via, (ceiling, agora_load) in results.items():
        TARGETS.append(
            TargetRow(
                f"1. persisted sends ({via})",
                ceiling.deliveries_per_s if ceiling else 0.0,
                "naive",
                baseline,
                TARGET_NAIVE_SHARE,
                "acknowledged msg/s at p99 <= 250 ms, read back once",
                (agora_load, load),
            )
        )
