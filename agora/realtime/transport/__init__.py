"""The Socket.IO transport: the only code in `agora/` that imports python-socketio or
python-engineio, and the only code that overrides or reads their private parts.

The rest of `agora/` uses what this package exports. Each override below is pinned by a check
in tests/unit/test_transport_contract.py, which fails, naming the override, when an upgrade of
python-socketio (5.18.1) or python-engineio (4.15.1) changes what it relies on; an override
added here without a check fails that test too. What each one replaces, and why:

`room_channels.RoomChannelManager` (a `socketio.AsyncRedisManager`):
- `_publish`: one Redis channel per room instead of one for everything, publishes pipelined.
- `_listen`: SUBSCRIBEs to the channels of the rooms holding this edge's sockets (plus the base
  channel), confirms subscriptions, handles and answers our `rooms` control message (a move
  of sockets waits for every edge's answer); yields decoded dicts.
- `_handle_emit`: delivers a room's event once encoded, straight to each socket (no task per
  recipient), `message` events of a busy room coalesced; callbacks keep the library's path.
- `basic_enter_room`, `basic_leave_room`: every room entry and exit passes here (connects,
  joins, disconnects): where channels are subscribed and marked idle.
- `enter_room`: returns once Redis confirmed the room's channel.
- `initialize`: also starts the task dropping idle channels. `start_receiving` calls it as
  the edge starts, setting the server's `manager_initialized` as its first connect would.
`websockets.UncompressedWebSocket` (engine.io's aiohttp `WebSocket`):
- `__call__`: the driver's, without permessage-deflate, and a socket that began on the
  websocket gets a counting queue and its transport for direct writes; every socket keeps
  its websocket (`websocket`), which `close_sockets` closes when the edge stops.
- `wait`: a frame no Engine.IO client sends reads as a closed connection.
- `send`: counts each packet engine.io's writer wrote.
`websockets.edge_transports`: replaces entries of engine.io's private driver table
(`AsyncServer._async`): our websocket class, and polled bodies checked like frames.
`websockets.DirectSocketServer` (a `socketio.AsyncServer`):
- `_send_packet`: a text packet for one socket (every ack) written straight to an idle socket.
`polling.AnsweredPollServer` (a `socketio.AsyncServer`):
- `_handle_eio_disconnect`: a poll waiting when its client closes the session is answered with
  a noop at once (engine.io answered it 45 s later).
`client_packets.CheckedSocketServer` (the edge's server, with the two above):
- `_handle_eio_message`: the library's dispatch, for the packets a client sends only.
`packets.EdgePacket` (a `socketio.packet.Packet`, the server's `serializer`):
- `json`: packet JSON read depth-capped, unreadable data becomes the `malformed` event.
- `data_is_binary`: the same answer in one loop instead of a recursive walk.
"""

import socketio

from agora.realtime.transport.client_packets import CheckedSocketServer
from agora.realtime.transport.packets import MALFORMED_EVENT, EdgePacket
from agora.realtime.transport.room_channels import RoomChannelManager, start_receiving
from agora.realtime.transport.websockets import close_sockets, edge_transports

# The library's public names the rest of `agora/` uses, so that only this package imports it.
SocketServer = socketio.AsyncServer
ConnectionRefused = socketio.exceptions.ConnectionRefusedError

__all__ = [
    "MALFORMED_EVENT",
    "CheckedSocketServer",
    "ConnectionRefused",
    "EdgePacket",
    "RoomChannelManager",
    "SocketServer",
    "close_sockets",
    "edge_transports",
    "start_receiving",
]
