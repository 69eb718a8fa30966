"""Push endpoints are no way into the internal network, nor an amplifier.

Registration refuses what the URL shows (offline, without DNS); sending goes through the
link previews' outbound guard (a name resolved once, every answer global, the connection
made to the checked address); an account keeps a handful of browsers; a push that cannot
be made is not tried again and again. The loopback stand-in of a push service is reached
only where a setting allows it. Counting servers on 127.0.0.1 stand for the internal
network: they count every connection reaching them.
"""

import asyncio
import json
import uuid

import pytest
from aiohttp import web
from pymongo import AsyncMongoClient

from agora.actors.protocol import EdgePresence, Notify, Withdrawn
from agora.actors.users import UserShardLogic
from agora.actors.wiring import StoreFactory
from agora.composition.base import chat_kinds
from agora.core.push import PUSH_SUBSCRIPTIONS_PER_ACCOUNT, Notification, Subscription
from agora.integrations.web_push import Delivery, WebPushSender, generate_vapid_keys
from agora.store.push_subscriptions import PushSubscriptionStore
from tests.integration.helpers import member
from tests.push_standin import PushServiceStandin
from tests.standin_server import serve_locally

SUBJECT = "mailto:tests@agora.test"
NOTIFICATION = Notification("session-1", "A chat", "Ada", "hello")
PUSH_SERVICE = "https://fcm.googleapis.com/fcm/send/"
# Reading with this limit shows every stored subscription.
EVERY = 1_000


class CountingServer:
    """Counts the connections reaching it and closes each unanswered."""

    def __init__(self) -> None:
        self.connections = 0
        self.port = 0
        self._server: asyncio.Server | None = None

    async def start(self) -> "CountingServer":
        self._server = await asyncio.start_server(self._count, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def _count(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        writer.close()

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()


@pytest.fixture
async def internal():
    server = await CountingServer().start()
    yield server
    await server.close()


@pytest.fixture
async def standin():
    service = await PushServiceStandin().start()
    yield service
    await service.close()


@pytest.fixture
async def subscriptions(mongo_url):
    client = AsyncMongoClient(mongo_url)
    yield PushSubscriptionStore(client["agora_test"])
    await client.close()


@pytest.fixture
async def sender_for():
    senders: list[WebPushSender] = []

    def make(allow_loopback: bool = False) -> WebPushSender:
        sender = WebPushSender(generate_vapid_keys()["private_key"], SUBJECT, allow_loopback)
        senders.append(sender)
        return sender

    yield make
    for sender in senders:
        await sender.close()


def _subscription(endpoint: str, standin: PushServiceStandin) -> Subscription:
    """A browser's keys (made as a browser makes them) with any endpoint."""
    return Subscription(endpoint, *_keys(standin.subscriber().token()))


def _keys(token: str) -> tuple[str, str]:
    keys = json.loads(token)["keys"]
    return keys["p256dh"], keys["auth"]


# Send time ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "host",
    [
        "localhost",  # a name resolving to loopback
        "127.0.0.1",
        "[::ffff:127.0.0.1]",
        "\uff11\uff12\uff17.\uff10.\uff10.\uff11",
    ],
)
async def test_an_endpoint_on_the_internal_network_is_never_connected_to(
    sender_for, internal, standin, host
):
    """Endpoints stored before registration refused them meet the guard when pushed to."""
    subscription = _subscription(f"https://{host}:{internal.port}/push/x", standin)

    delivery = await sender_for().deliver(subscription, NOTIFICATION)

    assert internal.connections == 0
    assert delivery is Delivery.REFUSED


async def test_a_push_is_not_sent_on_where_its_endpoint_redirects(sender_for, internal, standin):
    async def redirect(request: web.Request) -> web.Response:
        raise web.HTTPTemporaryRedirect(f"http://127.0.0.1:{internal.port}/admin")

    app = web.Application()
    app.router.add_post("/push/{token}", redirect)
    runner, origin = await serve_locally(app)
    try:
        delivery = await sender_for(allow_loopback=True).deliver(
            _subscription(f"{origin}/push/x", standin), NOTIFICATION
        )
    finally:
        await runner.cleanup()

    assert internal.connections == 0
    assert delivery is Delivery.REFUSED


async def test_an_endpoint_that_cannot_be_reached_is_tried_once_per_push(
    sender_for, internal, standin
):
    subscription = _subscription(f"http://127.0.0.1:{internal.port}/push/x", standin)

    delivery = await sender_for(allow_loopback=True).deliver(subscription, NOTIFICATION)

    assert delivery is Delivery.FAILED
    assert internal.connections == 1


@pytest.mark.parametrize("allowed", [False, True])
async def test_a_user_shard_pushes_to_the_loopback_stand_in_only_where_the_setting_allows_it(
    settings_for, subscriptions, standin, internal, allowed
):
    """Subscriptions already stored (registered while the setting was on, or before the
    registration rule): the shard's sender decides by its own setting."""
    user_id = f"u_{uuid.uuid4().hex[:12]}"
    browser = standin.subscriber()
    named_internal = _subscription(f"https://localhost:{internal.port}/push/x", standin)
    for subscription in (Subscription(browser.endpoint, *_keys(browser.token())), named_internal):
        await subscriptions.save(user_id, "key-hash", subscription, PUSH_SUBSCRIPTIONS_PER_ACCOUNT)
    overrides = {"push_allow_loopback_endpoints": True} if allowed else {}
    settings = settings_for(push_enabled=True, **overrides)
    logic = UserShardLogic(settings, StoreFactory(settings, chat_kinds()).user_shard_stores())
    try:
        # From an edge with no sockets: its (empty) presence comes first.
        assert await logic.handle(
            "edge",
            [EdgePresence("edge", []), Notify([user_id], "message-1", False, NOTIFICATION)],
        )
        while logic.tasks:
            await asyncio.gather(*list(logic.tasks))
    finally:
        if logic.sender is not None:
            await logic.sender.close()
        await logic.mongo.close()

    assert len(browser.pushes) == (1 if allowed else 0)
    # The setting allows loopback addresses, for the stand-in: off, not even a name of one.
    assert internal.connections == (1 if allowed else 0)


async def test_a_user_shard_pushes_nothing_of_a_message_deleted_before_its_decision(
    settings_for, subscriptions, standin
):
    """A deleted message's push not sent yet is not sent, whichever comes first to the
    shard: the deletion, or the message in the same batch before it; another message is."""
    user_id = f"u_{uuid.uuid4().hex[:12]}"
    browser = standin.subscriber()
    subscription = Subscription(browser.endpoint, *_keys(browser.token()))
    await subscriptions.save(user_id, "key-hash", subscription, PUSH_SUBSCRIPTIONS_PER_ACCOUNT)
    settings = settings_for(push_enabled=True, push_allow_loopback_endpoints=True)
    logic = UserShardLogic(settings, StoreFactory(settings, chat_kinds()).user_shard_stores())

    def told(at: int, text: str) -> Notify:
        notification = Notification("chat-1", "A chat", "Ada", text, created_at=at)
        return Notify([user_id], f"message-{at}", False, notification)

    try:
        assert await logic.handle(
            "edge",
            [EdgePresence("edge", []), Withdrawn("chat-1", 1), told(1, "deleted before")],
        )
        assert await logic.handle("edge", [told(2, "deleted after"), Withdrawn("chat-1", 2)])
        assert await logic.handle("edge", [told(3, "still here")])
        while logic.tasks:
            await asyncio.gather(*list(logic.tasks))
    finally:
        if logic.sender is not None:
            await logic.sender.close()
        await logic.mongo.close()

    assert [push.payload["body"] for push in browser.pushes] == ["Ada: still here"]


# Registration ---------------------------------------------------------------------------


def _body(endpoint: str, standin: PushServiceStandin) -> dict:
    p256dh, auth = _keys(standin.subscriber().token())
    token = {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}}
    return {"push_token": json.dumps(token), "os_type": "WEB_PUSH"}


@pytest.mark.parametrize(
    ("endpoint", "error"),
    [
        (
            "https://169.254.169.254/latest/meta-data",
            "The subscription's endpoint must name its push service, not an address",
        ),
        (
            "https://[::ffff:127.0.0.1]/push",
            "The subscription's endpoint must name its push service, not an address",
        ),
        (
            "https://0x7f.1/push",
            "The subscription's endpoint must name its push service, not an address",
        ),
        (
            "https://\uff11\uff12\uff17.0.0.1/push",
            "The subscription's endpoint must name its push service, not an address",
        ),
        (
            "https://user:pw@fcm.googleapis.com/fcm/send/x",
            "The subscription's endpoint must not carry credentials",
        ),
        (
            "https://fcm.googleapis.com:6379/fcm/send/x",
            "The subscription's endpoint must use the https port, 443",
        ),
        (
            "https://localhost/push",
            "The subscription's endpoint must name its push service by a full domain name",
        ),
        (
            "http://fcm.googleapis.com/fcm/send/x",
            "The subscription's endpoint must be an https URL",
        ),
    ],
)
async def test_endpoints_no_push_service_has_are_refused_at_registration(
    client, smtp_sink, standin, subscriptions, endpoint, error
):
    person = await member(client, smtp_sink)

    reply = await person.call("/update_push_token", _body(endpoint, standin), status=400)

    assert reply["errors"] == {"push_token": error}
    assert await _stored(subscriptions, person.id) == []


async def test_registration_needs_no_dns(client, smtp_sink, standin, subscriptions):
    """A name that resolves nowhere is accepted: whether it may be reached is decided when a
    push is sent, so registering works offline."""
    person = await member(client, smtp_sink)
    endpoint = f"https://push.{uuid.uuid4().hex}.invalid/send/x"

    await person.call("/update_push_token", _body(endpoint, standin))

    assert await _stored(subscriptions, person.id) == [endpoint]


async def test_the_stand_in_registers_only_where_the_setting_allows_it(
    client_for, smtp_sink, standin
):
    strict = await member(await client_for(), smtp_sink)
    reply = await strict.call(
        "/update_push_token", _body(standin.subscriber().endpoint, standin), 400
    )
    assert reply["errors"] == {
        "push_token": "The subscription's endpoint must name its push service, not an address"
    }

    allowing = await member(await client_for(push_allow_loopback_endpoints=True), smtp_sink)
    body = _body(standin.subscriber().endpoint, standin)
    assert await allowing.call("/update_push_token", body) == {"success": True}


async def test_an_account_keeps_its_newest_browsers_and_the_oldest_is_replaced(
    client, smtp_sink, standin, subscriptions
):
    person = await member(client, smtp_sink)
    other = await member(client, smtp_sink)
    others_browser = f"{PUSH_SERVICE}{uuid.uuid4().hex}"
    await other.call("/update_push_token", _body(others_browser, standin))
    endpoints = [
        f"{PUSH_SERVICE}{uuid.uuid4().hex}" for _ in range(PUSH_SUBSCRIPTIONS_PER_ACCOUNT + 2)
    ]
    for endpoint in endpoints:
        await person.call("/update_push_token", _body(endpoint, standin))

    assert set(await _stored(subscriptions, person.id)) == set(endpoints[2:])

    # Registering a kept browser again makes it the newest: the next one replaces another.
    await person.call("/update_push_token", _body(endpoints[2], standin))
    newest = f"{PUSH_SERVICE}{uuid.uuid4().hex}"
    await person.call("/update_push_token", _body(newest, standin))
    kept = set(await _stored(subscriptions, person.id))
    assert kept == {endpoints[2], *endpoints[4:], newest}
    # Nobody else's browsers are counted or replaced.
    assert await _stored(subscriptions, other.id) == [others_browser]


async def test_only_the_newest_browsers_of_an_account_are_pushed_to(subscriptions, standin):
    """Accounts may hold more, registered before the limit: the shards read the newest."""
    user_id = f"u_{uuid.uuid4().hex[:12]}"
    endpoints = [f"{PUSH_SERVICE}{i}-{uuid.uuid4().hex}" for i in range(8)]
    for endpoint in endpoints:
        await subscriptions.save(user_id, "key-hash", _subscription(endpoint, standin), EVERY)
        await asyncio.sleep(0.002)  # a millisecond apart: each is newer than the one before

    read = await subscriptions.of_users([user_id], PUSH_SUBSCRIPTIONS_PER_ACCOUNT)
    assert [s.endpoint for s in read[user_id]] == endpoints[::-1][:PUSH_SUBSCRIPTIONS_PER_ACCOUNT]


async def _stored(subscriptions: PushSubscriptionStore, user_id: str) -> list[str]:
    stored = await subscriptions.of_users([user_id], EVERY)
    return [s.endpoint for s in stored.get(user_id, [])]
