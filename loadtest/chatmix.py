"""Scenario "chatmix": 200 item chats (asker and poster) and 20 groups of 5, all talking.

Every member holds a socket joined to their chat and sends with a random (exponential)
think time; the step's total rate doubles until a p99 passes the target. Item chats begin
as the product begins them: the asker's first message, through the API, makes the chat.
"""

import time
from pathlib import Path

from loadtest.chat_seed import Seeder, item_chats_through_api
from loadtest.crowd import Member
from loadtest.fanout import (
    AGORA_SERVER_ROLES,
    PROCESSES,
    STEP_SECONDS,
    TARGET_P99_MS,
    Figures,
    agora_roles,
    open_sockets,
    report_spies,
    server_pids,
    start_spies,
    step,
    step_lines,
)
from loadtest.node_crowd import NodeCrowd
from loadtest.report import ms, say
from loadtest.stack import MONGO_DB, Stack

PAIRS = 200
GROUPS = 20
GROUP_SIZE = 5
RATES = (10, 20, 40, 80, 160, 320, 640, 1280)  # messages a second from everyone together
TARGET_MSGS_PER_S = 1_500


def _messages_stored(stack: Stack) -> int:
    with stack.mongo() as client:
        return client[MONGO_DB].messages.estimated_document_count()


def _lines(figures: Figures, persisted: int) -> list[str]:
    seconds = figures.seconds
    ack_p99 = figures.ack(99) or 0
    acked = len(figures.sends.acked) / seconds
    return [
        f"  persisted {persisted / seconds:.0f} msg/s, acknowledged {acked:.0f} msg/s; target: "
        f"at least {TARGET_MSGS_PER_S:,} msg/s with ack p99 within {TARGET_P99_MS} ms -> "
        + ("within" if acked >= TARGET_MSGS_PER_S and ack_p99 <= TARGET_P99_MS else "not yet"),
        *step_lines(figures),
    ]


def run(stack: Stack, work: Path, *, profile_edge: bool = False) -> None:
    started = time.monotonic()
    seeder = Seeder(stack, "chatmix")
    people = seeder.people(2 * PAIRS + GROUPS * GROUP_SIZE)
    owners, askers, grouped = people[:PAIRS], people[PAIRS : 2 * PAIRS], people[2 * PAIRS :]
    chats = item_chats_through_api(stack, seeder, owners, askers)
    members: list[Member] = []
    listeners: dict[str, int] = {}
    for owner, asker, chat in zip(owners, askers, chats, strict=True):
        members += [Member(owner.auth_key, (chat,), chat), Member(asker.auth_key, (chat,), chat)]
        listeners[chat] = 2
    for g in range(GROUPS):
        five = grouped[g * GROUP_SIZE : (g + 1) * GROUP_SIZE]
        group_id = seeder.group(f"Chatmix club {g}", creator=five[0], public=False)
        seeder.join(group_id, five[1:])
        members += [Member(p.auth_key, (group_id,), group_id) for p in five]
        listeners[group_id] = GROUP_SIZE
    say(
        f"seeded {PAIRS} item chats (posts and first messages through the API) and {GROUPS} "
        f"groups of {GROUP_SIZE} in {time.monotonic() - started:.1f} s"
    )
    roles = agora_roles(stack)
    with NodeCrowd(stack.base_url, members, PROCESSES, "/session/send") as crowd:
        opened, _ = open_sockets(crowd, stack.edge_pid, "edge")
        if opened < len(members):
            say(f"  ! only {opened} of {len(members)} sockets; expected deliveries will not match")
        for rate in RATES:
            per_member = rate / len(members)
            say()
            say(
                f"chatmix · {rate} msg/s from {len(members)} members (think time "
                f"{1 / per_member:.1f} s on average), {STEP_SECONDS} s"
            )
            stored = _messages_stored(stack)
            pids = server_pids(stack, roles) if profile_edge else {}
            spies = start_spies(pids, work / f"chatmix-{rate}")
            figures = step(crowd, roles, AGORA_SERVER_ROLES, listeners, rate, per_member, True)
            for line in _lines(figures, _messages_stored(stack) - stored):
                say(line)
            report_spies(spies)
            p99s = [figures.ack(99), figures.latency(99)]
            if any(p is None or p > TARGET_P99_MS for p in p99s) or figures.losses:
                say(
                    f"  (ack p99 {ms(p99s[0])} ms, send-to-receive p99 {ms(p99s[1])} ms: "
                    f"past {TARGET_P99_MS} ms or lost messages, the ramp stops here)"
                )
                break
