"""The Socket.IO packets a client may send, checked before python-socketio acts on them.

The library trusts its peer: an event named `connect` or `disconnect` ran those handlers (a
signed-in socket became a guest's, its presence was dropped), an event without a name, or
whose name is not text, failed inside the library, and so did a packet it cannot decode or of
a type only servers send: logged as failures, never answered. Here such a packet is dropped
(logged as information), and an event that asks for an acknowledgement gets
`{"errors": ...}` rather than none.
"""

import logging
from typing import Any

from socketio import packet

from agora.realtime.transport.polling import AnsweredPollServer
from agora.realtime.transport.websockets import DirectSocketServer

log = logging.getLogger("agora.realtime")

# Names Socket.IO keeps for itself: never an event of a client's, whatever is registered.
RESERVED_EVENTS = frozenset(
    {"connect", "connect_error", "disconnect", "disconnecting", "newListener", "removeListener"}
)
NO_SUCH_EVENT = "No such event"
# What decoding a packet's header raises (a type or an id that is not a number, too many
# attachments, data that is not text).
UNDECODABLE = (ValueError, TypeError, IndexError)


class CheckedSocketServer(DirectSocketServer, AnsweredPollServer):
    async def _handle_eio_message(self, eio_sid: str, data: Any) -> None:
        """Overrides AsyncServer._handle_eio_message, which the library's constructor
        registers as engine.io's `message` handler: the library's dispatch of a client's
        packet (to `_handle_connect`, `_handle_disconnect`, `_handle_event`, `_handle_ack`),
        for the packets a client sends.

        Binary attachments are never awaited: no event takes binary data, so a binary event's
        placeholders stay in its data and are refused like any bad data (the engine closes a
        socket that then sends binary frames)."""
        try:
            pkt = self.packet_class(encoded_packet=data)
        except UNDECODABLE:
            return _dropped(eio_sid, "a packet that does not decode")
        namespace = pkt.namespace or "/"
        kind = pkt.packet_type
        if kind == packet.CONNECT:
            # A second one to a namespace is refused by the library itself.
            await self._handle_connect(eio_sid, pkt.namespace, pkt.data)
        elif kind == packet.DISCONNECT:
            await self._handle_disconnect(eio_sid, pkt.namespace, self.reason.CLIENT_DISCONNECT)
        elif kind in (packet.EVENT, packet.BINARY_EVENT):
            if self._is_clients_event(pkt.data, namespace):
                await self._handle_event(eio_sid, pkt.namespace, pkt.id, pkt.data)
            else:
                await self._refuse(eio_sid, namespace, pkt.id)
        elif kind == packet.ACK and isinstance(pkt.data, list):
            await self._handle_ack(eio_sid, pkt.namespace, pkt.id, pkt.data)
        else:
            _dropped(eio_sid, f"a packet of type {kind}")

    def _is_clients_event(self, data: Any, namespace: str) -> bool:
        """An event's data is its name, then its arguments; the name must be one of this
        server's events, and not one Socket.IO keeps for itself."""
        name = data[0] if isinstance(data, list) and data else None
        handlers = self.handlers.get(namespace, {})
        return isinstance(name, str) and name not in RESERVED_EVENTS and name in handlers

    async def _refuse(self, eio_sid: str, namespace: str, ack_id: int | None) -> None:
        sid = self.manager.sid_from_eio_sid(eio_sid, namespace)
        if ack_id is None or not self.manager.is_connected(sid, namespace):
            return _dropped(eio_sid, "an event that is not a client's")
        refusal = [{"errors": NO_SUCH_EVENT}]
        await self._send_packet(
            eio_sid, self.packet_class(packet.ACK, namespace=namespace, id=ack_id, data=refusal)
        )


def _dropped(eio_sid: str, what: str) -> None:
    log.info("dropped %s from socket %s", what, eio_sid)
