"""Agents' replies in business chats, through the Graph API stand-in: each kind reaches
WhatsApp in Meta's shape, flags (s1, wa_f, wa_ns, statuses, clicks) land on the message and
reach the agents' sockets, the 24-hour window and the template price hold."""

import asyncio
import time
import uuid
from decimal import Decimal
from urllib.parse import urlsplit

import pytest
import socketio

from agora.app import EVENTS, WHATSAPP_REPLIES
from agora.core.chat.constants import MESSAGE_TYPE_CHAT, USER_TYPE_ADMIN, USER_TYPE_MODERATOR
from agora.core.money import wallet_id
from agora.core.whatsapp.constants import (
    MESSAGE_TYPE_WA_RICH,
    MESSAGE_TYPE_WA_STATUS,
    MESSAGE_TYPE_WA_TEMPLATE,
    MESSAGE_TYPE_WA_TEXT,
    SESSION_KIND_BUSINESS,
)
from agora.core.whatsapp.outbound import WINDOW_CLOSED
from agora.services.events import WhatsAppStatusReceived
from tests import whatsapp_signing as signed
from tests.integration.helpers import (
    all_messages,
    deployment_stores,
    member,
    new_group,
    send_text,
)
from tests.integration.test_uploads import png_bytes, put, upload_link
from tests.integration.whatsapp_setup import connected_business

pytestmark = pytest.mark.usefixtures("ray_cluster")

HOUR_MS = 3600 * 1000
TEMPLATE = {
    "name": "order_update",
    "language": "en_US",
    "parameters": {"body": ["Ann", "#42"], "buttons": ["42"]},
}


@pytest.fixture
async def stores(settings_for, chat_prefix):
    async with deployment_stores(settings_for(redis_prefix=chat_prefix)) as stores:
        yield stores


@pytest.fixture
def edge_with(client_for, chat_prefix, whatsapp_standin):
    async def start(**overrides):
        return await client_for(
            whatsapp_graph_url=whatsapp_standin.base_url,
            session_shards=2,
            redis_prefix=chat_prefix,
            **overrides,
        )

    return start


class Shop:
    """A group with a connected WhatsApp number and one customer's business chat."""

    def __init__(self, edge, admin, moderator, group_id, channel, number, chat_id, wa_id):
        self.edge = edge
        self.admin = admin
        self.moderator = moderator
        self.group_id = group_id
        self.channel = channel
        self.number = number
        self.chat_id = chat_id
        self.wa_id = wa_id


async def open_shop(edge, smtp_sink, standin, stores, *, inbound_ago_ms: int = HOUR_MS) -> Shop:
    admin = await member(edge, smtp_sink, "Admin")
    moderator = await member(edge, smtp_sink, "Moderator")
    group_id = await new_group(admin)
    number = standin.add_number()
    body = {
        "phone_number_id": number.phone_number_id,
        "business_account_id": number.business_account_id,
        "access_token": number.access_token,
        "app_secret": "app-secret-0123456789abcdef",
        "verify_token": "verify-me-please",
    }
    channel = (await admin.call(f"/api/groups/{group_id}/whatsapp", body))["channel"]
    wa_id = str(4915000000000 + uuid.uuid4().int % 10**9)
    chat_id = f"wa_{channel['_id']}_{wa_id}"
    last = int(time.time() * 1000) - inbound_ago_ms
    # The business chat as the inbound side makes it (wa-in's business chats).
    session = {
        "_id": chat_id,
        "kind": SESSION_KIND_BUSINESS,
        "title": "Ann",
        "is_public": False,
        "is_read_allowed": False,
        "write_permission": USER_TYPE_MODERATOR,
        "created_at": last,
        "updated_at": last,
        "is_inactive": False,
        "data": {
            "whatsapp": {
                "channel_id": channel["_id"],
                "group_id": group_id,
                "wa_id": wa_id,
                "profile_name": "Ann",
                "last_inbound_at": last,
                "window_ends_at": last + 24 * HOUR_MS,
            }
        },
    }
    agents = {admin.id: USER_TYPE_ADMIN, moderator.id: USER_TYPE_MODERATOR}
    await stores.sessions.create_once(session, agents)
    return Shop(edge, admin, moderator, group_id, channel, number, chat_id, wa_id)


async def reply(agent, chat_id: str, message_type: int, payload: str = "", **extra) -> dict:
    return await send_text(agent, chat_id, payload, _type=message_type, **extra)


async def message_until(agent, chat_id: str, created_at: int, condition) -> dict:
    """The message once `condition(message)` holds (what the send's task does is awaited by
    reading, never by sleeping a fixed time)."""
    for _ in range(400):
        found = [m for m in await all_messages(agent, chat_id) if m["created_at"] == created_at]
        if found and condition(found[0]):
            return found[0]
        await asyncio.sleep(0.025)
    raise AssertionError(f"the message never got there: {found}")


async def balance(db, wallet: str) -> int:
    """The balance after the wallet's latest ledger entry (the ledger is the record)."""
    [latest] = (
        await db["ledger_entries"].find({"wallet_id": wallet}).sort("seq", -1).limit(1).to_list()
    )
    return latest["change_to"]


def accepted(reply: dict) -> dict:
    assert reply["type"] == 13, reply
    return reply["inbox_message"]


async def sent_message(shop: Shop, message_type: int, payload: str = "", **extra) -> dict:
    """The message once WhatsApp accepted it."""
    sent = accepted(await reply(shop.admin, shop.chat_id, message_type, payload, **extra))
    return await message_until(
        shop.admin, shop.chat_id, sent["created_at"], lambda m: "s1" in m["info"]
    )


async def test_each_kind_reaches_whatsapp_in_metas_shape(
    edge_with, smtp_sink, whatsapp_standin, stores
):
    edge = await edge_with()
    shop = await open_shop(edge, smtp_sink, whatsapp_standin, stores)
    text = await sent_message(shop, MESSAGE_TYPE_WA_TEXT, "Hello, see https://agora.example")
    assert text["data"]["wa"]["wamid"].startswith("wamid.")
    answer = await sent_message(
        shop, MESSAGE_TYPE_WA_TEXT, "Yes", data={"context": {"reply_to": text["created_at"]}}
    )
    link = await upload_link(edge, shop.admin.key, "image/png")
    assert (await put(edge, link, png_bytes())).status == 200
    image = {"wa_kind": "image"}
    await sent_message(
        shop, MESSAGE_TYPE_WA_RICH, "Our shop", payload1=[link["file_url"]], data=image
    )
    place = {"latitude": 52.52, "longitude": 13.4, "name": "Shop", "address": "Main St 1"}
    await sent_message(shop, MESSAGE_TYPE_WA_RICH, data={"wa_kind": "location", "location": place})
    card = {"name": {"formatted_name": "Bo Lee"}, "phones": [{"phone": "+49 30 1", "type": "WORK"}]}
    await sent_message(shop, MESSAGE_TYPE_WA_RICH, data={"wa_kind": "contacts", "contacts": [card]})
    buttons = {"type": "button", "body": "Pick up?", "buttons": [{"id": "y", "title": "Yes"}]}
    await sent_message(
        shop, MESSAGE_TYPE_WA_RICH, data={"wa_kind": "interactive", "interactive": buttons}
    )
    await shop.admin.call(f"/api/groups/{shop.group_id}/whatsapp/templates/sync")
    template = await sent_message(shop, MESSAGE_TYPE_WA_TEMPLATE, data={"template": TEMPLATE})
    assert template["payload"] == "Hello Ann, your order #42 is on its way."
    assert template["info"]["s0"] is True

    sent = [m.payload for m in whatsapp_standin.sent_to(shop.wa_id)]
    assert [(p["type"], p["messaging_product"], p["recipient_type"]) for p in sent] == [
        (kind, "whatsapp", "individual")
        for kind in ("text", "text", "image", "location", "contacts", "interactive", "template")
    ]
    assert sent[0]["text"] == {"preview_url": True, "body": "Hello, see https://agora.example"}
    assert sent[1]["context"] == {"message_id": text["data"]["wa"]["wamid"]}
    assert answer["data"]["context"]["reply_to_wamid"] == text["data"]["wa"]["wamid"]
    assert sent[2]["image"]["caption"] == "Our shop"
    assert sent[2]["image"]["link"] == f"http://127.0.0.1:8080{link['file_url']}"
    assert sent[3]["location"] == place
    assert sent[4]["contacts"][0]["name"] == {"formatted_name": "Bo Lee", "first_name": "Bo Lee"}
    assert sent[5]["interactive"]["action"]["buttons"] == [
        {"type": "reply", "reply": {"id": "y", "title": "Yes"}}
    ]
    assert sent[6]["template"] == {
        "name": "order_update",
        "language": {"code": "en_US"},
        "components": [
            {"type": "body", "parameters": [{"type": "text", "text": t} for t in ("Ann", "#42")]},
            {
                "type": "button",
                "sub_type": "url",
                "index": "0",
                "parameters": [{"type": "text", "text": "42"}],
            },
        ],
    }
    wamids = {m.wamid for m in whatsapp_standin.sent_to(shop.wa_id)}
    stored = {m["data"]["wa"]["wamid"] for m in await all_messages(shop.admin, shop.chat_id)}
    assert stored == wamids


async def test_a_refusal_of_whatsapp_gives_wa_f_with_its_errors(
    edge_with, smtp_sink, whatsapp_standin, stores
):
    shop = await open_shop(await edge_with(), smtp_sink, whatsapp_standin, stores)
    whatsapp_standin.fail_next(status=400, code=131026, only="messages")
    sent = accepted(await reply(shop.admin, shop.chat_id, MESSAGE_TYPE_WA_TEXT, "hi"))
    failed = await message_until(
        shop.admin, shop.chat_id, sent["created_at"], lambda m: "wa_f" in m["info"]
    )
    assert "s1" not in failed["info"] and "wamid" not in failed["data"]["wa"]
    [error] = failed["info"]["wa_errors"]
    assert error["code"] == 131026 and error["message"]
    # The other agent opens the chat: their read mark says nothing of the customer.
    await shop.moderator.call("/session/messages", {"session_id": shop.chat_id})
    info = await shop.admin.get(
        f"/session/im_info?session_id={shop.chat_id}&created_at={sent['created_at']}"
    )
    assert info["info"]["whatsapp"]["wa_errors"] == [error]
    assert (info["info"]["read"], info["info"]["delivered"]) == ([], [])


async def test_statuses_out_of_order_give_the_right_final_flags(
    edge_with, smtp_sink, whatsapp_standin, stores
):
    edge = await edge_with()
    shop = await open_shop(edge, smtp_sink, whatsapp_standin, stores)
    events: list[dict] = []
    sio = socketio.AsyncClient(reconnection=False)
    sio.on("wa_status", events.append)
    await sio.connect(
        str(edge.make_url("/")), auth={"auth_key": shop.moderator.key}, transports=["websocket"]
    )
    try:
        first = await sent_message(shop, MESSAGE_TYPE_WA_TEXT, "one")
        second = await sent_message(shop, MESSAGE_TYPE_WA_TEXT, "two")

        def status(message, kind, at, **extra):
            raw = {"id": message["data"]["wa"]["wamid"], "status": kind, "timestamp": str(at)}
            return WhatsAppStatusReceived(shop.channel["_id"], {**raw, **extra})

        errors = [{"code": 131047, "title": "Re-engagement message", "message": "24 h passed"}]
        for event in (
            status(first, "read", 1_700_000_300),
            status(first, "delivered", 1_700_000_200),
            status(first, "delivered", 1_700_000_200),  # Meta delivers at least once
            status(first, "sent", 1_700_000_100),
            status(second, "sent", 1_700_000_100),
            status(second, "failed", 1_700_000_400, errors=errors),
            status(second, "delivered", 1_700_000_500),
        ):
            await edge.app[EVENTS].publish(event)
        read = await message_until(
            shop.admin, shop.chat_id, first["created_at"], lambda m: "wa_s" in m["info"]
        )
        assert read["info"]["wa_r"] == 1_700_000_300_000
        assert read["info"]["wa_d"] == 1_700_000_200_000
        failed = await message_until(
            shop.admin, shop.chat_id, second["created_at"], lambda m: "wa_d" in m["info"]
        )
        assert failed["info"]["wa_f"] == 1_700_000_400_000
        assert failed["info"]["wa_errors"] == errors
        # The agent's socket heard each change as a 1022 update with the whole flags.
        for _ in range(200):
            if any("wa_r" in e["info"] and "wa_s" in e["info"] for e in events):
                break
            await asyncio.sleep(0.025)
        assert {e["type"] for e in events} == {MESSAGE_TYPE_WA_STATUS}
        assert any(e["id"] == first["id"] and "s1" in e["info"] for e in events)
        assert events[-1]["session_id"] == shop.chat_id
        info = await shop.admin.get(
            f"/session/im_info?session_id={shop.chat_id}&created_at={first['created_at']}"
        )
        assert info["info"]["whatsapp"]["wa_r"] == 1_700_000_300_000
    finally:
        await sio.disconnect()


async def test_free_form_outside_the_window_is_refused_and_a_template_allowed(
    edge_with, smtp_sink, whatsapp_standin, stores
):
    edge = await edge_with()
    shop = await open_shop(edge, smtp_sink, whatsapp_standin, stores, inbound_ago_ms=25 * HOUR_MS)
    refused = await reply(shop.admin, shop.chat_id, MESSAGE_TYPE_WA_TEXT, "too late")
    assert refused == {"type": -1, "errors": {"_type": WINDOW_CLOSED}}
    location = {"wa_kind": "location", "location": {"latitude": 1, "longitude": 2}}
    refused = await reply(shop.admin, shop.chat_id, MESSAGE_TYPE_WA_RICH, data=location)
    assert refused["errors"] == {"_type": WINDOW_CLOSED}
    # Not synced yet: no template to fill.
    unknown = await reply(
        shop.admin, shop.chat_id, MESSAGE_TYPE_WA_TEMPLATE, data={"template": TEMPLATE}
    )
    assert "template" in unknown["errors"]
    synced = await shop.admin.call(f"/api/groups/{shop.group_id}/whatsapp/templates/sync")
    assert [t["name"] for t in synced["templates"]] == ["hello_world", "order_update"]
    listed = await shop.moderator.get(f"/api/whatsapp/templates?session_id={shop.chat_id}")
    assert listed == synced
    template = await sent_message(shop, MESSAGE_TYPE_WA_TEMPLATE, data={"template": TEMPLATE})
    assert template["data"]["template"]["footer"] == "Agora shop"
    assert [m.payload["type"] for m in whatsapp_standin.sent_to(shop.wa_id)] == ["template"]


async def test_the_template_price_is_charged_once_and_wa_ns_when_unpaid(
    edge_with, smtp_sink, whatsapp_standin, stores
):
    edge = await edge_with(whatsapp_template_price=Decimal("2.5"))
    shop = await open_shop(edge, smtp_sink, whatsapp_standin, stores)
    await shop.admin.call(f"/api/groups/{shop.group_id}/whatsapp/templates/sync")
    wallet = wallet_id(shop.admin.id, "POINTS")
    before = await balance(stores.db, wallet)
    body = {"data": {"template": TEMPLATE}, "local_id": "tpl-1"}
    await sent_message(shop, MESSAGE_TYPE_WA_TEMPLATE, **body)
    # The same send again is the same message: neither sent nor charged again.
    again = accepted(await reply(shop.admin, shop.chat_id, MESSAGE_TYPE_WA_TEMPLATE, **body))
    assert await balance(stores.db, wallet) == before - 250
    charges = (
        await stores.db["ledger_entries"]
        .find({"wallet_id": wallet, "ref_type": "whatsapp_template"})
        .to_list()
    )
    assert [c["diff"] for c in charges] == [-250]
    assert len(whatsapp_standin.sent_to(shop.wa_id)) == 1

    # A price the wallet cannot pay: not sent, flagged wa_ns, nothing taken.
    dear = await edge_with(whatsapp_template_price=Decimal("1000"))
    shop.admin.client = dear
    unpaid = accepted(
        await reply(shop.admin, shop.chat_id, MESSAGE_TYPE_WA_TEMPLATE, data={"template": TEMPLATE})
    )
    flagged = await message_until(
        shop.admin, shop.chat_id, unpaid["created_at"], lambda m: "wa_ns" in m["info"]
    )
    assert "s1" not in flagged["info"] and again["id"] != unpaid["id"]
    assert await balance(stores.db, wallet) == before - 250
    assert len(whatsapp_standin.sent_to(shop.wa_id)) == 1


async def test_a_disabled_channel_sends_nothing(edge_with, smtp_sink, whatsapp_standin, stores):
    shop = await open_shop(await edge_with(), smtp_sink, whatsapp_standin, stores)
    await shop.admin.call(f"/api/groups/{shop.group_id}/whatsapp/disable")
    sent = accepted(await reply(shop.admin, shop.chat_id, MESSAGE_TYPE_WA_TEXT, "hello?"))
    await message_until(
        shop.admin, shop.chat_id, sent["created_at"], lambda m: "wa_ns" in m["info"]
    )
    assert whatsapp_standin.sent_to(shop.wa_id) == []


async def test_a_template_link_click_is_counted_and_redirected(
    edge_with, smtp_sink, whatsapp_standin, stores
):
    edge = await edge_with()
    shop = await open_shop(edge, smtp_sink, whatsapp_standin, stores)
    await shop.admin.call(f"/api/groups/{shop.group_id}/whatsapp/templates/sync")
    template = await sent_message(shop, MESSAGE_TYPE_WA_TEMPLATE, data={"template": TEMPLATE})
    tracked, quick = template["data"]["template"]["buttons"]
    assert quick == {"type": "QUICK_REPLY", "text": "Thanks"}
    path = urlsplit(tracked["url"]).path
    assert path.startswith("/wa/c/")
    for count in (1, 2):
        followed = await edge.get(path, allow_redirects=False)
        assert followed.status == 302
        assert followed.headers["Location"] == "https://example.com/track/42"
        clicked = await message_until(
            shop.admin,
            shop.chat_id,
            template["created_at"],
            lambda m, n=count: m["info"].get("wa_click") == n,
        )
    assert clicked["info"]["wa_click"] == 2
    assert (await edge.get("/wa/c/not-a-token", allow_redirects=False)).status == 404


async def test_only_the_chats_agents_send_and_only_whatsapp_messages(
    edge_with, smtp_sink, whatsapp_standin, stores
):
    edge = await edge_with()
    shop = await open_shop(edge, smtp_sink, whatsapp_standin, stores)
    stranger = await member(edge, smtp_sink, "Other shop")
    other_group = await new_group(stranger)
    refused = await reply(stranger, shop.chat_id, MESSAGE_TYPE_WA_TEXT, "I am not an agent")
    assert refused["type"] == -1
    # To a stranger the chat and the private group are as if they did not exist.
    await stranger.get(f"/api/whatsapp/templates?session_id={shop.chat_id}", status=404)
    await stranger.call(f"/api/groups/{shop.group_id}/whatsapp/templates/sync", status=404)
    # A chat message would never reach the customer; WhatsApp messages go to business chats.
    assert (await reply(shop.admin, shop.chat_id, MESSAGE_TYPE_CHAT, "note"))["type"] == -1
    in_group = await reply(stranger, other_group, MESSAGE_TYPE_WA_TEXT, "hi")
    assert in_group["type"] == -1
    assert whatsapp_standin.sent_to(shop.wa_id) == []


async def test_a_customer_writes_an_agent_answers_and_status_webhooks_move_the_flags(
    edge_with, smtp_sink, whatsapp_standin
):
    edge = await edge_with()
    business = await connected_business(edge, smtp_sink, whatsapp_standin)
    customer = "15550002222"
    question = signed.text(customer, "Is it in stock?")
    inbound = signed.webhook(
        business.number.phone_number_id,
        business.number.business_account_id,
        contacts=[signed.contact(customer, "Kim")],
        messages=[question],
    )
    assert await business.deliver(inbound) == 200
    await business.settled()
    chat_id = business.chat_id(customer)
    [asked] = await all_messages(business.admin, chat_id)

    # The customer's message opened the window; the answer quotes it.
    answer = accepted(
        await reply(
            business.admin,
            chat_id,
            MESSAGE_TYPE_WA_TEXT,
            "Yes, two left",
            data={"context": {"reply_to": asked["created_at"]}},
        )
    )
    sent = await message_until(
        business.admin, chat_id, answer["created_at"], lambda m: "s1" in m["info"]
    )
    [payload] = [m.payload for m in whatsapp_standin.sent_to(customer)]
    assert payload["context"] == {"message_id": question["id"]}
    wamid = sent["data"]["wa"]["wamid"]

    def statuses(*states):
        return signed.webhook(
            business.number.phone_number_id,
            business.number.business_account_id,
            statuses=[signed.status(wamid, state, customer) for state in states],
        )

    # Read before delivered, in two deliveries, the second one twice.
    assert await business.deliver(statuses("read")) == 200
    assert await business.deliver(statuses("sent", "delivered")) == 200
    assert await business.deliver(statuses("sent", "delivered")) == 200
    await business.settled()
    [_, flagged] = await all_messages(business.admin, chat_id)
    assert {"s1", "wa_s", "wa_d", "wa_r"} <= set(flagged["info"])
    assert "wa_f" not in flagged["info"]
    # The chat list's row shows the answer as it is now, not as its shard keeps it.
    rows = (await business.admin.call("/user/chats", {}))["sessions"]
    [listed] = [row["last_message"] for row in rows if row["_id"] == chat_id]
    assert {"wa_s", "wa_d", "wa_r"} <= set(listed["info"]), listed


async def test_a_reply_an_edge_stored_but_never_sent_is_sent_by_the_sweep(
    edge_with, smtp_sink, whatsapp_standin, stores
):
    edge = await edge_with()
    shop = await open_shop(edge, smtp_sink, whatsapp_standin, stores)
    sent = await sent_message(shop, MESSAGE_TYPE_WA_TEXT, "first")
    assert "wa_q" not in sent["info"]  # off the queue once it has an outcome
    stored = await stores.db["messages"].find_one({"_id": sent["id"]})
    long_ago = stored["created_at"] - 10 * 60_000
    # As an edge leaves them when it dies: one stored and never sent, one cut off mid-send.
    unsent, cut_off = (
        {
            **stored,
            "_id": uuid.uuid4().hex,
            "local_id": uuid.uuid4().hex,
            "created_at": stored["created_at"] + n,
            "payload": f"left {n}",
            "data": {"wa": {"kind": "text"}},
            "info": {"wa_q": long_ago, **claim},
        }
        for n, claim in ((1, {}), (2, {"wa_claim": long_ago}))
    )
    await stores.db["messages"].insert_many([unsent, cut_off])

    await edge.app[WHATSAPP_REPLIES].outbound.sweep()
    await edge.app[WHATSAPP_REPLIES].outbound.sweep()  # a second sweep sends nothing again
    resent = await stores.db["messages"].find_one({"_id": unsent["_id"]})
    assert "s1" in resent["info"] and "wa_q" not in resent["info"]
    assert [m.payload["text"]["body"] for m in whatsapp_standin.sent_to(shop.wa_id)] == [
        "first",
        "left 1",
    ]
    interrupted = await stores.db["messages"].find_one({"_id": cut_off["_id"]})
    assert interrupted["info"]["wa_errors"][0]["title"] == "Interrupted"
    assert "wa_q" not in interrupted["info"]
