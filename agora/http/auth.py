"""Bearer-key authentication for every HTTP request."""

import asyncio
from collections.abc import AsyncIterator

from aiohttp import web

from agora.http.requests import SESSION, bearer_key
from agora.services.accounts import AccountService

ACCOUNTS = web.AppKey("accounts", AccountService)


@web.middleware
async def auth_middleware(request: web.Request, handler) -> web.StreamResponse:
    """A presented key must be valid (401 otherwise); no key means a visitor.

    Only the Authorization header authorizes: a cookie alone never does, so no other site
    can make a browser perform a call on its user's behalf.
    """
    key = bearer_key(request)
    if key is not None:
        request[SESSION] = await request.app[ACCOUNTS].authenticate(key)
    return await handler(request)


async def follow_user_changes(app: web.Application) -> AsyncIterator[None]:
    """While the edge serves, it hears of users changed on any edge, so its copies of them
    (one per signed-in caller) can be used."""
    stop = asyncio.Event()

    async def drain() -> None:
        async for _ in app[ACCOUNTS].user_changes(stop):
            pass

    listener = asyncio.create_task(drain(), name="user-changes")
    yield
    stop.set()
    await listener
