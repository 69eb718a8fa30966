"""Stripe, through its own client library: the only module that imports `stripe`.

Calls go through `StripeClient`'s async methods over aiohttp (the edge's HTTP library), so a
slow Stripe never blocks the event loop. Replies come back as plain dicts and failures as
`GatewayError`, so the rest of the code knows nothing of Stripe's types.
"""

import logging
from collections.abc import Awaitable
from typing import Any

import stripe

from agora.core import json_text

log = logging.getLogger("agora.stripe")

# Retries of network failures reuse the request's idempotency key, so they are safe.
NETWORK_RETRIES = 2
GENERIC_FAILURE = "The card payment provider could not complete the request"


class GatewayError(Exception):
    """A failed Stripe call. `definitive` means Stripe answered that it did nothing.

    A timeout or a 5xx leaves it unknown whether the call took effect, so such failures are
    never treated as "nothing happened" (a payout must not be reversed when it may have left).
    """

    def __init__(self, message: str, *, definitive: bool) -> None:
        super().__init__(message)
        self.message = message
        self.definitive = definitive


class InvalidSignature(Exception):
    """A webhook whose signature, timestamp or body does not verify."""


def _definitive(error: stripe.StripeError) -> bool:
    status = error.http_status
    # 409: the same idempotency key is still in flight; 429: rate limited. Both may succeed.
    return status is not None and 400 <= status < 500 and status not in (409, 429)


def _message(error: stripe.StripeError) -> str:
    """Stripe's message is for the user, except about our own keys (a configuration fault)."""
    if isinstance(error, stripe.AuthenticationError | stripe.PermissionError):
        return GENERIC_FAILURE
    return error.user_message or GENERIC_FAILURE


class StripeGateway:
    def __init__(
        self,
        secret_key: str,
        *,
        api_base: str = "",
        webhook_secrets: tuple[str, ...] = (),
        tolerance_seconds: int = 300,
        timeout_seconds: float = 20.0,
    ) -> None:
        self.secret_key = secret_key
        self.api_base = api_base.rstrip("/")
        self.webhook_secrets = tuple(s for s in webhook_secrets if s)
        self.tolerance_seconds = tolerance_seconds
        self.timeout_seconds = timeout_seconds
        self._http: stripe.AIOHTTPClient | None = None
        self._client: stripe.StripeClient | None = None

    @property
    def client(self) -> stripe.StripeClient:
        # Built on first use: aiohttp sessions belong to the running event loop.
        if self._client is None:
            self._http = stripe.AIOHTTPClient(timeout=self.timeout_seconds)
            bases = {"api": self.api_base, "connect": self.api_base} if self.api_base else None
            self._client = stripe.StripeClient(
                self.secret_key,
                base_addresses=bases,
                http_client=self._http,
                max_network_retries=NETWORK_RETRIES,
            )
        return self._client

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close_async()
            self._http = self._client = None

    async def _call(self, request: Awaitable[Any]) -> dict[str, Any]:
        try:
            result = await request
        except stripe.StripeError as error:
            log.warning("stripe call failed: %r", error)
            raise GatewayError(_message(error), definitive=_definitive(error)) from error
        return result.to_dict()

    # Checkout -----------------------------------------------------------------

    async def payment_checkout(
        self,
        *,
        amount_cents: int,
        currency: str,
        product_name: str,
        metadata: dict[str, str],
        success_url: str,
        cancel_url: str,
        customer_email: str | None,
    ) -> dict[str, Any]:
        """A one-off card payment page (Checkout Session in payment mode)."""
        params: dict[str, Any] = {
            "mode": "payment",
            "line_items": [
                {
                    "quantity": 1,
                    "price_data": {
                        "currency": currency.lower(),
                        # The card currencies all have 2 decimals: Stripe's unit is our cent.
                        "unit_amount": amount_cents,
                        "product_data": {"name": product_name},
                    },
                }
            ],
            "metadata": metadata,
            "payment_intent_data": {"metadata": metadata},
            "success_url": success_url,
            "cancel_url": cancel_url,
        }
        if customer_email:
            params["customer_email"] = customer_email
        return await self._call(self.client.v1.checkout.sessions.create_async(params))

    async def subscription_checkout(
        self,
        *,
        amount_cents: int,
        currency: str,
        product_name: str,
        metadata: dict[str, str],
        success_url: str,
        cancel_url: str,
        customer: str | None,
    ) -> dict[str, Any]:
        """A monthly subscription page (Checkout Session in subscription mode)."""
        params: dict[str, Any] = {
            "mode": "subscription",
            "line_items": [
                {
                    "quantity": 1,
                    "price_data": {
                        "currency": currency.lower(),
                        "unit_amount": amount_cents,
                        "recurring": {"interval": "month"},
                        "product_data": {"name": product_name},
                    },
                }
            ],
            "metadata": metadata,
            # Subscription events carry these, so they find their group in any order.
            "subscription_data": {"metadata": metadata},
            "success_url": success_url,
            "cancel_url": cancel_url,
        }
        if customer:
            params["customer"] = customer
        return await self._call(self.client.v1.checkout.sessions.create_async(params))

    async def checkout(self, checkout_id: str) -> dict[str, Any]:
        """The session with its payment intent, whose last error is the provider's message."""
        return await self._call(
            self.client.v1.checkout.sessions.retrieve_async(
                checkout_id, {"expand": ["payment_intent"]}
            )
        )

    async def billing_portal(self, *, customer: str, return_url: str) -> dict[str, Any]:
        params = {"customer": customer, "return_url": return_url}
        return await self._call(self.client.v1.billing_portal.sessions.create_async(params))

    # Connect ------------------------------------------------------------------

    async def create_account(
        self, *, email: str | None, metadata: dict[str, str], idempotency_key: str
    ) -> dict[str, Any]:
        """An Express connected account that can receive transfers."""
        params: dict[str, Any] = {
            "type": "express",
            "capabilities": {
                "card_payments": {"requested": True},
                "transfers": {"requested": True},
            },
            "metadata": metadata,
        }
        if email:
            params["email"] = email
        return await self._call(
            self.client.v1.accounts.create_async(params, {"idempotency_key": idempotency_key})
        )

    async def account(self, account_id: str) -> dict[str, Any]:
        return await self._call(self.client.v1.accounts.retrieve_async(account_id))

    async def onboarding_link(
        self, *, account: str, refresh_url: str, return_url: str
    ) -> dict[str, Any]:
        params = {
            "account": account,
            "refresh_url": refresh_url,
            "return_url": return_url,
            "type": "account_onboarding",
        }
        return await self._call(self.client.v1.account_links.create_async(params))

    async def transfer(
        self,
        *,
        amount_cents: int,
        currency: str,
        destination: str,
        group: str,
        metadata: dict[str, str],
        idempotency_key: str,
    ) -> dict[str, Any]:
        """Moves money from the platform to a connected account, once per idempotency key."""
        params = {
            "amount": amount_cents,
            "currency": currency.lower(),
            "destination": destination,
            "transfer_group": group,
            "metadata": metadata,
        }
        return await self._call(
            self.client.v1.transfers.create_async(params, {"idempotency_key": idempotency_key})
        )

    async def transfers_in_group(self, group: str) -> list[dict[str, Any]]:
        """Transfers already made for `group`: idempotency keys expire after a day, this not."""
        page = await self._call(
            self.client.v1.transfers.list_async({"transfer_group": group, "limit": 10})
        )
        return list(page.get("data") or [])

    # Webhooks -----------------------------------------------------------------

    def verify_event(self, payload: bytes, signature: str | None) -> dict[str, Any]:
        """The event, if `signature` is Stripe's for this exact body and recent enough."""
        if not signature or not self.webhook_secrets:
            raise InvalidSignature("missing signature")
        for secret in self.webhook_secrets:
            try:
                stripe.WebhookSignature.verify_header(
                    payload, signature, secret, self.tolerance_seconds
                )
            except stripe.SignatureVerificationError:
                continue
            except ValueError as error:  # not UTF-8
                raise InvalidSignature("unreadable event") from error
            # Read like every JSON from outside (the library's own reading has no depth cap:
            # a deep event was a RecursionError); its event object would be turned back into
            # these very dicts.
            try:
                event = json_text.loads_outside(payload)
            except json_text.Unreadable as error:
                raise InvalidSignature("unreadable event") from error
            if not isinstance(event, dict):
                raise InvalidSignature("unreadable event")
            return event
        raise InvalidSignature("no signing secret matches")
