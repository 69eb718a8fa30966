"""Web push: the key the web app subscribes with, and storing a browser's subscription."""

from aiohttp import web

from agora.http.replies import ok
from agora.http.requests import Body, read_body, require_caller
from agora.http.routes import Auth, Reply, Route, SuccessReply
from agora.services.push import PushService

PUSH_TOKEN_BODY_MAX_BYTES = 8 * 1024


class PushTokenBody(Body):
    push_token: str
    os_type: str


class PushInfoReply(Reply):
    public_key: str
    os_type: str


def routes(push: PushService) -> list[Route]:
    async def info(request: web.Request) -> web.Response:
        return ok(await push.info())

    async def update_push_token(request: web.Request) -> web.Response:
        caller = require_caller(request)
        body = await read_body(request, PushTokenBody, max_bytes=PUSH_TOKEN_BODY_MAX_BYTES)
        await push.register(caller, body.os_type, body.push_token)
        return ok({"success": True})

    return [
        Route(
            "GET",
            "/push/info",
            info,
            "The VAPID public key web push subscriptions are made with",
            reply=PushInfoReply,
        ),
        Route(
            "POST",
            "/update_push_token",
            update_push_token,
            "Keep this browser's push subscription for the caller (until this key logs out)",
            auth=Auth.REQUIRED,
            body=PushTokenBody,
            reply=SuccessReply,
        ),
    ]
