"""Sending Web Push messages (RFC 8030/8291/8292) with pywebpush's aiohttp support: VAPID
signed, aes128gcm encrypted, with the statuses a push service answers turned into what the
caller must do (keep, drop the subscription, or give up this once)."""

import asyncio
import enum
import logging

import aiohttp
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid
from pywebpush import WebPushException, webpush_async

from agora import metrics
from agora.core.constants import (
    PUSH_FIRST_RETRY_SECONDS,
    PUSH_MAX_RETRY_SECONDS,
    PUSH_PREVIEW_CHARS,
    PUSH_RETRIES,
    PUSH_SEND_TIMEOUT_SECONDS,
    PUSH_TTL_SECONDS,
)
from agora.core.push import Notification, Subscription, b64url_encode, topic_for

log = logging.getLogger("agora.web_push")

GONE_STATUSES = (404, 410)
TOO_LARGE = 413


class Delivery(enum.Enum):
    DELIVERED = "delivered"
    GONE = "gone"  # the subscription no longer exists: delete it
    FAILED = "failed"


def generate_vapid_keys() -> dict[str, str]:
    """A P-256 pair as the web app and pywebpush take them: the raw private number and the
    uncompressed public point, both base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return {"private_key": b64url_encode(private), "public_key": b64url_encode(public)}


class WebPushSender:
    def __init__(self, private_key: str, subject: str) -> None:
        self.vapid = Vapid.from_string(private_key=private_key)
        self.subject = subject
        self._session: aiohttp.ClientSession | None = None

    def _client(self) -> aiohttp.ClientSession:
        # Made on first use, inside the running loop; one pool of connections for all pushes.
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession()
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    async def deliver(self, subscription: Subscription, notification: Notification) -> Delivery:
        delivery = await self._deliver(subscription, notification)
        metrics.push_sent(delivery.value)
        return delivery

    async def _deliver(self, subscription: Subscription, notification: Notification) -> Delivery:
        preview_chars = PUSH_PREVIEW_CHARS
        for attempt in range(PUSH_RETRIES + 1):
            payload = notification.payload(preview_chars)
            status, retry_after = await self._post(subscription, notification, payload)
            if status is not None and status < 300:
                return Delivery.DELIVERED
            if status in GONE_STATUSES:
                return Delivery.GONE
            if status == TOO_LARGE:
                preview_chars //= 2
                continue
            if status is not None and status != 429 and status < 500:
                log.warning("a push service refused a push with %s", status)
                return Delivery.FAILED
            if attempt < PUSH_RETRIES:
                await asyncio.sleep(_backoff(attempt, retry_after))
        return Delivery.FAILED

    async def _post(
        self, subscription: Subscription, notification: Notification, payload: bytes
    ) -> tuple[int | None, str | None]:
        """The push service's status and Retry-After; None when it could not be reached."""
        try:
            response = await webpush_async(
                subscription.info(),
                data=payload.decode(),
                vapid_private_key=self.vapid,
                # A new dict each time: pywebpush fills in `aud` and `exp` for the endpoint.
                vapid_claims={"sub": self.subject},
                content_encoding="aes128gcm",
                ttl=PUSH_TTL_SECONDS,
                timeout=PUSH_SEND_TIMEOUT_SECONDS,
                headers={
                    "Urgency": "high" if notification.direct else "normal",
                    "Topic": topic_for(notification.session_id),
                },
                aiohttp_session=self._client(),
            )
        except WebPushException as error:
            response = error.response
            if response is None:
                return None, None
        except (aiohttp.ClientError, TimeoutError):
            return None, None
        return response.status, response.headers.get("Retry-After")


def _backoff(attempt: int, retry_after: str | None) -> float:
    wait = PUSH_FIRST_RETRY_SECONDS * 2**attempt
    if retry_after and retry_after.isdigit():
        wait = max(wait, float(retry_after))
    return min(wait, PUSH_MAX_RETRY_SECONDS)
