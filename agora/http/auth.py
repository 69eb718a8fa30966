"""Bearer-key authentication for every HTTP request."""

from aiohttp import web

from agora.http.requests import CALLER, bearer_key
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
        request[CALLER] = await request.app[ACCOUNTS].authenticate(key)
    return await handler(request)
