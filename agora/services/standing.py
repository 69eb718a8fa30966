"""What a person's profile says of them as a poster and a trading partner (issue 32):
rewards held now and paid, and the reviews others left after paid offers."""

import asyncio
from typing import Any

from agora.core.money import ItemHold, cents_number
from agora.services.reviews import ReviewService
from agora.services.wallet import WalletService
from agora.store.items import ItemStore


class Standing:
    def __init__(self, wallets: WalletService, items: ItemStore, reviews: ReviewService) -> None:
        self.wallets = wallets
        self.items = items
        self.reviews = reviews

    async def of(self, user_id: str) -> dict[str, Any]:
        """`rewards {held, paid}` by currency (none: left out) and `reviews_summary`."""
        # Three independent reads at once: a profile is opened often, and each read waits its
        # turn at the store behind everyone else's.
        held, posts, reviews = await asyncio.gather(
            self.wallets.held_cents(user_id),
            self.items.reward_ledgers(user_id),
            self.reviews.summary(user_id),
        )
        paid: dict[str, tuple[int, int]] = {}
        for post in posts:
            for currency, copy in post["reward_ledger"].items():
                hold = ItemHold.of(copy["hold"])
                cents, count = paid.get(currency, (0, 0))
                paid[currency] = (cents + hold.paid, count + hold.paid_count)
        return {
            "rewards": {
                "held": [
                    {"currency": currency, "amount": cents_number(cents)}
                    for currency, cents in held.items()
                ],
                "paid": [
                    {"currency": currency, "amount": cents_number(cents), "count": count}
                    for currency, (cents, count) in sorted(paid.items())
                    if count
                ],
            },
            "reviews_summary": reviews,
        }
