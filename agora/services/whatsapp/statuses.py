"""Delivery statuses of our messages: merged forward-only into their flags and announced.

A status may come before our own write of the message's wamid (Meta answers the send, then
reports "sent" at once, and the webhook may be handled first): it is kept, and applied by
whoever comes second, the status handler or the send recording the wamid.
"""

from datetime import UTC, datetime
from typing import Any

from agora.core.whatsapp.constants import MESSAGE_TYPE_WA_STATUS
from agora.core.whatsapp.statuses import Status, status_change, whatsapp_info
from agora.integrations.whatsapp.webhooks import parse_status
from agora.realtime.emitter import RealtimeEmitter
from agora.services.events import WhatsAppStatusReceived
from agora.store.whatsapp_statuses import WhatsAppFlags


class WhatsAppStatuses:
    def __init__(self, flags: WhatsAppFlags, emitter: RealtimeEmitter) -> None:
        self.flags = flags
        self.emitter = emitter

    async def status_received(self, event: WhatsAppStatusReceived) -> None:
        """A `WhatsAppStatusReceived` subscriber."""
        status = parse_status(event.status)
        if status is not None:
            await self._apply(event.channel_id, status)

    async def _apply(self, channel_id: str, status: Status) -> None:
        known = await self._merge(channel_id, status)
        if not known:
            await self.flags.keep_early(channel_id, status, datetime.now(UTC))
            # The wamid may have been recorded since the lookup: then the send looked for
            # kept statuses before this one was kept, and it is applied here.
            await self.wamid_recorded(channel_id, status.wamid)

    async def wamid_recorded(self, channel_id: str, wamid: str) -> None:
        """The channel's message has its wamid now: the statuses kept for it are applied."""
        for status in await self.flags.take_early(channel_id, wamid):
            if not await self._merge(channel_id, status):
                await self.flags.keep_early(channel_id, status, datetime.now(UTC))

    async def _merge(self, channel_id: str, status: Status) -> bool:
        """Whether the channel sent a message with the status's wamid (announced when its
        flags moved). Statuses come in webhooks signed with the channel's app secret: one
        channel's cannot move another's messages."""
        known, changed = await self.flags.apply(channel_id, status.wamid, status_change(status))
        if changed is not None:
            await self.announce(changed)
        return known

    async def announce(self, message: dict[str, Any]) -> None:
        """A 1022 update to the chat's room: the message's whole merged flags."""
        session_id = message["dest_session_id"]
        await self.emitter.to_session(
            session_id,
            "wa_status",
            {
                "type": MESSAGE_TYPE_WA_STATUS,
                "session_id": session_id,
                "id": message["_id"],
                "created_at": message["created_at"],
                "info": whatsapp_info(message.get("info")),
            },
        )
