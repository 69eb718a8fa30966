"""WhatsApp business chats: a group's channel, Meta's webhooks, customers' messages."""

from dataclasses import dataclass

from agora.integrations.whatsapp_graph import GraphApi
from agora.services.whatsapp.channels import WhatsAppChannels


@dataclass(frozen=True)
class WhatsApp:
    graph: GraphApi
    channels: WhatsAppChannels

    async def close(self) -> None:
        await self.graph.close()
