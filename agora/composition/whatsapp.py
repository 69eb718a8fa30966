"""WhatsApp business chats: channels, the webhook's deliveries, customers' messages in, and
agents' replies out."""

from dataclasses import dataclass

from agora.composition.base import Foundation
from agora.composition.chat import Shards
from agora.core.whatsapp.outbound import WA_MESSAGE_TYPES
from agora.integrations.whatsapp.client import GraphApi
from agora.services.chat.sending import PreparesSend
from agora.services.groups import GroupService
from agora.services.uploads import UploadService
from agora.services.wallet import WalletService
from agora.services.whatsapp import WhatsApp
from agora.services.whatsapp.business_chats import BusinessChats
from agora.services.whatsapp.channels import WhatsAppChannels
from agora.services.whatsapp.clicks import WhatsAppClicks
from agora.services.whatsapp.inbound import InboundMessages
from agora.services.whatsapp.outbound import BusinessSends, WhatsAppOutbound
from agora.services.whatsapp.replies import WhatsAppReplies
from agora.services.whatsapp.statuses import WhatsAppStatuses
from agora.services.whatsapp.templates import WhatsAppTemplates
from agora.services.whatsapp.webhooks import RateLimit, WhatsAppWebhooks
from agora.store.business_chats import BusinessChatStore
from agora.store.whatsapp_channels import WhatsAppChannelStore
from agora.store.whatsapp_events import WhatsAppEventStore
from agora.store.whatsapp_statuses import WhatsAppFlags
from agora.store.whatsapp_templates import WhatsAppTemplateStore


@dataclass(frozen=True, kw_only=True)
class WhatsAppStores:
    channels: WhatsAppChannelStore
    deliveries: WhatsAppEventStore
    business_chats: BusinessChatStore
    templates: WhatsAppTemplateStore
    flags: WhatsAppFlags

    def indexed(self) -> list:
        return [self.channels, self.deliveries, self.business_chats, self.templates, self.flags]


def whatsapp_stores(base: Foundation) -> WhatsAppStores:
    return WhatsAppStores(
        channels=WhatsAppChannelStore(db=base.db),
        deliveries=WhatsAppEventStore(db=base.db),
        business_chats=BusinessChatStore(db=base.db, copies=base.copies),
        templates=WhatsAppTemplateStore(db=base.db),
        flags=WhatsAppFlags(db=base.db),
    )


def business_sends(base: Foundation, stores: WhatsAppStores) -> dict[int, PreparesSend]:
    """An agent's reply to a WhatsApp customer is checked against its business chat."""
    return dict.fromkeys(
        WA_MESSAGE_TYPES,
        BusinessSends(
            public_base_url=base.settings.public_base_url,
            sessions=base.sessions,
            messages=base.messages,
            templates=stores.templates,
        ),
    )


def build_whatsapp(
    base: Foundation,
    *,
    stores: WhatsAppStores,
    groups: GroupService,
    uploads: UploadService,
    shards: Shards,
) -> WhatsApp:
    settings = base.settings
    graph = GraphApi(base_url=settings.whatsapp_graph_url)
    channels = WhatsAppChannels(
        public_base_url=settings.public_base_url,
        channels=stores.channels,
        graph=graph,
        groups=groups,
        secret_key=settings.secret_key.get_secret_value(),
    )
    agents = BusinessChats(
        store=stores.business_chats,
        sessions=base.sessions,
        emitter=base.emitter,
        memberships=shards.memberships,
        shards=shards.sessions,
        kinds=base.kinds,
    )
    inbound = InboundMessages(
        chats=agents,
        store=stores.business_chats,
        uploads=uploads,
        graph=graph,
        emitter=base.emitter,
        shard_sends=shards.sends,
        shards=shards.sessions,
        kinds=base.kinds,
    )
    webhooks = WhatsAppWebhooks(
        channels=channels,
        deliveries=stores.deliveries,
        inbound=inbound,
        events=base.events,
        limits=base.limits,
        bad_signatures=RateLimit(
            limit=settings.whatsapp_bad_signatures_per_ip,
            window_seconds=settings.rate_window_seconds,
        ),
    )
    return WhatsApp(graph=graph, channels=channels, webhooks=webhooks, business_chats=agents)


def build_whatsapp_replies(
    base: Foundation, *, stores: WhatsAppStores, whatsapp: WhatsApp, wallets: WalletService
) -> WhatsAppReplies:
    """The agents' side of business chats: their replies sent, their statuses, templates."""
    statuses = WhatsAppStatuses(flags=stores.flags, emitter=base.emitter)
    return WhatsAppReplies(
        outbound=WhatsAppOutbound(
            public_base_url=base.settings.public_base_url,
            template_price=base.settings.whatsapp_template_price,
            template_currency=base.settings.whatsapp_template_currency,
            graph=whatsapp.graph,
            channels=whatsapp.channels,
            sessions=base.sessions,
            groups=base.groups,
            flags=stores.flags,
            wallets=wallets,
            statuses=statuses,
            kinds=base.kinds,
        ),
        statuses=statuses,
        templates=WhatsAppTemplates(
            channels=whatsapp.channels,
            graph=whatsapp.graph,
            store=stores.templates,
            sessions=base.sessions,
        ),
        clicks=WhatsAppClicks(templates=stores.templates, flags=stores.flags, statuses=statuses),
    )
