"""'Earned from sharing': the finder's fees a member was paid, with the posts they came from."""

from typing import Any

from agora.core.finder_fees import FINDER_FEES_EARNED_PAGE
from agora.core.money import cents_number
from agora.services.accounts import Caller
from agora.store.items import ItemStore
from agora.store.wallets import WalletStore


class EarnedFromSharing:
    def __init__(self, wallets: WalletStore, items: ItemStore) -> None:
        self.wallets = wallets
        self.items = items

    async def earned(self, caller: Caller) -> dict[str, Any]:
        user_id = caller.user["_id"]
        moves = await self.wallets.moves_paying_fees_to(user_id, FINDER_FEES_EARNED_PAGE)
        posts = {i["_id"]: i for i in await self.items.by_ids([m["item_id"] for m in moves])}
        earned = []
        for move in moves:
            post = posts.get(move["item_id"])
            cents = move["fee_cents"][move["fee_user_ids"].index(user_id)]
            earned.append(
                {
                    "move_id": move["_id"],
                    "item_id": move["item_id"],
                    "title": post["title"] if post else "",
                    "route_id": post["route_id"] if post else None,
                    "amount": cents_number(cents),
                    "currency": move["currency"],
                    "created_at": move["created_at"],
                }
            )
        return {"finder_fees": earned}
