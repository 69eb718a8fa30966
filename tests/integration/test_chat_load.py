"""Chat correctness under load: a burst in which every message is sent three times at once,
over HTTP and the socket, by both sides of a chat. No timing is asserted."""

import asyncio
import random

import pytest
import socketio

from tests.integration.helpers import all_messages, item_chat, send_text, until

pytestmark = pytest.mark.usefixtures("ray_cluster")

BURST = 300
COPIES = ("http", "http", "socket")


async def _socket(client, person, heard: list[str] | None = None) -> socketio.AsyncClient:
    sio = socketio.AsyncClient(reconnection=False)
    if heard is not None:
        sio.on("message", lambda message: heard.append(message["id"]))
        sio.on("messages", lambda messages: heard.extend(m["id"] for m in messages))
    await sio.connect(
        str(client.make_url("/")), auth={"auth_key": person.key}, transports=["websocket"]
    )
    return sio


# 48 at a time keeps one batch in flight; all at once piles up more than a full batch
# (actors/client.py, BATCH_MAX) behind it, which goes out beside it.
@pytest.mark.parametrize("in_flight", [48, BURST * len(COPIES)])
async def test_a_burst_sent_three_times_over_http_and_sockets_is_stored_once_each_in_order(
    chat_client, smtp_sink, in_flight
):
    owner, asker, item = await item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    await send_text(asker, session_id, "first", local_id="first")
    heard: list[str] = []
    sockets = {
        owner.id: await _socket(chat_client, owner, heard),
        asker.id: await _socket(chat_client, asker),
    }
    gate = asyncio.Semaphore(in_flight)
    replies: dict[str, list[dict]] = {}

    async def send(n: int, way: str) -> None:
        sender = owner if n % 2 else asker
        body = {"dest_session_id": session_id, "payload": f"burst {n}", "local_id": f"b-{n}"}
        async with gate:
            if way == "http":
                reply = await sender.call("/session/send", body)
            else:
                reply = await sockets[sender.id].call("send", body, timeout=120)
        replies.setdefault(body["local_id"], []).append(reply)

    copies = [(n, way) for n in range(BURST) for way in COPIES]
    random.Random(16).shuffle(copies)
    await asyncio.gather(*(send(n, way) for n, way in copies))

    # Every copy was acknowledged, and all copies of a message name the same stored message.
    assert {r["type"] for rs in replies.values() for r in rs} == {13}
    acked = {local: {r["inbox_message"]["id"] for r in rs} for local, rs in replies.items()}
    assert all(len(ids) == 1 for ids in acked.values())
    # Stored once each, in strictly increasing order.
    stored = [m for m in await all_messages(owner, session_id) if m["local_id"] != "first"]
    assert {m["local_id"]: {m["id"]} for m in stored} == acked
    stamps = [m["created_at"] for m in stored]
    assert stamps == sorted(stamps) and len(set(stamps)) == BURST
    # The owner's screen heard each message, first hearings in the stored order.
    stored_ids = [m["id"] for m in stored]
    await until(lambda: set(stored_ids) <= set(heard), seconds=30)
    for sio in sockets.values():
        await sio.disconnect()
    first_heard = list(dict.fromkeys(i for i in heard if i in set(stored_ids)))
    assert first_heard == stored_ids
