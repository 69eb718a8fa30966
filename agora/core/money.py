"""Money: exact amounts, integer cents, wallets, ledger entries and points policy (no I/O)."""

import math
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from agora.core.constants import (
    CURRENCY_POINTS,
    CURRENCY_SYMBOLS,
    DAILY_POINTS_SINCE,
    MONEY_DECIMALS,
    OFFER_AMOUNT_MAX,
    WALLET_FOR_USER,
)
from agora.core.documents import LedgerEntry, Wallet
from agora.core.errors import InvalidInput

_QUANTUM = Decimal(1).scaleb(-MONEY_DECIMALS)
CENTS_PER_UNIT = 10**MONEY_DECIMALS


def parse_amount(raw: float | int | str | None, field: str) -> Decimal | None:
    """Amounts arrive as JSON numbers or strings and are kept as exact decimals."""
    if raw is None or raw == "" or isinstance(raw, bool):
        return None
    try:
        amount = Decimal(str(raw))
    except InvalidOperation as exc:
        raise InvalidInput({field: "Enter the amount as a number"}) from exc
    if not amount.is_finite() or amount <= 0:
        raise InvalidInput({field: "The amount must be more than 0"})
    if amount > OFFER_AMOUNT_MAX:
        raise InvalidInput({field: f"The amount must be at most {OFFER_AMOUNT_MAX}"})
    if amount != amount.quantize(_QUANTUM, rounding=ROUND_HALF_UP):
        raise InvalidInput({field: f"At most {MONEY_DECIMALS} decimals"})
    return amount.quantize(_QUANTUM)


def to_cents(amount: Decimal) -> int:
    return int(amount.quantize(_QUANTUM) * CENTS_PER_UNIT)


def cents_number(cents: int) -> int | float:
    """Cents as the API shows money: a JSON number with the currency's precision."""
    return decimal_number(Decimal(cents).scaleb(-MONEY_DECIMALS))


def decimal_number(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


def format_amount(cents: int, currency: str) -> str:
    """'$12', '€3.50', 'KSh 1,200', '🪙 12.50', 'CAD 3.20': an amount in the texts the server
    writes (chat notices, pushes, messages), as the web app's `formatMoney` writes it: whole
    amounts without decimals, any other with MONEY_DECIMALS. A currency sign of one character
    sits against the number; word-like symbols, the coin and bare codes get a space."""
    symbol = CURRENCY_SYMBOLS.get(currency.upper(), currency.upper())
    tight = len(symbol) == 1 and unicodedata.category(symbol) == "Sc"
    sign = "-" if cents < 0 else ""
    return f"{sign}{symbol}{'' if tight else ' '}{format_number(abs(cents))}"


def format_number(cents: int) -> str:
    """The number alone, as `format_amount` writes it: '12', '2.50', '1,200'."""
    decimals = 0 if cents % CENTS_PER_UNIT == 0 else MONEY_DECIMALS
    return f"{Decimal(cents).scaleb(-MONEY_DECIMALS):,.{decimals}f}"


# Sample amounts (cents, currency) whose texts the web app's formatter is held to
# (web/src/shared/currency.test.ts reads them from the generated constants).
FORMAT_SAMPLES = (
    (1200, "USD"),
    (350, "EUR"),
    (120000, "KES"),
    (4000, "POINTS"),
    (250, "POINTS"),
    (500, "CAD"),
    (-225, "GBP"),
    (123456789, "INR"),
    (5, "ZAR"),
)


def format_examples() -> tuple[tuple[int | float, str, str], ...]:
    """(amount as the API shows it, currency, text) for each of FORMAT_SAMPLES."""
    return tuple((cents_number(c), cur, format_amount(c, cur)) for c, cur in FORMAT_SAMPLES)


def wallet_id(user_id: str, currency: str, wallet_for: str = WALLET_FOR_USER) -> str:
    return f"{user_id}:{wallet_for}:{currency}"


def points_day(now_ms: int) -> str | None:
    """The UTC day a daily point belongs to; None before the programme started."""
    day = datetime.fromtimestamp(now_ms / 1000, tz=UTC).date()
    return day.isoformat() if day >= date.fromisoformat(DAILY_POINTS_SINCE) else None


def shortfall_cents(balance_cents: int, needed_cents: int, minimum_cents: int) -> int:
    """What a recharge must bring at least; card providers refuse tiny charges."""
    return max(needed_cents - balance_cents, minimum_cents)


def recharge_amount(cents: int) -> int | float:
    """A shortfall rounded up to whole units, so the recharge page shows a tidy amount."""
    return math.ceil(cents / CENTS_PER_UNIT)


@dataclass(frozen=True)
class Posting:
    """One side of a money move: this wallet changes by `diff_cents`."""

    wallet_id: str
    user_id: str
    currency: str
    diff_cents: int
    title: str


# A money move's states: recorded, finished, refused (payer short), paying out, paid back.
PENDING, DONE, REFUSED, PAYING, REVERSED = "pending", "done", "refused", "paying", "reversed"


def request_key(scope: str, request_id: str | None) -> str:
    """A money move's idempotency key: a retry sending the same `request_id` finds the first
    move; a call without one is a request of its own (as the spec has it)."""
    return f"{scope}:{request_id or secrets.token_hex(12)}"


def move_terms(
    key: str, ref_type: str, postings: list[Posting], details: dict[str, Any]
) -> dict[str, Any]:
    """What a money move asks for; the store adds its id, state and time when it records it.
    The first posting is the debit, and its user and currency are the move's."""
    first = postings[0]
    return {
        "key": key,
        "ref_type": ref_type,
        "user_id": first.user_id,
        "currency": first.currency,
        "postings": [
            {
                "wallet_id": p.wallet_id,
                "user_id": p.user_id,
                "currency": p.currency,
                "diff_cents": p.diff_cents,
                "title": p.title,
            }
            for p in postings
        ],
        **details,
    }


def same_terms(earlier: dict[str, Any], requested: dict[str, Any]) -> bool:
    """Whether a move asked for again under an existing key asks for what the earlier one did:
    the same kind, the same wallets changing by the same amounts, the same details (titles
    may differ: a name may have changed between a request and its retry)."""

    def changes(move: dict[str, Any]) -> list[tuple[str, int]]:
        return [(p["wallet_id"], p["diff_cents"]) for p in move["postings"]]

    fixed = ("_id", "key", "state", "created_at", "user_id", "currency", "postings")
    details = {k: v for k, v in requested.items() if k not in fixed}
    return (
        earlier["ref_type"] == requested["ref_type"]
        and changes(earlier) == changes(requested)
        and all(earlier.get(name) == value for name, value in details.items())
    )


def ledger_entry_view(entry: LedgerEntry) -> dict[str, Any]:
    return {
        "_id": entry["_id"],
        "wallet_id": entry["wallet_id"],
        "seq": entry["seq"],
        "ref_type": entry["ref_type"],
        "ref_id": entry["ref_id"],
        "title": entry["title"],
        "created_at": entry["created_at"],
        "diff": cents_number(entry["diff"]),
        "change_to": cents_number(entry["change_to"]),
    }


def wallet_view(wallet: Wallet, *, charge_enabled: bool = False) -> dict[str, Any]:
    return {
        "_id": wallet["_id"],
        "user_id": wallet["user_id"],
        "wallet_for": wallet["wallet_for"],
        "wallet_currency": wallet["currency"],
        "wallet_amount": cents_number(wallet["balance"]),
        "data": {"stripe_connected_account_charge_enabled": charge_enabled},
    }


def wallets_in_order(wallets: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Points first, then currencies alphabetically: the order the profile lists them."""
    return sorted(wallets, key=lambda w: (w["currency"] != CURRENCY_POINTS, w["currency"]))
