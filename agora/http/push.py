"""Web push: the key the web app subscribes with, storing a browser's subscription, and
the receipts service workers acknowledge pushes with."""

from typing import Annotated

from aiohttp import web
from pydantic import Field

from agora.http.replies import ok
from agora.http.requests import Body, read_body, require_caller
from agora.http.routes import Auth, Reply, Route, SuccessReply
from agora.services.chat.receipts import Receipts
from agora.services.push import PushService

PUSH_TOKEN_BODY_MAX_BYTES = 8 * 1024
# A worker acknowledges each push as it comes; a few at once when several arrived together.
RECEIPTS_PER_CALL = 20
RECEIPT_MAX_CHARS = 400
RECEIPTS_BODY_MAX_BYTES = RECEIPTS_PER_CALL * (RECEIPT_MAX_CHARS + 8) + 64


class PushTokenBody(Body):
    push_token: str
    os_type: str


class DeliveredBody(Body):
    receipts: list[Annotated[str, Field(max_length=RECEIPT_MAX_CHARS)]] = Field(
        min_length=1, max_length=RECEIPTS_PER_CALL
    )


class DeliveredReply(Reply):
    success: bool
    marked: int


class PushInfoReply(Reply):
    public_key: str
    os_type: str


def routes(push: PushService, receipts: Receipts) -> list[Route]:
    async def info(request: web.Request) -> web.Response:
        return ok(await push.info())

    async def update_push_token(request: web.Request) -> web.Response:
        caller = require_caller(request)
        body = await read_body(request, PushTokenBody, max_bytes=PUSH_TOKEN_BODY_MAX_BYTES)
        await push.register(caller, body.os_type, body.push_token)
        return ok({"success": True})

    async def delivered(request: web.Request) -> web.Response:
        body = await read_body(request, DeliveredBody, max_bytes=RECEIPTS_BODY_MAX_BYTES)
        marked = await receipts.received(push.read_receipts(body.receipts))
        return ok({"success": True, "marked": marked})

    return [
        Route(
            "POST",
            "/push/delivered",
            delivered,
            "A service worker got pushes: the `receipt` of each marks its chat's messages up "
            "to that one delivered to the push's recipient (no auth key: the receipt names them)",
            auth=Auth.NONE,
            body=DeliveredBody,
            reply=DeliveredReply,
        ),
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
