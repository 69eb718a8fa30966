"""People using Agora as docs/load-model.md describes them: the load tester's locustfile.

    python -m loadtest.people_seed --host http://127.0.0.1:8080 --people 1000
    locust -f loadtest/people.py --host http://127.0.0.1:8080 -u 500 -r 50 --run-time 5m

Each locust user is one person who is present (has a tab open), taken in order from the
seeded file (PEOPLE_FILE, default var/loadtest-people.json; away people are skipped: they
only get pushes). The person's HTTP calls are locust tasks, one action at a time with
exponential think times at the model's rates (PEOPLE_RATES and the like, see
loadtest/people_model.py). Their socket is held by the Node crowd (loadtest/node, installed
by `make bench`), which holds many more sockets per core than a Python client: it opens every
present person's socket before locust spawns them, acts as their tabs (typing, viewing, the
tab closed and opened again, receipts), and its acks' times are reported into locust's
statistics under the events' names, with "socket: delivery" timing each sent message from
its send to each socket it reached. PEOPLE_SOCKET_PROCESSES (default 1) sets its processes.
"""

import gc
import itertools
import os
import random
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlencode

import gevent
from locust import FastHttpUser, events, task
from locust.runners import WorkerRunner

from agora.core.chat.constants import SEND_REPLY_OK
from agora.core.message_changes import MESSAGE_EDIT_WINDOW_SECONDS
from agora.core.money import WALLET_FOR_USER
from agora.core.reactions import REACTION_QUICK
from agora.tools.garbage import settle
from loadtest.crowd import Member
from loadtest.feed_words import ADJECTIVES, DISTRICTS, NOUNS
from loadtest.locust_run import SOCKET_CALLS
from loadtest.node_crowd import NodeCrowd
from loadtest.people_model import CITY_SEND_SHARE, model_from_env
from loadtest.people_seed import CITY_TAG, DEFAULT_OUT, Seeded, read

MODEL = model_from_env(dict(os.environ))
PEOPLE_FILE = Path(os.environ.get("PEOPLE_FILE", str(DEFAULT_OUT)))
SOCKET_PROCESSES = int(os.environ.get("PEOPLE_SOCKET_PROCESSES", "1"))
# Seconds from every user spawned to the end (0: locust's --run-time alone ends the run).
# --run-time counts from locust's start, sockets' opening included, which grows with them.
HOLD_SECONDS = float(os.environ.get("PEOPLE_HOLD_SECONDS", "0"))
REPORT_SECONDS = 2.0
# The generator collects cycles as the edge does (agora/tools/garbage.py): by count, a full
# collection stopped every user of this process for 50-190 ms, and each request in flight
# then counted the stall as the product's.
GENERATOR_FULL_COLLECTION_SECONDS = 600
DELIVERY = "socket: delivery"
# An 8x8 PNG (made with Pillow): an upload's bytes are not what the model is about.
PICTURE = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000080000000808020000004b6d29dc00000014494441"
    "54789c633c11a0c1800d3061151db41200ff280150c1b967420000000049454e44ae426082"
)

_present: list[Seeded] = []
_cities: dict[str, list[Seeded]] = {}
_next_person = itertools.count()
_crowd: NodeCrowd | None = None
_crowd_environment: list = []  # the run's locust Environment, once it started


def _city_members(city_id: str) -> list[Seeded]:
    """The present people of a city (whom a mention names), worked out once per city."""
    members = _cities.get(city_id)
    if members is None:
        members = _cities[city_id] = [p for p in _present if p.city_id == city_id]
    return members


def _present_people() -> list[Seeded]:
    if not PEOPLE_FILE.exists():
        raise SystemExit(
            f"no people in {PEOPLE_FILE}: seed them with python -m loadtest.people_seed"
        )
    return [p for p in read(PEOPLE_FILE) if not p.away]


@events.test_start.add_listener
def _open_sockets(environment, **_) -> None:
    """Every present person's socket, open and acting before locust spawns its users."""
    global _crowd
    if isinstance(environment.runner, WorkerRunner):
        raise SystemExit("people.py holds its sockets in one locust process: run it alone")
    _crowd_environment[:] = [environment]
    _present[:] = _present_people()
    wanted = environment.parsed_options.num_users if environment.parsed_options else None
    people = _present[: wanted or len(_present)]
    # A signed-in socket is in its member chats' rooms from the start; joining them is what
    # the chat screen does, and they are the chats the tab types in and shows.
    members = [Member(p.auth_key, (p.city_id, *p.item_chats), None, p.user_id) for p in people]
    started = time.monotonic()
    _crowd = NodeCrowd(environment.host, members, SOCKET_PROCESSES, "/session/send")
    opened, failures = _crowd.open()
    print(f"{opened} sockets open in {time.monotonic() - started:.1f} s", flush=True)
    _crowd.behave(MODEL.socket_rates())
    gevent.spawn(_report, environment, _crowd, Counter(failures))
    gevent.spawn(_collect_on_a_clock)


def _collect_on_a_clock() -> None:
    """`agora.tools.garbage`'s clock, on locust's gevent loop instead of asyncio's."""
    settle()
    while True:
        gevent.sleep(GENERATOR_FULL_COLLECTION_SECONDS)
        gc.collect()


def _report(environment, crowd: NodeCrowd, open_failures: Counter) -> None:
    """The crowd's ack times and deliveries into locust's statistics, every few seconds.

    Sockets that did not open count as errors in the first round, after locust restarted its
    statistics once every user was spawned (as the bench's steps ask it to)."""
    fire = environment.events.request.fire
    rounds = [{"socket: open": ([], open_failures)}]
    while crowd is _crowd:
        gevent.sleep(REPORT_SECONDS)
        if crowd is not _crowd:
            return
        rounds.append(crowd.events())
        for name, (times, errors) in rounds.pop(0).items():
            for ms in times:
                fire(request_type=SOCKET_CALLS, name=name, response_time=ms, response_length=0)
            for reason, count in errors.items():
                for _ in range(count):
                    fire(
                        request_type=SOCKET_CALLS,
                        name=name,
                        response_time=0,
                        response_length=0,
                        exception=RuntimeError(reason),
                    )
        for ms in crowd.collect().latencies_ms:
            fire(request_type=SOCKET_CALLS, name=DELIVERY, response_time=ms, response_length=0)


@events.spawning_complete.add_listener
def _hold(**_) -> None:
    if HOLD_SECONDS and _crowd is not None:
        gevent.spawn_later(HOLD_SECONDS, _crowd_environment[0].runner.quit)


@events.test_stop.add_listener
def _close_sockets(**_) -> None:
    global _crowd
    crowd, _crowd = _crowd, None
    if crowd is not None:
        crowd.close()


class Person(FastHttpUser):
    """One present person: their HTTP actions at the model's rates, one at a time."""

    rates = MODEL.http_rates()

    def wait_time(self) -> float:
        return random.expovariate(sum(self.rates.values()) / 60)

    def on_start(self) -> None:
        index = next(_next_person)
        if index >= len(_present):
            raise SystemExit(f"more users than the {len(_present)} present people seeded")
        self.me = _present[index]
        self.index = index
        self.headers = {"Authorization": f"Bearer {self.me.auth_key}"}
        self.cursor: str | None = None
        self.routes: list[str] = []
        self.wallet: dict | None = None
        self.sent = 0
        # The newest message seen in each chat opened (what a reaction goes to), and this
        # person's latest message (chat, created_at, sent at: what an edit corrects).
        self.newest_seen: dict[str, int] = {}
        self.own_latest: tuple[str, int, float] | None = None
        self.actions = {
            "feed: page": self.feed_page,
            "feed: search": self.feed_search,
            "chats: list": self.chats_list,
            "chat: open": self.chat_open,
            "chat: send": self.chat_send,
            "item: open": self.item_open,
            "item: share": self.item_share,
            "item: post": self.item_post,
            "upload: picture": self.upload_picture,
            "profile: open": self.profile_open,
            "wallet: ledger": self.wallet_ledger,
            "chat: react": self.chat_react,
            "chat: mention": self.chat_mention,
            "chat: edit": self.chat_edit,
            "chat: search": self.chat_search,
        }
        # People of a step are in the middle of their evening, not all opening the app at
        # the spawn: a think time (memoryless) comes before their first action as well.
        gevent.sleep(self.wait_time())

    @task
    def act(self) -> None:
        names = list(self.rates)
        name = random.choices(names, weights=[self.rates[n] for n in names])[0]
        self.actions[name]()

    def _call(self, method: str, path: str, name: str, **kwargs) -> dict | None:
        with self.client.request(
            method, path, headers=self.headers, name=name, catch_response=True, **kwargs
        ) as response:
            if response.status_code != 200:
                response.failure(f"HTTP {response.status_code}: {(response.text or '')[:200]}")
                return None
            return response.json()

    def _chat(self) -> str:
        chats = self.me.item_chats
        if not chats or random.random() < CITY_SEND_SHARE:
            return self.me.city_id
        return random.choice(chats)

    def feed_page(self) -> None:
        # Scrolling on half the time, the first page (a visit, a refresh) otherwise.
        body = {"group_id": self.me.city_id}
        if self.cursor and random.random() < 0.5:
            body["cursor"] = self.cursor
        page = self._call("POST", "/api/feed", "feed: page", json=body)
        if page:
            self.cursor = page.get("next_cursor")
            self.routes = [i["route_id"] for i in page.get("items", []) if i.get("route_id")]

    def feed_search(self) -> None:
        body = {"group_id": self.me.city_id, "search_text": random.choice(NOUNS)}
        self._call("POST", "/api/feed", "feed: search", json=body)

    def chats_list(self) -> None:
        self._call("POST", "/user/chats", "chats: list", json={"cursor": None})

    def chat_open(self) -> None:
        chat = self._chat()
        page = self._call("POST", "/session/messages", "chat: open", json={"session_id": chat})
        if page and page.get("inbox_messages"):
            self.newest_seen[chat] = max(m["created_at"] for m in page["inbox_messages"])

    def chat_send(self, name: str = "chat: send", chat: str | None = None, data=None) -> None:
        self.sent += 1
        key = f"{self.index}.{self.sent}"
        chat = chat or self._chat()
        # "lt KEY SENT": the Node crowd's sockets time each delivery from this payload.
        body = {"dest_session_id": chat, "payload": f"lt {key} {time.time():.6f}", "local_id": key}
        if data:
            body["data"] = data
        with self.client.post(
            "/session/send", json=body, headers=self.headers, name=name, catch_response=True
        ) as response:
            reply = response.json() if response.status_code == 200 else {}
            if reply.get("type") != SEND_REPLY_OK:
                response.failure(f"HTTP {response.status_code}: {(response.text or '')[:200]}")
                return
            self.own_latest = (chat, reply["inbox_message"]["created_at"], time.time())

    def chat_react(self) -> None:
        # A reaction to the newest message of a chat the person has open (else they open one).
        if not self.newest_seen:
            self.chat_open()
        if self.newest_seen:
            chat, created_at = random.choice(list(self.newest_seen.items()))
            emoji = random.choice(REACTION_QUICK)
            body = {"session_id": chat, "created_at": created_at, "emoji": emoji}
            self._call("POST", "/session/message/react", "chat: react", json=body)

    def chat_mention(self) -> None:
        # A message to the city group naming one of its other present members.
        neighbours = _city_members(self.me.city_id)
        named = random.choice(neighbours)
        if named.user_id != self.me.user_id:
            data = {"mentions": [named.user_id]}
            self.chat_send("chat: mention", self.me.city_id, data)

    def chat_edit(self) -> None:
        # A correction of the person's latest message, while it may still be edited.
        editable_for = MESSAGE_EDIT_WINDOW_SECONDS / 2
        if not self.own_latest or time.time() - self.own_latest[2] > editable_for:
            self.chat_send()
        if self.own_latest:
            chat, created_at, _ = self.own_latest
            text = f"lt edited {time.time()}"
            body = {"session_id": chat, "created_at": created_at, "payload": text}
            self._call("POST", "/session/message/edit", "chat: edit", json=body)

    def chat_search(self) -> None:
        body = {"session_id": self._chat(), "q": random.choice(NOUNS)}
        self._call("POST", "/session/search", "chat: search", json=body)

    def item_open(self) -> None:
        if not self.routes:
            self.feed_page()
        if self.routes:
            self._call("GET", f"/api/r/{random.choice(self.routes)}", "item: open")

    def item_share(self) -> None:
        if not self.routes:
            self.feed_page()
        if self.routes:
            path = f"/api/r/{random.choice(self.routes)}?action=share"
            self._call("GET", path, "item: share")

    def item_post(self) -> None:
        title = f"{random.choice(ADJECTIVES)} {random.choice(NOUNS)} in {random.choice(DISTRICTS)}"
        body = {"group_id": self.me.city_id, "title": title.capitalize(), "tags": [CITY_TAG]}
        self._call("POST", "/api/item?action=create", "item: post", json=body)

    def upload_picture(self) -> None:
        body = {"file_mime_type": "image/png", "file_name_hint": "photo.png"}
        slot = self._call(
            "POST", "/get_upload_url", "upload: picture", json={**body, "file_size": len(PICTURE)}
        )
        if slot:
            upload = slot["upload_data"]
            headers = {**self.headers, "Content-Type": "image/png", **upload.get("headers", {})}
            with self.client.request(
                "PUT",
                upload["url"],
                data=PICTURE,
                headers=headers,
                name="upload: picture bytes",
                catch_response=True,
            ) as response:
                if response.status_code not in (200, 201):
                    response.failure(f"HTTP {response.status_code}: {(response.text or '')[:200]}")

    def profile_open(self) -> None:
        profile = self._call("GET", "/api/user/profile", "profile: open")
        if profile:
            wallets = profile.get("user_wallets") or []
            self.wallet = next((w for w in wallets if w.get("wallet_for") == WALLET_FOR_USER), None)

    def wallet_ledger(self) -> None:
        if self.wallet is None:
            self.profile_open()
        if self.wallet is not None:
            query = urlencode(
                {
                    "wallet_user_id": self.wallet["user_id"],
                    "wallet_for": self.wallet["wallet_for"],
                    "wallet_currency": self.wallet["wallet_currency"],
                }
            )
            self._call("GET", f"/api/wallet/ledger?{query}", "wallet: ledger")
