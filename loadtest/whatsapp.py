"""Scenario "whatsapp": Meta's webhooks of one business number, signed as Meta signs them,
at stepped rates; a few customers write in bursts, and 10% of deliveries come again (half of
those at the same moment as the first). An agent (the group's admin) is on a socket.

Per step: deliveries accepted per second and the webhook's reply p50/p99 (the 200 comes once
the raw body is stored), the time from posting a delivery to its message reaching the
agent's socket, and whether every message arrived once: the agent's socket and MongoDB are
both counted, so a lost or doubled message shows. The Graph API stand-in (tests/) runs in
this process; it is only asked to check the number when the channel is connected.
"""

import asyncio
import contextlib
import random
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import socketio

from agora.core.whatsapp.constants import MESSAGE_TYPE_WA_INBOUND
from loadtest.chat_seed import Seeder
from loadtest.fanout import agora_roles, percentile
from loadtest.measure import CpuMeter, Window
from loadtest.report import cpu_lines, ms, say
from loadtest.stack import MONGO_DB, Stack, running_stack
from tests.whatsapp_signing import contact, encoded, new_wamid, text, webhook
from tests.whatsapp_standin import WhatsAppStandin

RATES = (10, 25, 50, 100)  # deliveries a second
STEP_SECONDS = 8
DRAIN_SECONDS = 20
CUSTOMERS = 12
BURST = (2, 5)  # messages a customer sends in a row
DUPLICATES = 0.10
TARGET_REPLY_P99_MS = 250
APP_SECRET = "bench-app-secret"
SEED = 15


@dataclass
class Step:
    rate: int
    replies_ms: list[float] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    sent_at: dict[str, float] = field(default_factory=dict)  # wamid -> first post time
    arrived: Counter = field(default_factory=Counter)  # wamid -> socket receipts
    latencies_ms: list[float] = field(default_factory=list)
    seconds: float = 0.0
    window: Window | None = None
    sent_all: bool = False
    # Set once every message sent has reached the agent's socket.
    complete: asyncio.Event = field(default_factory=asyncio.Event)

    def check_complete(self) -> None:
        if self.sent_all and all(wamid in self.arrived for wamid in self.sent_at):
            self.complete.set()

    def accepted_per_second(self) -> float:
        return self.statuses[200] / self.seconds if self.seconds else 0.0


class Customers:
    """Who writes next: one customer at a time, for a burst of a few messages."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.numbers = [f"1555{7000000 + n}" for n in range(CUSTOMERS)]
        self.current, self.left = self.numbers[0], 0

    def next(self) -> str:
        if self.left == 0:
            self.current, self.left = self.rng.choice(self.numbers), self.rng.randint(*BURST)
        self.left -= 1
        return self.current


class Load:
    def __init__(self, stack: Stack, phone_number_id: str) -> None:
        self.url = f"{stack.base_url}/webhooks/whatsapp"
        self.phone_number_id = phone_number_id
        self.rng = random.Random(SEED)
        self.customers = Customers(self.rng)
        self.step: Step | None = None
        self.http: aiohttp.ClientSession | None = None

    def delivery(self, wa_id: str, wamid: str) -> tuple[bytes, dict[str, str]]:
        body = webhook(
            self.phone_number_id,
            contacts=[contact(wa_id, f"Customer {wa_id[-3:]}")],
            messages=[text(wa_id, f"lt {wamid}", wamid=wamid)],
        )
        return encoded(body, APP_SECRET)

    async def post(self, wamid: str, raw: bytes, headers: dict[str, str]) -> None:
        step = self.step
        started = time.monotonic()
        step.sent_at.setdefault(wamid, started)
        try:
            async with self.http.post(self.url, data=raw, headers=headers) as reply:
                await reply.read()
                step.statuses[reply.status] += 1
        except aiohttp.ClientError:
            step.statuses["unreachable"] += 1
            return
        step.replies_ms.append((time.monotonic() - started) * 1000)

    async def run_step(self, step: Step) -> None:
        self.step = step
        tasks: list[asyncio.Task] = []
        recent: list[tuple[str, bytes, dict[str, str]]] = []
        started = time.monotonic()
        count = step.rate * STEP_SECONDS
        for n in range(count):
            await asyncio.sleep(max(0.0, started + n / step.rate - time.monotonic()))
            if recent and self.rng.random() < DUPLICATES:
                again = self.rng.choice(recent)
                tasks.append(asyncio.create_task(self.post(*again)))
                continue
            wamid = new_wamid()
            raw, headers = self.delivery(self.customers.next(), wamid)
            recent = [*recent[-50:], (wamid, raw, headers)]
            tasks.append(asyncio.create_task(self.post(wamid, raw, headers)))
            if self.rng.random() < DUPLICATES / 2:
                tasks.append(asyncio.create_task(self.post(wamid, raw, headers)))
        await asyncio.gather(*tasks)
        step.seconds = time.monotonic() - started
        step.sent_all = True
        step.check_complete()


async def agent_socket(stack: Stack, key: str, load: Load) -> socketio.AsyncClient:
    sio = socketio.AsyncClient(reconnection=False)

    def heard(message: dict) -> None:
        wamid = message.get("local_id")
        step = load.step
        if message.get("type") != MESSAGE_TYPE_WA_INBOUND or step is None:
            return
        step.arrived[wamid] += 1
        if step.arrived[wamid] == 1 and wamid in step.sent_at:
            step.latencies_ms.append((time.monotonic() - step.sent_at[wamid]) * 1000)
            step.check_complete()

    sio.on("message", heard)
    await sio.connect(stack.base_url, auth={"auth_key": key}, transports=["websocket"])
    return sio


async def _drained(step: Step) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(step.complete.wait(), DRAIN_SECONDS)


def _stored_counts(stack: Stack) -> Counter:
    with stack.mongo() as client:
        found = client[MONGO_DB].messages.find({"type": MESSAGE_TYPE_WA_INBOUND}, {"local_id": 1})
        return Counter(doc["local_id"] for doc in found)


def _lines(step: Step, stored: Counter) -> list[str]:
    sent = set(step.sent_at)
    lost_socket = [w for w in sent if step.arrived[w] == 0]
    doubled_socket = [w for w in sent if step.arrived[w] > 1]
    lost_db = [w for w in sent if stored[w] == 0]
    doubled_db = [w for w in sent if stored[w] > 1]
    p99 = percentile(step.replies_ms, 99)
    verdict = "within" if p99 is not None and p99 < TARGET_REPLY_P99_MS else "OVER"
    posts = sum(step.statuses.values())
    return [
        f"  {posts} deliveries ({len(sent)} messages, {posts - len(sent)} repeated) · "
        f"statuses {dict(step.statuses)} · accepted {step.accepted_per_second():.1f}/s",
        f"  webhook reply p50 {ms(percentile(step.replies_ms, 50))} / p99 {ms(p99)} ms "
        f"(target p99 < {TARGET_REPLY_P99_MS} ms -> {verdict})",
        f"  delivery to the agent's socket p50 {ms(percentile(step.latencies_ms, 50))} / "
        f"p99 {ms(percentile(step.latencies_ms, 99))} ms",
        f"  lost / doubled: socket {len(lost_socket)} / {len(doubled_socket)}, "
        f"MongoDB {len(lost_db)} / {len(doubled_db)}",
        *cpu_lines(step.window),
    ]


async def _scenario(work: Path) -> None:
    standin = await WhatsAppStandin().start()
    number = standin.add_number()
    settings = {"AGORA_WHATSAPP_GRAPH_URL": standin.base_url}
    try:
        with running_stack(work, settings) as stack:
            seeder = Seeder(stack, "whatsapp")
            group_id = seeder.group("WhatsApp shop", public=False)
            connect = {
                "phone_number_id": number.phone_number_id,
                "business_account_id": number.business_account_id,
                "access_token": number.access_token,
                "app_secret": APP_SECRET,
                "verify_token": uuid.uuid4().hex,
            }
            # Off the loop: the edge asks the stand-in, which serves on this loop.
            path = f"/api/groups/{group_id}/whatsapp"
            await asyncio.to_thread(stack.call, path, connect, seeder.owner.auth_key)
            load = Load(stack, number.phone_number_id)
            async with aiohttp.ClientSession() as load.http:
                sio = await agent_socket(stack, seeder.owner.auth_key, load)
                try:
                    await _steps(stack, load)
                finally:
                    await sio.disconnect()
    finally:
        await standin.close()


async def _steps(stack: Stack, load: Load) -> None:
    roles = agora_roles(stack)
    # Every customer's chat exists before the first measured step (made by a warm-up).
    warm = Step(rate=CUSTOMERS)
    await load.run_step(warm)
    await _drained(warm)
    best = None
    for rate in RATES:
        step = Step(rate)
        meter = CpuMeter(roles)
        meter.start()
        await load.run_step(step)
        await _drained(step)
        step.window = meter.stop()
        say(f"\nwhatsapp · {rate} deliveries/s for {STEP_SECONDS} s, {CUSTOMERS} customers")
        for line in _lines(step, await asyncio.to_thread(_stored_counts, stack)):
            say(line)
        p99 = percentile(step.replies_ms, 99)
        if p99 is not None and p99 < TARGET_REPLY_P99_MS and step.statuses[200]:
            best = step
    say()
    if best is None:
        say("whatsapp: no step kept the webhook reply p99 under the target")
    else:
        say(
            f"whatsapp: {best.accepted_per_second():.1f} deliveries/s accepted with the webhook "
            f"reply p99 under {TARGET_REPLY_P99_MS} ms (step {best.rate}/s)"
        )


def run(stack_work: Path, *, profile_edge: bool = False) -> None:
    """Starts its own stack: the edge must know the stand-in's address when it starts."""
    asyncio.run(_scenario(stack_work))
