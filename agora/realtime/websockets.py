"""Websockets without per-message compression for engine.io's aiohttp transport.

Browsers (and socket.io-client on Node) offer permessage-deflate, and aiohttp accepts it by
default: every socket then keeps a zlib compressor and decompressor (most of the 130 KiB an
idle socket cost the edge), and a fan-out frame is compressed again for each recipient.
Chat frames are small JSON; Node's socket.io leaves the extension off by default too.
Without compression a fan-out frame is the same bytes for every recipient: it is framed once
and written straight to each idle socket (`write_directly`).
"""

import struct
from typing import Any

import socketio
from aiohttp.web import WebSocketResponse
from engineio.async_drivers import aiohttp as engineio_aiohttp


class UncompressedWebSocket(engineio_aiohttp.WebSocket):
    async def __call__(self, environ: dict[str, Any]) -> WebSocketResponse:
        request = environ["aiohttp.request"]
        self._sock = WebSocketResponse(
            max_msg_size=self.server.max_http_buffer_size, compress=False
        )
        await self._sock.prepare(request)
        self.environ = environ
        socket = self.handler.__self__
        if not socket.connected:
            # A socket that began on the websocket (not an upgrade from polling, whose
            # packets go by the queue until the upgrade is done) may be written directly.
            socket.direct_transport = request.transport
        await self.handler(self)
        return self._sock


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


def write_directly(socket: Any, frame: bytes) -> bool:
    """Writes a frame straight to an idle websocket's transport; says whether it did.

    Engine.io's writer task wakes per packet through `wait_for(queue.get())` (a task, a
    timer and several loop passes per recipient): most of a fan-out's cost. A socket whose
    queue is empty and whose transport holds nothing unsent has no packet before this one,
    so writing it now keeps the order; otherwise the frame goes by the queue as before."""
    transport = getattr(socket, "direct_transport", None)
    if (
        transport is None
        or not socket.queue.empty()
        or transport.is_closing()
        or transport.get_write_buffer_size()
    ):
        return False
    transport.write(frame)
    return True


def without_compression(sio: socketio.AsyncServer) -> None:
    """engine.io reads its transport classes from the server's own table of them."""
    sio.eio._async = {**sio.eio._async, "websocket": UncompressedWebSocket}
