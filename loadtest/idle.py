"""Scenario "idle": 5,000 signed-in sockets, members of one group, doing nothing.

Each socket authenticates, enters its user's room, its login's and its group's, as the web
app's do; the edge's RSS growth over the sockets opened is its memory per idle connection.
"""

import time
from pathlib import Path

from loadtest.chat_seed import Seeder
from loadtest.crowd import Member
from loadtest.fanout import TARGET_KIB_PER_SOCKET, open_sockets
from loadtest.node_crowd import NodeCrowd
from loadtest.report import TARGETS, TargetRow, load_now, say
from loadtest.stack import Stack

SOCKETS = 5_000
PROCESSES = 2


def run(stack: Stack, work: Path, *, profile_edge: bool = False) -> None:
    started = time.monotonic()
    seeder = Seeder(stack, "idle")
    group_id = seeder.group("Idle hall")
    people = seeder.people(SOCKETS - 1)
    seeder.join(group_id, people)
    say(f"seeded {SOCKETS:,} members of one group in {time.monotonic() - started:.1f} s")
    # No joins: connecting enters the rooms of the user, the login and followed chats.
    members = [Member(p.auth_key, ()) for p in [seeder.owner, *people]]
    load = load_now()
    with NodeCrowd(stack.base_url, members, PROCESSES, "/session/send") as crowd:
        opened, kib = open_sockets(crowd, stack.edge_pid, "edge")
    TARGETS.append(
        TargetRow(
            "3. idle memory per socket",
            kib,
            "limit",
            TARGET_KIB_PER_SOCKET,
            1.0,
            f"KiB of edge RSS per socket, {opened:,} sockets",
            (load, load),
            at_most=True,
        )
    )
