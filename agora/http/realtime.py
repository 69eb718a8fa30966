"""Socket.IO on the edge's port: authenticated connects, rooms spanning edges through Redis.

A signed-in socket enters its user's room and the rooms of every chat its user follows (a
member allowed to read), so one event per message reaches all of them; a screen derives
unseen badges from those events and asks for exact counts (`unseen`) when it connects.
"""

import asyncio
import contextlib
import gc
import logging
from http.cookies import SimpleCookie
from typing import Any

import socketio
from aiohttp import web
from pydantic import ValidationError

from agora.core.chat import session_room, user_room
from agora.core.constants import SEND_REPLY_REFUSED
from agora.core.errors import AgoraError, NeedLogin
from agora.http.accounts import GUEST_COOKIE
from agora.http.chat import DeliveryBody, SendBody
from agora.http.replies import ok
from agora.http.requests import field_errors, optional_session
from agora.services.accounts import AccountService, Session
from agora.services.chat import ChatService
from agora.services.push import PushService
from agora.settings import Settings
from agora.store.realtime import key_room, socket_manager

log = logging.getLogger("agora.realtime")

SOCKET_PATH = "/socket.io"
RETRY_MS = 5000
VIEWING_ID_MAX_CHARS = 200
SOCKET_SERVER = web.AppKey("socket_server", socketio.AsyncServer)


def create_socket_server(
    settings: Settings, client_manager: socketio.AsyncManager | None = None
) -> socketio.AsyncServer:
    return socketio.AsyncServer(
        async_mode="aiohttp",
        # One Redis channel per room: an edge decodes only events for rooms it serves.
        client_manager=client_manager or socket_manager(settings),
        cors_allowed_origins=sorted({settings.public_base_url, *settings.cors_origins}),
        # Idle sockets cost memory on every edge; detect dead peers within a minute.
        ping_interval=25,
        ping_timeout=20,
        max_http_buffer_size=1_000_000,
    )


def settle_garbage_collector() -> None:
    """What the edge holds once started (Ray, drivers, modules) lives as long as it does:
    frozen, it is left out of full collections. Those walked all of it and stopped the
    event loop for 90-220 ms with 1,000 sockets open, a fan-out stalled half-way."""
    gc.collect()
    gc.freeze()


def _guest_cookie(environ: dict[str, Any]) -> str | None:
    cookie = SimpleCookie()
    with contextlib.suppress(Exception):
        cookie.load(environ.get("HTTP_COOKIE", ""))
    morsel = cookie.get(GUEST_COOKIE)
    return morsel.value if morsel else None


def attach(
    app: web.Application,
    sio: socketio.AsyncServer,
    accounts: AccountService,
    chat: ChatService,
    push: PushService,
) -> None:
    @sio.event
    async def connect(sid: str, environ: dict[str, Any], auth: Any) -> None:
        key = auth.get("auth_key") if isinstance(auth, dict) else None
        if isinstance(key, str) and key:
            try:
                session = await accounts.authenticate(key)
            except NeedLogin as exc:
                raise socketio.exceptions.ConnectionRefusedError(
                    exc.errors, {"need_user": True}
                ) from exc
            user_id = session.user["_id"]
            await sio.save_session(sid, {"session": session, "user_id": user_id})
            followed = [session_room(s) for s in await chat.followed_sessions(user_id)]
            rooms = [user_room(user_id), key_room(session.key_hash), *followed]
            await sio.manager.enter_rooms(sid, "/", rooms)
            push.socket_connected(sid, user_id)
            return
        guest, _ = accounts.guest(_guest_cookie(environ))
        await sio.save_session(sid, {"session": None, "user_id": None, "guest_id": guest["_id"]})

    async def caller(sid: str) -> Session | None:
        return (await sio.get_session(sid)).get("session")

    @sio.on("join")
    async def join(sid: str, data: Any) -> dict[str, Any]:
        session_id = data.get("session_id") if isinstance(data, dict) else None
        if not isinstance(session_id, str) or not await chat.can_join(
            await caller(sid), session_id
        ):
            return {"errors": "You cannot read this chat"}
        await sio.enter_room(sid, session_room(session_id))
        return {"ok": True}

    @sio.on("leave")
    async def leave(sid: str, data: Any) -> None:
        """A closed chat window; the socket stays in the rooms of chats its user follows."""
        session_id = data.get("session_id") if isinstance(data, dict) else None
        if isinstance(session_id, str) and not await chat.follows(await caller(sid), session_id):
            await sio.leave_room(sid, session_room(session_id))

    @sio.event
    async def disconnect(sid: str, *reason: Any) -> None:
        push.socket_closed(sid)

    @sio.on("viewing")
    async def viewing(sid: str, data: Any) -> dict[str, Any]:
        """The chat this socket's tab shows while visible (null: none, or hidden): its user
        gets no push for that chat meanwhile."""
        session_id = data.get("session_id") if isinstance(data, dict) else None
        if session_id is not None and (
            not isinstance(session_id, str) or len(session_id) > VIEWING_ID_MAX_CHARS
        ):
            return {"errors": {"session_id": "Must be a chat id or null"}}
        await push.socket_viewing(sid, session_id)
        return {"ok": True}

    @sio.on("unseen")
    async def unseen(sid: str, data: Any) -> dict[str, Any]:
        """Exact counts for a screen that (re)connected: the red dot and the muted chats."""
        session = await caller(sid)
        if session is None:
            return {"errors": "Please login to continue", "need_user": True}
        return await chat.unseen_summary(session.user["_id"])

    @sio.on("typing")
    async def typing(sid: str, data: Any) -> dict[str, Any]:
        session = await caller(sid)
        if session is None:
            return {"errors": "Please login to continue", "need_user": True}
        session_id = data.get("session_id") if isinstance(data, dict) else None
        if not isinstance(session_id, str):
            return {"errors": {"session_id": "This field is required"}}
        try:
            await chat.typing(session, session_id)
        except AgoraError as error:
            return {"errors": error.errors}
        return {"ok": True}

    async def mark(sid: str, data: Any, status: str) -> dict[str, Any]:
        session = await caller(sid)
        if session is None:
            return {"errors": "Please login to continue", "need_user": True}
        try:
            body = DeliveryBody.model_validate(data)
            await chat.mark(session, body.session_id, body.created_at, status)
        except ValidationError as exc:
            return {"errors": field_errors(exc)}
        except AgoraError as error:
            return {"errors": error.errors}
        return {"ok": True}

    @sio.on("delivered")
    async def delivered(sid: str, data: Any) -> dict[str, Any]:
        return await mark(sid, data, "delivered")

    @sio.on("read")
    async def read(sid: str, data: Any) -> dict[str, Any]:
        return await mark(sid, data, "read")

    @sio.on("send")
    async def send(sid: str, data: Any) -> dict[str, Any]:
        session = await caller(sid)
        if session is None:
            return {
                "type": SEND_REPLY_REFUSED,
                "errors": "You need Login to chat.",
                "need_user": True,
            }
        try:
            body = SendBody.model_validate(data)
            return await chat.send(session, body.send_input())
        except ValidationError as exc:
            return {"type": SEND_REPLY_REFUSED, "errors": field_errors(exc)}
        except AgoraError as error:
            # A reply, never silence: the client would wait for its acknowledgement.
            return {"type": SEND_REPLY_REFUSED, "errors": error.errors, **error.extra}

    async def disconnect_revoked(stop: asyncio.Event) -> None:
        """A logout anywhere closes the sockets that used that key on this edge."""
        async for key_hash in accounts.revoked_keys(stop):
            for sid, _ in list(sio.manager.get_participants("/", key_room(key_hash))):
                await sio.disconnect(sid)

    async def start_listener(app: web.Application):
        settle_garbage_collector()
        stop = asyncio.Event()
        tasks = [
            asyncio.create_task(disconnect_revoked(stop), name="revocation-listener"),
            asyncio.create_task(push.keep_presence(stop), name="presence-reports"),
        ]
        yield
        stop.set()
        await asyncio.gather(*tasks)

    async def connect_info(request: web.Request) -> web.Response:
        session = optional_session(request)
        return ok(
            {
                "path": SOCKET_PATH,
                "transports": ["websocket", "polling"],
                "user_id": session.user["_id"] if session else None,
                "retry_ms": RETRY_MS,
            }
        )

    # Events the edge's own services publish reach its sockets without a trip through Redis,
    # and sockets they move into a room are in it before the call returns.
    chat.publish_through(sio.manager)
    app[SOCKET_SERVER] = sio
    app.cleanup_ctx.append(start_listener)
    app.router.add_get("/realtime/connect", connect_info)
    sio.attach(app, socketio_path=SOCKET_PATH)
