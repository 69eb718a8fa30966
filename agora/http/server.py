"""Builds the aiohttp application: middlewares, every feature's routes, Socket.IO, the web app."""

from aiohttp import web

from agora.http import (
    accounts,
    chat,
    client_errors,
    geo,
    groups,
    items,
    payments,
    push,
    realtime,
    uploads,
    wallet,
    web_app,
)
from agora.http.auth import ACCOUNTS, auth_middleware
from agora.http.replies import errors_middleware
from agora.http.requests import TRUSTED_PROXY_HOPS
from agora.services.registry import Services
from agora.settings import Settings


def create_app(settings: Settings, services: Services) -> web.Application:
    app = web.Application(
        middlewares=[errors_middleware, auth_middleware], client_max_size=settings.max_body_bytes
    )
    app[ACCOUNTS] = services.accounts
    app[TRUSTED_PROXY_HOPS] = settings.trusted_proxy_hops
    secure = settings.public_base_url.startswith("https://")
    app.add_routes(
        accounts.routes(
            services.accounts,
            secure_cookies=secure,
            notifications_unseen=services.chat.notifications_unseen,
        )
    )
    app.add_routes(client_errors.routes(services.client_errors))
    app.add_routes(groups.routes(services.groups, services.payments))
    app.add_routes(geo.routes(services.geo))
    app.add_routes(items.routes(services.feed, services.items))
    app.add_routes(uploads.routes(services.uploads))
    app.add_routes(chat.routes(services.chat, services.link_previews))
    app.add_routes(wallet.routes(services.wallets, services.offers))
    app.add_routes(payments.routes(services.payments))
    app.add_routes(push.routes(services.push))
    sio = realtime.create_socket_server(settings)
    realtime.attach(app, sio, services.accounts, services.chat, services.push)
    # Last: the catch-all page route must not shadow any call.
    app.add_routes(web_app.routes(settings.web_dist))
    return app
