"""Held rewards (issue 32): a post's reward in a wallet currency is held from its poster's
wallet while the post is open, offers are paid from it first, and what is left goes back
when the post is closed, deleted or expires.

Every change is a money move of one posting on the poster's wallet (`core.money`'s
`HoldChange`), so it is as atomic and idempotent as any move, and the wallet's chain orders
it against offers and other edits. A raise is taken from what is available, or refused.
"""

import logging
from decimal import Decimal
from typing import Any

from agora.core.errors import InvalidInput, PaymentRequired
from agora.core.finder_fees import fee_percent
from agora.core.items import item_view
from agora.core.money import (
    CURRENCY_POINTS,
    OFFER_CURRENCIES,
    RELEASE,
    TARGET,
    HoldChange,
    ItemHold,
    Posting,
    cents_number,
    format_amount,
    parse_amount,
    recharge_errors,
    request_key,
    to_cents,
    wallet_id,
)
from agora.core.rewards import LEDGER_REF_REWARD_HOLD, LEDGER_REF_REWARD_RELEASE, hold_target
from agora.realtime.emitter import RealtimeEmitter
from agora.services.events import Events, PostHoldMoved, RewardReleased
from agora.services.wallet import REFUSED, WalletService
from agora.store.items import ItemStore

log = logging.getLogger("agora.rewards")

KEEPS_CURRENCY = "A held reward keeps its currency: close the post and post again to change it"


def offer_cents(item: dict[str, Any]) -> int:
    amount = item.get("offer_amount")
    return to_cents(Decimal(amount)) if amount else 0


def post_target(item: dict[str, Any]) -> int:
    """What the post (stored, or as its form asks) holds: reward and largest fee pool."""
    return hold_target(
        offer_cents(item), item.get("finder_fee_percent", 0), item.get("offer_currency")
    )


def _currency(item: dict[str, Any]) -> str | None:
    """The currency the post's reward (stored, or as its form asks) holds in; None: none."""
    return item.get("offer_currency") if item.get("offer_amount") else None


def _same_reward(item: dict[str, Any], fields: dict[str, Any]) -> bool:
    names = ("offer_amount", "offer_currency", "finder_fee_percent")
    return all(item.get(name) == fields.get(name) for name in names)


class RewardHolds:
    def __init__(
        self,
        *,
        wallets: WalletService,
        items: ItemStore,
        emitter: RealtimeEmitter,
        events: Events,
    ) -> None:
        self.wallets = wallets
        self.items = items
        self.emitter = emitter
        # The poster is told of what came back (`RewardReleased`: push).
        self.events = events

    # Holding ------------------------------------------------------------------

    async def check_available(self, user_id: str, fields: dict[str, Any]) -> None:
        """Refuses a new post whose reward cannot be held, before anything is stored (the
        hold itself refuses too, when money left the wallet meanwhile)."""
        target = post_target(fields)
        if target:
            currency = fields["offer_currency"]
            available = await self.wallets.balance_cents(user_id, currency)
            if available < target:
                raise self._short(available, target, currency)

    async def hold(
        self, item: dict[str, Any], fields: dict[str, Any], *, first: bool, rev: int = 0
    ) -> set[str]:
        """Moves the post's hold to what `fields` (its reward as now written, revision `rev`)
        asks for, in the currency they name: the difference is taken from available (402 when
        short) or given back. What the post held in the currency it had before (`item`'s) is
        given back, a words-only reward's too. `first`: the post was just stored; an edit of a
        post from before holds that leaves its reward as it was holds nothing (fixing a typo
        must not ask for money). Returns the currencies it moved a hold in."""
        old_currency = _currency(item)
        currency = _currency(fields)
        earlier = None
        if old_currency not in (None, currency):
            earlier = await self._hold_of(item, old_currency)
            if currency is not None and earlier is not None and (earlier.held or earlier.paid):
                raise InvalidInput({"offer_currency": KEEPS_CURRENCY})
        moved: set[str] = set()
        if currency is not None:
            before = await self._hold_of(item, currency)
            if before is not None or first or not _same_reward(item, fields):
                target = post_target(fields)
                move = await self._move_to(
                    item, fields["title"], currency, target, rev, before, first=first
                )
                if move["state"] == REFUSED:
                    needed = move.get("short_needed", target)
                    raise self._short(move["short_balance"], needed, currency)
                moved.add(currency)
        # Given back after the new currency held, so a refusal leaves the old hold as it was.
        if old_currency is not None and earlier is not None:
            await self._move_to(item, fields["title"], old_currency, 0, rev, earlier)
            moved.add(old_currency)
        return moved

    async def restore(self, item: dict[str, Any], currencies: set[str], rev: int) -> None:
        """An edit of revision `rev` that a later edit overtook (its post was not written):
        puts each currency it moved back to what the post as now written holds there. Where
        the later edit moved that currency too, the later revision stands, whichever entry
        lands first (`core.money.next_hold`)."""
        for currency in sorted(currencies):
            target = post_target(item) if _currency(item) == currency else 0
            before = await self._hold_of(item, currency)
            move = await self._move_to(item, item["title"], currency, target, rev, before)
            if move["state"] == REFUSED:
                # Spent meanwhile: the post holds less than its reward until its next edit.
                log.warning("could not hold post %s's reward again", item["_id"])

    async def _move_to(
        self,
        item: dict[str, Any],
        title: str,
        currency: str,
        target: int,
        rev: int,
        before: ItemHold | None,
        *,
        first: bool = False,
    ) -> dict[str, Any]:
        """The money move setting the post's hold in `currency` (`before`, as last read) to
        `target`, for revision `rev` of its reward."""
        raising = before is None or target >= before.target
        verb = "Reward held for" if raising else "Reward lowered for"
        posting = Posting(
            wallet_id(item["user_id"], currency),
            item["user_id"],
            currency,
            0,
            f"{verb} '{title}'",
            HoldChange(item["_id"], TARGET, target, rev),
        )
        # A post's first hold happens once; an edit sets the post's target, so doing it twice
        # moves nothing more and each edit is a move of its own.
        key = f"reward-hold:{item['_id']}:create" if first else None
        return await self.wallets.transfer(
            key=key or request_key(f"reward:{item['_id']}", None),
            ref_type=LEDGER_REF_REWARD_HOLD,
            postings=[posting],
            details={"item_id": item["_id"]},
        )

    async def release(self, item: dict[str, Any], reason: str) -> None:
        """Gives back all that the post holds, in each currency it held in, once (the hold
        then ends: an edit racing the close holds nothing more), and tells the poster."""
        currencies = set(item.get("reward_ledger") or {})
        if item.get("offer_amount") and item.get("offer_currency"):
            currencies.add(item["offer_currency"])
        for currency in sorted(currencies):
            hold = await self._hold_of(item, currency)
            # Nothing held, nothing to give back (no entry of 0): should an edit's raise land
            # after this, the post's copy says it holds and the expiry sweep gives it back.
            if hold is None or hold.ended or hold.held == 0:
                continue
            posting = Posting(
                wallet_id(item["user_id"], currency),
                item["user_id"],
                currency,
                0,
                f"Reward released: '{item['title']}' {reason}",
                HoldChange(item["_id"], RELEASE),
            )
            move = await self.wallets.transfer(
                key=f"reward-release:{item['_id']}:{currency}",
                ref_type=LEDGER_REF_REWARD_RELEASE,
                postings=[posting],
                details={"item_id": item["_id"]},
            )
            released = -(move.get("held_diffs") or [0])[0]
            if released > 0:
                await self.events.publish(
                    RewardReleased(
                        item["_id"], item["user_id"], item["title"], released, currency, reason
                    )
                )

    async def _hold_of(self, item: dict[str, Any], currency: str):
        return await self.wallets.item_hold(item["user_id"], currency, item["_id"])

    # What the form shows ------------------------------------------------------

    async def preview(
        self,
        user_id: str,
        item: dict[str, Any] | None,
        offer_amount: float | int | str | None,
        offer_currency: str | None,
        finder_fee_percent: object,
    ) -> dict[str, Any]:
        """What posting (or editing `item` to) this reward would hold; nothing moves."""
        amount = parse_amount(offer_amount, "offer_amount")
        currency = offer_currency or CURRENCY_POINTS
        if currency not in OFFER_CURRENCIES:
            allowed = ", ".join(OFFER_CURRENCIES)
            raise InvalidInput({"offer_currency": f"Choose one of {allowed}"})
        cents = to_cents(amount) if amount is not None else 0
        target = hold_target(cents, fee_percent(finder_fee_percent), currency)
        hold = await self._hold_of(item, currency) if item is not None else None
        held_now = hold.held if hold is not None and not hold.ended else 0
        change = max(target - hold.target, -held_now) if hold is not None else target
        available = await self.wallets.balance_cents(user_id, currency)
        reply = {
            "currency": currency,
            "reward": cents_number(cents),
            "pool": cents_number(target - cents),
            "hold": cents_number(target),
            "held_now": cents_number(held_now),
            "change": cents_number(change),
            "available": cents_number(available),
            "enough": change <= available,
        }
        if change > available:
            reply |= recharge_errors(available, change, currency, "hold this reward")
        return reply

    # Copies and notices -------------------------------------------------------

    async def hold_moved(self, moved: PostHoldMoved) -> None:
        """The poster's open tabs are sent the post as it now is, with its hold (whose copy
        the money move wrote)."""
        post = await self.items.get(moved.item_id)
        if post is not None:
            try:
                await self.emitter.to_user(
                    moved.user_id, "item", {"item": item_view(post, logged_in=True)}
                )
            except Exception:
                log.warning("could not announce post %s", moved.item_id, exc_info=True)

    async def tell_released(self, released: RewardReleased) -> None:
        """The poster's open tabs hear what came back, beside the new balance."""
        await self.emitter.to_user(
            released.user_id,
            "reward_released",
            {
                "item_id": released.item_id,
                "title": released.title,
                "amount": cents_number(released.amount_cents),
                "currency": released.currency,
                "reason": released.reason,
            },
        )

    def _short(self, available: int, needed: int, currency: str) -> PaymentRequired:
        return PaymentRequired(
            {
                "offer_amount": f"Holding this reward needs {format_amount(needed, currency)}"
                f" and your wallet has {format_amount(available, currency)} available",
                **recharge_errors(available, needed, currency, "hold this reward"),
            }
        )
