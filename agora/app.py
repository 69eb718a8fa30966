"""Composition root: builds stores, integrations and services from settings, then the edge."""

import asyncio
import logging

from aiohttp import web

from agora.actors.runtime import start_ray
from agora.http.server import create_app
from agora.integrations.messaging import email_sender, sms_sender
from agora.services.accounts import AccountService
from agora.services.client_errors import ClientErrorService
from agora.services.registry import Services
from agora.settings import Settings
from agora.store.auth_keys import AuthKeyStore
from agora.store.client_errors import ClientErrorStore
from agora.store.mongo import connect_mongo, database
from agora.store.otp import OtpStore
from agora.store.rate_limits import RateLimiter
from agora.store.redis import Keys, connect_redis
from agora.store.users import UserStore

log = logging.getLogger("agora")


def build_app(settings: Settings, *, with_ray: bool = True) -> web.Application:
    mongo = connect_mongo(settings)
    db = database(mongo, settings)
    redis = connect_redis(settings)
    keys = Keys(settings.redis_prefix)

    users = UserStore(db)
    auth_keys = AuthKeyStore(db, redis, keys)
    limits = RateLimiter(redis, keys)
    stores_with_indexes = (users, auth_keys)

    services = Services(
        accounts=AccountService(
            settings,
            users,
            auth_keys,
            OtpStore(redis, keys),
            limits,
            email=email_sender(settings.smtp_url, settings.smtp_from),
            sms=sms_sender(),
        ),
        client_errors=ClientErrorService(settings, ClientErrorStore(db), limits),
    )
    app = create_app(settings, services)

    async def lifecycle(app: web.Application):
        for store in stores_with_indexes:
            await store.ensure_indexes()
        if with_ray:
            await asyncio.get_running_loop().run_in_executor(None, start_ray, settings)
        yield
        await redis.aclose()
        await mongo.close()

    app.cleanup_ctx.insert(0, lifecycle)
    return app
