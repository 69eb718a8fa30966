"""A bare Socket.IO relay: what fan-out costs without actors, storage or unseen counts.

    python -m loadtest.relay REDIS_URL REDIS_PREFIX stock|rooms PORT

It is the edge's Socket.IO server (create_socket_server: the same ping settings and frame
sizes) with, by default ("stock"), python-socketio's own AsyncRedisManager: the bare
python-socketio relay the issue compares Agora with. "rooms" gives it the edge's manager
instead (a channel per room, coalesced frames in busy rooms), which tells how much of a
difference is that manager's. A send is published to Redis and comes back to the room's
sockets exactly as an actor's does in Agora. A send is accepted over HTTP at the path Agora
uses, so the same senders drive both, and as a Socket.IO "send" event with an ack. Anyone
may join any room: there is no login to check.
"""

import sys
import time
import uuid
from typing import Any

import socketio
from aiohttp import web

from agora.core.chat.checks import CHAT_MESSAGE_KINDS
from agora.core.chat.constants import MESSAGE_TYPE_CHAT, SEND_REPLY_OK
from agora.core.chat.rooms import session_room
from agora.core.chat.views import message_view
from agora.core.message_kinds import ChatKinds
from agora.http.realtime import SOCKET_PATH, create_socket_server
from agora.settings import Settings

SEND_PATH = "/session/send"
KINDS = ChatKinds(CHAT_MESSAGE_KINDS)


def _message(body: dict[str, Any]) -> dict[str, Any]:
    # The shape Agora emits, so both servers encode frames of the same size.
    return message_view(
        {
            "_id": uuid.uuid4().hex[:24],
            "dest_session_id": body["dest_session_id"],
            "src_id": "relay",
            "local_id": body.get("local_id"),
            "created_at": int(time.time() * 1000),
            "type": MESSAGE_TYPE_CHAT,
            "payload": body.get("payload", ""),
            "flags": {"status": "sent"},
        },
        KINDS,
    )


def build(settings: Settings, manager: str = "stock") -> web.Application:
    stock = socketio.AsyncRedisManager(settings.redis_url, channel=settings.socketio_channel)
    sio = create_socket_server(settings, stock if manager == "stock" else None)
    app = web.Application()

    async def relay(body: dict[str, Any]) -> dict[str, Any]:
        message = _message(body)
        await sio.emit("message", message, room=session_room(message["dest_session_id"]))
        return {"type": SEND_REPLY_OK, "inbox_message": message}

    @sio.on("join")
    async def join(sid: str, data: dict[str, Any]) -> dict[str, Any]:
        await sio.enter_room(sid, session_room(data["session_id"]))
        return {"ok": True}

    @sio.on("send")
    async def send_event(sid: str, data: dict[str, Any]) -> dict[str, Any]:
        return await relay(data)

    async def send_http(request: web.Request) -> web.Response:
        return web.json_response(await relay(await request.json()))

    app.router.add_post(SEND_PATH, send_http)
    sio.attach(app, socketio_path=SOCKET_PATH)
    return app


def main() -> None:
    redis_url, prefix, manager, port = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    base_url = f"http://127.0.0.1:{port}"
    settings = Settings(redis_url=redis_url, redis_prefix=prefix, public_base_url=base_url)
    web.run_app(build(settings, manager), host="127.0.0.1", port=port, print=None)


if __name__ == "__main__":
    main()
