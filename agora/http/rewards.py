"""What a post's reward would hold, for the post form (issue 32)."""

from aiohttp import web
from pydantic import Field

from agora.core.finder_fees import FINDER_FEE_PERCENT_DEFAULT
from agora.http.replies import ok
from agora.http.requests import AmountText, Body, read_body, require_caller
from agora.http.routes import Auth, Reply, Route
from agora.services.items import ItemService


class HoldPreviewBody(Body):
    offer_amount: AmountText = None
    offer_currency: str | None = Field(default=None, max_length=20)
    # Checked by the post rules (0 to FINDER_FEE_PERCENT_MAX) so the message names the range.
    finder_fee_percent: int = FINDER_FEE_PERCENT_DEFAULT
    item_id: str | None = Field(default=None, max_length=200)


class HoldPreviewReply(Reply):
    """What posting (or editing `item_id` to) this reward would hold: `hold` is the reward
    and its largest finder's-fee `pool`; `change` what would be taken from `available` (or
    given back, below 0); when not `enough`, `need_stripe_recharge` or `need_recharge`."""

    currency: str
    reward: int | float
    pool: int | float
    hold: int | float
    held_now: int | float
    change: int | float
    available: int | float
    enough: bool


def routes(items: ItemService) -> list[Route]:
    async def hold_preview(request: web.Request) -> web.Response:
        caller = require_caller(request)
        body = await read_body(request, HoldPreviewBody)
        return ok(
            await items.hold_preview(
                caller,
                item_id=body.item_id,
                offer_amount=body.offer_amount,
                offer_currency=body.offer_currency,
                finder_fee_percent=body.finder_fee_percent,
            )
        )

    return [
        Route(
            "POST",
            "/api/reward/hold_preview",
            hold_preview,
            "What a post's reward would hold from the poster's wallet; nothing moves",
            auth=Auth.REQUIRED,
            body=HoldPreviewBody,
            reply=HoldPreviewReply,
        )
    ]
