"""What the transport (`agora/realtime/transport/`) relies on in python-socketio and engine.io.

Each check is a small function over the library object it pins (a class, a module), and fails
with a message naming the override that relies on it, so that an upgrade of either library
that changes what an override expects fails here rather than on the send path. The last tests
run checks against deliberately altered stand-ins of the libraries' classes: a check that
stopped noticing a change fails there.
"""

import ast
import asyncio
import contextlib
import hashlib
import inspect
import re
import textwrap
from collections.abc import Callable
from typing import Any

import engineio
import pytest
import socketio
from engineio import async_socket
from engineio import packet as eio_packet
from engineio.async_drivers import aiohttp as engineio_aiohttp
from socketio import async_manager, async_pubsub_manager, packet

from agora.realtime.transport import client_packets, packets, polling, room_channels, websockets
from agora.realtime.transport.client_packets import UNDECODABLE, CheckedSocketServer
from agora.realtime.transport.packets import EdgePacket
from agora.realtime.transport.polling import AnsweredPollServer
from agora.realtime.transport.room_channels import (
    WRITER_PASSES,
    RoomChannelManager,
    start_receiving,
)
from agora.realtime.transport.websockets import (
    DirectSocketServer,
    UncompressedWebSocket,
    UnsentCountingQueue,
)

LIBRARIES = ("socketio", "engineio")
TRANSPORT_MODULES = (room_channels, websockets, polling, client_packets, packets)
REDIS_URL = "redis://localhost:1/0"  # never connected to: building a client does not connect


class LibraryChanged(AssertionError):
    def __init__(self, override: str, what: str) -> None:
        super().__init__(f"{override} relies on {what}")


def expect(condition: bool, override: str, what: str) -> None:
    if not condition:
        raise LibraryChanged(override, what)


# Every override: the transport's class and attribute, and the library class it overrides.
# An attribute of a transport class that shadows one of the library's must be listed here.
OVERRIDES: dict[str, tuple[type, type]] = {
    "RoomChannelManager.name": (RoomChannelManager, socketio.AsyncRedisManager),
    "RoomChannelManager.__init__": (RoomChannelManager, socketio.AsyncRedisManager),
    "RoomChannelManager._publish": (RoomChannelManager, socketio.AsyncRedisManager),
    "RoomChannelManager._listen": (RoomChannelManager, socketio.AsyncRedisManager),
    "RoomChannelManager._handle_emit": (RoomChannelManager, socketio.AsyncRedisManager),
    "RoomChannelManager.basic_enter_room": (RoomChannelManager, socketio.AsyncRedisManager),
    "RoomChannelManager.basic_leave_room": (RoomChannelManager, socketio.AsyncRedisManager),
    "RoomChannelManager.basic_disconnect": (RoomChannelManager, socketio.AsyncRedisManager),
    "RoomChannelManager.enter_room": (RoomChannelManager, socketio.AsyncRedisManager),
    "RoomChannelManager.initialize": (RoomChannelManager, socketio.AsyncRedisManager),
    "UncompressedWebSocket.__call__": (UncompressedWebSocket, engineio_aiohttp.WebSocket),
    "UncompressedWebSocket.wait": (UncompressedWebSocket, engineio_aiohttp.WebSocket),
    "UncompressedWebSocket.send": (UncompressedWebSocket, engineio_aiohttp.WebSocket),
    "DirectSocketServer._send_packet": (DirectSocketServer, socketio.AsyncServer),
    "AnsweredPollServer._handle_eio_disconnect": (AnsweredPollServer, socketio.AsyncServer),
    "CheckedSocketServer._handle_eio_message": (CheckedSocketServer, socketio.AsyncServer),
    "EdgePacket.json": (EdgePacket, packet.Packet),
    "EdgePacket.data_is_binary": (EdgePacket, packet.Packet),
}


def _library_class(cls: type) -> bool:
    return cls.__module__.split(".")[0] in LIBRARIES


def shadowed_names(cls: type) -> set[str]:
    """The names `cls` itself defines that a library class it derives from also defines."""
    library_bases = [base for base in cls.__mro__[1:] if _library_class(base)]
    return {
        name
        for name in vars(cls)
        if name not in ("__module__", "__qualname__", "__doc__", "__dict__", "__weakref__")
        and any(name in vars(base) for base in library_bases)
    }


def _kind(function: Any) -> str:
    function = inspect.unwrap(function)
    if inspect.isasyncgenfunction(function):
        return "an async generator"
    if inspect.iscoroutinefunction(function):
        return "a coroutine function"
    return "a plain function"


# Checks of an override against the library class it overrides ---------------------------


def check_same_call(override: type, name: str, library: type) -> None:
    """The library calls the override as it calls its own: same parameters, same kind."""
    label = f"{override.__name__}.{name}"
    expect(hasattr(library, name), label, f"{library.__qualname__}.{name} existing")
    theirs, ours = getattr(library, name), getattr(override, name)
    if not inspect.isroutine(theirs):  # a class attribute: `name`, `json`
        return
    expect(
        _kind(ours) == _kind(theirs), label, f"{library.__qualname__}.{name} being {_kind(ours)}"
    )
    if name == "__init__":
        # Ours takes its own arguments, and calls the library's with these.
        parameters = inspect.signature(theirs).parameters
        expect(
            {"url", "channel", "write_only"} <= parameters.keys(),
            label,
            f"{library.__qualname__}.__init__ taking url, channel and write_only",
        )
        return
    theirs_params = [(p.name, p.kind) for p in inspect.signature(theirs).parameters.values()]
    ours_params = [(p.name, p.kind) for p in inspect.signature(ours).parameters.values()]
    expect(
        theirs_params == ours_params,
        label,
        f"{library.__qualname__}.{name}{inspect.signature(theirs)} (ours: "
        f"{inspect.signature(ours)})",
    )


def code_digest(function: Any) -> str:
    """The code of a library function, blind to comments, docstrings and layout."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            node.body = body[1:] or [ast.Pass()]
    return hashlib.sha256(ast.unparse(tree).encode()).hexdigest()[:16]


# Library code that an override replaces or copies (rather than calling it): when it changes,
# the override is read against the new code and the digest updated.
REPLACED = [
    ("RoomChannelManager._publish", socketio.AsyncRedisManager._publish, "57775544728f8601"),
    ("RoomChannelManager._listen", socketio.AsyncRedisManager._listen, "0a847633273085b7"),
    (
        "RoomChannelManager._redis_messages",
        socketio.AsyncRedisManager._redis_listen_with_retries,
        "6563d2f6b5aa3d86",
    ),
    (
        "RoomChannelManager._handle_emit",
        async_pubsub_manager.AsyncPubSubManager._handle_emit,
        "46370549f53198b4",
    ),
    (
        "RoomChannelManager.basic_disconnect",
        socketio.AsyncRedisManager.basic_disconnect,
        "27b154ad1b456740",
    ),
    ("RoomChannelManager._send", async_manager.AsyncManager.emit, "73f2199d8288b596"),
    (
        "RoomChannelManager._send (queue.put_nowait)",
        async_socket.AsyncSocket.send,
        "2e6c0146d180bd97",
    ),
    ("DirectSocketServer._send_packet", socketio.AsyncServer._send_packet, "1bc829cccb4c67d9"),
    (
        "CheckedSocketServer._handle_eio_message",
        socketio.AsyncServer._handle_eio_message,
        "f772a451d918e87a",
    ),
    (
        "UncompressedWebSocket.__call__",
        engineio_aiohttp.WebSocket.__call__,
        "a969eeea92fe3ec1",
    ),
    ("EdgePacket.data_is_binary", packet.Packet.data_is_binary, "1a217138b164d0e8"),
    (
        "WRITER_PASSES and UnsentCountingQueue",
        async_socket.AsyncSocket._websocket_handler,
        "2822186d44689f3a",
    ),
]


def check_code(override: str, function: Any, digest: str) -> None:
    expect(
        code_digest(function) == digest,
        override,
        f"the code of {function.__qualname__} as read when it was written (it changed: read "
        f"the override against it, then set its digest to {code_digest(function)})",
    )


# Checks of what the overrides use without overriding it ---------------------------------


def _server(manager: Any) -> socketio.AsyncServer:
    return socketio.AsyncServer(async_mode="aiohttp", client_manager=manager)


async def check_initialize_starts_listener(manager_class: type) -> None:
    """`initialize` starts `_thread` as the task `thread` (which `close` cancels)."""
    ran = asyncio.Event()

    class Manager(manager_class):
        async def _thread(self) -> None:
            ran.set()

    manager = Manager(REDIS_URL, channel="c")
    _server(manager)
    manager.initialize()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(ran.wait(), 1)
    expect(
        ran.is_set() and isinstance(getattr(manager, "thread", None), asyncio.Task),
        "RoomChannelManager.initialize and close",
        "initialize starting `_thread` as the task `thread`",
    )


async def check_first_connect_initializes_once(server_class: type) -> None:
    """The first socket's connect initializes the manager only while the server's
    `manager_initialized` is false, which `start_receiving` sets."""
    initialized = []

    class Manager(socketio.AsyncManager):
        def initialize(self) -> None:
            initialized.append(self)

    server = server_class(async_mode="aiohttp", client_manager=Manager())
    start_receiving(server)
    await server._handle_eio_connect("eio", {})
    expect(
        len(initialized) == 1,
        "start_receiving",
        "a connect initializing the manager only while `manager_initialized` is false",
    )


async def check_listener_dispatches_dicts(manager_class: type) -> None:
    """`_thread` takes the dicts `_listen` yields, and hands `_handle_emit` the emits of
    other hosts only (an edge hears its own publishes back)."""
    handled = []

    class Manager(manager_class):
        async def _listen(self):
            for host in ("another host", self.host_id):
                yield {"method": "emit", "event": "e", "data": [1], "host_id": host}

        async def _handle_emit(self, message):
            handled.append(message["host_id"])

    manager = Manager(REDIS_URL, channel="c")
    _server(manager)
    await asyncio.wait_for(manager._thread(), 1)
    expect(
        handled == ["another host"],
        "RoomChannelManager._listen",
        "`_thread` handing `_handle_emit` the dicts `_listen` yields, from other hosts only",
    )


EMIT_MESSAGE_KEYS = {"method", "event", "data", "binary", "namespace", "room", "skip_sid"}


async def check_emit_message(manager_class: type) -> None:
    """`emit` hands the same message to `_handle_emit` (this edge) then to `_publish`."""
    calls = []

    class Manager(manager_class):
        async def _handle_emit(self, message):
            calls.append(("handle", message))

        async def _publish(self, message):
            calls.append(("publish", message))

    manager = Manager(REDIS_URL, channel="c")
    await manager.emit("message", {"n": 1}, room="r")
    override = "RoomChannelManager._handle_emit and _publish"
    expect([c[0] for c in calls] == ["handle", "publish"], override, "emit: handle, then publish")
    message = calls[0][1]
    expect(
        EMIT_MESSAGE_KEYS | {"callback", "host_id"} <= message.keys()
        and message["method"] == "emit"
        and message["data"] == [{"n": 1}]
        and message["room"] == "r",
        override,
        f"emit's message {EMIT_MESSAGE_KEYS} with data as a list of arguments",
    )


def check_redis_connect(manager_class: type) -> None:
    manager = manager_class(REDIS_URL, channel="c")
    manager._redis_connect()
    expect(
        manager.redis is not None and manager.connected is True,
        "RoomChannelManager._send_publishes",
        "`_redis_connect()` setting `redis` and `connected`",
    )


async def check_rooms_pass_through_basic_methods(manager_class: type) -> None:
    """Connecting, entering and leaving rooms and disconnecting all go through
    `basic_enter_room` and `basic_leave_room`; `rooms[namespace][room]` maps sid -> eio sid."""
    entered, left = [], []

    class Manager(manager_class):
        def basic_enter_room(self, sid, namespace, room, eio_sid=None):
            super().basic_enter_room(sid, namespace, room, eio_sid=eio_sid)
            entered.append(room)

        def basic_leave_room(self, sid, namespace, room):
            super().basic_leave_room(sid, namespace, room)
            left.append(room)

    manager = Manager(REDIS_URL, channel="c")
    _server(manager)
    sid = await manager.connect("eio-1", "/")
    await manager.enter_room(sid, "/", "room")
    override = "RoomChannelManager.basic_enter_room and basic_leave_room"
    expect(entered == [None, sid, "room"], override, "connect and enter_room entering so")
    expect(
        dict(manager.rooms["/"]["room"]) == {sid: "eio-1"}
        and list(manager.get_participants("/", "room")) == [(sid, "eio-1")]
        and manager.is_sid_room("/", sid),
        override,
        "rooms[namespace][room] mapping sid to eio sid",
    )
    await manager.leave_room(sid, "/", "room")
    await manager.disconnect(sid, "/", ignore_queue=True)
    expect(set(left) == {"room", None, sid}, override, "leave_room and disconnect leaving so")


def check_reconstruct_binary(packet_class: type) -> None:
    data, attachments = packet_class.deconstruct_binary(["e", {"b": b"x"}])
    expect(
        packet_class.reconstruct_binary(data, attachments) == ["e", {"b": b"x"}],
        "RoomChannelManager._handle_emit",
        "Packet.reconstruct_binary(data, attachments) undoing deconstruct_binary",
    )


def check_packet_json(packet_class: type) -> None:
    """A packet class's `json` writes and reads its data (the server's `serializer`)."""
    seen = []

    class Json:
        @staticmethod
        def dumps(data, **options):
            seen.append("dumps")
            return '["e"]'

        @staticmethod
        def loads(text):
            seen.append("loads")
            return ["e"]

    class Packet(packet_class):
        json = Json

    Packet(packet.EVENT, ["e"]).encode()
    Packet(encoded_packet='2["e"]')
    expect(seen == ["dumps", "loads"], "EdgePacket.json", "Packet.json.dumps and loads")


def check_undecodable_raises(packet_class: type) -> None:
    for encoded in ("x", b"\x00", "2" + "9" * 101):
        try:
            packet_class(encoded_packet=encoded)
        except UNDECODABLE:
            continue
        except Exception as error:
            raise LibraryChanged(
                "CheckedSocketServer._handle_eio_message",
                f"an undecodable packet raising one of {UNDECODABLE} (got {error!r})",
            ) from error
        raise LibraryChanged(
            "CheckedSocketServer._handle_eio_message", f"{encoded!r} failing to decode"
        )


def check_message_frame_encoding(packet_module: Any) -> None:
    expect(
        packet_module.Packet(packet_module.MESSAGE, '2["e"]').encode() == '42["e"]',
        "message_frame",
        "an engine.io MESSAGE packet of text encoding as '4' and the text",
    )


async def check_message_handler_registered(server_class: type) -> None:
    class Server(server_class):
        async def _handle_eio_message(self, eio_sid, data):
            pass

    handler = Server(async_mode="aiohttp").eio.handlers.get("message")
    expect(
        getattr(handler, "__func__", None) is Server._handle_eio_message,
        "CheckedSocketServer._handle_eio_message",
        "the server registering its `_handle_eio_message` as engine.io's `message` handler",
    )


async def check_handlers_and_acks(server_class: type) -> None:
    """What our dispatch calls: `_handle_event(eio_sid, namespace, id, data)` runs the handler
    and its answer goes through `_send_packet` (as every packet to one socket does)."""
    sent = []

    class Server(server_class):
        async def _send_packet(self, eio_sid, pkt):
            sent.append((eio_sid, pkt.packet_type, pkt.id, pkt.data))

    server = Server(async_mode="aiohttp", async_handlers=False)
    server.on("ev", lambda sid: "ok")
    await server.manager.connect("eio-1", "/")
    await server._handle_event("eio-1", "/", 7, ["ev"])
    expect(
        sent == [("eio-1", packet.ACK, 7, ["ok"])],
        "DirectSocketServer._send_packet",
        "acknowledgements sent through `_send_packet(eio_sid, pkt)`",
    )
    override = "CheckedSocketServer._handle_eio_message"
    for name in ("_handle_connect", "_handle_disconnect", "_handle_event", "_handle_ack"):
        expect(hasattr(server, name), override, f"AsyncServer.{name}")
    expect(
        list(inspect.signature(server._handle_disconnect).parameters)
        == ["eio_sid", "namespace", "reason"]
        and hasattr(server.reason, "CLIENT_DISCONNECT"),
        override,
        "_handle_disconnect(eio_sid, namespace, reason) and reason.CLIENT_DISCONNECT",
    )


class _PolledBody:
    def __init__(self, body: bytes) -> None:
        self.body = body

    async def read(self, size: int = -1) -> bytes:
        return self.body


async def check_client_close_answers_waiting_poll(server_class: type) -> None:
    """engine.io hands a polling client's close packet to the server's `disconnect` handler
    (the library registers `_handle_eio_disconnect`) while the session is in its table and not
    yet closed, and a poll waiting meanwhile answers what was then put on the socket's queue."""

    class Server(AnsweredPollServer, server_class):
        pass

    server = Server(async_mode="aiohttp")
    socket = async_socket.AsyncSocket(server.eio, "sid-1")
    socket.connected = True
    server.eio.sockets["sid-1"] = socket
    poll = asyncio.ensure_future(socket.handle_get_request({}))
    for _ in range(10):  # the poll waits on the queue
        await asyncio.sleep(0)
    close = eio_packet.Packet(eio_packet.CLOSE).encode().encode()
    await socket.handle_post_request(
        {"CONTENT_LENGTH": str(len(close)), "wsgi.input": _PolledBody(close)}
    )
    done, _ = await asyncio.wait([poll], timeout=1)
    poll.cancel()
    answer = [p.packet_type for p in poll.result()] if done else "no answer"
    expect(
        answer == [eio_packet.NOOP] and socket.closed,
        "AnsweredPollServer._handle_eio_disconnect",
        f"a client's close calling `_handle_eio_disconnect(eio_sid, reason.CLIENT_DISCONNECT)` "
        f"before the session is closed, and the waiting poll answering its queue (got {answer})",
    )


def check_driver_table(server_class: type) -> None:
    """engine.io's server reads its transports from `_async`, the driver module's own table."""
    server = server_class(async_mode="aiohttp")
    table = getattr(server, "_async", None)
    expect(
        table is engineio_aiohttp._async
        and table.get("websocket") is engineio_aiohttp.WebSocket
        and table.get("translate_request") is engineio_aiohttp.translate_request,
        "edge_transports",
        "AsyncServer._async being the aiohttp driver's table, with websocket and translate_request",
    )


class _Translated(Exception):
    pass


async def check_request_translated_per_request(server_class: type) -> None:
    def translate(request):
        raise _Translated

    server = server_class(async_mode="aiohttp")
    server._async = {**server._async, "translate_request": translate}
    try:
        await server.handle_request(object())
    except _Translated:
        return
    raise LibraryChanged("edge_transports", "handle_request reading _async['translate_request']")


async def check_websocket_built_per_socket(socket_class: type) -> None:
    """A socket's websocket is built from the server's `_async['websocket']`, with its bound
    `_websocket_handler` (`handler.__self__` is the engine.io socket) and the server."""
    built = []

    class WebSocket:
        def __init__(self, handler, server):
            built.append((handler, server))

        async def __call__(self, environ):
            return "response"

    server = engineio.AsyncServer(async_mode="aiohttp")
    server._async = {**server._async, "websocket": WebSocket}
    socket = socket_class(server, "sid-1")
    answer = await socket._upgrade_websocket({})
    expect(
        answer == "response"
        and len(built) == 1
        and built[0][0].__self__ is socket
        and built[0][1] is server
        and socket.connected is False,
        "UncompressedWebSocket.__call__",
        "websocket_class(socket._websocket_handler, server) called with the environ, on a "
        "socket not yet `connected`",
    )


class _RecordingWebSocket:
    def __init__(self) -> None:
        self.sent: list[Any] = []
        self.frames: asyncio.Queue = asyncio.Queue()

    async def wait(self) -> Any:
        return await self.frames.get()

    async def send(self, message: Any) -> None:
        self.sent.append(message)

    async def close(self) -> None:
        pass


async def check_writer(socket_class: type) -> None:
    """engine.io's websocket writer sends each packet it takes from the socket's `queue`
    through `ws.send`, within WRITER_PASSES event-loop passes of its being queued."""
    server = engineio.AsyncServer(async_mode="aiohttp")
    socket = socket_class(server, "sid-1")
    expect(
        isinstance(socket.queue, asyncio.Queue)
        and not hasattr(socket, "direct_transport")
        and socket.closed is False,
        "write_directly",
        "an engine.io socket's `queue` (an asyncio.Queue) and `closed`",
    )
    ws = _RecordingWebSocket()
    handler = asyncio.ensure_future(socket._websocket_handler(ws))
    for _ in range(10):  # the writer waits on the queue
        await asyncio.sleep(0)
    seen = []
    socket.queue.put_nowait(eio_packet.Packet(eio_packet.MESSAGE, "first"))
    room_channels._after_passes(WRITER_PASSES, lambda: seen.append(len(ws.sent)))
    for _ in range(WRITER_PASSES + 2):
        await asyncio.sleep(0)
    socket.queue.put_nowait(eio_packet.Packet(eio_packet.MESSAGE, "second"))
    socket.queue.put_nowait(eio_packet.Packet(eio_packet.MESSAGE, "third"))
    for _ in range(10):
        await asyncio.sleep(0)
    ws.frames.put_nowait(None)  # the client closes
    await asyncio.wait_for(handler, 1)
    expect(
        seen == [1],
        "RoomChannelManager._send (WRITER_PASSES)",
        f"a queued packet written within {WRITER_PASSES} loop passes (writer's count: {seen})",
    )
    expect(
        ws.sent[:3] == ["4first", "4second", "4third"],
        "UncompressedWebSocket.send (UnsentCountingQueue)",
        f"the writer sending each queued packet through ws.send once (sent: {ws.sent})",
    )


# The checks, each over the library object it pins --------------------------------------

CHECKS: list[tuple[Callable[[Any], Any], Any]] = [
    (check_initialize_starts_listener, socketio.AsyncRedisManager),
    (check_first_connect_initializes_once, socketio.AsyncServer),
    (check_listener_dispatches_dicts, socketio.AsyncRedisManager),
    (check_emit_message, socketio.AsyncRedisManager),
    (check_redis_connect, socketio.AsyncRedisManager),
    (check_rooms_pass_through_basic_methods, socketio.AsyncRedisManager),
    (check_reconstruct_binary, packet.Packet),
    (check_packet_json, packet.Packet),
    (check_undecodable_raises, EdgePacket),
    (check_message_frame_encoding, eio_packet),
    (check_message_handler_registered, socketio.AsyncServer),
    (check_handlers_and_acks, socketio.AsyncServer),
    (check_client_close_answers_waiting_poll, socketio.AsyncServer),
    (check_driver_table, engineio.AsyncServer),
    (check_request_translated_per_request, engineio.AsyncServer),
    (check_websocket_built_per_socket, async_socket.AsyncSocket),
    (check_writer, async_socket.AsyncSocket),
]


async def run(check: Callable[[Any], Any], library_object: Any) -> None:
    outcome = check(library_object)
    if inspect.isawaitable(outcome):
        await outcome


def test_every_override_is_listed():
    found = {
        f"{cls.__name__}.{name}"
        for module in TRANSPORT_MODULES
        for cls in vars(module).values()
        if inspect.isclass(cls) and cls.__module__ == module.__name__
        for name in shadowed_names(cls)
    }
    assert found == set(OVERRIDES), (
        "an override without a contract check (or a check of one that is gone): "
        f"{found ^ set(OVERRIDES)}"
    )


def test_transport_classes_derive_from_the_libraries():
    for override, library in OVERRIDES.values():
        assert issubclass(override, library), override


@pytest.mark.parametrize("override", sorted(OVERRIDES))
def test_overrides_are_called_as_the_library_calls_its_own(override):
    cls, library = OVERRIDES[override]
    check_same_call(cls, override.split(".", 1)[1], library)


@pytest.mark.parametrize(("override", "function", "digest"), REPLACED, ids=[r[0] for r in REPLACED])
def test_replaced_library_code_is_the_code_read(override, function, digest):
    check_code(override, function, digest)


@pytest.mark.parametrize(("check", "library_object"), CHECKS, ids=[c.__name__ for c, _ in CHECKS])
async def test_what_the_overrides_rely_on(check, library_object):
    await run(check, library_object)


def test_the_manager_state_is_its_own():
    """The attributes the manager adds are not ones the library sets (which they would
    silently replace)."""
    ours = RoomChannelManager(REDIS_URL, "c")
    library = socketio.AsyncRedisManager(REDIS_URL, channel="c")
    assert set(vars(ours)) - set(vars(library)) == {
        "_commands", "_held", "_last_frame", "_moves", "_publishes", "_rooms_of", "_subscriber",
        "_tasks", "_to_subscribe", "coalesce_seconds", "confirming", "decoded", "idle_since",
        "local_rooms", "subscribed",
    }  # fmt: skip


def test_the_counting_queue_is_an_asyncio_queue():
    assert issubclass(UnsentCountingQueue, asyncio.Queue)


# Each kind of check fails on a library that changed -------------------------------------


async def _expect_failure(override: str, check: Callable[[Any], Any], stand_in: Any) -> None:
    with pytest.raises(LibraryChanged, match=re.escape(override)):
        await run(check, stand_in)


async def test_checks_fail_on_altered_libraries():
    class PublishTakesAChannel(socketio.AsyncRedisManager):
        async def _publish(self, channel, data):
            pass

    with pytest.raises(LibraryChanged, match=r"RoomChannelManager\._publish"):
        check_same_call(RoomChannelManager, "_publish", PublishTakesAChannel)

    class ListenReturnsAList(socketio.AsyncRedisManager):
        async def _listen(self):
            return []

    with pytest.raises(LibraryChanged, match=r"RoomChannelManager\._listen"):
        check_same_call(RoomChannelManager, "_listen", ListenReturnsAList)

    class InitializeWithoutListener(socketio.AsyncRedisManager):
        def initialize(self):
            self.thread = None

    await _expect_failure(
        "RoomChannelManager.initialize", check_initialize_starts_listener, InitializeWithoutListener
    )

    class InitializesAtEveryConnect(socketio.AsyncServer):
        async def _handle_eio_connect(self, eio_sid, environ):
            self.manager.initialize()

    await _expect_failure(
        "start_receiving", check_first_connect_initializes_once, InitializesAtEveryConnect
    )

    class ListenerOfTextOnly(socketio.AsyncRedisManager):
        async def _thread(self):
            async for message in self._listen():
                if isinstance(message, str | bytes):
                    await self._handle_emit(self.json.loads(message))

    await _expect_failure(
        "RoomChannelManager._listen", check_listener_dispatches_dicts, ListenerOfTextOnly
    )

    class EmitWithArgsRenamed(socketio.AsyncRedisManager):
        async def emit(self, event, data, namespace=None, room=None, **kwargs):
            message = {"method": "emit", "event": event, "args": [data], "room": room}
            await self._handle_emit(message)
            await self._publish(message)

    await _expect_failure(
        "RoomChannelManager._handle_emit", check_emit_message, EmitWithArgsRenamed
    )

    class SendsItsOwnWay(socketio.AsyncServer):
        async def _handle_event(self, eio_sid, namespace, id, data):
            await self.eio.send(eio_sid, "ack")

    await _expect_failure(
        "DirectSocketServer._send_packet", check_handlers_and_acks, SendsItsOwnWay
    )

    class DisconnectHandledElsewhere(socketio.AsyncServer):
        def __init__(self, **options):
            super().__init__(**options)
            self.eio.on("disconnect", self._namespaces_gone)

        async def _namespaces_gone(self, eio_sid, reason):
            pass

    await _expect_failure(
        "AnsweredPollServer._handle_eio_disconnect",
        check_client_close_answers_waiting_poll,
        DisconnectHandledElsewhere,
    )

    class SlowerWriter(async_socket.AsyncSocket):
        async def poll(self):
            packets = await super().poll()
            await asyncio.sleep(0)  # one more loop pass before writing
            return packets

    await _expect_failure("WRITER_PASSES", check_writer, SlowerWriter)

    def send_packet_changed(self, eio_sid, pkt):
        return self.eio.send(eio_sid, pkt.encode())

    with pytest.raises(LibraryChanged, match=r"DirectSocketServer\._send_packet"):
        check_code("DirectSocketServer._send_packet", send_packet_changed, "-")
