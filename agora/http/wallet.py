"""Wallet ledgers and giving offers."""

from typing import Any

from aiohttp import web
from pydantic import Field

from agora.core.errors import InvalidInput
from agora.core.money import REQUEST_ID_MAX_LENGTH
from agora.core.numbers import bounded_int
from agora.http.replies import ok
from agora.http.requests import AmountText, Body, read_body, require_caller
from agora.http.routes import Auth, Query, Reply, Route
from agora.services.finder_fees import EarnedFromSharing
from agora.services.offers import OfferService
from agora.services.wallet import WalletService


class GiveOfferBody(Body):
    cs_id: str = Field(min_length=1, max_length=200)
    offer_amount: AmountText = None
    request_id: str | None = Field(default=None, min_length=1, max_length=REQUEST_ID_MAX_LENGTH)


class OfferSplitBody(Body):
    cs_id: str = Field(min_length=1, max_length=200)
    offer_amount: AmountText = None


class LedgerQuery(Query):
    wallet_user_id: str
    wallet_for: str
    wallet_currency: str
    before: int | None = None


class LedgerReply(Reply):
    ledger_entries: list[dict[str, Any]]
    has_more: bool
    next_before: int | None = None


class GiveOfferReply(Reply):
    success: bool
    wallet: dict[str, Any]
    move_id: str | None = None
    last_offer: dict[str, Any] | None = None
    finder_fees: list[dict[str, Any]] = Field(default_factory=list)
    # What the post's held reward paid, and what came from the available balance.
    paid_from_held: int | float = 0
    paid_from_available: int | float = 0


class OfferSplitReply(Reply):
    """What an offer would pay: `offer_amount` to the asker (`participant_name`), each
    sharer's finder's fee, and the `total` the poster's wallet gives, `from_held` the post's
    held reward first and `from_available` the rest."""

    offer_amount: int | float
    participant_name: str
    currency: str
    finder_fees: list[dict[str, Any]]
    total: int | float
    from_held: int | float
    from_available: int | float


class EarnedReply(Reply):
    finder_fees: list[dict[str, Any]]


def _query_text(request: web.Request, name: str) -> str:
    value = request.query.get(name, "").strip()
    if not value or len(value) > 200:
        raise InvalidInput({name: "This field is required"})
    return value


def _before(request: web.Request) -> int | None:
    raw = request.query.get("before")
    return None if raw in (None, "") else bounded_int(raw, "before")


def routes(wallets: WalletService, offers: OfferService, earned: EarnedFromSharing) -> list[Route]:
    async def ledger(request: web.Request) -> web.Response:
        caller = require_caller(request)
        return ok(
            await wallets.ledger(
                caller.user["_id"],
                wallet_user_id=_query_text(request, "wallet_user_id"),
                wallet_for=_query_text(request, "wallet_for"),
                wallet_currency=_query_text(request, "wallet_currency"),
                before=_before(request),
            )
        )

    async def give_offer(request: web.Request) -> web.Response:
        caller = require_caller(request)
        body = await read_body(request, GiveOfferBody)
        return ok(await offers.give(caller, body.cs_id, body.offer_amount, body.request_id))

    async def offer_split(request: web.Request) -> web.Response:
        caller = require_caller(request)
        body = await read_body(request, OfferSplitBody)
        return ok(await offers.split(caller, body.cs_id, body.offer_amount))

    async def earned_from_sharing(request: web.Request) -> web.Response:
        return ok(await earned.earned(require_caller(request)))

    return [
        Route(
            "GET",
            "/api/wallet/ledger",
            ledger,
            "A page of a wallet's ledger, newest first",
            auth=Auth.REQUIRED,
            query=LedgerQuery,
            reply=LedgerReply,
        ),
        Route(
            "POST",
            "/api/giveoffer",
            give_offer,
            "Pays a post's offer to a chat participant",
            auth=Auth.REQUIRED,
            body=GiveOfferBody,
            reply=GiveOfferReply,
            errors=(402, 409),
        ),
        Route(
            "POST",
            "/api/giveoffer/split",
            offer_split,
            "What giving an offer would pay: the offer and each sharer's finder's fee",
            auth=Auth.REQUIRED,
            body=OfferSplitBody,
            reply=OfferSplitReply,
        ),
        Route(
            "GET",
            "/api/finder_fees",
            earned_from_sharing,
            "Finder's fees paid to the caller, newest first, with their posts",
            auth=Auth.REQUIRED,
            reply=EarnedReply,
        ),
    ]
