"""What a person's profile says of them as a poster and a trading partner (issue 32):
rewards held now and paid, and the reviews others left after paid offers."""

import asyncio
from typing import Any

from agora.core.money import ItemHold, cents_number, currency_order
from agora.services.accounts import Caller
from agora.services.groups import GroupService
from agora.services.reviews import ReviewService
from agora.store.items import ItemStore


class Standing:
    def __init__(self, items: ItemStore, groups: GroupService, reviews: ReviewService) -> None:
        self.items = items
        self.groups = groups
        self.reviews = reviews

    async def of(self, user_id: str, viewer: Caller | None) -> dict[str, Any]:
        """`rewards {held, paid}` by currency (none: left out) and `reviews_summary`.

        Rewards count the person's posts in the groups the viewer may read (issue 41: a
        private group's rewards are its members' business), all of them for the person
        themselves; held is what each post's copy of its hold says now."""
        posts, reviews = await asyncio.gather(
            self.items.reward_ledgers(user_id), self.reviews.summary(user_id)
        )
        if viewer is None or viewer.user["_id"] != user_id:
            readable = await self.groups.readable_ids(viewer, {p["group_id"] for p in posts})
            posts = [post for post in posts if post["group_id"] in readable]
        held: dict[str, int] = {}
        paid: dict[str, tuple[int, int]] = {}
        for post in posts:
            for currency, copy in post["reward_ledger"].items():
                hold = ItemHold.of(copy["hold"])
                held[currency] = held.get(currency, 0) + hold.held
                cents, count = paid.get(currency, (0, 0))
                paid[currency] = (cents + hold.paid, count + hold.paid_count)
        return {
            "rewards": {
                "held": [
                    {"currency": currency, "amount": cents_number(held[currency])}
                    for currency in sorted(held, key=currency_order)
                    if held[currency]
                ],
                "paid": [
                    {"currency": currency, "amount": cents_number(cents), "count": count}
                    for currency, (cents, count) in sorted(paid.items())
                    if count
                ],
            },
            "reviews_summary": reviews,
        }
