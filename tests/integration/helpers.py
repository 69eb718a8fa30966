"""Steps the integration tests share."""

import asyncio
import contextlib
import json
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
import socketio
from aiohttp.test_utils import TestClient
from pymongo.asynchronous.database import AsyncDatabase

from agora.http.realtime import SOCKET_SERVER
from agora.settings import Settings
from agora.store.marks_copies import MarksCopies
from agora.store.mongo import connect_mongo, database
from agora.store.redis import Keys, connect_redis
from agora.store.session_copies import session_copies
from agora.store.sessions import ReceiptMark, SessionStore
from tests.mail import SmtpSink

RESEND_PAUSE_SECONDS = 0.2
# The push deployment's coalescing window (conftest.py): long enough for a burst of sends
# (sent at once) to fall in one window on a busy machine, short because every test that shows
# no further push comes waits one out (it was 10 s).
PUSH_COALESCE_SECONDS = 4.0
SOCKET_URL = "/socket.io/?EIO=4&transport=websocket"
# The Socket.IO events a client sends the edge (agora/http/realtime.py's handlers).
CLIENT_EVENTS = (
    "join",
    "leave",
    "viewing",
    "unseen",
    "typing",
    "delivered",
    "read",
    "send",
    "react",
)
# Sockets `open_socket` opened, closed after each test by the `opened_sockets_closed` fixture.
OPENED_SOCKETS: list[socketio.AsyncClient] = []


async def open_socket(
    client, person, handlers: dict[str, Callable[[Any], Any]] | None = None
) -> socketio.AsyncClient:
    """A python-socketio client of `person` on the edge `client` serves (no reconnection),
    calling `handlers` by event name."""
    sio = socketio.AsyncClient(reconnection=False)
    OPENED_SOCKETS.append(sio)
    for event, handler in (handlers or {}).items():
        sio.on(event, handler)
    await sio.connect(
        str(client.make_url("/")), auth={"auth_key": person.key}, transports=["websocket"]
    )
    return sio


@dataclass(frozen=True)
class DeploymentStores:
    db: AsyncDatabase
    sessions: SessionStore


@contextlib.asynccontextmanager
async def deployment_stores(settings: Settings) -> AsyncIterator[DeploymentStores]:
    """The database and the chat store as one more edge of the deployment `settings` name
    holds them: what the store writes is announced to every edge of it, as an operator's
    change made through the stores would be."""
    mongo, redis = connect_mongo(settings), connect_redis(settings)
    try:
        db = database(mongo, settings)
        yield DeploymentStores(
            db,
            SessionStore(
                db,
                session_copies(redis, Keys(settings.redis_prefix)),
                MarksCopies(redis, Keys(settings.redis_prefix)),
            ),
        )
    finally:
        await redis.aclose()
        await mongo.close()


async def receipt_recorded(
    sessions: SessionStore, session_id: str, user_id: str, status: str, seq: int, at: int
) -> bool:
    """One member's receipt written as an edge writes receipts (`Ticks.receipts`): their
    membership read, then `record_receipts`; whether it moved their mark."""
    found = await sessions.memberships([(session_id, user_id)])
    mark = ReceiptMark(session_id, user_id, status, seq)
    [moved] = await sessions.record_receipts([mark], found, at)
    return moved


def new_email() -> str:
    return f"user-{uuid.uuid4().hex[:10]}@example.org"


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


async def request_code(client: TestClient, email: str) -> dict:
    reply = await client.post("/api/user/login", json={"email_id": email})
    assert reply.status == 200, await reply.text()
    return await reply.json()


async def login(client: TestClient, sink: SmtpSink, email: str, name: str = "Ada") -> dict:
    """Logs in through every step of the multi-step flow; returns the final reply."""
    await request_code(client, email)
    reply = await client.post(
        "/api/user/login", json={"email_id": email, "name": name, "otp": sink.last_code(email)}
    )
    body = await reply.json()
    assert reply.status == 200, body
    return body


class Member:
    """A logged-in user driving the API through one test client."""

    def __init__(self, client: TestClient, key: str, user: dict) -> None:
        self.client = client
        self.key = key
        self.user = user
        self.id = user["_id"]

    async def call(self, path: str, body: dict | None = None, status: int = 200) -> dict:
        reply = await self.client.post(path, json=body or {}, headers=bearer(self.key))
        data = await reply.json()
        assert reply.status == status, (path, reply.status, data)
        return data

    async def get(self, path: str, status: int = 200) -> dict:
        reply = await self.client.get(path, headers=bearer(self.key))
        data = await reply.json()
        assert reply.status == status, (path, reply.status, data)
        return data

    async def post_item(self, group_id: str, title: str, **fields) -> dict:
        body = {"group_id": group_id, "title": title, **fields}
        return (await self.call("/api/item?action=create", body))["item"]


async def member(client: TestClient, sink: SmtpSink, name: str = "Ada") -> Member:
    body = await login(client, sink, new_email(), name=name)
    return Member(client, body["allspark_auth_key"], body["user"])


async def visitor_call(client: TestClient, path: str, body: dict, status: int = 200) -> dict:
    reply = await client.post(path, json=body)
    data = await reply.json()
    assert reply.status == status, (path, reply.status, data)
    return data


async def new_group(owner: Member, **fields) -> str:
    """A group of the test's own (private unless is_public is given), owned by `owner`."""
    body = {"title": f"Club {uuid.uuid4().hex[:6]}", "tags": ["Books"], **fields}
    return (await owner.call("/api/group?action=create", body))["group"]["_id"]


async def send_text(user, session_id: str, text: str, local_id: str | None = None, **extra) -> dict:
    body = {
        "dest_session_id": session_id,
        "payload": text,
        "local_id": local_id or uuid.uuid4().hex,
        **extra,
    }
    return await user.call("/session/send", body)


async def send_as_a_client(user, session_id: str, text: str, local_id: str) -> dict:
    """A send the way the app makes it: answered "try again" (503, the send bound passed while
    a shard or the edge was starting), it is sent again with the same local_id."""
    body = {"dest_session_id": session_id, "payload": text, "local_id": local_id}
    while True:
        reply = await user.client.post("/session/send", json=body, headers=bearer(user.key))
        if reply.status != 503:
            break
        await asyncio.sleep(RESEND_PAUSE_SECONDS)
    answer = await reply.json()
    assert reply.status == 200, answer
    return answer


async def item_chat(client, sink):
    owner = await member(client, sink, "Owner")
    asker = await member(client, sink, "Asker")
    group_id = await new_group(owner, is_public=True)
    item = await owner.post_item(group_id, "Old piano", offer_amount=5, offer_currency="POINTS")
    return owner, asker, item


async def until(condition, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)


async def eventually(read, expected, seconds: float = 10.0):
    """What `read()` (a coroutine function) gives once it gives `expected`, or its last
    answer: for what is written behind an answer (a receipt's mark)."""
    found = None
    for _ in range(int(seconds / 0.05)):
        found = await read()
        if found == expected:
            break
        await asyncio.sleep(0.05)
    return found


async def all_messages(user, session_id: str) -> list[dict]:
    stored, before = [], None
    while True:
        page = await user.call(
            "/session/messages", {"session_id": session_id, "less_than_timestamp": before}
        )
        stored = page["inbox_messages"] + stored
        if not page["has_more"]:
            return stored
        before = page["next_less_than_timestamp"]


def event_handlers_run(client: TestClient, monkeypatch) -> list[asyncio.Task]:
    """The tasks the edge's Socket.IO server runs client events in, from now on (listed as
    they start): a test awaits them to know every handler ended."""
    server = client.server.app[SOCKET_SERVER]
    started: list[asyncio.Task] = []
    start = server.start_background_task

    def listed(target, *args, **kwargs):
        task = start(target, *args, **kwargs)
        if getattr(target, "__self__", None) is server:  # an event's, not the rooms' sweeper
            started.append(task)
        return task

    monkeypatch.setattr(server, "start_background_task", listed)
    return started


@contextlib.asynccontextmanager
async def raw_socket(client: TestClient, auth: dict | None = None):
    """A Socket.IO connection written by hand, to send what no client library would (or
    what one would not send before it closes)."""
    url = str(client.make_url(SOCKET_URL)).replace("http", "ws", 1)
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as socket:
        await socket.receive()  # Engine.IO open
        await socket.send_str("40" + (json.dumps(auth) if auth else ""))
        assert (await socket.receive()).data.startswith("40")
        yield socket


async def heard(keys: asyncio.Queue, key: str) -> None:
    """Returns once `key` comes out of the keys heard (`hearing`)."""
    while (await asyncio.wait_for(keys.get(), timeout=10)) != key:
        pass


@contextlib.asynccontextmanager
async def hearing(
    changes: Callable[[asyncio.Event], AsyncIterator[str]],
    announce: Callable[[str], Awaitable[None]],
) -> AsyncIterator[asyncio.Queue]:
    """The keys an edge hears announced (`changes`), once it hears them (probed with
    `announce`), until the block ends (and with it the edge's subscription)."""
    stop, keys = asyncio.Event(), asyncio.Queue()

    async def listen() -> None:
        async for key in changes(stop):
            keys.put_nowait(key)

    listener = asyncio.create_task(listen())
    try:
        await _listening(announce, keys)
        yield keys
    finally:
        stop.set()
        await listener


async def _listening(announce: Callable[[str], Awaitable[None]], keys: asyncio.Queue) -> None:
    """Returns once the edge hears announcements: a probe sent before its subscription is lost."""
    for attempt in range(100):
        await announce(f"probe-{attempt}")
        try:
            await asyncio.wait_for(heard(keys, f"probe-{attempt}"), timeout=0.1)
            return
        except TimeoutError:
            continue
    raise AssertionError("the edge never heard an announcement")
