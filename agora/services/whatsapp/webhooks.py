"""Meta's webhooks: the subscription handshake, and deliveries, which are accepted only when
signed with the app secret of an enabled channel, stored as received, answered at once and
processed after (again by any edge, should this one fail or die before it is done)."""

import asyncio
import hashlib
import hmac
import logging
from dataclasses import dataclass
from typing import Any

from agora.core import json_text
from agora.core.clock import now_ms
from agora.core.errors import AgoraError, Forbidden, InvalidInput
from agora.integrations.whatsapp.webhooks import Change, parse_webhook
from agora.services.events import Events, WhatsAppStatusReceived
from agora.services.whatsapp.channels import OpenChannel, WhatsAppChannels
from agora.services.whatsapp.inbound import InboundMessages
from agora.store.rate_limits import RateLimiter
from agora.store.whatsapp_events import WhatsAppEventStore
from agora.tools.background import BackgroundTasks, Turn, Turns

log = logging.getLogger("agora.whatsapp")

SIGNATURE_PREFIX = "sha256="
# A delivery is this edge's to finish for this long; then any edge's sweep takes it up.
LEASE_MS = 60_000
# After this many tries a delivery is given up (logged), and a media file that could not be
# fetched is left out of its message instead of holding the rest back.
MAX_ATTEMPTS = 5
SWEEP_SECONDS = 30
# Processed deliveries are kept this long (to look into what Meta sent), then deleted.
KEPT_PROCESSED_MS = 7 * 24 * 3600 * 1000
SUBSCRIBE_MODE = "subscribe"
CHALLENGE_MAX_LENGTH = 256


@dataclass(frozen=True)
class RateLimit:
    limit: int
    window_seconds: int


class BadSignature(AgoraError):
    status = 401

    def __init__(self) -> None:
        super().__init__("The signature does not match")


def signed_by(raw: bytes, signature: str | None, channels: list[OpenChannel]) -> list[OpenChannel]:
    """The channels whose app secret signed these exact bytes (several numbers may share one
    Meta app, so one secret). Every comparison takes constant time."""
    if not signature or not signature.startswith(SIGNATURE_PREFIX) or not signature.isascii():
        return []
    given = signature.removeprefix(SIGNATURE_PREFIX).strip().lower()
    digests: dict[str, str] = {}
    matched = []
    for channel in channels:
        secret = channel.keys.app_secret
        if not secret:
            continue
        if secret not in digests:
            digests[secret] = hmac.new(secret.encode(), raw, hashlib.sha256).hexdigest()
        if hmac.compare_digest(digests[secret], given):
            matched.append(channel)
    return matched


class WhatsAppWebhooks:
    def __init__(
        self,
        *,
        channels: WhatsAppChannels,
        deliveries: WhatsAppEventStore,
        inbound: InboundMessages,
        events: Events,
        limits: RateLimiter,
        bad_signatures: RateLimit,
    ) -> None:
        self.limits = limits
        self.bad_signatures = bad_signatures
        self.channels = channels
        self.deliveries = deliveries
        self.inbound = inbound
        self.events = events
        self._processing = BackgroundTasks()
        # One customer's messages are stored in the order their deliveries came in.
        self._customers = Turns()

    async def verify(self, mode: str, token: str, challenge: str) -> str:
        """Meta's subscription check: the challenge back when the token is an enabled
        channel's verify token."""
        sound = challenge.isprintable() and 0 < len(challenge) <= CHALLENGE_MAX_LENGTH
        if mode != SUBSCRIBE_MODE or not token or not sound:
            raise Forbidden("Unknown verify token")
        known = [c.keys.verify_token for c in await self.channels.enabled()]
        matches = [hmac.compare_digest(t.encode(), token.encode()) for t in known if t]
        if not any(matches):
            raise Forbidden("Unknown verify token")
        return challenge

    async def admit(self, ip: str) -> None:
        """Before the body is read: an address that posted many wrongly signed deliveries
        waits (each costs an HMAC of the body per app secret)."""
        await self.limits.check(self._bad_bucket(ip), self.bad_signatures.limit)

    def _bad_bucket(self, ip: str) -> str:
        return f"whatsapp-bad-signature:{ip}"

    async def receive(self, raw: bytes, signature: str | None, ip: str) -> dict[str, Any]:
        """Checks the signature before reading anything, stores the delivery and answers;
        the processing runs after the answer."""
        signers = signed_by(raw, signature, await self.channels.enabled())
        if not signers:
            limit = self.bad_signatures
            await self.limits.hit(self._bad_bucket(ip), limit.limit, limit.window_seconds)
            raise BadSignature()
        try:
            text = raw.decode()  # Meta sends UTF-8; json.loads would also take UTF-16/32
            body = json_text.loads_outside(text)
        except ValueError as error:  # UnicodeDecodeError and Unreadable included
            raise InvalidInput("The body is not JSON, or nests too deeply") from error
        now = now_ms()
        channel_ids = [c.id for c in signers]
        changes = parse_webhook(body)
        turn = self._turn_of(changes)
        event_id = await self.deliveries.add(text, channel_ids, now, now + LEASE_MS)
        self._processing.start(self._process(event_id, changes, signers, turn, attempt=1))
        return {"received": True}

    def _turn_of(self, changes: list[Change]) -> Turn:
        customers = {(c.phone_number_id, m.wa_id) for c in changes for m in c.messages}
        return self._customers.take(customers)

    async def _process(
        self,
        event_id: str,
        changes: list[Change],
        signers: list[OpenChannel],
        turn: Turn,
        attempt: int,
    ) -> None:
        final_attempt = attempt >= MAX_ATTEMPTS
        try:
            async with turn:
                await self._apply(changes, signers, final_attempt)
            outcome = "done"
        except Exception as error:  # TryLater, or a store that failed: tried again
            if not final_attempt:
                log.warning("a WhatsApp delivery will be tried again: %r", error)
                return
            log.exception("a WhatsApp delivery was given up after %d tries", attempt)
            outcome = "given up"
        try:
            await self.deliveries.processed(event_id, now_ms(), outcome)
        except Exception:
            log.warning("a processed WhatsApp delivery was not marked so", exc_info=True)

    async def _apply(
        self, changes: list[Change], signers: list[OpenChannel], final_attempt: bool
    ) -> None:
        """Entries for numbers whose channel signed the delivery; others are ignored (a
        channel cannot speak for another app's numbers)."""
        by_number = {c.channel["phone_number_id"]: c for c in signers}
        for change in changes:
            channel = by_number.get(change.phone_number_id)
            if channel is None:
                log.warning("a WhatsApp delivery names a number no signer has")
                continue
            await self.channels.event_received(channel.id, now_ms())
            await self.inbound.receive(channel, change, final_attempt)
            for status in change.statuses:
                await self.events.publish(WhatsAppStatusReceived(channel.id, status))
            if change.skipped:
                log.warning("%d unreadable WhatsApp messages skipped", change.skipped)

    async def recover(self) -> int:
        """Takes up the deliveries whose edge did not finish them; how many it took."""
        taken = 0
        while (delivery := await self._take_stalled()) is not None:
            taken += 1
            signers = await self._channels(delivery["channel_ids"])
            try:
                body = json_text.loads_outside(delivery["raw"])
            except ValueError:
                await self.deliveries.processed(delivery["_id"], now_ms(), outcome="unreadable")
                continue
            changes = parse_webhook(body)
            turn = self._turn_of(changes)
            await self._process(delivery["_id"], changes, signers, turn, delivery["attempts"])
        return taken

    async def _take_stalled(self) -> dict[str, Any] | None:
        now = now_ms()
        return await self.deliveries.take_stalled(now, now + LEASE_MS)

    async def _channels(self, channel_ids: list[str]) -> list[OpenChannel]:
        """The delivery's signers as they are now (a channel disabled since still gets what
        was accepted while it was enabled)."""
        found = [await self.channels.get(channel_id) for channel_id in channel_ids]
        return [channel for channel in found if channel is not None]

    async def recover_forever(self) -> None:
        """At startup and then every SWEEP_SECONDS on every edge; old processed deliveries
        are deleted on the way."""
        while True:
            try:
                await self.recover()
                await self.deliveries.forget_processed(now_ms() - KEPT_PROCESSED_MS)
            except Exception:
                log.warning("the sweep of WhatsApp deliveries failed", exc_info=True)
            await asyncio.sleep(SWEEP_SECONDS)

    async def settled(self) -> None:
        """Waits for the deliveries being processed (tests; a clean shutdown)."""
        await self._processing.settled()
