"""Money: exact amounts, integer cents, wallets, ledger entries and points policy (no I/O)."""

import math
import secrets
import unicodedata
from dataclasses import asdict, dataclass, replace
from datetime import UTC, date, datetime
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from agora.core.documents import LedgerEntry, Wallet
from agora.core.errors import InvalidInput

# The product spec's numbers for money (those the web app shares are written out by
# `python -m agora constants`, agora/generate/web_constants.py).
# Currencies (spec section 9).
CURRENCY_POINTS = "POINTS"
CURRENCY_SYMBOLS = {
    "KES": "KSh",
    "USD": "$",
    "INR": "₹",
    "EUR": "€",
    "GBP": "£",
    "NGN": "₦",
    "RWF": "Rwf",
    "POINTS": "🪙",
    "ZAR": "R",
}
OFFER_CURRENCIES = ("POINTS", "USD", "EUR", "INR", "GBP", "CAD")
# Wallets and the ledger (spec sections 1, 3 and 9; amounts chosen in docs/decisions.md).
MONEY_DECIMALS = 2
WALLET_FOR_USER = "user"
STARTER_POINTS = 100
DAILY_POINTS = 1
DAILY_POINTS_SINCE = "2024-01-01"
LEDGER_PAGE = 30
# The smallest offer: a smaller one is refused, never raised to it.
OFFER_MIN_AMOUNT = 0.5
OFFER_PROMPT_DEFAULT = 10
REQUEST_ID_MAX_LENGTH = 64
# Money moves left pending this long (an edge died mid-move) are driven to the end.
MOVE_RECOVERY_AFTER_MS = 60 * 1000
LEDGER_REF_WELCOME = "welcome"
LEDGER_REF_DAILY = "daily"
LEDGER_REF_OFFER = "offer"
LEDGER_REF_RECHARGE = "recharge"
LEDGER_REF_WITHDRAW = "withdraw"
LEDGER_REF_REVERSAL = "reversal"
# Money `make run`'s demo city gives its sample people for their posts' rewards.
LEDGER_REF_DEMO = "demo"
# A currency's smallest amount in the ledger's cents; every offer currency has MONEY_DECIMALS.
CURRENCY_MINOR_UNIT_CENTS = {currency: 1 for currency in OFFER_CURRENCIES}
OFFER_DESCRIPTION_MAX_LENGTH = 300
OFFER_AMOUNT_MAX = 1_000_000_000
# The smallest recharge: card providers refuse tiny charges (Stripe: about 0.50 of most
# currencies), and a shortfall is asked of the wallet in recharges of at least this.
RECHARGE_MIN_AMOUNT = 1


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


# Said wherever someone is short of points: no card recharges them (the spec's 'Need
# Recharge' link is for card currencies), so the message says where they come from.
HOW_POINTS_COME = (
    "Points cannot be bought: they come from offers and finder's fees paid to you, "
    "and 1 for each day you open Agora."
)


def recharge_errors(available: int, needed: int, currency: str, purpose: str) -> dict[str, Any]:
    """What a client needs to send someone short of `needed` to recharge (spec section 8):
    for points, a message; for a card currency, the amount to recharge, a whole unit at least
    RECHARGE_MIN_AMOUNT. `purpose` says what the points are for: 'give this offer'."""
    if currency == CURRENCY_POINTS:
        missing = format_number(needed - available)
        return {"need_recharge": f"You need {missing} more points to {purpose}. {HOW_POINTS_COME}"}
    shortfall = shortfall_cents(available, needed, RECHARGE_MIN_AMOUNT * CENTS_PER_UNIT)
    return {"need_stripe_recharge": {"amount": recharge_amount(shortfall), "currency": currency}}


# Held rewards (issue 32). A post's reward in a wallet currency is held in its poster's
# wallet of that currency: the wallet's money is available + held, and every entry that
# touches a post's hold carries the post's hold after it (`ItemHold`), so the wallet's chain
# is the one place where holds, offers paid from them and releases are ordered. Appends to a
# chain are serial (the store's unique `{wallet}:{seq}` ids), so a change computed from the
# post's hold as the head left it is exact however many edges append at once.
#
# What a posting does to a post's hold (`HoldChange.kind`): TARGET, the post now asks for
# `cents` held (create, edit: the difference is held or given back); RELEASE, all that is
# held is given back and the hold ends (close, delete, expiry); DRAW, an offer's debit comes
# from the hold first (`cents` is the offer paid, fees not counted).
#
# A TARGET carries the revision of the post's reward it was asked for (`rev`: 0 when posted,
# then one more for each edit, claimed on the post itself): one of an older revision than the
# hold's moves nothing. Edits racing each other (issue 41) then leave each wallet as the
# latest of them asked, whatever order their entries land in, across the wallets of several
# currencies.
TARGET, RELEASE, DRAW = "target", "release", "draw"


@dataclass(frozen=True)
class HoldChange:
    item_id: str
    kind: str
    cents: int = 0
    rev: int = 0


@dataclass(frozen=True)
class ItemHold:
    """One post's hold in one wallet, as an entry left it. `target` is what the post asks to
    be held (reward + largest fee pool); `held` what is held now (less once offers drew on
    it); `paid` the offers paid on the post (fees not counted) and how many; `ended` once
    released for good (a later edit holds nothing); `rev` the reward's revision of the
    latest TARGET."""

    target: int = 0
    held: int = 0
    paid: int = 0
    paid_count: int = 0
    ended: bool = False
    rev: int = 0

    def fields(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def of(cls, fields: dict[str, Any] | None) -> "ItemHold":
        return cls(**fields) if fields else cls()


@dataclass(frozen=True)
class Posting:
    """One side of a money move: this wallet changes by `diff_cents` (held money included),
    and the hold of one post by what `hold` says."""

    wallet_id: str
    user_id: str
    currency: str
    diff_cents: int
    title: str
    hold: HoldChange | None = None

    def fields(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def of(cls, fields: dict[str, Any]) -> "Posting":
        hold = fields.get("hold")
        return cls(**{**fields, "hold": HoldChange(**hold) if hold else None})


def next_hold(before: ItemHold, change: HoldChange, diff_cents: int) -> tuple[int, ItemHold]:
    """The change of the wallet's held money and the post's hold after an entry whose total
    change is `diff_cents`. Never holds less than nothing: a lowered reward gives back at most
    what offers left, an offer draws at most what is held; a TARGET of an older revision
    than the hold's moves nothing."""
    if change.kind == TARGET:
        if change.rev < before.rev:
            return 0, before
        wanted = 0 if before.ended else change.cents - before.target
        held_diff = max(wanted, -before.held)
        return held_diff, replace(
            before, target=change.cents, held=before.held + held_diff, rev=change.rev
        )
    if change.kind == RELEASE:
        return -before.held, replace(before, held=0, ended=True)
    if change.kind == DRAW:
        drawn = min(before.held, -diff_cents)
        return -drawn, replace(
            before,
            held=before.held - drawn,
            paid=before.paid + change.cents,
            paid_count=before.paid_count + 1,
        )
    raise ValueError(f"unknown hold change {change.kind!r}")


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
        "postings": [p.fields() for p in postings],
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
    """An entry as the wallet shows it: `diff` and `change_to` are what is available (the
    balance a person may spend), `held_diff` and `held_to` what is held for their posts."""
    held_diff, held_to = entry.get("held_diff", 0), entry.get("held_to", 0)
    return {
        "_id": entry["_id"],
        "wallet_id": entry["wallet_id"],
        "seq": entry["seq"],
        "ref_type": entry["ref_type"],
        "ref_id": entry["ref_id"],
        "title": entry["title"],
        "created_at": entry["created_at"],
        "diff": cents_number(entry["diff"] - held_diff),
        "change_to": cents_number(entry["change_to"] - held_to),
        "held_diff": cents_number(held_diff),
        "held_to": cents_number(held_to),
        "item_id": entry.get("item_id"),
    }


def wallet_view(wallet: Wallet, *, charge_enabled: bool = False) -> dict[str, Any]:
    """`wallet_amount` is what is available; `held_amount` is held for the owner's posts."""
    held = wallet.get("held", 0)
    return {
        "_id": wallet["_id"],
        "user_id": wallet["user_id"],
        "wallet_for": wallet["wallet_for"],
        "wallet_currency": wallet["currency"],
        "wallet_amount": cents_number(wallet["balance"] - held),
        "held_amount": cents_number(held),
        "data": {"stripe_connected_account_charge_enabled": charge_enabled},
    }


def currency_order(currency: str) -> tuple[bool, str]:
    """Points first, then currencies alphabetically: the order the profile lists them."""
    return currency != CURRENCY_POINTS, currency


def wallets_in_order(wallets: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(wallets, key=lambda w: currency_order(w["currency"]))
