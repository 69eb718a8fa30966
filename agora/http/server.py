"""Builds the aiohttp application: middlewares, every feature's routes, Socket.IO, the web app."""

from aiohttp import web

from agora.http import (
    accounts,
    chat,
    chat_reactions,
    chat_search,
    client_errors,
    geo,
    groups,
    health,
    items,
    openapi,
    payments,
    push,
    realtime,
    reviews,
    rewards,
    uploads,
    wallet,
    web_app,
)
from agora.http.access_log import server_log
from agora.http.auth import ACCOUNTS, auth_middleware
from agora.http.replies import errors_middleware
from agora.http.requests import TRUSTED_PROXY_HOPS
from agora.http.security_headers import security_headers
from agora.http.whatsapp import channel as whatsapp_channel
from agora.http.whatsapp import clicks as whatsapp_clicks
from agora.http.whatsapp import templates as whatsapp_templates
from agora.http.whatsapp import webhooks as whatsapp_webhooks
from agora.realtime.transport import RoomChannelManager, edge_transports
from agora.services.registry import Services
from agora.settings import Settings


def create_app(
    settings: Settings, services: Services, sockets: RoomChannelManager | None = None
) -> web.Application:
    """`sockets`: the Socket.IO client manager the services' emitter publishes through."""
    app = web.Application(
        middlewares=[errors_middleware, auth_middleware],
        client_max_size=settings.max_body_bytes,
        # Compressed bodies are inflated by `requests.read_bytes`: aiohttp's own decoding
        # answers a body that is not what its header says with a 500 and a closed connection.
        # A request that does not parse is answered 400 by aiohttp: logged without a traceback.
        handler_args={"auto_decompress": False, "logger": server_log()},
    )
    app.on_response_prepare.append(security_headers(settings.public_base_url))
    app[ACCOUNTS] = services.accounts
    app[TRUSTED_PROXY_HOPS] = settings.trusted_proxy_hops
    secure = settings.public_base_url.startswith("https://")
    sends = chat.SendBodies(services.chat.kinds)
    declared = [
        *accounts.routes(
            services.accounts,
            secure_cookies=secure,
            notifications_unseen=services.chat.unseen.notifications_unseen,
        ),
        *client_errors.routes(services.client_errors),
        *groups.routes(services.groups, services.payments),
        *geo.routes(services.geo),
        *items.routes(services.feed, services.items),
        *rewards.routes(services.items),
        *reviews.routes(services.reviews),
        *uploads.routes(services.uploads),
        *chat.routes(
            sends=sends,
            sending=services.chat.sending,
            pages=services.chat.pages,
            message_info=services.chat.message_info,
            changes=services.chat.changes,
            chat_list=services.chat.chat_list,
            members=services.chat.members,
            chat_settings=services.chat.chat_settings,
            moderation=services.chat.moderation,
            item_chats=services.chat.item_chats,
            lookups=services.chat.lookups,
            previews=services.link_previews,
        ),
        *chat_search.routes(services.chat.search),
        *wallet.routes(services.wallets, services.offers, services.finder_fees),
        *payments.routes(services.payments),
        *push.routes(services.push, services.chat.receipts),
        *whatsapp_channel.routes(services.whatsapp.channels),
        *whatsapp_templates.routes(services.whatsapp_replies.templates),
        *whatsapp_clicks.routes(services.whatsapp_replies.clicks),
        *whatsapp_webhooks.routes(services.whatsapp.webhooks),
        *chat_reactions.routes(services.chat.reacting),
        *realtime.routes(),
        *health.routes(),
        openapi.ROUTE,
    ]
    app.add_routes([route.route_def() for route in declared])
    app[openapi.OPENAPI_DOCUMENT] = openapi.ApiDocument(declared)
    sio = realtime.create_socket_server(settings, sockets)
    edge_transports(sio)
    realtime.attach(
        app,
        sio,
        services.accounts,
        services.push,
        sends=sends,
        sending=services.chat.sending,
        receipts=services.chat.receipts,
        chat_rooms=services.chat.rooms,
        unseen_counts=services.chat.unseen,
        typing_signals=services.chat.typing,
        reacting=services.chat.reacting,
    )
    # Last: the catch-all page route must not shadow any call.
    app.add_routes(web_app.routes(settings.web_dist))
    return app
