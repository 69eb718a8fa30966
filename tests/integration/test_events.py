"""Domain events on a real edge: what the features to come (push, finder's fees) hear."""

import pytest

from agora.app import EVENTS
from agora.services.events import MessageStored, OfferPaid
from tests.integration.helpers import item_chat, member, new_group, send_text

pytestmark = pytest.mark.usefixtures("ray_cluster")


def _heard(client, event_type) -> list:
    heard: list = []

    async def keep(event) -> None:
        heard.append(event)

    client.app[EVENTS].subscribe(event_type, keep)
    return heard


async def test_each_stored_message_is_published_once_by_the_edge_that_sent_it(
    chat_client, smtp_sink
):
    stored = _heard(chat_client, MessageStored)
    owner, asker, item = await item_chat(chat_client, smtp_sink)
    chat_id = f"r_{item['_id']}_{asker.id}"
    # The first message makes the dummy item chat real; its resend is acknowledged again.
    first = await send_text(asker, chat_id, "Still there?", local_id="first")
    again = await send_text(asker, chat_id, "Still there?", local_id="first")
    assert again["inbox_message"]["id"] == first["inbox_message"]["id"]
    answer = await send_text(owner, chat_id, "Yes")

    in_chat = [e for e in stored if e.session_id == chat_id]
    assert [(e.sender_id, e.message["id"], e.message["payload"]) for e in in_chat] == [
        (asker.id, first["inbox_message"]["id"], "Still there?"),
        (owner.id, answer["inbox_message"]["id"], "Yes"),
    ]
    assert in_chat[0].message == first["inbox_message"]


async def test_a_paid_offer_is_published_with_who_paid_whom_how_much(chat_client, smtp_sink):
    paid = _heard(chat_client, OfferPaid)
    owner = await member(chat_client, smtp_sink, "Olga")
    asker = await member(chat_client, smtp_sink, "Arun")
    group_id = await new_group(owner, is_public=True)
    item = await owner.post_item(group_id, "Lost cat", offer_amount=7, offer_currency="POINTS")
    chat_id = f"r_{item['_id']}_{asker.id}"
    await send_text(asker, chat_id, "I can help")
    reply = await owner.call("/api/giveoffer", {"cs_id": chat_id, "request_id": "r1"})

    assert paid == [
        OfferPaid(
            move_id=reply["move_id"],
            payer_id=owner.id,
            payee_id=asker.id,
            session_id=chat_id,
            item_id=item["_id"],
            group_id=group_id,
            item_title="Lost cat",
            payer_name="Olga",
            payee_name="Arun",
            amount_cents=700,
            currency="POINTS",
        )
    ]
