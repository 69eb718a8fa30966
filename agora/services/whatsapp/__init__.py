"""WhatsApp business chats: a group's channel, Meta's webhooks, customers' messages."""

from dataclasses import dataclass

from agora.integrations.whatsapp.client import GraphApi
from agora.services.whatsapp.business_chats import BusinessChats
from agora.services.whatsapp.channels import WhatsAppChannels
from agora.services.whatsapp.webhooks import WhatsAppWebhooks


@dataclass(frozen=True, kw_only=True)
class WhatsApp:
    graph: GraphApi
    channels: WhatsAppChannels
    webhooks: WhatsAppWebhooks
    business_chats: BusinessChats

    async def close(self) -> None:
        await self.webhooks.settled()
        await self.graph.close()
