"""A local stand-in for a browser vendor's push service, for tests and the push bench.

It accepts what a real one accepts (RFC 8030): a POST to a subscription's endpoint with a
VAPID `Authorization: vapid t=<JWT>,k=<public key>` header (RFC 8292) and an aes128gcm
body (RFC 8291). It checks the JWT (ES256 signature by `k`, audience = the endpoint's
origin, expiry within 24 hours, a mailto:/https: subject) and decrypts the body with the
subscriber's private key, as the browser would. Subscribers are made here the way a
browser makes them (a P-256 key pair and a 16-byte auth secret); a test can make one
answer 410 (gone), 429 or 413 for its next pushes.
"""

import base64
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

import http_ece
from aiohttp import web
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from tests.standin_server import serve_locally

MAX_EXPIRY_SECONDS = 24 * 3600


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Push:
    payload: dict[str, Any]
    headers: dict[str, str]
    vapid_key: str
    received_at: float = field(default_factory=time.time)  # epoch seconds, for latencies


@dataclass
class Subscriber:
    """One browser's subscription: its keys, what reached it, what it answers next."""

    endpoint: str
    private_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: secrets.token_bytes(16))
    pushes: list[Push] = field(default_factory=list)
    answers: list[int] = field(default_factory=list)

    def token(self) -> str:
        """`JSON.stringify(pushSubscription)`, as the web app sends it."""
        public = self.private_key.public_key().public_bytes(
            Encoding.X962, PublicFormat.UncompressedPoint
        )
        keys = {"p256dh": _b64(public), "auth": _b64(self.auth)}
        return json.dumps({"endpoint": self.endpoint, "expirationTime": None, "keys": keys})


class PushServiceStandin:
    def __init__(self) -> None:
        self.subscribers: dict[str, Subscriber] = {}
        self.refused: list[str] = []  # why pushes that failed a check were refused
        self.origin = ""
        self._runner: web.AppRunner | None = None

    async def start(self) -> "PushServiceStandin":
        app = web.Application()
        app.router.add_post("/push/{token}", self._receive)
        self._runner, self.origin = await serve_locally(app)
        return self

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def subscriber(self) -> Subscriber:
        token = secrets.token_hex(8)
        subscriber = Subscriber(f"{self.origin}/push/{token}")
        self.subscribers[token] = subscriber
        return subscriber

    async def _receive(self, request: web.Request) -> web.Response:
        subscriber = self.subscribers.get(request.match_info["token"])
        if subscriber is None:
            return web.Response(status=404)
        if subscriber.answers:
            return web.Response(status=subscriber.answers.pop(0), headers={"Retry-After": "0"})
        body = await request.read()
        try:
            vapid_key = self._check_vapid(request.headers.get("Authorization", ""))
            if request.headers.get("Content-Encoding") != "aes128gcm":
                raise ValueError("not aes128gcm")
            plain = http_ece.decrypt(
                body,
                private_key=subscriber.private_key,
                auth_secret=subscriber.auth,
                version="aes128gcm",
            )
        except Exception as error:
            self.refused.append(repr(error))
            return web.Response(status=400, text=repr(error))
        headers = {k: request.headers.get(k, "") for k in ("TTL", "Urgency", "Topic")}
        subscriber.pushes.append(Push(json.loads(plain), headers, vapid_key))
        return web.Response(status=201)

    def _check_vapid(self, authorization: str) -> str:
        scheme, _, params = authorization.partition(" ")
        if scheme != "vapid":
            raise ValueError("no vapid authorization")
        fields = dict(part.strip().split("=", 1) for part in params.split(","))
        header, claims, signature = fields["t"].split(".")
        if json.loads(_unb64(header)).get("alg") != "ES256":
            raise ValueError("not ES256")
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), _unb64(fields["k"]))
        raw = _unb64(signature)
        der = encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:]))
        try:
            public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature as error:
            raise ValueError("bad signature") from error
        payload = json.loads(_unb64(claims))
        now = time.time()
        if payload.get("aud") != self.origin:
            raise ValueError(f"audience {payload.get('aud')}")
        if not now < payload.get("exp", 0) <= now + MAX_EXPIRY_SECONDS:
            raise ValueError("expiry")
        if not str(payload.get("sub", "")).startswith(("mailto:", "https:")):
            raise ValueError("subject")
        return fields["k"]
