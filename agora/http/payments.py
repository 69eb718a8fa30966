"""Card payments: recharge, its status after the payment page, withdrawal, Stripe's webhook."""

from aiohttp import web
from pydantic import Field

from agora.core.constants import REQUEST_ID_MAX_LENGTH, WALLET_FOR_USER
from agora.core.errors import InvalidInput
from agora.http.replies import ok
from agora.http.requests import AmountText, Body, read_body, read_bytes, require_session
from agora.services.payments import PaymentService

SIGNATURE_HEADER = "Stripe-Signature"
CHECKOUT_ID_MAX_LENGTH = 255


class RechargeBody(Body):
    amount: AmountText = None
    currency: str | None = Field(default=None, max_length=10)


class WithdrawBody(Body):
    wallet_for: str = Field(default=WALLET_FOR_USER, max_length=20)
    wallet_currency: str = Field(max_length=10)
    request_id: str | None = Field(default=None, min_length=1, max_length=REQUEST_ID_MAX_LENGTH)


def routes(payments: PaymentService) -> list[web.RouteDef]:
    async def recharge(request: web.Request) -> web.Response:
        session = require_session(request)
        body = await read_body(request, RechargeBody)
        return ok(await payments.recharge(session, body.amount, body.currency))

    async def recharge_status(request: web.Request) -> web.Response:
        session = require_session(request)
        checkout_id = request.query.get("session_id", "")
        if not checkout_id or len(checkout_id) > CHECKOUT_ID_MAX_LENGTH:
            raise InvalidInput({"session_id": "This field is required"})
        return ok(await payments.recharge_status(session, checkout_id))

    async def withdraw(request: web.Request) -> web.Response:
        session = require_session(request)
        body = await read_body(request, WithdrawBody)
        return ok(
            await payments.withdraw(session, body.wallet_for, body.wallet_currency, body.request_id)
        )

    async def webhook(request: web.Request) -> web.Response:
        # The signature covers the exact bytes Stripe sent, so the body is not parsed here.
        payload = await read_bytes(request)
        return ok(await payments.handle_webhook(payload, request.headers.get(SIGNATURE_HEADER)))

    return [
        web.post("/api/recharge", recharge),
        web.get("/api/recharge/status", recharge_status),
        web.post("/api/wallet/withdraw", withdraw),
        web.post("/webhooks/stripe", webhook),
    ]
