"""`make bench`: load scenarios against a fresh, real stack. Prints figures; asserts no time.

    python -m loadtest.bench [SCENARIO ...] [--profile] [--keep]

Each scenario gets its own stack (MongoDB-wire server, Redis prefix, edge with its Ray) so
that one scenario's data and caches never colour another's figures. The exit status is
non-zero only when the harness itself fails, never because a figure looks bad.
"""

import argparse
import platform
import shutil
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path

import psutil

from loadtest import ceiling, chatmix, cluster, fanout, feed, idle, offers, push, sends, whatsapp
from loadtest.node_crowd import NodeLoadError, check_installed
from loadtest.report import say, target_table
from loadtest.stack import Stack, running_stack

# name -> (what it loads, how to run it).
SCENARIOS: dict[str, tuple[str, Callable[..., None]]] = {
    "feed": (
        "10,000 posts in one group; readers open, scroll, search and filter the feed",
        feed.run,
    ),
    "sends": (
        "item chats, recipients online and away, sending over HTTP and the socket on the stack "
        "`make run` starts, rate by rate beside a naive server",
        sends.run,
    ),
    "fanout": (
        "one group of 1,000 members on sockets; a few senders at a stepped rate",
        fanout.run,
    ),
    "relay": (
        "the same fan-out through a bare python-socketio relay, compared with fanout",
        fanout.run_relay,
    ),
    "noderelay": (
        "the same fan-out through a bare Node socket.io relay, compared with fanout",
        fanout.run_node_relay,
    ),
    "idle": (
        "5,000 signed-in sockets doing nothing: the edge's memory per connection",
        idle.run,
    ),
    "chatmix": (
        "200 item chats and 20 groups of 5, sending with think time, ramped",
        chatmix.run,
    ),
    "offers": (
        "1,000 wallets; owners give offers in item chats over HTTP, then the engine alone",
        offers.run,
    ),
    "push": (
        "a group of 1,000, 900 away with push subscriptions; a message a second, push on/off",
        push.run,
    ),
    "whatsapp": (
        "signed WhatsApp webhooks at stepped rates, customers in bursts, 10% delivered again",
        whatsapp.run,
    ),
    "ceiling": (
        "people as docs/load-model.md models them, more at each step until one is slow",
        ceiling.run,
    ),
    "cluster": (
        "fan-out and sends through two edges behind HAProxy and two Ray nodes, beside one "
        "edge and one node, rate by rate",
        cluster.run,
    ),
}
# Scenarios that start their own stacks (to compare settings); they are given none.
OWN_STACKS = {"push", "whatsapp", "ceiling", "sends", "cluster"}

EDGE_LOG_TAIL = 40


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    listing = "\n".join(f"  {name:<8} {about}" for name, (about, _) in SCENARIOS.items())
    parser = argparse.ArgumentParser(
        prog="python -m loadtest.bench",
        description="Load scenarios against a fresh local stack; prints figures.",
        epilog=f"scenarios (default: all):\n{listing}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("scenarios", nargs="*", metavar="SCENARIO")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="sample the edge (ceiling: and nx-27017) with py-spy in each step; it slows them",
    )
    parser.add_argument("--keep", action="store_true", help="keep logs and locust CSV files")
    parser.add_argument(
        "--steps",
        type=_steps,
        default=ceiling.STEPS,
        help="ceiling: present people at each step, comma-separated (default %(default)s)",
    )
    parser.add_argument(
        "--hold",
        type=int,
        default=ceiling.HOLD_SECONDS,
        help="ceiling: seconds each step is held (default %(default)s)",
    )
    parser.add_argument(
        "--no-floor",
        dest="floor",
        action="store_false",
        help="ceiling: skip the floors (the naive server's ramps after Agora's)",
    )
    args = parser.parse_args(argv)
    unknown = [name for name in args.scenarios if name not in SCENARIOS]
    if unknown:
        parser.error(f"unknown scenario {', '.join(unknown)}; choose from {', '.join(SCENARIOS)}")
    args.scenarios = args.scenarios or list(SCENARIOS)
    return args


def _steps(text: str) -> tuple[int, ...]:
    try:
        steps = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("steps are whole numbers, e.g. 20,50") from None
    if not steps or min(steps) < 1 or list(steps) != sorted(steps):
        raise argparse.ArgumentTypeError("steps are rising whole numbers of people, e.g. 20,50")
    return steps


def _machine_line() -> str:
    cores = psutil.cpu_count() or 1
    return (
        f"machine: {cores} cores, {psutil.virtual_memory().total / 1e9:.0f} GB, "
        f"Python {platform.python_version()}, locust {version('locust')}; the load generator, "
        f"the edge, its Ray, nx-27017 and Redis all share these {cores} cores"
    )


def _edge_log_tail(stack: Stack | None) -> None:
    if stack is None or not stack.edge_log.exists():
        return
    lines = stack.edge_log.read_text(errors="replace").splitlines()[-EDGE_LOG_TAIL:]
    sys.stderr.write("---- edge log (last lines) ----\n" + "\n".join(lines) + "\n")


def run_scenario(name: str, keep: bool, profile_edge: bool, **options) -> None:
    """`options`: the scenario's own (the ceiling's steps and hold)."""
    work = Path(tempfile.mkdtemp(prefix=f"agora-bench-{name}-"))
    stack: Stack | None = None
    started = time.monotonic()
    try:
        say(f"\n=== {name}: {SCENARIOS[name][0]}")
        if name in OWN_STACKS:
            SCENARIOS[name][1](work, profile_edge=profile_edge, **options)
        else:
            with running_stack(work) as stack:
                say(f"stack up in {time.monotonic() - started:.1f} s: edge {stack.base_url}")
                SCENARIOS[name][1](stack, work, profile_edge=profile_edge)
    except BaseException:
        _edge_log_tail(stack)
        say(f"work files kept in {work}")
        raise
    say(f"=== {name} done in {time.monotonic() - started:.0f} s")
    if keep:
        say(f"logs and CSV files in {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    try:
        # Every scenario's sockets are the Node crowd's: without it a run would print steps
        # with no deliveries, as if nobody listened.
        check_installed()
    except NodeLoadError as missing:
        say(f"refused: {missing}")
        return 2
    say(_machine_line())
    for name in args.scenarios:
        try:
            options = (
                {"steps": args.steps, "hold": args.hold, "floor": args.floor}
                if name == "ceiling"
                else {}
            )
            run_scenario(name, args.keep, args.profile, **options)
        except Exception:
            traceback.print_exc()
            say(f"the harness failed in scenario {name}")
            return 1
    for line in target_table():
        say(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
