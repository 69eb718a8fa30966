"""Engine.IO's long-polling transport as the edge answers it: a poll still waiting when its
client closes the session is answered at once.

A polling client keeps a GET waiting for packets and sends its close packet by POST. engine.io
closes the session without putting anything on the socket's queue (the client asked, so no
close packet goes back), and the waiting GET was answered only when its wait ran out, ping
interval plus timeout (45 s) later, with a 400. python-socketio's client waits for that GET in
`disconnect()`, until its own request timeout (30 s) gives up on it; a browser lets the request
go, but the edge held it and the closed session's socket meanwhile. socket.io's own server
(engine.io's `Polling.onClose`) answers the waiting poll with a noop; so does this one.
"""

from typing import Any

import socketio
from engineio import packet as eio_packet


class AnsweredPollServer(socketio.AsyncServer):
    async def _handle_eio_disconnect(self, eio_sid: str, reason: Any) -> None:
        """Overrides AsyncServer._handle_eio_disconnect, which the library's constructor
        registers as engine.io's `disconnect` handler: engine.io calls it as it closes a
        session, while the socket is still in its table. The library's handling first, so a
        client's `disconnect()` returns once the edge has dropped its socket's rooms and
        presence."""
        await super()._handle_eio_disconnect(eio_sid, reason)
        socket = self.eio.sockets.get(eio_sid)
        if reason == self.reason.CLIENT_DISCONNECT and socket is not None and not socket.upgraded:
            socket.queue.put_nowait(eio_packet.Packet(eio_packet.NOOP))
