"""Engine.io's aiohttp transports as the edge runs them: websockets without per-message
compression, and only the packets a client sends read from either transport.

Browsers (and socket.io-client on Node) offer permessage-deflate, and aiohttp accepts it by
default: every socket then keeps a zlib compressor and decompressor (most of the 130 KiB an
idle socket cost the edge), and a fan-out frame is compressed again for each recipient.
Chat frames are small JSON; Node's socket.io leaves the extension off by default too.
Without compression a fan-out frame is the same bytes for every recipient: it is framed once
and written straight to each idle socket (`write_directly`), and so is a packet to one socket
(an acknowledgement: `DirectSocketServer`).

Engine.io reads whatever a frame holds: a NUL or an unknown packet type raised out of its
websocket loop (logged as a failed request), base64 that does not decode did too, and a
control packet's data went through the standard JSON parser with no depth cap. A frame, or a
polled payload's packet, that is not one a client sends is not read: the socket is closed (a
websocket as if its client left it, a poll with a 400).
"""

import asyncio
import logging
import re
import struct
from typing import Any

import socketio
from aiohttp import web
from aiohttp.web import WebSocketResponse
from engineio import exceptions as eio_exceptions
from engineio import packet as eio_packet
from engineio.async_drivers import aiohttp as engineio_aiohttp

log = logging.getLogger("agora.realtime")

# What an Engine.IO (4) client sends: a message carrying a Socket.IO packet (whose type is a
# digit), or a control packet (close, ping, pong, upgrade, noop) with at most the upgrade's
# "probe". Not binary data: no event takes any.
_CLIENT_PACKET = re.compile(r"4[0-9]|[12356](?:probe)?\Z", re.ASCII)
POLLED_PACKETS_SEPARATOR = "\x1e"


def client_packet(data: Any) -> bool:
    """Whether a frame (or a polled packet) is one an Engine.IO client sends."""
    return isinstance(data, str) and _CLIENT_PACKET.match(data) is not None


class UnsentCountingQueue(asyncio.Queue):
    """A socket's packet queue that also counts the packets put in it and not yet written.

    Engine.io's writer takes a packet through `wait_for(queue.get())`: on Python 3.11 the
    inner task empties the queue a loop pass before the writer writes what it took, so an
    empty queue does not mean nothing is on its way."""

    def __init__(self) -> None:
        super().__init__()
        self.unsent = 0

    def put_nowait(self, item: Any) -> None:
        super().put_nowait(item)
        self.unsent += 1

    def written(self) -> None:
        self.unsent -= 1


class UncompressedWebSocket(engineio_aiohttp.WebSocket):
    """engine.io builds one per websocket as `WebSocket(handler, server)`; `handler` is the
    engine.io socket's bound `_websocket_handler`, whose writer task sends each packet it takes
    from the socket's `queue` through `send`."""

    async def __call__(self, environ: dict[str, Any]) -> WebSocketResponse:
        # Overrides the driver's WebSocket.__call__: the same steps (its `_sock`, `environ`),
        # with permessage-deflate off and the socket made ready for direct writes.
        request = environ["aiohttp.request"]
        self._sock = WebSocketResponse(
            max_msg_size=self.server.max_http_buffer_size, compress=False
        )
        await self._sock.prepare(request)
        self.environ = environ
        socket = self.handler.__self__
        # For `close_sockets`, which closes it when the edge stops.
        socket.websocket = self._sock
        if not socket.connected:
            # A socket that began on the websocket (not an upgrade from polling, whose
            # packets go by the queue until the upgrade is done) may be written directly,
            # once all it was given before is written.
            socket.queue = _counting(socket.queue)
            socket.direct_transport = request.transport
        await self.handler(self)
        return self._sock

    async def wait(self) -> Any:
        """Overrides the driver's WebSocket.wait (any text or bytes frame). The next frame;
        None, as for a connection its client closed, for a frame that is not a client's
        packet (engine.io then closes the socket)."""
        data = await super().wait()
        if client_packet(data):
            return data
        log.info("closed a websocket that sent a frame no Engine.IO client sends")
        return None

    async def send(self, message: Any) -> None:
        """Overrides the driver's WebSocket.send: the same write, counted. Engine.io's writer
        writes each packet it took from the queue through here."""
        try:
            await super().send(message)
        finally:
            queue = self.handler.__self__.queue
            if isinstance(queue, UnsentCountingQueue):
                queue.written()


async def close_sockets(server: socketio.AsyncServer) -> None:
    """Closes every socket of a stopping edge at once, so that its clients reconnect to another
    edge. A websocket gets its close frame, which clients answer at once, and engine.io then
    closes its socket as if the client had left. Engine.io's own CLOSE packet did not do: the
    client answered it by closing the websocket and waited for a close frame the stopping
    server no longer read (5 s); left open, a socket held the stop until its ping timed out
    (45 s). A polled socket's waiting poll is answered with the CLOSE packet."""
    websockets = []
    polled = []
    for sid, socket in list(server.eio.sockets.items()):
        websocket = getattr(socket, "websocket", None)
        if websocket is None:
            polled.append(server.eio.disconnect(sid))
        else:
            websockets.append(websocket.close())
    await asyncio.gather(*websockets, *polled)


def _counting(queue: asyncio.Queue) -> UnsentCountingQueue:
    """The same packets, in order, in a queue that counts them until they are written."""
    counting = UnsentCountingQueue()
    while not queue.empty():
        counting.put_nowait(queue.get_nowait())
    return counting


def text_frame(text: str) -> bytes:
    """An unmasked, uncompressed websocket text frame (RFC 6455 5.2), as a server sends it."""
    payload = text.encode()
    size = len(payload)
    if size < 126:
        header = struct.pack("!BB", 0x81, size)
    elif size < 65536:
        header = struct.pack("!BBH", 0x81, 126, size)
    else:
        header = struct.pack("!BBQ", 0x81, 127, size)
    return header + payload


def message_frame(encoded: str) -> bytes:
    """The websocket frame engine.io's writer would send for an encoded Socket.IO text packet."""
    return text_frame(eio_packet.Packet(eio_packet.MESSAGE, encoded).encode())


def write_directly(socket: Any, frame: bytes) -> bool:
    """Writes a frame straight to an idle websocket's transport; says whether it did.

    Engine.io's writer task wakes per packet through `wait_for(queue.get())` (a task, a
    timer and several loop passes per recipient): most of a fan-out's cost. A socket with
    no packet queued or in its writer's hands, and a transport holding nothing unsent, has
    no packet before this one, so writing it now keeps the order; otherwise the frame goes
    by the queue as before."""
    transport = getattr(socket, "direct_transport", None)
    if (
        transport is None
        or socket.queue.unsent
        or transport.is_closing()
        or transport.get_write_buffer_size()
    ):
        return False
    transport.write(frame)
    return True


class _PolledPayload:
    """A poll's body as engine.io reads it, refused (the socket closed, a 400) unless every
    packet in it is one a client sends."""

    def __init__(self, content: Any) -> None:
        self.content = content

    async def read(self, size: int = -1) -> bytes:
        body = await self.content.read(size)
        if not body:  # no packets (engine.io reads a body without Content-Length so)
            return body
        try:
            packets = body.decode().split(POLLED_PACKETS_SEPARATOR)
        except UnicodeDecodeError:
            packets = [None]
        if not all(client_packet(p) for p in packets):
            log.info("closed a polled socket that sent a packet no Engine.IO client sends")
            raise eio_exceptions.EngineIOError("not a client's packet")
        return body


def _translate_request(request: web.Request) -> dict[str, Any]:
    """The driver's `translate_request`, with a poll's body (`wsgi.input`, which engine.io
    reads with `read(length)`) checked as it is read."""
    environ = engineio_aiohttp.translate_request(request)
    if request.method == "POST":
        environ["wsgi.input"] = _PolledPayload(environ["wsgi.input"])
    return environ


def edge_transports(sio: socketio.AsyncServer) -> None:
    """engine.io reads its transport classes, and how it reads a request, from the server's
    own table of them.

    Replaces two entries of engine.io's private driver table (`AsyncServer._async`, read per
    request by `handle_request` and per websocket by the socket's `_upgrade_websocket`); the
    table is the driver module's own dict, shared by every server, so the server gets a copy."""
    sio.eio._async = {
        **sio.eio._async,
        "websocket": UncompressedWebSocket,
        "translate_request": _translate_request,
    }


class DirectSocketServer(socketio.AsyncServer):
    """Packets to one socket go straight to its transport when it is idle, as fan-out frames
    do. Every acknowledgement of a send is such a packet: by the queue, each waited the three
    event-loop passes of engine.io's writer, on top of a task and a timer."""

    async def _send_packet(self, eio_sid: str, pkt: Any) -> None:
        # Overrides AsyncServer._send_packet (each part through `eio.send`: a coroutine, a ping
        # check and the socket's queue), which the library uses for every packet to one socket.
        encoded = pkt.encode()
        if isinstance(encoded, str):
            socket = self.eio.sockets.get(eio_sid)
            frame = message_frame(encoded)
            if socket is not None and not socket.closed and write_directly(socket, frame):
                return
        for part in encoded if isinstance(encoded, list) else [encoded]:
            await self.eio.send(eio_sid, part)
