"""Finder's fees: who along a share chain is paid for an offer, and how much (no I/O).

The rule (docs/decisions.md): the pool is `offer x percent`, rounded down to the currency's
minor unit, paid by the poster on top of the offer. The sharers between the poster and the
asker are paid, each once, at most the FINDER_FEE_MAX_SHARERS nearest to the asker. The
nearest gets half of the pool, the next half of the rest, and so on; the farthest counted
sharer gets all that is left, so the parts add up to the pool exactly.

`own_link_part` runs it for one reader's own link (what the post page promises them), and
`worked_example` runs it on a sample reward; the web app's copy of it is generated
(agora/generate/web_constants.py), so the landing page and the offer dialog show what is paid.
"""

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from agora.core.documents import Item
from agora.core.money import (
    CENTS_PER_UNIT,
    CURRENCY_MINOR_UNIT_CENTS,
    CURRENCY_POINTS,
    cents_number,
    to_cents,
)
from agora.core.numbers import bounded_int

# The product spec's numbers for finder fees (those the web app shares are written out by
# `python -m agora constants`, agora/generate/web_constants.py).
# Finder's fees (issue 12; the rule is in docs/decisions.md).
FINDER_FEE_PERCENT_DEFAULT = 10
FINDER_FEE_PERCENT_MAX = 50
# Only the sharers nearest the asker are paid, so a long chain cannot thin the parts out.
FINDER_FEE_MAX_SHARERS = 5
FINDER_FEES_EARNED_PAGE = 50


# The worked example: a reward of 100 points at the default percent, passed on by one, two
# and three sharers (two already shows how the farthest takes the rest).
EXAMPLE_OFFER_UNITS = 100
EXAMPLE_CURRENCY = CURRENCY_POINTS
EXAMPLE_SHARERS = (1, 2, 3)


@dataclass(frozen=True)
class FeePart:
    user_id: str
    cents: int


def fee_percent(raw: object) -> int:
    """The post form's `finder_fee_percent`: a whole number from 0 to the maximum."""
    return bounded_int(raw, "finder_fee_percent", 0, FINDER_FEE_PERCENT_MAX)


def pool_cents(offer_cents: int, percent: int, currency: str) -> int:
    unit = CURRENCY_MINOR_UNIT_CENTS.get(currency, 1)
    return offer_cents * percent // 100 // unit * unit


def paid_sharers(chain: list[str], poster_id: str, asker_id: str) -> list[str]:
    """The people to pay, nearest to the asker first: the chain runs from the poster to
    the sharer whose link the asker opened."""
    nearest_first: list[str] = []
    for user_id in reversed(chain):
        if user_id not in (poster_id, asker_id) and user_id not in nearest_first:
            nearest_first.append(user_id)
    return nearest_first[:FINDER_FEE_MAX_SHARERS]


def split(
    offer_cents: int, percent: int, currency: str, chain: list[str], poster_id: str, asker_id: str
) -> list[FeePart]:
    """Each paid sharer's part, nearest first; parts that round to nothing are left out."""
    if percent <= 0:
        return []
    sharers = paid_sharers(chain, poster_id, asker_id)
    if not sharers:
        return []
    unit = CURRENCY_MINOR_UNIT_CENTS.get(currency, 1)
    left = pool_cents(offer_cents, percent, currency) // unit
    parts = []
    for user_id in sharers[:-1]:
        part = left // 2
        left -= part
        parts.append(FeePart(user_id, part * unit))
    parts.append(FeePart(sharers[-1], left * unit))
    return [part for part in parts if part.cents > 0]


# Stands for the helper of a promise: someone not yet on the chain (no user id is empty).
NEW_HELPER = ""


def own_link_part(offer_cents: int, percent: int, currency: str, chain: list[str]) -> int:
    """What the last person on `chain` (the sharer whose link it is) is paid when someone new
    comes through that link and is paid `offer_cents`, as `split` pays it; the chain runs
    from the poster, who is never paid a fee."""
    sharer = chain[-1]
    if sharer == chain[0]:
        return 0
    parts = split(offer_cents, percent, currency, chain, chain[0], NEW_HELPER)
    return next((part.cents for part in parts if part.user_id == sharer), 0)


def share_earnings(item: Item, chain: list[str]) -> dict[str, Any] | None:
    """What the post page tells a reader their link of the post earns (`own_link_part` of
    the post's reward; `chain` is their link's, ending with them), or None when it earns
    nothing: a reward in words, no fee, a closed post (no helper comes any more), the
    poster's own link."""
    amount, currency = item.get("offer_amount"), item.get("offer_currency")
    if amount is None or not currency or item.get("closed_at"):
        return None
    offer_cents = to_cents(Decimal(amount))
    cents = own_link_part(offer_cents, item.get("finder_fee_percent", 0), currency, chain)
    if cents <= 0:
        return None
    return {
        "amount": cents_number(cents),
        "currency": currency,
        "offer_amount": cents_number(offer_cents),
    }


def worked_example() -> dict[str, Any]:
    """What `split` pays on the sample reward for each chain length in EXAMPLE_SHARERS:
    `chains[i]` holds each sharer's part in chain order (the first sharer first, the one
    whose link brought the helper last), as the API shows amounts."""
    offer_cents = EXAMPLE_OFFER_UNITS * CENTS_PER_UNIT
    percent = FINDER_FEE_PERCENT_DEFAULT
    chains = []
    for sharers in EXAMPLE_SHARERS:
        chain = ["poster", *(f"sharer{n}" for n in range(sharers))]
        nearest_first = split(offer_cents, percent, EXAMPLE_CURRENCY, chain, "poster", "helper")
        chains.append([cents_number(part.cents) for part in reversed(nearest_first)])
    return {
        "offer": EXAMPLE_OFFER_UNITS,
        "currency": EXAMPLE_CURRENCY,
        "percent": percent,
        "pool": cents_number(pool_cents(offer_cents, percent, EXAMPLE_CURRENCY)),
        "chains": chains,
    }
