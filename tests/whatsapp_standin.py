"""A local stand-in for Meta's WhatsApp Cloud API (the Graph API), for tests, the e2e suite
and the bench.

It answers what the real one answers, under `<origin>/v21.0` (the edge's
`AGORA_WHATSAPP_GRAPH_URL`), with the bearer token of a registered business number checked:
- `GET /{phone_number_id}`: the number's record (`display_phone_number`, `verified_name`);
- `GET /{media_id}`: where a customer's media file is (`url`, `mime_type`, `sha256`,
  `file_size`, `id`), and `GET <url>` the bytes (the bearer token checked there too);
- `POST /{phone_number_id}/messages`: records the request, answers a new wamid;
- `GET /{business_account_id}/message_templates`: a fixed set of templates.
A test can make the next calls fail with Meta's error shape (`fail_next`), e.g. 131047
(re-engagement), 131026 (undeliverable), 4 (rate limit), or a 5xx. Tests drive it directly;
the e2e suite (another process) through the small control API under `/_standin/`.

Run alone: `python -m tests.whatsapp_standin --port 8790`.
"""

import argparse
import asyncio
import base64
import hashlib
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web

from tests.whatsapp_signing import sign

API_VERSION = "v21.0"

# Meta's error codes the tests use, with the words Meta answers them with.
ERRORS = {
    4: ("OAuthException", "(#4) Application request limit reached", "Rate limit hit"),
    100: ("GraphMethodException", "Unsupported request: object does not exist", "Not found"),
    190: ("OAuthException", "Invalid OAuth access token - Cannot parse access token", ""),
    131026: ("OAuthException", "Message Undeliverable.", "Message undeliverable"),
    131047: (
        "OAuthException",
        "Re-engagement message",
        "Message failed to send because more than 24 hours have passed since the customer "
        "last replied to this number.",
    ),
}

TEMPLATES = [
    {
        "id": "9001",
        "name": "order_update",
        "language": "en_US",
        "status": "APPROVED",
        "category": "UTILITY",
        "components": [
            {"type": "HEADER", "format": "TEXT", "text": "Your order"},
            {
                "type": "BODY",
                "text": "Hello {{1}}, your order {{2}} is on its way.",
                "example": {"body_text": [["Ann", "#42"]]},
            },
            {"type": "FOOTER", "text": "Agora shop"},
            {
                "type": "BUTTONS",
                "buttons": [
                    {"type": "URL", "text": "Track it", "url": "https://example.com/track/{{1}}"},
                    {"type": "QUICK_REPLY", "text": "Thanks"},
                ],
            },
        ],
    },
    {
        "id": "9002",
        "name": "hello_world",
        "language": "en_US",
        "status": "APPROVED",
        "category": "MARKETING",
        "components": [{"type": "BODY", "text": "Hello from Agora!"}],
    },
    {
        "id": "9003",
        "name": "spring_sale",
        "language": "en_US",
        "status": "PENDING",
        "category": "MARKETING",
        "components": [{"type": "BODY", "text": "Spring sale: {{1}} off"}],
    },
]


@dataclass
class Number:
    phone_number_id: str
    access_token: str
    display_phone_number: str
    business_account_id: str
    verified_name: str = "Agora Test Shop"


@dataclass
class Media:
    content: bytes
    mime_type: str
    access_token: str


@dataclass
class Failure:
    status: int
    code: int
    only: str | None  # the kind of call it applies to (None: any)


@dataclass
class SentMessage:
    phone_number_id: str
    payload: dict[str, Any]
    wamid: str
    received_at: float = field(default_factory=time.time)


def error_body(code: int, message: str | None = None, details: str | None = None) -> dict:
    kind, default_message, default_details = ERRORS.get(code, ("OAuthException", "Error", ""))
    return {
        "error": {
            "message": message or default_message,
            "type": kind,
            "code": code,
            "error_subcode": 2494010 if code == 131047 else None,
            "error_data": {"messaging_product": "whatsapp", "details": details or default_details},
            "fbtrace_id": secrets.token_urlsafe(12),
        }
    }


class WhatsAppStandin:
    def __init__(self, port: int = 0) -> None:
        self.port = port
        self.origin = ""
        self.numbers: dict[str, Number] = {}
        self.media: dict[str, Media] = {}
        self.sent: list[SentMessage] = []
        self.failures: list[Failure] = []
        self.calls: list[str] = []  # "METHOD path" of every API call, in order
        self._runner: web.AppRunner | None = None

    @property
    def base_url(self) -> str:
        """What the edge's `AGORA_WHATSAPP_GRAPH_URL` is set to."""
        return f"{self.origin}/{API_VERSION}"

    async def start(self) -> "WhatsAppStandin":
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_post("/_standin/numbers", self._control_number)
        app.router.add_post("/_standin/media", self._control_media)
        app.router.add_post("/_standin/fail", self._control_fail)
        app.router.add_get("/_standin/sent", self._control_sent)
        app.router.add_post("/_standin/webhook", self._control_webhook)
        app.router.add_get("/download/{media_id}", self._download)
        app.router.add_get(f"/{API_VERSION}/{{object_id}}", self._get_object)
        app.router.add_post(f"/{API_VERSION}/{{phone_number_id}}/messages", self._send)
        app.router.add_get(
            f"/{API_VERSION}/{{business_account_id}}/message_templates", self._templates
        )
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]
        self.origin = f"http://127.0.0.1:{port}"
        return self

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    # What tests call.

    def add_number(
        self,
        phone_number_id: str | None = None,
        access_token: str | None = None,
        display_phone_number: str = "+1 555-0100",
        business_account_id: str | None = None,
    ) -> Number:
        number = Number(
            phone_number_id or str(secrets.randbelow(10**15) + 10**15),
            access_token or f"EAAG{secrets.token_urlsafe(24)}",
            display_phone_number,
            business_account_id or str(secrets.randbelow(10**15) + 10**15),
        )
        self.numbers[number.phone_number_id] = number
        return number

    def add_media(self, content: bytes, mime_type: str, access_token: str) -> str:
        """A file a customer sent; its id goes into the webhook's message."""
        media_id = str(secrets.randbelow(10**15) + 10**15)
        self.media[media_id] = Media(content, mime_type, access_token)
        return media_id

    def fail_next(self, count: int = 1, status: int = 400, code: int = 131026, only=None) -> None:
        """The next `count` calls (of kind `only`: "phone_number", "media", "download",
        "messages", "templates"; None: any) answer `status` with Meta's error `code` (a 5xx
        answers a plain page, as a failing proxy does)."""
        self.failures.extend(Failure(status, code, only) for _ in range(count))

    def sent_to(self, wa_id: str) -> list[SentMessage]:
        return [m for m in self.sent if m.payload.get("to") == wa_id]

    # The API.

    def _failure(self, kind: str) -> web.Response | None:
        for failure in self.failures:
            if failure.only in (None, kind):
                self.failures.remove(failure)
                if failure.status >= 500:
                    return web.Response(status=failure.status, text="upstream failure")
                return web.json_response(error_body(failure.code), status=failure.status)
        return None

    def _refusal(self, request: web.Request, kind: str, token: str | None) -> web.Response | None:
        """What the API answers instead (a planned failure or a wrong token), or None."""
        self.calls.append(f"{request.method} {request.path}")
        planned = self._failure(kind)
        if planned is not None:
            return planned
        given = request.headers.get("Authorization", "").removeprefix("Bearer ")
        if token is None or not secrets.compare_digest(given, token):
            return web.json_response(error_body(190), status=401)
        return None

    async def _get_object(self, request: web.Request) -> web.Response:
        object_id = request.match_info["object_id"]
        number = self.numbers.get(object_id)
        if number is not None:
            refusal = self._refusal(request, "phone_number", number.access_token)
            return refusal or web.json_response(
                {
                    "verified_name": number.verified_name,
                    "display_phone_number": number.display_phone_number,
                    "id": number.phone_number_id,
                    "quality_rating": "GREEN",
                }
            )
        media = self.media.get(object_id)
        if media is not None:
            refusal = self._refusal(request, "media", media.access_token)
            return refusal or web.json_response(
                {
                    "messaging_product": "whatsapp",
                    "url": f"{self.origin}/download/{object_id}",
                    "mime_type": media.mime_type,
                    "sha256": hashlib.sha256(media.content).hexdigest(),
                    "file_size": len(media.content),
                    "id": object_id,
                }
            )
        self.calls.append(f"{request.method} {request.path}")
        return web.json_response(error_body(100), status=400)

    async def _download(self, request: web.Request) -> web.Response:
        media = self.media.get(request.match_info["media_id"])
        if media is None:
            return web.Response(status=404)
        refusal = self._refusal(request, "download", media.access_token)
        return refusal or web.Response(body=media.content, content_type=media.mime_type)

    async def _send(self, request: web.Request) -> web.Response:
        number = self.numbers.get(request.match_info["phone_number_id"])
        refusal = self._refusal(request, "messages", number and number.access_token)
        if refusal is not None:
            return refusal
        payload = await request.json()
        if payload.get("messaging_product") != "whatsapp" or not payload.get("to"):
            return web.json_response(
                error_body(100, "(#100) Invalid parameter", "messaging_product and to"), status=400
            )
        wamid = f"wamid.{base64.b64encode(secrets.token_bytes(24)).decode()}"
        self.sent.append(SentMessage(number.phone_number_id, payload, wamid))
        return web.json_response(
            {
                "messaging_product": "whatsapp",
                "contacts": [{"input": payload["to"], "wa_id": payload["to"]}],
                "messages": [{"id": wamid}],
            }
        )

    async def _templates(self, request: web.Request) -> web.Response:
        account = request.match_info["business_account_id"]
        owner = next((n for n in self.numbers.values() if n.business_account_id == account), None)
        refusal = self._refusal(request, "templates", owner and owner.access_token)
        return refusal or web.json_response(
            {"data": TEMPLATES, "paging": {"cursors": {"before": "MAZDZD", "after": "MgZDZD"}}}
        )

    # The control API, for the e2e suite in another process.

    async def _control_number(self, request: web.Request) -> web.Response:
        body = await request.json()
        number = self.add_number(
            body.get("phone_number_id"),
            body.get("access_token"),
            body.get("display_phone_number", "+1 555-0100"),
            body.get("business_account_id"),
        )
        return web.json_response(number.__dict__)

    async def _control_media(self, request: web.Request) -> web.Response:
        body = await request.json()
        content = base64.b64decode(body["data"])
        return web.json_response(
            {"id": self.add_media(content, body["mime_type"], body["access_token"])}
        )

    async def _control_fail(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.fail_next(
            body.get("count", 1),
            body.get("status", 400),
            body.get("code", 131026),
            body.get("only"),
        )
        return web.json_response({"pending": len(self.failures)})

    async def _control_sent(self, request: web.Request) -> web.Response:
        return web.json_response(
            {
                "sent": [
                    {"phone_number_id": m.phone_number_id, "wamid": m.wamid, **m.payload}
                    for m in self.sent
                ]
            }
        )

    async def _control_webhook(self, request: web.Request) -> web.Response:
        """Signs `body` with `app_secret` as Meta does and posts it to `url`."""
        control = await request.json()
        raw = json.dumps(control["body"]).encode()
        async with (
            aiohttp.ClientSession() as session,
            session.post(
                control["url"],
                data=raw,
                headers={"Content-Type": "application/json", **sign(raw, control["app_secret"])},
            ) as response,
        ):
            return web.json_response({"status": response.status, "body": await response.text()})


async def _serve(port: int) -> None:
    standin = await WhatsAppStandin(port).start()
    print(f"WhatsApp Graph API stand-in at {standin.base_url}", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8790)
    asyncio.run(_serve(parser.parse_args().port))
