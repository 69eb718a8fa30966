"""Card payments: recharge, its status after the payment page, withdrawal, Stripe's webhook."""

from typing import Any

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field

from agora.core.errors import InvalidInput
from agora.core.money import REQUEST_ID_MAX_LENGTH, WALLET_FOR_USER
from agora.http.replies import ok
from agora.http.requests import AmountText, Body, read_body, read_bytes, require_caller
from agora.http.routes import Auth, Query, Reply, Route
from agora.services.payments import PaymentService

SIGNATURE_HEADER = "Stripe-Signature"
CHECKOUT_ID_MAX_LENGTH = 255


class RechargeBody(Body):
    amount: AmountText = None
    currency: str | None = Field(default=None, max_length=10)


class WithdrawBody(Body):
    wallet_for: str = Field(default=WALLET_FOR_USER, max_length=20)
    wallet_currency: str = Field(max_length=10)
    # More than 0, at most 2 decimals, at most the balance; absent: the whole balance.
    amount: AmountText = None
    request_id: str | None = Field(default=None, min_length=1, max_length=REQUEST_ID_MAX_LENGTH)


class RechargeStatusQuery(Query):
    session_id: str


class RechargeReply(Reply):
    stripe_checkout_data: dict[str, Any]


class RechargeStatusReply(Reply):
    status: str
    message: str | None = None
    recharge: dict[str, Any] | None = None
    wallet: dict[str, Any] | None = None


class WithdrawReply(Reply):
    """`redirect` to the provider's onboarding, or `success` with the `wallet` as the
    withdrawal left it."""

    redirect: str | None = None
    success: bool | None = None
    wallet: dict[str, Any] | None = None


class StripeEvent(BaseModel):
    """What the webhook is sent; it is read as bytes, since the signature covers them."""

    model_config = ConfigDict(extra="allow")
    id: str
    type: str


class WebhookReply(Reply):
    received: bool


def routes(payments: PaymentService) -> list[Route]:
    async def recharge(request: web.Request) -> web.Response:
        caller = require_caller(request)
        body = await read_body(request, RechargeBody)
        return ok(await payments.recharge(caller, body.amount, body.currency))

    async def recharge_status(request: web.Request) -> web.Response:
        caller = require_caller(request)
        checkout_id = request.query.get("session_id", "")
        if not checkout_id or len(checkout_id) > CHECKOUT_ID_MAX_LENGTH:
            raise InvalidInput({"session_id": "This field is required"})
        return ok(await payments.recharge_status(caller, checkout_id))

    async def withdraw(request: web.Request) -> web.Response:
        caller = require_caller(request)
        body = await read_body(request, WithdrawBody)
        return ok(
            await payments.withdraw(
                caller, body.wallet_for, body.wallet_currency, body.amount, body.request_id
            )
        )

    async def webhook(request: web.Request) -> web.Response:
        # The signature covers the exact bytes Stripe sent, so the body is not parsed here.
        payload = await read_bytes(request)
        return ok(await payments.handle_webhook(payload, request.headers.get(SIGNATURE_HEADER)))

    return [
        Route(
            "POST",
            "/api/recharge",
            recharge,
            "Starts a card payment into the caller's wallet",
            auth=Auth.REQUIRED,
            body=RechargeBody,
            reply=RechargeReply,
        ),
        Route(
            "GET",
            "/api/recharge/status",
            recharge_status,
            "A card payment's state, after the payment page",
            auth=Auth.REQUIRED,
            query=RechargeStatusQuery,
            reply=RechargeStatusReply,
            errors=(409,),
        ),
        Route(
            "POST",
            "/api/wallet/withdraw",
            withdraw,
            "Pays a wallet out to the caller's connected account",
            auth=Auth.REQUIRED,
            body=WithdrawBody,
            reply=WithdrawReply,
            errors=(409, 502),
        ),
        Route(
            "POST",
            "/webhooks/stripe",
            webhook,
            "The payment provider's events (signed: Stripe-Signature)",
            auth=Auth.NONE,
            body=StripeEvent,
            reply=WebhookReply,
            errors=(409,),
        ),
    ]
