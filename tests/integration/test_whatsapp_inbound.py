"""Every kind of customer message Meta delivers, stored in the business chat with its data:
media fetched from the Graph API (stand-in) and kept as uploads, reactions set on the
message they react to."""

import asyncio
import io
import time

import pytest
import socketio
from PIL import Image
from pymongo import AsyncMongoClient

from agora.app import WHATSAPP
from tests.integration.helpers import all_messages
from tests.integration.whatsapp_setup import (  # noqa: F401 (fixtures)
    Business,
    business_edge,
    business_fixture,
)
from tests.whatsapp_signing import (
    button,
    contact,
    contacts_message,
    interactive_reply,
    location,
    media,
    reaction,
    text,
    unsupported,
    webhook,
)

pytestmark = pytest.mark.usefixtures("ray_cluster")

CUSTOMER = "15550003333"


def jpeg() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), (200, 30, 30)).save(out, "JPEG")
    return out.getvalue()


async def received(business: Business, *messages) -> list[dict]:
    """Delivers the messages (one delivery) and returns the chat's messages after."""
    body = webhook(
        business.number.phone_number_id,
        contacts=[contact(CUSTOMER, "Kerry")],
        messages=list(messages),
    )
    assert await business.deliver(body) == 200
    await business.settled()
    return await all_messages(business.admin, business.chat_id(CUSTOMER))


async def test_text_location_contacts_replies_buttons_and_unknown_kinds(business):
    card = {
        "name": {"formatted_name": "Ann Lee", "first_name": "Ann"},
        "phones": [{"phone": "+1 555 0101", "type": "CELL", "wa_id": "15550101"}],
        "emails": [{"email": "ann@example.org", "type": "WORK"}],
        "org": {"company": "Lee & Co", "title": "Boss"},
        "birthday": "1990-01-01",
    }
    sent = [
        text(CUSTOMER, "Hello"),
        location(CUSTOMER, 52.37, 4.89, name="Dam", address="Dam 1, Amsterdam"),
        contacts_message(CUSTOMER, [card]),
        interactive_reply(CUSTOMER, "button_reply", "yes-1", "Yes please"),
        interactive_reply(CUSTOMER, "list_reply", "row-2", "Large", "The big one"),
        button(CUSTOMER, "Thanks", "thanks-payload", reply_to="wamid.template"),
        unsupported(CUSTOMER),
    ]
    stored = await received(business, *sent)
    by_kind = {m["data"]["wa"]["kind"]: m for m in stored}
    assert [m["local_id"] for m in stored] == [m["id"] for m in sent]
    assert all(m["type"] == 1020 for m in stored)

    assert by_kind["text"]["data"]["txt"] == "Hello"
    assert by_kind["location"]["data"]["location"] == {
        "latitude": 52.37,
        "longitude": 4.89,
        "address": "Dam 1, Amsterdam",
        "name": "Dam",
    }
    assert by_kind["contacts"]["data"]["contacts"] == [
        {
            "name": {"formatted_name": "Ann Lee"},
            "phones": [{"phone": "+1 555 0101", "type": "CELL"}],
            "emails": [{"email": "ann@example.org", "type": "WORK"}],
            "org": {"company": "Lee & Co"},
        }
    ]
    replies = [m for m in stored if m["data"]["wa"]["kind"] == "interactive"]
    assert [m["data"]["interactive"] for m in replies] == [
        {"type": "button_reply", "id": "yes-1", "title": "Yes please"},
        {"type": "list_reply", "id": "row-2", "title": "Large", "description": "The big one"},
    ]
    assert [m["payload"] for m in replies] == ["Yes please", "Large"]
    tapped = by_kind["button"]
    assert (tapped["payload"], tapped["data"]["button"]) == (
        "Thanks",
        {"payload": "thanks-payload"},
    )
    assert tapped["data"]["context"] == {"reply_to_wamid": "wamid.template"}
    assert by_kind["unsupported"]["data"]["wa"]["errors"] == [
        {"code": 131051, "title": "Message type unknown"}
    ]


async def test_a_message_keeps_when_the_customer_sent_it_however_late_it_arrives(business):
    sent_at = int(time.time()) - 25 * 3600
    late = text(CUSTOMER, "Are you open tomorrow?", timestamp=str(sent_at))
    [stored] = await received(business, late)
    assert stored["data"]["wa"]["sent_at"] == sent_at * 1000
    # Stored in the order it arrived: the chat's paging follows `created_at`.
    assert stored["created_at"] > sent_at * 1000 + 24 * 3600 * 1000


async def test_referrals_and_forwarded_messages_keep_their_context(business):
    referral = {
        "source_url": "https://fb.me/ad",
        "source_type": "ad",
        "source_id": "120",
        "headline": "Spring sale",
        "body": "Half price",
        "media_type": "image",
        "image_url": "https://example.com/ad.jpg",
        "ctwa_clid": "ARA",
        "unknown": "dropped",
    }
    from_ad = text(CUSTOMER, "I saw your ad", referral=referral)
    forwarded = text(CUSTOMER, "look", context={"forwarded": True, "frequently_forwarded": True})
    stored = await received(business, from_ad, forwarded)
    assert stored[0]["data"]["referral"] == {k: v for k, v in referral.items() if k != "unknown"}
    assert stored[1]["data"]["context"] == {"forwarded": True, "frequently_forwarded": True}


async def test_media_is_fetched_with_the_channels_token_and_kept_as_an_upload(
    business, whatsapp_standin
):
    token = business.number.access_token
    picture = whatsapp_standin.add_media(jpeg(), "image/jpeg", token)
    voice = whatsapp_standin.add_media(b"OggS voice", "audio/ogg; codecs=opus", token)
    clip = whatsapp_standin.add_media(b"\x00\x00\x00\x18ftypmp42", "video/mp4", token)
    paper = whatsapp_standin.add_media(b"%PDF-1.4 invoice", "application/pdf", token)
    sticker_bytes = io.BytesIO()
    Image.new("RGB", (16, 16)).save(sticker_bytes, "WEBP")
    sticker = whatsapp_standin.add_media(sticker_bytes.getvalue(), "image/webp", token)
    stored = await received(
        business,
        media(CUSTOMER, "image", picture, "image/jpeg", caption="The red one"),
        media(CUSTOMER, "audio", voice, "audio/ogg; codecs=opus", voice=True),
        media(CUSTOMER, "video", clip, "video/mp4"),
        media(CUSTOMER, "document", paper, "application/pdf", filename="invoice.pdf"),
        media(CUSTOMER, "sticker", sticker, "image/webp", animated=False),
    )
    kept = {m["data"]["wa"]["kind"]: m for m in stored}
    image = kept["image"]
    assert (image["payload"], image["data"]["txt"]) == ("The red one", "The red one")
    expected = {
        "image": "image/jpeg",
        "audio": "audio/ogg",
        "video": "video/mp4",
        "document": "application/pdf",
        "sticker": "image/webp",
    }
    for kind, mime_type in expected.items():
        [item] = kept[kind]["data"]["media_urls"]
        assert item["mime_type"] == mime_type
        assert item["url"].startswith("/uploads/")
        served = await business.edge.get(item["url"])
        assert served.status == 200
        assert served.headers["Content-Type"] == mime_type
    assert kept["document"]["data"]["media_urls"][0]["title"] == "invoice.pdf"
    assert await (
        await business.edge.get(kept["audio"]["data"]["media_urls"][0]["url"])
    ).read() == (b"OggS voice")
    assert kept["image"]["data"]["media_urls"][0]["thumbnail"]


async def test_media_whatsapp_refuses_is_left_out_and_a_failing_download_is_tried_again(
    business, whatsapp_standin, mongo_url
):
    token = business.number.access_token
    gone = whatsapp_standin.add_media(b"%PDF-1.4", "application/pdf", token)
    whatsapp_standin.fail_next(status=404, code=100, only="media")
    [refused] = await received(business, media(CUSTOMER, "document", gone, "application/pdf"))
    assert refused["data"]["media_urls"] == []
    assert refused["data"]["media_error"]

    later = whatsapp_standin.add_media(b"%PDF-1.4 later", "application/pdf", token)
    whatsapp_standin.fail_next(status=503, only="download")
    pending = media(CUSTOMER, "document", later, "application/pdf", filename="later.pdf")
    assert len(await received(business, pending)) == 1  # not stored yet: tried again later

    mongo = AsyncMongoClient(mongo_url)
    await mongo["agora_test"]["whatsapp_events"].update_many(
        {"processed_at": None, "channel_ids": business.channel["_id"]}, {"$set": {"lease_until": 0}}
    )
    await mongo.close()
    assert await business.edge.server.app[WHATSAPP].webhooks.recover() >= 1
    stored = await all_messages(business.admin, business.chat_id(CUSTOMER))
    assert stored[-1]["local_id"] == pending["id"]
    assert stored[-1]["data"]["media_urls"][0]["title"] == "later.pdf"


async def test_a_reaction_sets_the_messages_reactions_and_updates_open_screens(business, edge):
    [liked] = await received(business, text(CUSTOMER, "Great, thanks"))
    updates: asyncio.Queue = asyncio.Queue()
    sio = socketio.AsyncClient(reconnection=False)
    sio.on("message_update", updates.put_nowait)
    await sio.connect(
        str(edge.make_url("/")), auth={"auth_key": business.admin.key}, transports=["websocket"]
    )
    try:
        stored = await received(business, reaction(CUSTOMER, liked["local_id"], "👍"))
        assert len(stored) == 1  # a reaction is no message
        assert stored[0]["data"]["reactions"] == {CUSTOMER: "👍"}
        update = await asyncio.wait_for(updates.get(), 20)
        assert update["session_id"] == business.chat_id(CUSTOMER)
        assert update["message"]["id"] == liked["id"]
        assert update["message"]["data"]["reactions"] == {CUSTOMER: "👍"}

        stored = await received(business, reaction(CUSTOMER, liked["local_id"], ""))
        assert stored[0]["data"].get("reactions") == {}
        assert (await asyncio.wait_for(updates.get(), 20))["message"]["data"]["reactions"] == {}
    finally:
        await sio.disconnect()


async def test_malformed_messages_are_skipped_and_the_rest_stored(business):
    good = text(CUSTOMER, "still here")
    broken = [
        {"from": "not-digits", "id": "wamid.x1", "timestamp": "1700000000", "type": "text"},
        {"from": CUSTOMER, "id": "wamid.x2", "timestamp": "yesterday", "type": "text"},
        {"from": CUSTOMER, "id": "bad id with spaces", "timestamp": "1700000000", "type": "text"},
        location(CUSTOMER, 91.5, 0),
        "not an object",
    ]
    stored = await received(business, *broken, good)
    assert [m["payload"] for m in stored] == ["still here"]
