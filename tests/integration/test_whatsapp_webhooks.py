"""Meta's webhooks: the handshake, signatures checked before anything is read or stored,
customers' messages stored once in their business chat, seen by the group's agents only."""

import asyncio
import json

import aiohttp
import pytest
import socketio
from pymongo import AsyncMongoClient

from agora.app import EVENTS, WHATSAPP
from agora.services.events import WhatsAppStatusReceived
from tests.integration.helpers import all_messages, member, send_text
from tests.integration.whatsapp_setup import (  # noqa: F401 (fixtures)
    Business,
    business_edge,
    business_fixture,
    connected_business,
)
from tests.whatsapp_signing import contact, new_wamid, sign, status, text, webhook

pytestmark = pytest.mark.usefixtures("ray_cluster")

CUSTOMER = "15550001111"


@pytest.fixture
async def db(mongo_url):
    client = AsyncMongoClient(mongo_url)
    yield client["agora_test"]
    await client.close()


def from_customer(business: Business, *messages, wa_id=CUSTOMER, name="Kerry Fisher") -> dict:
    return webhook(
        business.number.phone_number_id,
        business.number.business_account_id,
        contacts=[contact(wa_id, name)],
        messages=list(messages),
    )


async def test_the_subscription_handshake_answers_the_challenge_for_a_known_token(business):
    query = {"hub.mode": "subscribe", "hub.verify_token": business.verify_token}
    reply = await business.edge.get("/webhooks/whatsapp", params={**query, "hub.challenge": "42"})
    assert (reply.status, await reply.text()) == (200, "42")
    wrong = {**query, "hub.verify_token": "nope", "hub.challenge": "42"}
    assert (await business.edge.get("/webhooks/whatsapp", params=wrong)).status == 403
    assert (await business.edge.get("/webhooks/whatsapp")).status == 403

    path = f"/api/groups/{business.group_id}/whatsapp"
    await business.admin.call(f"{path}/disable")
    challenge = {**query, "hub.challenge": "42"}
    assert (await business.edge.get("/webhooks/whatsapp", params=challenge)).status == 403
    assert await business.deliver(from_customer(business, text(CUSTOMER, "closed?"))) == 401
    await business.admin.call(f"{path}/enable")
    assert (await business.edge.get("/webhooks/whatsapp", params=challenge)).status == 200
    assert await business.deliver(from_customer(business, text(CUSTOMER, "open?"))) == 200


async def test_a_delivery_without_a_valid_signature_is_refused_and_nothing_is_stored(business, db):
    before = await db["whatsapp_events"].count_documents({})
    body = from_customer(business, text(CUSTOMER, "hello"))
    assert await business.deliver(body, secret="another-app-secret") == 401
    assert await business.deliver(body, headers={"Content-Type": "application/json"}) == 401
    raw = json.dumps(body).encode()
    for signature in ("sha256=", "sha1=abc", "sha256=" + "0" * 64, "sha256=zz\u00e9"):
        headers = {"X-Hub-Signature-256": signature}
        reply = await business.edge.post("/webhooks/whatsapp", data=raw, headers=headers)
        assert reply.status == 401
    await business.settled()
    assert await db["whatsapp_events"].count_documents({}) == before
    assert await db["sessions"].find_one({"_id": business.chat_id(CUSTOMER)}) is None


@pytest.mark.parametrize("depth", [1_200, 40])
async def test_a_signed_delivery_nested_too_deeply_is_refused_and_nothing_is_stored(
    business, db, depth
):
    """Read with the same depth cap as request bodies: past it, or past what the parser can
    follow, is a 400 (Meta's deliveries nest about ten levels)."""
    before = await db["whatsapp_events"].count_documents({})
    nested = "[" * depth + "]" * depth
    raw = f'{{"object": "whatsapp_business_account", "entry": [], "x": {nested}}}'.encode()
    reply = await business.edge.post(
        "/webhooks/whatsapp",
        data=raw,
        headers={"Content-Type": "application/json", **sign(raw, business.app_secret)},
    )
    assert reply.status == 400, await reply.text()
    assert "errors" in await reply.json()
    await business.settled()
    assert await db["whatsapp_events"].count_documents({}) == before


async def test_a_message_delivered_three_times_two_at_once_is_stored_once(business):
    message = text(CUSTOMER, "Do you deliver on Sundays?")
    body = from_customer(business, message)
    statuses = await asyncio.gather(business.deliver(body), business.deliver(body))
    await business.settled()
    assert await business.deliver(body) == 200
    await business.settled()
    assert statuses == [200, 200]

    chat_id = business.chat_id(CUSTOMER)
    stored = await all_messages(business.admin, chat_id)
    assert len(stored) == 1
    [inbound] = stored
    assert inbound["type"] == 1020
    assert inbound["src_id"] == f"wa:{CUSTOMER}"
    assert inbound["local_id"] == message["id"]
    assert inbound["payload"] == "Do you deliver on Sundays?"
    sent_at = int(message["timestamp"]) * 1000  # Meta's time of the message, not its arrival
    assert inbound["data"]["wa"] == {"wamid": message["id"], "kind": "text", "sent_at": sent_at}
    assert inbound["data"]["txt"] == "Do you deliver on Sundays?"


async def test_agents_see_the_business_chat_with_its_window_and_no_secret(business):
    await business.deliver(from_customer(business, text(CUSTOMER, "hi")))
    await business.settled()
    chat_id = business.chat_id(CUSTOMER)

    chats = (await business.admin.call("/user/chats"))["sessions"]
    [listed] = [s for s in chats if s["_id"] == chat_id]
    assert (listed["title"], listed["kind"]) == ("Kerry Fisher", "business")
    assert listed["session_user_type"] == 10
    assert listed["can_send"] is True
    whatsapp = listed["data"]["whatsapp"]
    assert whatsapp["wa_id"] == CUSTOMER
    assert whatsapp["profile_name"] == "Kerry Fisher"
    assert whatsapp["channel_id"] == business.channel["_id"]
    assert whatsapp["group_id"] == business.group_id
    assert whatsapp["window_ends_at"] == whatsapp["last_inbound_at"] + 24 * 3600 * 1000
    assert listed["last_message"]["payload"] == "hi"

    session = await business.admin.call("/session/messages", {"session_id": chat_id})
    secrets = (business.app_secret, business.verify_token, business.number.access_token)
    for reply in (listed, session, await business.admin.call("/user/chats")):
        assert not any(secret in json.dumps(reply) for secret in secrets)


async def test_an_agent_of_another_group_cannot_read_or_answer_the_chat(
    business, edge, smtp_sink, whatsapp_standin
):
    await business.deliver(from_customer(business, text(CUSTOMER, "private question")))
    await business.settled()
    chat_id = business.chat_id(CUSTOMER)
    other = await connected_business(edge, smtp_sink, whatsapp_standin)
    stranger = await member(edge, smtp_sink, "Stranger")
    for outsider in (other.admin, stranger):
        # To those outside it, the chat is as if it did not exist.
        await outsider.call("/session/messages", {"session_id": chat_id}, status=404)
        refused = await send_text(outsider, chat_id, "let me answer")
        assert refused["type"] == -1
        assert chat_id not in [s["_id"] for s in (await outsider.call("/user/chats"))["sessions"]]
    # Nor may anyone post as the customer (type 1020 is the server's alone).
    forged = await send_text(business.admin, chat_id, "forged", _type=1020)
    assert forged["type"] == -1
    assert len(await all_messages(business.admin, chat_id)) == 1


async def test_a_member_made_moderator_joins_the_business_chats_at_once_and_leaves_when_blocked(
    business, edge, smtp_sink
):
    await business.deliver(from_customer(business, text(CUSTOMER, "first")))
    await business.settled()
    newcomer = await member(edge, smtp_sink, "Newcomer")
    await newcomer.call("/api/group?action=join", {"group_id": business.group_id})
    moderate = {"session_id": business.group_id, "for_user_id": newcomer.id}
    await business.admin.call("/session/user/update", {**moderate, "action": "approve"})
    chat_id = business.chat_id(CUSTOMER)

    # An ordinary member is no agent.
    await business.deliver(from_customer(business, text(CUSTOMER, "second")))
    await business.settled()
    assert chat_id not in [s["_id"] for s in (await newcomer.call("/user/chats"))["sessions"]]
    await newcomer.call("/session/messages", {"session_id": chat_id}, status=404)

    # Made moderator: in the chat before the customer writes again.
    await business.admin.call("/session/user/update", {**moderate, "action": "make_moderator"})
    chats = (await newcomer.call("/user/chats"))["sessions"]
    [listed] = [s for s in chats if s["_id"] == chat_id]
    assert (listed["session_user_type"], listed["can_send"]) == (15, True)
    await business.deliver(from_customer(business, text(CUSTOMER, "third")))
    await business.settled()
    stored = await all_messages(newcomer, chat_id)
    assert [m["payload"] for m in stored] == ["first", "second", "third"]

    # Blocked in the group: the customer's chat is closed to them at once.
    await business.admin.call("/session/user/update", {**moderate, "action": "block"})
    assert chat_id not in [s["_id"] for s in (await newcomer.call("/user/chats"))["sessions"]]
    await newcomer.call("/session/messages", {"session_id": chat_id}, status=404)
    refused = await send_text(newcomer, chat_id, "still here?", _type=1018)
    assert refused["type"] == -1
    await business.deliver(from_customer(business, text(CUSTOMER, "fourth")))
    await business.settled()
    await newcomer.call("/session/messages", {"session_id": chat_id}, status=404)


async def test_an_agents_socket_receives_the_customers_message(business, edge):
    heard: asyncio.Queue = asyncio.Queue()
    sio = socketio.AsyncClient(reconnection=False)
    sio.on("message", heard.put_nowait)
    await sio.connect(
        str(edge.make_url("/")), auth={"auth_key": business.admin.key}, transports=["websocket"]
    )
    try:
        wa_id = "15550002222"
        await business.deliver(from_customer(business, text(wa_id, "ping"), wa_id=wa_id))
        message = await asyncio.wait_for(heard.get(), 20)
        assert message["type"] == 1020
        assert message["payload"] == "ping"
        assert message["dest_session_id"] == business.chat_id(wa_id)
    finally:
        await sio.disconnect()


async def test_entries_of_a_number_the_signer_does_not_own_are_ignored(
    business, edge, smtp_sink, whatsapp_standin
):
    other = await connected_business(edge, smtp_sink, whatsapp_standin)
    # Signed with the first channel's secret, but about the other channel's number.
    body = webhook(other.number.phone_number_id, messages=[text(CUSTOMER, "spoofed")])
    assert await business.deliver(body) == 200
    await business.settled()
    chats = (await other.admin.call("/user/chats"))["sessions"]
    assert other.chat_id(CUSTOMER) not in [s["_id"] for s in chats]


async def test_a_delivery_left_unprocessed_is_taken_up_by_the_sweep(business, db):
    message = text(CUSTOMER, "sent while the edge died")
    raw = json.dumps(from_customer(business, message))
    await db["whatsapp_events"].insert_one(
        {
            "_id": "stalled-" + message["id"][-12:],
            "raw": raw,
            "channel_ids": [business.channel["_id"]],
            "received_at": 1,
            "processed_at": None,
            "lease_until": 1,
            "attempts": 1,
        }
    )
    assert await business.edge.server.app[WHATSAPP].webhooks.recover() >= 1
    stored = await all_messages(business.admin, business.chat_id(CUSTOMER))
    assert [m["payload"] for m in stored] == ["sent while the edge died"]
    assert (await db["whatsapp_events"].find_one({"_id": "stalled-" + message["id"][-12:]}))[
        "processed_at"
    ]


async def test_one_customers_messages_keep_their_order(business):
    messages = [text(CUSTOMER, f"part {n}", wamid=new_wamid()) for n in range(6)]
    for message in messages:
        assert await business.deliver(from_customer(business, message)) == 200
    await business.settled()
    stored = await all_messages(business.admin, business.chat_id(CUSTOMER))
    assert [m["payload"] for m in stored] == [f"part {n}" for n in range(6)]


async def test_a_signed_body_that_is_not_utf8_json_is_refused_and_not_stored(business, db):
    before = await db["whatsapp_events"].count_documents({})
    for raw in (b"not json", json.dumps({"a": "\u00e9"}).encode("utf-16"), b"\xff\xfe{}"):
        headers = {"Content-Type": "application/json", **sign(raw, business.app_secret)}
        reply = await business.edge.post("/webhooks/whatsapp", data=raw, headers=headers)
        assert reply.status == 400, raw
    assert await db["whatsapp_events"].count_documents({}) == before


async def test_the_standins_control_api_signs_and_delivers_for_the_browser_suite(
    business, whatsapp_standin
):
    async with aiohttp.ClientSession() as http:
        control = f"{whatsapp_standin.origin}/_standin"
        body = from_customer(business, text(CUSTOMER, "from the e2e suite"))
        url = str(business.edge.make_url("/webhooks/whatsapp"))
        async with http.post(
            f"{control}/webhook", json={"url": url, "app_secret": business.app_secret, "body": body}
        ) as reply:
            assert (await reply.json())["status"] == 200
        async with http.post(f"{control}/numbers", json={"display_phone_number": "+1 555"}) as r:
            assert (await r.json())["phone_number_id"] in whatsapp_standin.numbers
        async with http.get(f"{control}/sent") as reply:
            assert (await reply.json()) == {"sent": []}
    await business.settled()
    stored = await all_messages(business.admin, business.chat_id(CUSTOMER))
    assert [m["payload"] for m in stored] == ["from the e2e suite"]


async def test_statuses_are_published_for_the_outbound_side(business):
    heard: list[WhatsAppStatusReceived] = []

    async def hear(event: WhatsAppStatusReceived) -> None:
        heard.append(event)

    business.edge.server.app[EVENTS].subscribe(WhatsAppStatusReceived, hear)
    failed = status("wamid.OURS2", "failed", CUSTOMER, errors=[{"code": 131047, "title": "x"}])
    body = webhook(
        business.number.phone_number_id,
        statuses=[status("wamid.OURS1", "delivered", CUSTOMER), failed, {"id": 5}],
    )
    assert await business.deliver(body) == 200
    await business.settled()
    assert [(e.channel_id, e.status["id"], e.status["status"]) for e in heard] == [
        (business.channel["_id"], "wamid.OURS1", "delivered"),
        (business.channel["_id"], "wamid.OURS2", "failed"),
    ]
    assert heard[1].status["errors"] == [{"code": 131047, "title": "x"}]
    # A delivery of statuses alone opens no chat.
    chats = (await business.admin.call("/user/chats"))["sessions"]
    assert business.chat_id(CUSTOMER) not in [s["_id"] for s in chats]


async def test_processed_deliveries_are_kept_a_week_then_deleted(business, db):
    await business.deliver(from_customer(business, text(CUSTOMER, "kept for a while")))
    await business.settled()
    mine = {"channel_ids": business.channel["_id"]}
    [kept] = await db["whatsapp_events"].find(mine).to_list()
    assert kept["processed_at"] and kept["outcome"] == "done"
    deliveries = business.edge.server.app[WHATSAPP].webhooks.deliveries
    await deliveries.forget_processed(kept["processed_at"])
    assert await db["whatsapp_events"].count_documents(mine) == 1
    await deliveries.forget_processed(kept["processed_at"] + 1)
    assert await db["whatsapp_events"].count_documents(mine) == 0


# Meta sends up to a thousand updates in one delivery (a status is about 300 bytes), past the
# 256 KiB a client may send. A hundred statuses here, the rest of the size a field the edge
# ignores: each status costs the store three commands, and a thousand took the test 15-30 s.
BATCH_STATUSES = 100


async def test_a_large_batch_of_updates_is_taken_whole(business, db):
    statuses = [status(new_wamid(), "delivered", CUSTOMER) for _ in range(BATCH_STATUSES)]
    body = from_customer(business, text(CUSTOMER, "and a message"))
    body["entry"][0]["changes"][0]["value"]["statuses"] = statuses
    body["padding"] = "x" * (256 * 1024)
    assert len(json.dumps(body)) > 256 * 1024
    assert await business.deliver(body) == 200
    await business.settled()
    stored = await all_messages(business.admin, business.chat_id(CUSTOMER))
    assert [m["payload"] for m in stored] == ["and a message"]
    # Every status was handled: none names a message of ours yet, so each is kept for it.
    kept = {"channel_id": business.channel["_id"]}
    assert await db["whatsapp_early_statuses"].count_documents(kept) == BATCH_STATUSES
    too_large = {**body, "padding": "x" * (3 * 1024 * 1024)}
    assert await business.deliver(too_large) == 413
