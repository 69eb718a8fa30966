"""Giving offers: the owner of a post pays a chat participant its reward."""

import logging
from decimal import Decimal
from typing import Any

from agora.core.chat import NO_SUCH_CHAT, parse_item_chat_id
from agora.core.clock import now_ms
from agora.core.constants import (
    CURRENCY_POINTS,
    LEDGER_REF_OFFER,
    OFFER_MIN_AMOUNT,
    RECHARGE_MIN_AMOUNT,
)
from agora.core.documents import Item
from agora.core.errors import Forbidden, InvalidInput, NotFound, PaymentRequired
from agora.core.items import is_visible
from agora.core.money import (
    CENTS_PER_UNIT,
    Posting,
    cents_number,
    format_amount,
    parse_amount,
    recharge_amount,
    request_key,
    shortfall_cents,
    to_cents,
    wallet_id,
)
from agora.services.accounts import Caller
from agora.services.chat import ChatService
from agora.services.events import Events, OfferPaid
from agora.services.wallet import REFUSED, WalletService
from agora.store.items import ItemStore
from agora.store.sessions import SessionStore
from agora.store.users import UserStore

log = logging.getLogger("agora.offers")


class OfferService:
    def __init__(
        self,
        wallets: WalletService,
        chat: ChatService,
        sessions: SessionStore,
        items: ItemStore,
        users: UserStore,
        events: Events,
    ) -> None:
        self.wallets = wallets
        self.events = events
        self.chat = chat
        self.sessions = sessions
        self.items = items
        self.users = users

    async def give(
        self,
        caller: Caller,
        cs_id: str,
        offer_amount: float | int | str | None,
        request_id: str | None,
    ) -> dict[str, Any]:
        owner = caller.user
        item, participant_id = await self._chat_about_own_item(owner["_id"], cs_id)
        cents, currency = self._amount(item, offer_amount)
        participant = await self.users.get(participant_id)
        if participant is None:
            raise NotFound({"cs_id": NO_SUCH_CHAT})
        # Each call without a request_id is an offer of its own (as in the spec); a retry
        # that must not pay twice sends one (the web app always does).
        key = request_key(f"offer:{owner['_id']}", request_id)
        title = f"Offer for '{item['title']}'"
        move = await self.wallets.transfer(
            key=key,
            ref_type=LEDGER_REF_OFFER,
            postings=[
                Posting(
                    wallet_id(owner["_id"], currency),
                    owner["_id"],
                    currency,
                    -cents,
                    f"{title} to {participant['name']}",
                ),
                Posting(
                    wallet_id(participant_id, currency),
                    participant_id,
                    currency,
                    cents,
                    f"{title} from {owner['name']}",
                ),
            ],
            details={"cs_id": cs_id, "item_id": item["_id"]},
        )
        if move["state"] == REFUSED:
            raise self._short(move["short_balance"], cents, currency)
        await self._notice(cs_id, owner, participant, cents, currency, move["_id"])
        given = {
            "move_id": move["_id"],
            "amount": cents_number(cents),
            "currency": currency,
            "at": now_ms(),
        }
        await self.chat.offer_given(cs_id, given)
        paid = OfferPaid(
            move_id=move["_id"],
            payer_id=owner["_id"],
            payee_id=participant_id,
            session_id=cs_id,
            item_id=item["_id"],
            item_title=item["title"],
            payer_name=owner["name"],
            amount_cents=cents,
            currency=currency,
        )
        await self.events.publish(paid)
        return {
            "success": True,
            "move_id": move["_id"],
            "wallet": await self.wallets.payer_view(move),
            "last_offer": given,
        }

    async def _chat_about_own_item(self, owner_id: str, cs_id: str) -> tuple[dict, str]:
        parsed = parse_item_chat_id(cs_id)
        chat = await self.sessions.get(cs_id) if parsed else None
        if parsed is None or chat is None:
            raise NotFound({"cs_id": NO_SUCH_CHAT})
        item_id, participant_id = parsed
        item = await self.items.get(item_id)
        if item is None or not is_visible(item):
            raise NotFound({"cs_id": "This post does not exist or was deleted"})
        if item["user_id"] != owner_id or participant_id == owner_id:
            raise Forbidden({"cs_id": "Only the post's owner can give an offer in its chats"})
        return item, participant_id

    @staticmethod
    def _amount(item: Item, offer_amount: float | int | str | None) -> tuple[int, str]:
        amount = parse_amount(offer_amount, "offer_amount")
        if amount is None and item.get("offer_amount"):
            amount = Decimal(item["offer_amount"])
        if amount is None:
            raise InvalidInput({"offer_amount": "Enter offer amount"})
        if amount < Decimal(str(OFFER_MIN_AMOUNT)):
            raise InvalidInput({"offer_amount": f"The smallest offer is {OFFER_MIN_AMOUNT}"})
        return to_cents(amount), item.get("offer_currency") or CURRENCY_POINTS

    @staticmethod
    def _short(balance: int, cents: int, currency: str) -> PaymentRequired:
        if currency == CURRENCY_POINTS:
            missing = cents_number(cents - balance)
            return PaymentRequired(
                {"need_recharge": f"You need {missing} more points to give this offer"}
            )
        needed = shortfall_cents(balance, cents, RECHARGE_MIN_AMOUNT * CENTS_PER_UNIT)
        return PaymentRequired(
            {"need_stripe_recharge": {"amount": recharge_amount(needed), "currency": currency}}
        )

    async def _notice(
        self, cs_id: str, owner: dict, participant: dict, cents: int, currency: str, move_id: str
    ) -> None:
        """The offer shows in the chat; the money has moved even if this notice is late."""
        amount = format_amount(cents, currency)
        text = f"{owner['name']} gave an offer of {amount} to {participant['name']}"
        data = {"offer": {"move_id": move_id, "amount": cents_number(cents), "currency": currency}}
        try:
            await self.chat.post_notice(cs_id, owner["_id"], f"offer:{move_id}", text, data)
        except Exception:
            log.warning("could not post the notice of offer %s", move_id, exc_info=True)
