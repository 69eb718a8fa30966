"""Held rewards (issue 32): how much a post's reward holds, and what its readers are told
(no I/O). How a ledger entry moves a hold is `core.money.next_hold`."""

from decimal import Decimal
from typing import Any

from agora.core.finder_fees import pool_cents
from agora.core.money import ItemHold, cents_number, to_cents

# The product spec's numbers for rewards (those the web app shares are written out by
# `python -m agora constants`, agora/generate/web_constants.py).
# A post's reward held from its poster's wallet (issue 32): taken or changed by a create or an
# edit, and given back when the post is closed, deleted or expires.
LEDGER_REF_REWARD_HOLD = "reward_hold"
LEDGER_REF_REWARD_RELEASE = "reward_release"
# What a post's reward is to the people who read it (item `reward_status`).
REWARD_HELD = "held"
REWARD_RELEASED = "released"
REWARD_NOT_HELD = "not_held"
REWARD_NONE = "none"


def hold_target(offer_cents: int | None, percent: int, currency: str | None) -> int:
    """What a post's reward holds: the reward and the largest finder's-fee pool it may pay."""
    if not offer_cents or currency is None:
        return 0
    return offer_cents + pool_cents(offer_cents, percent, currency)


def reward_status(item: dict[str, Any], hold: ItemHold | None) -> str:
    """What the post's reward is to its readers: held now, given back, not held (described
    in words, or posted before holds), or none."""
    if not item.get("offer_amount"):
        return REWARD_NOT_HELD if item.get("offer_description") else REWARD_NONE
    if hold is None:
        return REWARD_NOT_HELD
    if hold.ended or item.get("closed_at"):
        return REWARD_RELEASED
    return REWARD_HELD


def post_hold(item: dict[str, Any]) -> ItemHold | None:
    """The post's copy of its hold in the wallet of its reward's currency (None: none held)."""
    copies = item.get("reward_ledger") or {}
    copy = copies.get(item.get("offer_currency") or "")
    return ItemHold.of(copy["hold"]) if copy else None


def reward_fields(item: dict[str, Any]) -> dict[str, Any]:
    """The held reward as a post shows it (docs/api.md, issue 32)."""
    hold = post_hold(item)
    status = reward_status(item, hold)
    currency = item.get("offer_currency")
    offer_cents = to_cents(Decimal(item["offer_amount"])) if item.get("offer_amount") else 0
    target = hold_target(offer_cents, item.get("finder_fee_percent", 0), currency)
    return {
        "reward_status": status,
        "reward_held": cents_number(hold.held if hold and status == REWARD_HELD else 0),
        "reward_pool": cents_number(target - offer_cents),
        "reward_hold": cents_number(target),
        "reward_paid": cents_number(hold.paid if hold else 0),
        "reward_paid_count": hold.paid_count if hold else 0,
    }
