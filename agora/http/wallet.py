"""Wallet ledgers and giving offers."""

from aiohttp import web
from pydantic import Field

from agora.core.constants import REQUEST_ID_MAX_LENGTH
from agora.core.errors import InvalidInput
from agora.core.numbers import bounded_int
from agora.http.replies import ok
from agora.http.requests import AmountText, Body, read_body, require_session
from agora.services.offers import OfferService
from agora.services.wallet import WalletService


class GiveOfferBody(Body):
    cs_id: str = Field(min_length=1, max_length=200)
    offer_amount: AmountText = None
    request_id: str | None = Field(default=None, min_length=1, max_length=REQUEST_ID_MAX_LENGTH)


def _query_text(request: web.Request, name: str) -> str:
    value = request.query.get(name, "").strip()
    if not value or len(value) > 200:
        raise InvalidInput({name: "This field is required"})
    return value


def _before(request: web.Request) -> int | None:
    raw = request.query.get("before")
    return None if raw in (None, "") else bounded_int(raw, "before")


def routes(wallets: WalletService, offers: OfferService) -> list[web.RouteDef]:
    async def ledger(request: web.Request) -> web.Response:
        session = require_session(request)
        return ok(
            await wallets.ledger(
                session.user["_id"],
                wallet_user_id=_query_text(request, "wallet_user_id"),
                wallet_for=_query_text(request, "wallet_for"),
                wallet_currency=_query_text(request, "wallet_currency"),
                before=_before(request),
            )
        )

    async def give_offer(request: web.Request) -> web.Response:
        session = require_session(request)
        body = await read_body(request, GiveOfferBody)
        return ok(await offers.give(session, body.cs_id, body.offer_amount, body.request_id))

    return [
        web.get("/api/wallet/ledger", ledger),
        web.post("/api/giveoffer", give_offer),
    ]
