"""Websockets without per-message compression for engine.io's aiohttp transport.

Browsers (and socket.io-client on Node) offer permessage-deflate, and aiohttp accepts it by
default: every socket then keeps a zlib compressor and decompressor (most of the 130 KiB an
idle socket cost the edge), and a fan-out frame is compressed again for each recipient.
Chat frames are small JSON; Node's socket.io leaves the extension off by default too.
"""

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
        await self.handler(self)
        return self._sock


def without_compression(sio: socketio.AsyncServer) -> None:
    """engine.io reads its transport classes from the server's own table of them."""
    sio.eio._async = {**sio.eio._async, "websocket": UncompressedWebSocket}
