"""Socket.IO on the edge's port: authenticated connects, rooms spanning edges through Redis.

A signed-in socket enters its user's room and the rooms of every chat its user follows (a
member allowed to read), so one event per message reaches all of them; a screen derives
unseen badges from those events and asks for exact counts (`unseen`) when it connects.
"""

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable
from http.cookies import SimpleCookie
from typing import Any

from aiohttp import web
from pydantic import Field, ValidationError

from agora.core.chat.constants import SEND_REPLY_REFUSED
from agora.core.chat.rooms import session_room, user_room, viewer_room
from agora.core.errors import AgoraError, InvalidInput, NeedLogin
from agora.http.accounts import GUEST_COOKIE
from agora.http.chat import DeliveryBody, SendBodies
from agora.http.chat_reactions import ReactBody
from agora.http.replies import UNAVAILABLE_MESSAGE, UNEXPECTED_FAILURE, ok
from agora.http.requests import Body, field_errors, optional_caller
from agora.http.routes import Reply, Route
from agora.realtime.emitter import key_room, socket_manager
from agora.realtime.transport import (
    MALFORMED_EVENT,
    CheckedSocketServer,
    ConnectionRefused,
    EdgePacket,
    RoomChannelManager,
    SocketServer,
    close_sockets,
    start_receiving,
)
from agora.services.accounts import AccountService, Caller
from agora.services.chat.chat_list import UnseenCounts
from agora.services.chat.live import ChatRooms, Typing
from agora.services.chat.reacting import Reacting
from agora.services.chat.receipts import Receipts
from agora.services.chat.sending import Sending
from agora.services.push import PushService
from agora.settings import Settings
from agora.store.outages import UNREACHABLE

log = logging.getLogger("agora.realtime")

SOCKET_PATH = "/socket.io"
RETRY_MS = 5000
SESSION_ID_MAX_CHARS = 200
SOCKET_SERVER = web.AppKey("socket_server", SocketServer)


class ChatEventBody(Body):
    """What `join`, `leave` and `typing` name: a chat, as text (a lone surrogate is no text:
    refused here, it failed in the store's encoding)."""

    session_id: str = Field(max_length=SESSION_ID_MAX_CHARS)


class ViewingBody(Body):
    session_id: str | None = Field(max_length=SESSION_ID_MAX_CHARS)


class ConnectInfoReply(Reply):
    path: str
    transports: list[str]
    user_id: str | None
    retry_ms: int


async def connect_info(request: web.Request) -> web.Response:
    caller = optional_caller(request)
    return ok(
        {
            "path": SOCKET_PATH,
            "transports": ["websocket", "polling"],
            "user_id": caller.user["_id"] if caller else None,
            "retry_ms": RETRY_MS,
        }
    )


def routes() -> list[Route]:
    return [
        Route(
            "GET",
            "/realtime/connect",
            connect_info,
            "Where and how to open the socket",
            reply=ConnectInfoReply,
        )
    ]


def create_socket_server(
    settings: Settings, client_manager: RoomChannelManager | None = None
) -> SocketServer:
    return CheckedSocketServer(
        async_mode="aiohttp",
        serializer=EdgePacket,
        # One Redis channel per room: an edge decodes only events for rooms it serves.
        client_manager=client_manager or socket_manager(settings),
        cors_allowed_origins=sorted({settings.public_base_url, *settings.cors_origins}),
        # Idle sockets cost memory on every edge; detect dead peers within a minute.
        ping_interval=25,
        ping_timeout=20,
        max_http_buffer_size=1_000_000,
    )


def _guest_cookie(environ: dict[str, Any]) -> str | None:
    cookie = SimpleCookie()
    with contextlib.suppress(Exception):
        cookie.load(environ.get("HTTP_COOKIE", ""))
    morsel = cookie.get(GUEST_COOKIE)
    return morsel.value if morsel else None


def signed_in(caller: Caller | None, refusal: str = "Please login to continue") -> Caller:
    if caller is None:
        raise NeedLogin(refusal)
    return caller


# The answer to an event of a socket that closed meanwhile: written nowhere.
SOCKET_CLOSED = "The socket closed"
SocketHandler = Callable[[str, Any], Awaitable[dict[str, Any]]]


def answering(
    sio: SocketServer, **refusal: Any
) -> Callable[[SocketHandler], Callable[..., Awaitable[dict]]]:
    """Every client event goes through here, so each one asked for an acknowledgement gives
    one: bad, missing or extra arguments and every failure answer `{errors}` (with
    `refusal`'s fields), as an HTTP call would, instead of leaving the client waiting for an
    answer that never comes. A socket that closed while its event was handled has nobody to
    answer: what failed for that (its session, its rooms are gone) ends quietly."""

    def wrap(handler: SocketHandler) -> Callable[..., Awaitable[dict]]:
        @functools.wraps(handler)
        async def answer(sid: str, *args: Any) -> dict[str, Any]:
            try:
                if len(args) > 1:
                    raise InvalidInput("Send one object with the event")
                return await handler(sid, args[0] if args else None)
            except ValidationError as exc:
                return {**refusal, "errors": field_errors(exc)}
            except AgoraError as error:
                return {**refusal, "errors": error.errors, **error.extra}
            except UNREACHABLE as exc:
                log.warning("a backing service is unreachable on a socket event: %r", exc)
                return {**refusal, "errors": UNAVAILABLE_MESSAGE}
            except Exception as exc:
                if not sio.manager.is_connected(sid, "/"):
                    log.info("socket %s closed during its %s: %r", sid, handler.__name__, exc)
                    return {**refusal, "errors": SOCKET_CLOSED}
                log.exception("socket event %s failed", handler.__name__)
                return {**refusal, "errors": UNEXPECTED_FAILURE}

        return answer

    return wrap


def attach(
    app: web.Application,
    sio: SocketServer,
    accounts: AccountService,
    push: PushService,
    *,
    sends: SendBodies,
    sending: Sending,
    receipts: Receipts,
    chat_rooms: ChatRooms,
    unseen_counts: UnseenCounts,
    typing_signals: Typing,
    reacting: Reacting,
) -> None:
    @sio.event
    async def connect(sid: str, environ: dict[str, Any], auth: Any) -> None:
        key = auth.get("auth_key") if isinstance(auth, dict) else None
        if isinstance(key, str) and key:
            try:
                caller = await accounts.authenticate(key)
            except NeedLogin as exc:
                raise ConnectionRefused(exc.errors, {"need_user": True}) from exc
            user_id = caller.user["_id"]
            await sio.save_session(sid, {"caller": caller, "user_id": user_id})
            followed = [session_room(s) for s in await chat_rooms.followed_sessions(user_id)]
            rooms = [user_room(user_id), key_room(caller.key_hash), *followed]
            await sio.manager.enter_rooms(sid, "/", rooms)
            push.socket_connected(sid, user_id)
            return
        guest, _ = accounts.guest(_guest_cookie(environ))
        await sio.save_session(sid, {"caller": None, "user_id": None, "guest_id": guest["_id"]})

    async def socket_caller(sid: str) -> Caller | None:
        return (await sio.get_session(sid)).get("caller")

    @sio.on(MALFORMED_EVENT)
    @answering(sio)
    async def malformed(sid: str, data: Any) -> dict[str, Any]:
        raise InvalidInput("The event's data is not valid JSON or nests too deeply")

    @sio.on("join")
    @answering(sio)
    async def join(sid: str, data: Any) -> dict[str, Any]:
        session_id = ChatEventBody.model_validate(data).session_id
        rooms = await chat_rooms.rooms_to_hear(await socket_caller(sid), session_id)
        if not rooms:
            return {"errors": "You cannot read this chat"}
        await sio.manager.enter_rooms(sid, "/", rooms)
        # A tab may say it shows the chat before its window's join lets it hear it.
        if (await sio.get_session(sid)).get("viewing") == session_id:
            await sio.enter_room(sid, viewer_room(session_id))
        return {"ok": True}

    @sio.on("leave")
    @answering(sio)
    async def leave(sid: str, data: Any) -> dict[str, Any]:
        """A closed chat window; the socket stays in the rooms of chats its user follows."""
        session_id = ChatEventBody.model_validate(data).session_id
        for room in await chat_rooms.rooms_to_leave(await socket_caller(sid), session_id):
            await sio.leave_room(sid, room)
        return {"ok": True}

    @sio.event
    async def disconnect(sid: str, *reason: Any) -> None:
        push.socket_closed(sid)

    @sio.on("viewing")
    @answering(sio)
    async def viewing(sid: str, data: Any) -> dict[str, Any]:
        """The chat this socket's tab shows while visible (null: none, or hidden): the socket
        hears who types in it at once, and its user gets no push for that chat meanwhile once
        the user's shard knows (the answer waits for that, as long as the answer bound)."""
        shown = ViewingBody.model_validate(data).session_id
        await show(sid, shown)
        await push.socket_viewing(sid, shown)
        return {"ok": True}

    async def show(sid: str, shown: str | None) -> None:
        """The socket is in the viewers' room of the chat its tab shows, if it hears that chat
        (its room admitted it: a member's connect, a visitor's join), and of no other."""
        # Not `sio.session`: python-socketio makes its context manager a new class at each
        # call, which only the cycle collector frees (the edge's young collections found
        # one in the garbage each time).
        session = await sio.get_session(sid)
        before, session["viewing"] = session.get("viewing"), shown
        await sio.save_session(sid, session)
        if before is not None and before != shown:
            await sio.leave_room(sid, viewer_room(before))
        if shown is not None and sio.manager.in_room(sid, session_room(shown)):
            await sio.enter_room(sid, viewer_room(shown))

    @sio.on("unseen")
    @answering(sio)
    async def unseen(sid: str, data: Any) -> dict[str, Any]:
        """Exact counts for a screen that (re)connected: the red dot and the muted chats."""
        return await unseen_counts.unseen_summary(signed_in(await socket_caller(sid)).user["_id"])

    @sio.on("typing")
    @answering(sio)
    async def typing(sid: str, data: Any) -> dict[str, Any]:
        caller = signed_in(await socket_caller(sid))
        await typing_signals.typing(caller, ChatEventBody.model_validate(data).session_id)
        return {"ok": True}

    async def mark(sid: str, data: Any, status: str) -> dict[str, Any]:
        caller = signed_in(await socket_caller(sid))
        body = DeliveryBody.model_validate(data)
        await receipts.mark(caller, body.session_id, body.created_at, status)
        return {"ok": True}

    @sio.on("delivered")
    @answering(sio)
    async def delivered(sid: str, data: Any) -> dict[str, Any]:
        return await mark(sid, data, "delivered")

    @sio.on("read")
    @answering(sio)
    async def read(sid: str, data: Any) -> dict[str, Any]:
        return await mark(sid, data, "read")

    @sio.on("send")
    @answering(sio, type=SEND_REPLY_REFUSED)
    async def send(sid: str, data: Any) -> dict[str, Any]:
        caller = signed_in(await socket_caller(sid), "You need Login to chat.")
        return await sending.send(caller, sends.command(data))

    @sio.on("react")
    @answering(sio)
    async def react(sid: str, data: Any) -> dict[str, Any]:
        caller = signed_in(await socket_caller(sid))
        return await reacting.react(caller, ReactBody.model_validate(data).command())

    async def disconnect_revoked(stop: asyncio.Event) -> None:
        """A logout anywhere closes the sockets that used that key on this edge."""
        async for key_hash in accounts.revoked_keys(stop):
            for sid, _ in list(sio.manager.get_participants("/", key_room(key_hash))):
                await sio.disconnect(sid)

    async def start_listener(app: web.Application):
        start_receiving(sio)
        stop = asyncio.Event()
        tasks = [
            asyncio.create_task(disconnect_revoked(stop), name="revocation-listener"),
            asyncio.create_task(push.keep_presence(stop), name="presence-reports"),
        ]
        yield
        stop.set()
        await asyncio.gather(*tasks)

    async def stop_sockets(app: web.Application) -> None:
        await close_sockets(sio)

    app[SOCKET_SERVER] = sio
    app.cleanup_ctx.append(start_listener)
    # A stopping edge closes its sockets before aiohttp waits for its running handlers (a
    # socket's among them): their clients reconnect to another edge at once.
    app.on_shutdown.append(stop_sockets)
    sio.attach(app, socketio_path=SOCKET_PATH)
