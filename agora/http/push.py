"""Web push: the key the web app subscribes with, and storing a browser's subscription."""

from aiohttp import web

from agora.http.replies import ok
from agora.http.requests import Body, read_body, require_session
from agora.services.push import PushService

PUSH_TOKEN_BODY_MAX_BYTES = 8 * 1024


class PushTokenBody(Body):
    push_token: str
    os_type: str


def routes(push: PushService) -> list[web.RouteDef]:
    async def info(request: web.Request) -> web.Response:
        return ok(await push.info())

    async def update_push_token(request: web.Request) -> web.Response:
        session = require_session(request)
        body = await read_body(request, PushTokenBody, max_bytes=PUSH_TOKEN_BODY_MAX_BYTES)
        await push.register(session, body.os_type, body.push_token)
        return ok({"success": True})

    return [
        web.get("/push/info", info),
        web.post("/update_push_token", update_push_token),
    ]
