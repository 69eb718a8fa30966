"""Fan-out frames go straight to idle websockets (`realtime/transport/websockets.py`); with the real
engine.io writer busy on the same socket (acknowledgements of the listener's own sends),
every message still arrives once and in the chat's order, and the socket's count of
packets on their way returns to zero."""

import asyncio

import pytest
import socketio

from agora.http.realtime import SOCKET_SERVER
from tests.integration.helpers import item_chat, send_text

# Sends go to the chat shards: run alone, this file starts Ray as the chat tests do.
pytestmark = pytest.mark.usefixtures("ray_cluster")

MESSAGES = 60


@pytest.mark.slow  # 10-30 s each: run by make test, left out of make check
async def test_a_listener_sending_meanwhile_gets_every_message_once_in_order(
    chat_client, smtp_sink
):
    owner, asker, item = await item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    await send_text(asker, session_id, "opening")
    heard: list[dict] = []
    listener = socketio.AsyncClient(reconnection=False)
    listener.on("message", heard.append)
    listener.on("messages", heard.extend)
    await listener.connect(
        str(chat_client.make_url("/")), auth={"auth_key": asker.key}, transports=["websocket"]
    )
    try:
        owners_sends = [send_text(owner, session_id, f"o{n}") for n in range(MESSAGES)]
        own_sends = [
            listener.call(
                "send", {"dest_session_id": session_id, "payload": f"a{n}", "local_id": f"a{n}"}
            )
            for n in range(MESSAGES)
        ]
        await asyncio.gather(*owners_sends, *own_sends)
        for _ in range(200):
            if len(heard) > 2 * MESSAGES:
                break
            await asyncio.sleep(0.05)
        sockets = chat_client.server.app[SOCKET_SERVER].eio.sockets.values()
        queues = [s.queue for s in sockets if getattr(s, "direct_transport", None)]
        for _ in range(100):  # the last events (receipts, counts) may still be on their way
            if all(queue.unsent == 0 for queue in queues):
                break
            await asyncio.sleep(0.02)
        unsent = [queue.unsent for queue in queues]
    finally:
        await listener.disconnect()
    sent = [m for m in heard if m["payload"] != "opening"]
    stamps = [m["created_at"] for m in sent]
    assert sorted(m["payload"] for m in sent) == sorted(
        [f"o{n}" for n in range(MESSAGES)] + [f"a{n}" for n in range(MESSAGES)]
    )
    assert stamps == sorted(stamps)
    assert unsent == [0]
