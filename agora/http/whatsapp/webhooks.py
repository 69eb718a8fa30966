"""Meta's WhatsApp webhook: one URL for every channel (the signature says whose it is)."""

from typing import Any

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field

from agora.core.whatsapp.channel import WEBHOOK_PATH
from agora.http.replies import ok
from agora.http.requests import client_ip, read_bytes
from agora.http.routes import Auth, Query, Reply, Route
from agora.services.whatsapp.webhooks import WhatsAppWebhooks

SIGNATURE_HEADER = "X-Hub-Signature-256"
# Meta batches up to 1,000 updates in one delivery, up to 3 MB: above the edge's usual limit.
DELIVERY_MAX_BYTES = 3 * 1024 * 1024


class VerifyQuery(Query):
    """Meta's subscription check; the names have dots."""

    mode: str = Field(alias="hub.mode")
    verify_token: str = Field(alias="hub.verify_token")
    challenge: str = Field(alias="hub.challenge")


class WhatsAppDelivery(BaseModel):
    """What Meta posts (read as bytes: the signature covers them)."""

    model_config = ConfigDict(extra="allow")
    object: str
    entry: list[dict[str, Any]]


class DeliveryReply(Reply):
    received: bool


def routes(webhooks: WhatsAppWebhooks) -> list[Route]:
    async def verify(request: web.Request) -> web.Response:
        query = request.query
        challenge = await webhooks.verify(
            query.get("hub.mode", ""),
            query.get("hub.verify_token", ""),
            query.get("hub.challenge", ""),
        )
        return web.Response(text=challenge, content_type="text/plain")

    async def deliver(request: web.Request) -> web.Response:
        # The signature covers the exact bytes Meta sent: nothing is parsed before it is checked.
        ip = client_ip(request)
        await webhooks.admit(ip)
        larger = request.clone(client_max_size=DELIVERY_MAX_BYTES)
        raw = await read_bytes(larger, DELIVERY_MAX_BYTES)
        return ok(await webhooks.receive(raw, request.headers.get(SIGNATURE_HEADER), ip))

    return [
        Route(
            "GET",
            WEBHOOK_PATH,
            verify,
            "Meta's webhook subscription check: the challenge back for a known verify token",
            auth=Auth.NONE,
            query=VerifyQuery,
            reply_media_type="text/plain",
        ),
        Route(
            "POST",
            WEBHOOK_PATH,
            deliver,
            "WhatsApp's events for every channel (signed: X-Hub-Signature-256)",
            auth=Auth.NONE,
            body=WhatsAppDelivery,
            reply=DeliveryReply,
        ),
    ]
