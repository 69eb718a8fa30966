"""Sending Web Push messages (RFC 8030/8291/8292) with pywebpush's aiohttp support: VAPID
signed, aes128gcm encrypted, with the statuses a push service answers turned into what the
caller must do (keep, drop the subscription, or give up this once).

An endpoint is a URL a browser sent: pushes go through the outbound guard that link previews
use (`integrations/outbound.py`), so an endpoint leading to an internal address is never
connected to, and a push service's redirect is not followed.
"""

import asyncio
import enum
import logging
import time
from urllib.parse import urlsplit

import aiohttp
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid
from pywebpush import WebPusher, WebPushException

from agora.core.addresses import Refused, check_url
from agora.core.push import (
    PUSH_FIRST_RETRY_SECONDS,
    PUSH_MAX_RETRY_SECONDS,
    PUSH_PREVIEW_CHARS,
    PUSH_RETRIES,
    PUSH_SEND_TIMEOUT_SECONDS,
    PUSH_TTL_SECONDS,
    Notification,
    Subscription,
    b64url_encode,
    push_addresses,
    topic_for,
)
from agora.integrations.outbound import guarded_session
from agora.tools import metrics

log = logging.getLogger("agora.web_push")

GONE_STATUSES = (404, 410)
TOO_LARGE = 413
# A VAPID token is signed once per push service and reused (RFC 8292 allows up to 24 h):
# an ECDSA signature per push was a tenth of a user shard's work in a big group.
VAPID_TOKEN_SECONDS = 12 * 60 * 60
VAPID_RENEW_SECONDS = VAPID_TOKEN_SECONDS // 2


class Delivery(enum.Enum):
    DELIVERED = "delivered"
    GONE = "gone"  # the subscription no longer exists: delete it
    FAILED = "failed"
    REFUSED = "refused"  # the endpoint may not be reached: nothing was sent


def generate_vapid_keys() -> dict[str, str]:
    """A P-256 pair as the web app and pywebpush take them: the raw private number and the
    uncompressed public point, both base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return {"private_key": b64url_encode(private), "public_key": b64url_encode(public)}


class WebPushSender:
    def __init__(self, private_key: str, subject: str, allow_loopback: bool = False) -> None:
        self.vapid = Vapid.from_string(private_key=private_key)
        self.subject = subject
        self.allowed = push_addresses(allow_loopback)
        self._session: aiohttp.ClientSession | None = None
        # push service origin -> (the Authorization header, when to sign a new one)
        self._tokens: dict[str, tuple[dict[str, str], float]] = {}

    def _client(self) -> aiohttp.ClientSession:
        # Made on first use, inside the running loop; one pool of connections for all pushes.
        if self._session is None or self._session.closed:
            self._session = guarded_session(self.allowed, refuse_redirects=True)
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    async def deliver(self, subscription: Subscription, notification: Notification) -> Delivery:
        delivery = await self._deliver(subscription, notification)
        metrics.push_sent(delivery.value)
        return delivery

    async def _deliver(self, subscription: Subscription, notification: Notification) -> Delivery:
        try:
            check_url(subscription.endpoint, self.allowed)
            return await self._attempts(subscription, notification)
        except Refused as refusal:
            log.warning("a push was not sent: %s", refusal)
            return Delivery.REFUSED

    async def _attempts(self, subscription: Subscription, notification: Notification) -> Delivery:
        """A push service that answers 429 or 5xx is asked again; an endpoint that cannot be
        reached is not, until the next push (an endpoint is no way to make many requests)."""
        preview_chars = PUSH_PREVIEW_CHARS
        for attempt in range(PUSH_RETRIES + 1):
            payload = notification.payload(preview_chars)
            status, retry_after = await self._post(subscription, notification, payload)
            if status is None:
                return Delivery.FAILED
            if status < 300:
                return Delivery.DELIVERED
            if status in GONE_STATUSES:
                return Delivery.GONE
            if status == TOO_LARGE:
                preview_chars //= 2
                continue
            if status != 429 and status < 500:
                log.warning("a push service refused a push with %s", status)
                return Delivery.FAILED
            if attempt < PUSH_RETRIES:
                await asyncio.sleep(_backoff(attempt, retry_after))
        return Delivery.FAILED

    async def _post(
        self, subscription: Subscription, notification: Notification, payload: bytes
    ) -> tuple[int | None, str | None]:
        """The push service's status and Retry-After; None when it could not be reached.
        Raises Refused when the endpoint leads where pushes may not go, or redirects."""
        try:
            response = await WebPusher(
                subscription.info(), aiohttp_session=self._client()
            ).send_async(
                payload,
                {
                    **self._authorization(subscription.endpoint),
                    "Urgency": "high" if notification.direct else "normal",
                    "Topic": topic_for(notification.session_id),
                },
                ttl=PUSH_TTL_SECONDS,
                content_encoding="aes128gcm",
                timeout=PUSH_SEND_TIMEOUT_SECONDS,
            )
        except (WebPushException, aiohttp.ClientError, TimeoutError):
            return None, None
        return response.status, response.headers.get("Retry-After")

    def _authorization(self, endpoint: str) -> dict[str, str]:
        """The VAPID header for the endpoint's push service, signed anew when half used."""
        parts = urlsplit(endpoint)
        audience = f"{parts.scheme}://{parts.netloc}"
        now = time.time()
        token = self._tokens.get(audience)
        if token is None or now >= token[1]:
            claims = {"sub": self.subject, "aud": audience, "exp": int(now) + VAPID_TOKEN_SECONDS}
            token = (self.vapid.sign(claims), now + VAPID_RENEW_SECONDS)
            self._tokens[audience] = token
        return token[0]


def _backoff(attempt: int, retry_after: str | None) -> float:
    wait = PUSH_FIRST_RETRY_SECONDS * 2**attempt
    if retry_after and retry_after.isdigit():
        wait = max(wait, float(retry_after))
    return min(wait, PUSH_MAX_RETRY_SECONDS)
