"""The agents' side of business chats, as the composition root hands it to the edge."""

from dataclasses import dataclass

from agora.services.whatsapp.clicks import WhatsAppClicks
from agora.services.whatsapp.outbound import WhatsAppOutbound
from agora.services.whatsapp.statuses import WhatsAppStatuses
from agora.services.whatsapp.templates import WhatsAppTemplates


@dataclass(frozen=True, kw_only=True)
class WhatsAppReplies:
    outbound: WhatsAppOutbound
    statuses: WhatsAppStatuses
    templates: WhatsAppTemplates
    clicks: WhatsAppClicks
