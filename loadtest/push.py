"""Scenario "push": a group of 1,000 members, 900 of them away (no socket, a push
subscription), 100 on sockets; one member sends a message every second.

The push service is tests/push_standin.py, run on a thread of this process: it checks each
push's VAPID and decrypts it as a browser would, and notes when it arrived. A push names
its message (the payload's text carries the message's key and send time), so the latency
from the sender's acknowledgement to the push arriving is known per push.

The same scenario then runs on a second, fresh stack with push off, and the two send p99s
are printed side by side. Every message is pushed to every away member: the window that
coalesces a busy chat is set shorter than the gap between messages, the most a message a
second can ask of the push path (the product's 30 s window asks about a thirtieth of it).
"""

import asyncio
import os
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from agora.core.push import PUSH_OS_TYPE_WEB
from loadtest.chat_seed import Seeder
from loadtest.crowd import Crowd, Member, Received, Sends
from loadtest.fanout import agora_roles, open_sockets, percentile
from loadtest.measure import CpuMeter, Window, process
from loadtest.report import cpu_lines, ms, say
from loadtest.stack import Stack, running_stack
from tests.push_standin import PushServiceStandin

MEMBERS = 1_000
AWAY = 900  # no socket, a push subscription each
RATE = 1.0  # messages a second, from one member
# A p99 of a message a second means something only over a hundred sends or more.
SEND_SECONDS = 120
DRAIN_SECONDS = 60  # at most, after the last send, for pushes still on their way
WARM_SECONDS = 30
PROCESSES = 2
REGISTER_THREADS = 8
TARGET_PUSH_P99_MS = 2_000
TARGET_SEND_GROWTH = 1.10
# Roles whose CPU is the server's cost of a push; the stand-in and the senders are not.
PUSH_SERVER_ROLES = ("edge", "user shards", "nx-27017", "redis")

# Loopback http endpoints (the stand-in), and a coalescing window under the gap between
# messages so that each message is pushed.
PUSH_ON = {
    "AGORA_PUSH_ENABLED": "true",
    "AGORA_PUSH_ALLOW_LOOPBACK_ENDPOINTS": "true",
    "AGORA_PUSH_COALESCE_SECONDS": str(0.5 / RATE),
}
PUSH_OFF = {**PUSH_ON, "AGORA_PUSH_ENABLED": "false"}

# The stand-in runs on a thread of the harness's own process.
STANDIN_ROLE = {"push stand-in": process(os.getpid())}

PUSHED_KEY = re.compile(r"lt (\S+) ([0-9.]+)")


class StandinThread:
    """The push service stand-in on an event loop of its own thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.standin = self._run(PushServiceStandin().start())

    def _run(self, work):
        return asyncio.run_coroutine_threadsafe(work, self.loop).result()

    def close(self) -> None:
        self._run(self.standin.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)

    def arrivals(self) -> list[tuple[str, float, float]]:
        """(message key, its send time, when the push arrived) for every push received."""
        return [
            (matched[1], float(matched[2]), push.received_at)
            for subscriber in self.standin.subscribers.values()
            for push in subscriber.pushes
            if (matched := PUSHED_KEY.search(push.payload.get("body", "")))
        ]

    def forget(self) -> None:
        for subscriber in self.standin.subscribers.values():
            subscriber.pushes.clear()

    def count(self) -> int:
        return sum(len(s.pushes) for s in self.standin.subscribers.values())


@contextmanager
def standin_thread():
    started = StandinThread()
    try:
        yield started
    finally:
        started.close()


@dataclass(frozen=True)
class Outcome:
    sends: Sends
    received: Received
    pushes: int
    push_seconds: float  # from the first send to the last push arriving
    push_latencies_ms: list[float]
    refused_pushes: int
    window: Window

    def send_p99(self) -> float | None:
        return percentile([ms for _, _, ms in self.sends.acked], 99)


def subscribe(stack: Stack, standin: StandinThread, auth_keys: list[str]) -> None:
    """Each person (by auth key) subscribed for pushes on the stand-in, as a browser is."""

    def one(auth_key: str) -> None:
        token = standin.standin.subscriber().token()
        stack.call(
            "/update_push_token", {"push_token": token, "os_type": PUSH_OS_TYPE_WEB}, auth_key
        )

    with ThreadPoolExecutor(REGISTER_THREADS) as pool:
        list(pool.map(one, auth_keys))


def _wait_for_pushes(standin: StandinThread, count: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while standin.count() < count and time.monotonic() < deadline:
        time.sleep(0.2)


def _push_latencies(sends: Sends, pushes: list[tuple[str, float, float]]) -> list[float]:
    """From each message's acknowledgement (its send time plus its ack time) to each push
    of it arriving, in ms."""
    ack_seconds = {key: ack_ms / 1000 for key, _, ack_ms in sends.acked}
    return [
        (arrived - sent - ack_seconds[key]) * 1000
        for key, sent, arrived in pushes
        if key in ack_seconds
    ]


def _pids(crowd: Crowd) -> list:
    return [p for pid in crowd.pids for p in process(pid)()]


def _measure(stack: Stack, standin: StandinThread, pushing: bool) -> Outcome:
    started = time.monotonic()
    seeder = Seeder(stack, "push")
    group_id = seeder.group("Push hall")
    people = seeder.people(MEMBERS - 1)
    seeder.join(group_id, people)
    away, present = people[:AWAY], [seeder.owner, *people[AWAY:]]
    subscribe(stack, standin, [p.auth_key for p in away])
    say(
        f"seeded a group of {MEMBERS:,} members and {AWAY} push subscriptions (through the "
        f"API) in {time.monotonic() - started:.1f} s"
    )
    members = [
        Member(p.auth_key, (group_id,), group_id if p is seeder.owner else None) for p in present
    ]
    roles = agora_roles(stack)
    with Crowd(stack.base_url, members, PROCESSES, "/session/send") as crowd:
        open_sockets(crowd, stack.edge_pid, "edge")
        # The first message loads the shards and makes the VAPID key; not measured.
        crowd.send(1, 1, False)
        crowd.wait_for(len(present), WARM_SECONDS)
        crowd.collect()
        if pushing:
            _wait_for_pushes(standin, AWAY, WARM_SECONDS)
        standin.forget()
        meter = CpuMeter({**roles, "load generator": lambda: _pids(crowd), **STANDIN_ROLE})
        meter.start()
        sending_from = time.time()
        sends = crowd.send(SEND_SECONDS, RATE, False)
        crowd.wait_for(len(sends.acked) * len(present), DRAIN_SECONDS)
        if pushing:
            _wait_for_pushes(standin, len(sends.acked) * AWAY, DRAIN_SECONDS)
        received = crowd.collect()
        window = meter.stop()
    arrivals = standin.arrivals()
    last = max((arrived for _, _, arrived in arrivals), default=sending_from)
    return Outcome(
        sends,
        received,
        standin.count(),
        last - sending_from,
        _push_latencies(sends, arrivals),
        len(standin.standin.refused),
        window,
    )


def _socket_p99(outcome: Outcome) -> str:
    return ms(percentile(outcome.received.latencies_ms, 99))


def _lines(outcome: Outcome, sockets: int) -> list[str]:
    s = outcome.sends
    expected = len(s.acked) * sockets
    lines = [
        f"  sent {s.offered} · acked {len(s.acked)} (ack p50 "
        f"{ms(percentile([a for _, _, a in s.acked], 50))} / p99 {ms(outcome.send_p99())} ms)"
        f" · refused {s.refused}",
        f"  socket deliveries {sum(outcome.received.counts.values()):,} of {expected:,}; "
        f"send-to-receive p99 {_socket_p99(outcome)} ms",
    ]
    return lines + cpu_lines(outcome.window)


def _push_lines(outcome: Outcome) -> list[str]:
    expected = len(outcome.sends.acked) * AWAY
    p99 = percentile(outcome.push_latencies_ms, 99)
    rate = outcome.pushes / outcome.push_seconds if outcome.push_seconds else 0.0
    verdict = "within" if p99 is not None and p99 < TARGET_PUSH_P99_MS else "OVER"
    window = outcome.window
    used = sum(window.roles[r].cores for r in PUSH_SERVER_ROLES) * window.seconds
    per_1000 = f"{used / (outcome.pushes / 1000):.2f} CPU-s" if outcome.pushes else "-"
    return [
        f"  pushes delivered to the stand-in: {outcome.pushes:,} of {expected:,} expected, "
        f"{rate:,.0f} pushes/s (first send to last push {outcome.push_seconds:.1f} s); "
        f"{outcome.refused_pushes} refused by its VAPID or decryption checks",
        f"  acknowledgement-to-push p50 {ms(percentile(outcome.push_latencies_ms, 50))} ms, "
        f"p99 {ms(p99)} ms; target: under {TARGET_PUSH_P99_MS:,} ms -> {verdict}",
        f"  server CPU per 1,000 pushes ({' + '.join(PUSH_SERVER_ROLES)}; the messages' own "
        f"work included): {per_1000}",
    ]


def _compare(on: Outcome, off: Outcome) -> None:
    p99_on, p99_off = on.send_p99(), off.send_p99()
    say()
    if not p99_on or not p99_off:
        say("push: no send p99 to compare (no acknowledged sends)")
        return
    ratio = p99_on / p99_off
    say(
        f"push: send p99 with push on / off: {ms(p99_on)} / {ms(p99_off)} ms = {ratio:.2f} "
        f"({len(on.sends.acked)} and {len(off.sends.acked)} sends); target: at most "
        f"{TARGET_SEND_GROWTH:.2f} -> {'within' if ratio <= TARGET_SEND_GROWTH else 'OVER'}"
    )


def run(work: Path, *, profile_edge: bool = False) -> None:
    """Starts its own two stacks, one after the other, so that neither idles beside the
    other's measurement."""
    sockets = MEMBERS - AWAY
    with standin_thread() as standin:
        outcomes = {}
        for label, settings in (("on", PUSH_ON), ("off", PUSH_OFF)):
            say()
            say(
                f"push {label} · {RATE:g} msg/s from one member for {SEND_SECONDS} s to "
                f"{MEMBERS:,} members: {AWAY} away with a subscription, {sockets} on sockets"
                + ("" if label == "on" else " (AGORA_PUSH_ENABLED=false)")
            )
            stack_work = work / f"push-{label}"
            stack_work.mkdir()
            with running_stack(stack_work, settings) as stack:
                outcomes[label] = _measure(stack, standin, pushing=label == "on")
            outcome = outcomes[label]
            pushes = (
                _push_lines(outcome)
                if label == "on"
                else [f"  pushes delivered with push off: {outcome.pushes}"]
            )
            for line in _lines(outcome, sockets) + pushes:
                say(line)
    _compare(outcomes["on"], outcomes["off"])
