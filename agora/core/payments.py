"""Card payments: what a recharge may be, how provider states map to ours (no I/O)."""

from typing import Any

from agora.core.errors import AgoraError, InvalidInput
from agora.core.money import (
    CURRENCY_POINTS,
    RECHARGE_MIN_AMOUNT,
    WALLET_FOR_USER,
    cents_number,
    parse_amount,
    to_cents,
)

# The product spec's numbers for payments (those the web app shares are written out by
# `python -m agora constants`, agora/generate/web_constants.py).
# Card payments (Stripe): recharge, withdrawal, group subscription (spec sections 2, 7, 9).
RECHARGE_DEFAULT_AMOUNT = 10
RECHARGE_DEFAULT_CURRENCY = "USD"
CARD_CURRENCIES = ("USD", "EUR", "INR", "GBP", "CAD")
# One mistyped amount does not become a large charge.
RECHARGE_MAX_AMOUNT = 10_000
AFTER_PAYMENT_PATH = "/afterpayment/stripe"
RECHARGE_PATH = "/recharge"
PROFILE_PATH = "/profile"
PROFILE_CAN_WITHDRAW_PATH = "/profile?can_withdraw=1"
PROFILE_RETRY_WITHDRAW_PATH = "/profile?retry_withdraw=1"
CARD_PAYMENTS_UNAVAILABLE = "Card payments are not available"
SUBSCRIPTION_ACTIVE = 1
SUBSCRIPTION_INACTIVE = 0


# Recharge states: 'open' until the provider reports, then exactly one of the others.
RECHARGE_OPEN = "open"
RECHARGE_CREDITED = "credited"
RECHARGE_FAILED = "failed"
RECHARGE_REFUSED = "refused"
RECHARGE_EXPIRED = "expired"

# What /afterpayment/stripe shows: loading, success or the provider's message.
STATUS_PENDING = "pending"
STATUS_PAID = "paid"
STATUS_FAILED = "failed"

RECHARGE_KIND = "recharge"
SUBSCRIPTION_KIND = "group_subscription"
# Stripe subscription states that mean the group has paid for the current period.
PAYING_SUBSCRIPTION_STATES = ("active", "trialing")


class PaymentFailed(AgoraError):
    """The payment provider refused or failed; `errors` carries its message."""

    status = 502


def card_currency(raw: str | None, field: str) -> str:
    currency = (raw or RECHARGE_DEFAULT_CURRENCY).upper()
    if currency not in CARD_CURRENCIES:
        allowed = ", ".join(CARD_CURRENCIES)
        raise InvalidInput({field: f"Card payments are possible in {allowed}"})
    return currency


def recharge_cents(raw: float | int | str | None) -> int:
    """The amount to charge in cents: 2 decimals at most, within the recharge bounds."""
    amount = parse_amount(RECHARGE_DEFAULT_AMOUNT if raw is None else raw, "amount")
    if amount is None:
        raise InvalidInput({"amount": "Enter the amount to recharge"})
    if not RECHARGE_MIN_AMOUNT <= amount <= RECHARGE_MAX_AMOUNT:
        raise InvalidInput(
            {"amount": f"Recharge between {RECHARGE_MIN_AMOUNT} and {RECHARGE_MAX_AMOUNT}"}
        )
    return to_cents(amount)


def withdrawal_currency(wallet_for: str, currency: str) -> str:
    """The currency to pay out; points never leave the app."""
    if wallet_for != WALLET_FOR_USER:
        raise InvalidInput({"wallet_for": f"Wallets are for '{WALLET_FOR_USER}'"})
    if currency.upper() == CURRENCY_POINTS:
        raise InvalidInput("You cannot withdraw points")
    return card_currency(currency, "wallet_currency")


def withdrawal_cents(raw: float | int | str | None) -> int | None:
    """The amount to withdraw in cents (more than 0, 2 decimals at most); None: the whole
    balance. Whether the wallet holds it is the ledger's to say, when it debits."""
    amount = parse_amount(raw, "amount")
    return None if amount is None else to_cents(amount)


def withdrawal_query(currency: str, cents: int | None) -> str:
    """`withdraw_currency=EUR&withdraw_amount=5`: the withdrawal a payout set-up interrupted,
    as /profile takes it back (no amount: the whole balance was asked for)."""
    query = f"withdraw_currency={currency}"
    return query if cents is None else f"{query}&withdraw_amount={cents_number(cents)}"


def recharge_query(cents: int, currency: str) -> str:
    """`amount=10&currency=USD`: the recharge page's query, as the spec's links write it."""
    return f"amount={cents_number(cents)}&currency={currency}"


def checkout_mismatch(recharge: dict[str, Any], checkout: dict[str, Any]) -> str | None:
    """Why a paid checkout does not match the recharge we recorded, or None when it does."""
    paid_cents = checkout.get("amount_total")
    paid_currency = str(checkout.get("currency") or "").upper()
    if paid_cents != recharge["amount_cents"] or paid_currency != recharge["currency"]:
        return (
            f"paid {paid_cents} {paid_currency}, "
            f"expected {recharge['amount_cents']} {recharge['currency']}"
        )
    return None


def recharge_view(recharge: dict[str, Any]) -> dict[str, Any]:
    return {
        "_id": recharge["_id"],
        "amount": cents_number(recharge["amount_cents"]),
        "currency": recharge["currency"],
        "state": recharge["state"],
        "created_at": recharge["created_at"],
    }


def subscription_status(stripe_status: str | None, deleted: bool) -> int:
    if deleted or stripe_status not in PAYING_SUBSCRIPTION_STATES:
        return SUBSCRIPTION_INACTIVE
    return SUBSCRIPTION_ACTIVE


def event_marker(created_seconds: int, final: bool = False) -> int:
    """Orders provider events: newer ones win, and a final one (a deletion) wins its second.

    Stripe does not deliver events in order and stamps them to the second, so a state change
    is applied only when its marker is above the stored one.
    """
    return int(created_seconds) * 10 + (1 if final else 0)


def fetched_marker(now_seconds: int) -> int:
    """The marker of a state read from Stripe now: just below an event of this second, which
    may report a change made after the read."""
    return event_marker(now_seconds) - 1


def payouts_ready(account: dict[str, Any] | None) -> bool:
    """Whether a connected account (`data.stripe_account` of a user) can be paid out to."""
    account = account or {}
    # Flags may come back as 1/0: nx-27017 stores booleans written by $set as integers.
    return bool(account.get("charges_enabled")) and bool(account.get("payouts_enabled"))
