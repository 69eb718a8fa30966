"""Web push end to end: real sends through edges, Ray session and user shards, the
MongoDB-wire server and Redis, delivered by pywebpush to a local push-service stand-in
that checks the VAPID signature and decrypts each push as the subscribed browser would."""

import asyncio
import json
import logging
import uuid

import pytest
import ray
import socketio
from pymongo import AsyncMongoClient

from agora.actors.ownership import deployment_namespace, shard_name
from agora.actors.users import USER_POOL, vapid_pair
from agora.core.push import PUSH_SUBSCRIPTIONS_PER_ACCOUNT
from agora.integrations.web_push import generate_vapid_keys
from agora.services import push as push_service
from agora.store.push_subscriptions import PushSubscriptionStore
from agora.store.vapid_keys import VapidKeyStore
from tests.integration.fault_tools import STORE_WAIT_MS, own_store
from tests.integration.helpers import (
    PUSH_COALESCE_SECONDS,
    bearer,
    event_handlers_run,
    eventually,
    login,
    member,
    new_group,
    raw_socket,
)
from tests.push_standin import PushServiceStandin

pytestmark = [pytest.mark.usefixtures("ray_cluster"), pytest.mark.slow]

# Long enough for a push that would come to have come: past the coalescing window.
QUIET_SECONDS = PUSH_COALESCE_SECONDS + 1.5
GUARD_SECONDS = 30  # a hang guard for a condition, not a speed check


@pytest.fixture
async def push_edge(client_for, push_deployment):
    async def start():
        return await client_for(**push_deployment)

    return start


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


async def _subscribe(person, standin):
    subscriber = standin.subscriber()
    body = {"push_token": subscriber.token(), "os_type": "WEB_PUSH"}
    assert await person.call("/update_push_token", body) == {"success": True}
    return subscriber


async def _endpoints(subscriptions, user_id: str) -> list[str]:
    kept = await subscriptions.of_users([user_id], PUSH_SUBSCRIPTIONS_PER_ACCOUNT)
    return [s.endpoint for s in kept.get(user_id, [])]


async def _chat(edge, sink):
    """An owner with a post and an asker; the asker's first message makes their chat."""
    owner = await member(edge, sink, "Olga")
    asker = await member(edge, sink, "Arun")
    group_id = await new_group(owner, is_public=True)
    item = await owner.post_item(group_id, "Blue bicycle")
    return owner, asker, f"r_{item['_id']}_{asker.id}"


async def _send(person, chat_id: str, text: str) -> dict:
    body = {"dest_session_id": chat_id, "payload": text, "local_id": uuid.uuid4().hex}
    reply = await person.call("/session/send", body)
    assert reply["type"] == 13, reply
    return reply


async def _until(condition, seconds: float = 15.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)


async def _socket(edge, person):
    sio = socketio.AsyncClient(reconnection=False)
    await sio.connect(
        str(edge.make_url("/")), auth={"auth_key": person.key}, transports=["websocket"]
    )
    return sio


async def test_a_member_without_a_socket_gets_exactly_one_push_for_a_message(
    push_edge, standin, smtp_sink
):
    edge = await push_edge()
    owner, asker, chat_id = await _chat(edge, smtp_sink)
    owners_browser = await _subscribe(owner, standin)
    askers_browser = await _subscribe(asker, standin)
    info = await (await edge.get("/push/info")).json()

    await _send(asker, chat_id, "Is the bicycle still for sale? " + "x" * 200)
    await _until(lambda: owners_browser.pushes)
    await asyncio.sleep(QUIET_SECONDS)

    [push] = owners_browser.pushes
    assert push.vapid_key == info["public_key"]
    assert push.payload["session_id"] == chat_id
    assert push.payload["title"] == "Blue bicycle"
    assert push.payload["sender_name"] == "Arun"
    assert push.payload["body"].startswith("Arun: Is the bicycle still for sale?")
    assert len(push.payload["body"]) == 120
    assert push.payload["url"] == f"/chats?session_id={chat_id}"
    assert push.payload["count"] == 1
    assert push.payload["red_dot"] >= 1
    assert push.headers["TTL"] == str(24 * 3600)
    assert push.headers["Urgency"] == "high"
    assert 0 < len(push.headers["Topic"]) <= 32
    assert askers_browser.pushes == []  # never the sender
    assert standin.refused == []


async def _ticks(person, chat_id: str) -> dict[str, str]:
    page = await person.call("/session/messages", {"session_id": chat_id})
    return {m["payload"]: m["flags"]["status"] for m in page["inbox_messages"]}


async def test_a_push_carries_the_receipt_its_service_worker_acknowledges_delivery_with(
    push_edge, standin, smtp_sink
):
    edge = await push_edge()
    owner, asker, chat_id = await _chat(edge, smtp_sink)
    owners_browser = await _subscribe(owner, standin)
    await _send(asker, chat_id, "Is the bicycle still for sale?")
    await _until(lambda: owners_browser.pushes)
    [push] = owners_browser.pushes
    receipt = push.payload["receipt"]
    assert await _ticks(asker, chat_id) == {"Is the bicycle still for sale?": "sent"}

    # Only a receipt as we signed it counts: not one changed to name someone else (the
    # sender), nor anything else; a batch with one such is refused whole.
    value, mac = receipt.rsplit(".", 1)
    parts = value.split("|")
    parts[2] = asker.id
    renamed = "|".join(parts) + "." + mac
    for body in (
        {"receipts": [renamed]},
        {"receipts": [receipt, "delivered|1|x|y.00"]},
        {"receipts": []},
        {"receipts": receipt},
        {"receipts": [receipt] * 21},
        {"receipts": [receipt], "user_id": owner.id},
        {},
    ):
        reply = await edge.post("/push/delivered", json=body)
        assert reply.status == 400, body
        assert "errors" in await reply.json()
    assert await _ticks(asker, chat_id) == {"Is the bicycle still for sale?": "sent"}

    # The owner's service worker got the push: the message is delivered, not read.
    reply = await edge.post("/push/delivered", json={"receipts": [receipt, receipt]})
    assert (reply.status, await reply.json()) == (200, {"success": True, "marked": 1})
    delivered = {"Is the bicycle still for sale?": "delivered"}
    assert await eventually(lambda: _ticks(asker, chat_id), delivered) == delivered


async def _group(edge, sink, standin):
    """A group of an admin (who writes), a reader and a witness, both readers subscribed.

    The witness's push shows that a message was decided: with one user shard, everyone's
    decisions on a message are taken together.
    """
    admin = await member(edge, sink, "Gita")
    reader = await member(edge, sink, "Ravi")
    witness = await member(edge, sink, "Wim")
    group_id = await new_group(admin, is_public=True)
    for person in (reader, witness):
        await person.call("/api/group?action=join", {"group_id": group_id})
    readers_browser = await _subscribe(reader, standin)
    return admin, reader, group_id, readers_browser, await _subscribe(witness, standin)


# Socket.IO's reserved names sent by a client, which once ran the edge's own handlers.
RESERVED_FROM_CLIENT = (("disconnect", None), ("disconnect", "client"), ("connect", ({}, {})))


@pytest.mark.parametrize(
    ("on_other_edge", "also_sent"), [(False, ()), (True, ()), (False, RESERVED_FROM_CLIENT)]
)
async def test_a_member_looking_at_the_chat_gets_no_push_until_the_tab_is_hidden(
    push_edge, standin, smtp_sink, on_other_edge, also_sent
):
    edge = await push_edge()
    admin, reader, group_id, readers_browser, witness = await _group(edge, smtp_sink, standin)
    screen = await _socket(await push_edge() if on_other_edge else edge, reader)
    assert await screen.call("viewing", {"session_id": group_id}) == {"ok": True}
    # Refused: the socket still counts as showing the chat.
    for event, arguments in also_sent:
        assert "errors" in await screen.call(event, arguments, timeout=5), event

    await _send(admin, group_id, "seen on screen")
    await _until(lambda: witness.pushes)
    assert await screen.call("viewing", {"session_id": None}) == {"ok": True}
    await _send(admin, group_id, "while hidden")
    await _until(lambda: readers_browser.pushes)
    await screen.disconnect()

    assert [p.payload["body"] for p in witness.pushes] == ["Gita: seen on screen"]
    assert [p.payload["body"] for p in readers_browser.pushes] == ["Gita: while hidden"]


async def test_a_muted_member_gets_no_push(push_edge, standin, smtp_sink):
    edge = await push_edge()
    admin, reader, group_id, readers_browser, witness = await _group(edge, smtp_sink, standin)
    await reader.call("/session/user/update", {"session_id": group_id, "notification_flag": 30})
    await _send(admin, group_id, "muted")
    await _until(lambda: witness.pushes)
    await reader.call("/session/user/update", {"session_id": group_id, "notification_flag": 20})
    await _send(admin, group_id, "unmuted")
    await _until(lambda: readers_browser.pushes)
    assert [p.payload["body"] for p in readers_browser.pushes] == ["Gita: unmuted"]


async def test_a_member_blocked_in_a_small_group_gets_no_push_until_unblocked(
    push_edge, standin, smtp_sink
):
    """A small chat's shard names its members with each message and the edge decides with
    its copies of their memberships: a type changed just before a message decides it."""
    edge = await push_edge()
    admin, reader, group_id, readers_browser, witness = await _group(edge, smtp_sink, standin)
    block = {"session_id": group_id, "for_user_id": reader.id, "action": "block"}
    await admin.call("/session/user/update", block)
    await _send(admin, group_id, "blocked")
    await _until(lambda: witness.pushes)
    await admin.call("/session/user/update", block | {"action": "unblock"})
    await _send(admin, group_id, "unblocked")
    await _until(lambda: readers_browser.pushes)
    assert [p.payload["body"] for p in readers_browser.pushes] == ["Gita: unblocked"]


async def test_messages_of_several_chats_decided_together_reach_each_chats_own_members(
    push_edge, standin, smtp_sink
):
    """Messages stored together are decided together: each push still goes to its own
    chat's members, with its own chat's title, and a member muted in one chat hears only
    the other."""
    edge = await push_edge()
    owner, asker, chat_id = await _chat(edge, smtp_sink)
    admin, _, group_id, readers_browser, witness = await _group(edge, smtp_sink, standin)
    await owner.call("/api/group?action=join", {"group_id": group_id})
    await owner.call("/session/user/update", {"session_id": group_id, "notification_flag": 30})
    owners_browser = await _subscribe(owner, standin)

    await asyncio.gather(
        _send(asker, chat_id, "about the bicycle"), _send(admin, group_id, "to the group")
    )
    await _until(lambda: owners_browser.pushes and readers_browser.pushes and witness.pushes)
    await asyncio.sleep(QUIET_SECONDS)

    assert [(p.payload["title"], p.payload["body"]) for p in owners_browser.pushes] == [
        ("Blue bicycle", "Arun: about the bicycle")
    ]
    for browser in (readers_browser, witness):
        assert [p.payload["body"] for p in browser.pushes] == ["Gita: to the group"]


async def test_a_busy_chat_gives_one_push_and_then_one_that_counts_the_rest(
    push_edge, standin, smtp_sink
):
    edge = await push_edge()
    owner, asker, chat_id = await _chat(edge, smtp_sink)
    browser = await _subscribe(owner, standin)
    await _send(asker, chat_id, "message 0")
    # Together, so that all of them fall in the first window however busy the machine.
    await asyncio.gather(*(_send(asker, chat_id, f"message {n}") for n in range(1, 20)))
    await _until(lambda: len(browser.pushes) == 2)
    await asyncio.sleep(QUIET_SECONDS)

    first, coalesced = [p.payload for p in browser.pushes]
    assert (first["count"], first["body"]) == (1, "Arun: message 0")
    assert (coalesced["count"], coalesced["body"]) == (19, "19 new messages")
    assert len(browser.pushes) == 2


async def test_push_service_answers_gone_busy_and_too_large(
    push_edge, standin, smtp_sink, subscriptions
):
    """410 deletes the subscription; 429 and 503 are tried again; 413 gets a shorter one."""
    edge = await push_edge()
    owner, asker, chat_id = await _chat(edge, smtp_sink)
    gone = await _subscribe(owner, standin)
    busy = await _subscribe(owner, standin)
    strict = await _subscribe(owner, standin)
    gone.answers = [410]
    busy.answers = [429, 503]
    strict.answers = [413]
    await _send(asker, chat_id, "hello " * 40)
    await _until(lambda: busy.pushes and strict.pushes)
    for _ in range(100):
        remaining = set(await _endpoints(subscriptions, owner.id))
        if len(remaining) == 2:
            break
        await asyncio.sleep(0.05)

    assert remaining == {busy.endpoint, strict.endpoint}
    assert len(busy.pushes[0].payload["body"]) == 120
    assert len(strict.pushes[0].payload["body"]) == 60


async def test_logging_out_deletes_that_browsers_subscription(
    push_edge, standin, smtp_sink, subscriptions
):
    edge = await push_edge()
    owner, asker, chat_id = await _chat(edge, smtp_sink)
    phone = await _subscribe(owner, standin)
    second = await login(edge, smtp_sink, owner.user["email_id"], name="Olga")
    laptop_key = second["allspark_auth_key"]
    laptop = standin.subscriber()
    reply = await edge.post(
        "/update_push_token",
        json={"push_token": laptop.token(), "os_type": "WEB_PUSH"},
        headers=bearer(laptop_key),
    )
    assert reply.status == 200

    await owner.call("/api/user/logout")
    await _send(asker, chat_id, "after logout")
    await _until(lambda: laptop.pushes)

    assert phone.pushes == []
    assert await _endpoints(subscriptions, owner.id) == [laptop.endpoint]


async def test_the_same_subscription_again_is_one_row(push_edge, standin, smtp_sink, subscriptions):
    edge = await push_edge()
    person = await member(edge, smtp_sink)
    browser = await _subscribe(person, standin)
    body = {"push_token": browser.token(), "os_type": "WEB_PUSH"}
    await person.call("/update_push_token", body)
    assert await _endpoints(subscriptions, person.id) == [browser.endpoint]


def _token(standin, **change) -> str:
    data = json.loads(standin.subscriber().token())
    keys = {**data["keys"], **change.pop("keys", {})}
    return json.dumps({**data, **change, "keys": keys})


async def test_bad_push_tokens_are_refused(push_edge, client_for, standin, smtp_sink):
    edge = await push_edge()
    person = await member(edge, smtp_sink)
    good = standin.subscriber().token()
    visitor = await edge.post(
        "/update_push_token", json={"push_token": good, "os_type": "WEB_PUSH"}
    )
    assert visitor.status == 401
    short_key = "BAAA"
    for body in [
        {"push_token": good, "os_type": "FCM"},
        {"push_token": "not json", "os_type": "WEB_PUSH"},
        {"push_token": "[]", "os_type": "WEB_PUSH"},
        {"push_token": _token(standin, endpoint="ftp://x/y"), "os_type": "WEB_PUSH"},
        {"push_token": _token(standin, keys={"p256dh": short_key}), "os_type": "WEB_PUSH"},
        {"push_token": _token(standin, keys={"auth": "AAAA"}), "os_type": "WEB_PUSH"},
        {"push_token": _token(standin, keys={"auth": "!!not base64!!"}), "os_type": "WEB_PUSH"},
        {"push_token": _token(standin, endpoint="https://x/" + "a" * 3000), "os_type": "WEB_PUSH"},
        {"push_token": 5, "os_type": "WEB_PUSH"},
        {"os_type": "WEB_PUSH"},
    ]:
        reply = await person.call("/update_push_token", body, status=400)
        assert reply["errors"], body

    # The stand-in's loopback endpoints only where a setting allows them (for tests).
    strict = await client_for()
    strict_person = await member(strict, smtp_sink)
    reply = await strict_person.call(
        "/update_push_token", {"push_token": good, "os_type": "WEB_PUSH"}, status=400
    )
    assert reply["errors"] == {
        "push_token": "The subscription's endpoint must name its push service, not an address"
    }


async def test_edges_starting_together_agree_on_one_vapid_key(mongo_url, settings_for):
    client = AsyncMongoClient(mongo_url)
    db = client[f"agora_vapid_{uuid.uuid4().hex[:6]}"]
    pairs = await asyncio.gather(
        *(VapidKeyStore(db).get_or_create(generate_vapid_keys) for _ in range(8))
    )
    assert len({p["public_key"] for p in pairs}) == 1
    given = generate_vapid_keys()
    settings = settings_for(
        vapid_private_key=given["private_key"], vapid_public_key=given["public_key"]
    )
    assert await vapid_pair(settings, VapidKeyStore(db)) == given
    await client.drop_database(db.name)
    await client.close()


async def test_an_offer_received_is_pushed_even_in_a_muted_chat(push_edge, standin, smtp_sink):
    edge = await push_edge()
    owner = await member(edge, smtp_sink, "Olga")
    asker = await member(edge, smtp_sink, "Arun")
    group_id = await new_group(owner, is_public=True)
    item = await owner.post_item(group_id, "Lost cat", offer_amount=5, offer_currency="POINTS")
    chat_id = f"r_{item['_id']}_{asker.id}"
    await _send(asker, chat_id, "I found her")
    await asker.call("/session/user/update", {"session_id": chat_id, "notification_flag": 30})
    browser = await _subscribe(asker, standin)

    await owner.call("/api/giveoffer", {"cs_id": chat_id, "request_id": "thanks"})
    await _until(lambda: browser.pushes)

    [push] = browser.pushes
    assert push.payload["title"] == "New offer: 'Lost cat'"
    assert push.payload["body"] == "Olga gave you an offer of 🪙 5"
    assert push.payload["session_id"] == chat_id


async def test_a_group_message_is_pushed_with_normal_urgency(push_edge, standin, smtp_sink):
    edge = await push_edge()
    admin, _, group_id, browser, _ = await _group(edge, smtp_sink, standin)

    await _send(admin, group_id, "Meeting at noon")
    await _until(lambda: browser.pushes)

    [push] = browser.pushes
    assert push.headers["Urgency"] == "normal"
    assert push.payload["body"] == "Gita: Meeting at noon"
    assert push.payload["session_id"] == group_id


async def _red_dot(person) -> int:
    return (await person.get("/user/me"))["user"]["data"]["notifications_unseen_count"]


async def test_a_group_message_reaches_every_browser_of_every_away_member_with_their_red_dot(
    push_edge, standin, smtp_sink
):
    """The shard keeps subscriptions and reads the red dots of a message's recipients at once:
    each browser still gets its person's own push and count, and a member without a
    subscription nothing."""
    edge = await push_edge()
    admin = await member(edge, smtp_sink, "Gita")
    reader, witness, unsubscribed = [
        await member(edge, smtp_sink, n) for n in ("Ravi", "Wim", "Ned")
    ]
    group_id = await new_group(admin, is_public=True)
    other_group = await new_group(admin, is_public=True)
    for person in (reader, witness, unsubscribed):
        await person.call("/api/group?action=join", {"group_id": group_id})
    # Two messages only the reader has unseen: their red dot is higher than the witness's.
    await reader.call("/api/group?action=join", {"group_id": other_group})
    for text in ("one", "two"):
        await _send(admin, other_group, text)
    phone, laptop = await _subscribe(reader, standin), await _subscribe(reader, standin)
    witness_browser = await _subscribe(witness, standin)

    await _send(admin, group_id, "Meeting at noon")
    await _until(lambda: phone.pushes and laptop.pushes and witness_browser.pushes)
    await asyncio.sleep(QUIET_SECONDS)

    readers_dot, witness_dot = await _red_dot(reader), await _red_dot(witness)
    assert readers_dot > witness_dot > 0

    # The reader may also be pushed the other group's messages, if they were decided after
    # the reader subscribed: only the meeting's pushes count here.
    def meeting(browser):
        return [p for p in browser.pushes if p.payload["body"] == "Gita: Meeting at noon"]

    assert sum(len(meeting(s)) for s in standin.subscribers.values()) == 3
    for browser, dot in (
        (phone, readers_dot),
        (laptop, readers_dot),
        (witness_browser, witness_dot),
    ):
        [push] = meeting(browser)
        assert push.payload["red_dot"] == dot


async def test_a_subscription_made_after_a_message_is_pushed_to_at_the_next_one(
    push_edge, standin, smtp_sink
):
    """The shard knew the reader had no subscription; subscribing tells it at once."""
    edge = await push_edge()
    admin = await member(edge, smtp_sink, "Gita")
    reader, witness = await member(edge, smtp_sink, "Ravi"), await member(edge, smtp_sink, "Wim")
    group_id = await new_group(admin, is_public=True)
    for person in (reader, witness):
        await person.call("/api/group?action=join", {"group_id": group_id})
    witness_browser = await _subscribe(witness, standin)
    await _send(admin, group_id, "first")
    # With one user shard, the witness's push shows the reader was decided on too.
    await _until(lambda: witness_browser.pushes)

    readers_browser = await _subscribe(reader, standin)
    await _send(admin, group_id, "second")
    await _until(lambda: readers_browser.pushes)

    [push] = readers_browser.pushes
    assert push.payload["body"] == "Gita: second"


async def test_a_browser_pushed_to_before_is_not_pushed_to_after_logging_out(
    push_edge, standin, smtp_sink
):
    edge = await push_edge()
    owner, asker, chat_id = await _chat(edge, smtp_sink)
    phone = await _subscribe(owner, standin)
    await _send(asker, chat_id, "before")
    await _until(lambda: phone.pushes)

    await owner.call("/api/user/logout")
    # Within the chat's window: a push the shard still thought possible would come at its end.
    await _send(asker, chat_id, "after")
    await asyncio.sleep(QUIET_SECONDS)

    assert [p.payload["body"] for p in phone.pushes] == ["Arun: before"]


async def test_a_browser_that_signs_in_as_someone_else_gets_only_their_pushes(
    push_edge, standin, smtp_sink
):
    edge = await push_edge()
    owner, asker, chat_id = await _chat(edge, smtp_sink)
    await _send(asker, chat_id, "hello")
    browser = await _subscribe(asker, standin)
    await _send(owner, chat_id, "first")
    await _until(lambda: browser.pushes)

    # The same browser subscription, sent by the owner: it is the owner's browser now.
    body = {"push_token": browser.token(), "os_type": "WEB_PUSH"}
    assert await owner.call("/update_push_token", body) == {"success": True}
    await _send(asker, chat_id, "to the owner")
    await _until(lambda: len(browser.pushes) == 2)
    await _send(owner, chat_id, "second")
    await asyncio.sleep(QUIET_SECONDS)

    assert [p.payload["body"] for p in browser.pushes] == ["Olga: first", "Arun: to the owner"]


async def test_a_socket_closed_right_after_viewing_ends_quietly(
    push_edge, smtp_sink, caplog, monkeypatch
):
    """`viewing` waits for the user's shard; the socket closing meanwhile took its session
    along (`KeyError: 'Session not found'`, logged with a traceback 199 times in 200)."""
    edge = await push_edge()
    person = await member(edge, smtp_sink)
    group_id = await new_group(person, is_public=True)
    handlers = event_handlers_run(edge, monkeypatch)
    for ack_id in range(5):
        async with raw_socket(edge, {"auth_key": person.key}) as screen:
            await screen.send_str(f"42{ack_id}" + json.dumps(["viewing", {"session_id": group_id}]))
    await asyncio.wait_for(asyncio.gather(*handlers), GUARD_SECONDS)
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert failures == [], [r.getMessage() for r in failures]


# Chats that get a message while the user shard is away: each is a chat of its own, so that
# every message is the first of its window and pushed at once.
CHATS_WHILE_AWAY = 3


async def test_messages_sent_while_the_user_shard_restarts_are_pushed_once_each(
    push_edge, push_deployment, settings_for, standin, smtp_sink
):
    """The user shard's process dies under its edge (issue 41, item 7: its node died, and
    the presence changes and messages its edge had for it were dropped, "a user shard lost N
    events"). The edge tells the shard Ray starts again what it could not tell the one that
    died, its whole presence first: every person away gets each message's push once, and the
    person looking at a chat none for it."""
    edge = await push_edge()
    admin = await member(edge, smtp_sink, "Gita")
    away = [await member(edge, smtp_sink, name) for name in ("Ravi", "Wim", "Ned")]
    looker = await member(edge, smtp_sink, "Lea")
    groups = [await new_group(admin, is_public=True) for _ in range(CHATS_WHILE_AWAY + 1)]
    for person in (*away, looker):
        for group_id in groups:
            await person.call("/api/group?action=join", {"group_id": group_id})
    browsers = {person.id: await _subscribe(person, standin) for person in (*away, looker)}
    screen = await _socket(edge, looker)
    assert await screen.call("viewing", {"session_id": groups[1]}) == {"ok": True}
    await _send(admin, groups[0], "before")
    await _until(lambda: all(browser.pushes for browser in browsers.values()))

    namespace = deployment_namespace(settings_for(**push_deployment))
    ray.kill(ray.get_actor(shard_name(USER_POOL, 0), namespace=namespace), no_restart=False)
    for n, group_id in enumerate(groups[1:], 1):
        await _send(admin, group_id, f"while away {n}")
    everything = ["Gita: before", *(f"Gita: while away {n}" for n in range(1, len(groups)))]
    await _until(
        lambda: all(len(browsers[p.id].pushes) == len(groups) for p in away), GUARD_SECONDS
    )
    await asyncio.sleep(QUIET_SECONDS)
    await screen.disconnect()

    for person in away:
        assert sorted(p.payload["body"] for p in browsers[person.id].pushes) == everything
    looked_at = "Gita: while away 1"
    assert sorted(p.payload["body"] for p in browsers[looker.id].pushes) == [
        body for body in everything if body != looked_at
    ]
    assert standin.refused == []


async def test_a_push_decided_while_the_store_is_away_is_sent_once_it_is_back(
    client_for, push_deployment, standin, smtp_sink, tmp_path, monkeypatch, caplog
):
    """The edge decides on a message's pushes a moment after acknowledging it, reading its
    chat's memberships; the store died in between (issue 41, item 7: "deciding on 14 queued
    pushes failed", and they were never pushed). The edge tries again until it is back."""
    # Long enough to stop the store between a message's acknowledgement and its decision.
    monkeypatch.setattr(push_service, "GATHER_SECONDS", 2.0)
    with own_store(tmp_path / "mongo") as (mongo_url, stop_store, start_store):
        edge = await client_for(
            **{
                **push_deployment,
                # Shards of its own: they use the store of the edge that started them.
                "redis_prefix": f"test:push-store:{uuid.uuid4().hex[:8]}:",
                "mongo_url": mongo_url,
                "mongo_server_selection_timeout_ms": STORE_WAIT_MS,
                "mongo_connect_timeout_ms": STORE_WAIT_MS,
            }
        )
        owner, asker = await member(edge, smtp_sink, "Olga"), await member(edge, smtp_sink, "Arun")
        group_id = await new_group(owner, is_public=True)
        scooter, bicycle = [await owner.post_item(group_id, t) for t in ("Scooter", "Bicycle")]
        browser = await _subscribe(owner, standin)
        # A first message in another chat: the shards run, and know the owner's subscription.
        await _send(asker, f"r_{scooter['_id']}_{asker.id}", "Is the scooter red?")
        await _until(lambda: browser.pushes, GUARD_SECONDS)

        await _send(asker, f"r_{bicycle['_id']}_{asker.id}", "Is the bicycle still for sale?")
        await asyncio.to_thread(stop_store)
        await _until(lambda: "queued pushes failed" in caplog.text, GUARD_SECONDS)
        await asyncio.to_thread(start_store)
        await _until(lambda: len(browser.pushes) == 2, GUARD_SECONDS)
        await asyncio.sleep(QUIET_SECONDS)

    assert [p.payload["body"] for p in browser.pushes] == [
        "Arun: Is the scooter red?",
        "Arun: Is the bicycle still for sale?",
    ]


async def test_a_mention_is_pushed_even_in_a_muted_chat_and_says_so(push_edge, standin, smtp_sink):
    edge = await push_edge()
    admin, reader, group_id, readers_browser, witness = await _group(edge, smtp_sink, standin)
    await reader.call("/session/user/update", {"session_id": group_id, "notification_flag": 30})
    body = {"dest_session_id": group_id, "payload": "@Ravi look", "local_id": uuid.uuid4().hex}
    sent = await admin.call("/session/send", {**body, "data": {"mentions": [reader.id]}})
    assert sent["inbox_message"]["data"]["mentions"] == [reader.id]
    await _until(lambda: readers_browser.pushes)
    await _send(admin, group_id, "nobody named")
    await asyncio.sleep(QUIET_SECONDS)
    [push] = readers_browser.pushes  # muted: the mention only
    assert push.payload["body"] == "Gita mentioned you: @Ravi look"
    # Whoever is not named hears of it as of any message.
    assert witness.pushes[0].payload["body"] == "Gita: @Ravi look"


async def test_all_reaches_muted_members_and_here_only_those_listening(
    push_edge, standin, smtp_sink
):
    edge = await push_edge()
    admin, reader, group_id, readers_browser, witness = await _group(edge, smtp_sink, standin)
    await reader.call("/session/user/update", {"session_id": group_id, "notification_flag": 30})
    here = {
        "payload": "@here coffee?",
        "local_id": uuid.uuid4().hex,
        "data": {"mentions": ["here"]},
    }
    await admin.call("/session/send", {"dest_session_id": group_id, **here})
    await _until(lambda: witness.pushes)
    everyone = {
        "payload": "@all meeting",
        "local_id": uuid.uuid4().hex,
        "data": {"mentions": ["all"]},
    }
    await admin.call("/session/send", {"dest_session_id": group_id, **everyone})
    await _until(lambda: readers_browser.pushes)
    await asyncio.sleep(QUIET_SECONDS)
    assert [p.payload["body"] for p in readers_browser.pushes] == [
        "Gita mentioned you: @all meeting"
    ]
    assert [p.payload["body"] for p in witness.pushes] == [
        "Gita mentioned you: @here coffee?",
        "Gita mentioned you: @all meeting",
    ]
