"""Giving offers: the owner of a post pays a chat participant its reward."""

import logging
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from agora.core.chat.access import NO_SUCH_CHAT, hidden_from
from agora.core.chat.item_chats import parse_item_chat_id
from agora.core.clock import now_ms
from agora.core.documents import Item
from agora.core.errors import Forbidden, InvalidInput, NotFound, PaymentRequired
from agora.core.finder_fees import FeePart, split
from agora.core.items import is_visible
from agora.core.money import (
    CURRENCY_POINTS,
    DRAW,
    LEDGER_REF_OFFER,
    OFFER_MIN_AMOUNT,
    HoldChange,
    Posting,
    cents_number,
    format_amount,
    parse_amount,
    recharge_errors,
    request_key,
    to_cents,
    wallet_id,
)
from agora.core.routes import chain
from agora.services.accounts import Caller
from agora.services.chat.last_offer import LastOffer
from agora.services.chat.shard_sends import ShardSends
from agora.services.events import Events, FinderFee, OfferPaid
from agora.services.wallet import REFUSED, WalletService
from agora.store.items import ItemStore
from agora.store.sessions import SessionStore
from agora.store.users import UserStore

log = logging.getLogger("agora.offers")

CLOSED_POST_OFFER = (
    "This post is closed, so nothing is held for its reward any more: "
    "offers on it come from your available points."
)


@dataclass(frozen=True)
class OfferTerms:
    """What one offer pays: the offer to the asker and each sharer's finder's fee."""

    item: dict[str, Any]
    owner: dict[str, Any]
    participant: dict[str, Any]
    cents: int
    currency: str
    fees: list[FeePart]
    names: dict[str, str]

    @property
    def total_cents(self) -> int:
        return self.cents + sum(part.cents for part in self.fees)

    def finder_fees(self) -> tuple[FinderFee, ...]:
        names = self.names
        return tuple(FinderFee(p.user_id, names.get(p.user_id, ""), p.cents) for p in self.fees)

    def fees_view(self) -> list[dict[str, Any]]:
        return finder_fee_views(self.finder_fees())

    def paid(self, cs_id: str, move_id: str) -> OfferPaid:
        return OfferPaid(
            move_id=move_id,
            payer_id=self.owner["_id"],
            payee_id=self.participant["_id"],
            session_id=cs_id,
            item_id=self.item["_id"],
            group_id=self.item["group_id"],
            item_title=self.item["title"],
            payer_name=self.owner["name"],
            payee_name=self.participant["name"],
            amount_cents=self.cents,
            currency=self.currency,
            finder_fees=self.finder_fees(),
        )


class OfferService:
    def __init__(
        self,
        *,
        wallets: WalletService,
        last_offer: LastOffer,
        notices: ShardSends,
        sessions: SessionStore,
        items: ItemStore,
        users: UserStore,
        events: Events,
    ) -> None:
        self.wallets = wallets
        self.events = events
        # The chat shows the offer given in it, and posts the notice of a paid one.
        self.last_offer = last_offer
        self.notices = notices
        self.sessions = sessions
        self.items = items
        self.users = users

    async def split(
        self, caller: Caller, cs_id: str, offer_amount: float | int | str | None
    ) -> dict[str, Any]:
        """What giving this offer would pay, for the confirm dialog; nothing moves."""
        terms = await self._terms(caller, cs_id, offer_amount)
        hold = await self.wallets.item_hold(caller.user["_id"], terms.currency, terms.item["_id"])
        from_held = min(hold.held if hold else 0, terms.total_cents)
        return {
            "offer_amount": cents_number(terms.cents),
            "participant_name": terms.participant.get("name", ""),
            "currency": terms.currency,
            "finder_fees": terms.fees_view(),
            "total": cents_number(terms.total_cents),
            "from_held": cents_number(from_held),
            "from_available": cents_number(terms.total_cents - from_held),
        }

    async def give(
        self,
        caller: Caller,
        cs_id: str,
        offer_amount: float | int | str | None,
        request_id: str | None,
    ) -> dict[str, Any]:
        terms = await self._terms(caller, cs_id, offer_amount)
        owner, item = terms.owner, terms.item
        # Each call without a request_id is an offer of its own (as in the spec); a retry
        # that must not pay twice sends one (the web app always does).
        key = request_key(f"offer:{owner['_id']}", request_id)
        move = await self.wallets.transfer(
            key=key,
            ref_type=LEDGER_REF_OFFER,
            postings=offer_postings(terms),
            details={
                "cs_id": cs_id,
                "item_id": item["_id"],
                # Read by the 'Earned from sharing' list.
                "fee_user_ids": [p.user_id for p in terms.fees],
                "fee_cents": [p.cents for p in terms.fees],
            },
        )
        if move["state"] == REFUSED:
            short = recharge_errors(
                move["short_balance"],
                move.get("short_needed", terms.total_cents),
                terms.currency,
                "give this offer",
            )
            if item.get("closed_at") and "need_recharge" in short:
                # Its held reward went back when it closed: say why the wallet pays it all.
                short["need_recharge"] = f"{CLOSED_POST_OFFER} {short['need_recharge']}"
            raise PaymentRequired(short)
        given = {
            "move_id": move["_id"],
            "amount": cents_number(terms.cents),
            "currency": terms.currency,
            "at": now_ms(),
        }
        await self.last_offer.offer_given(cs_id, given)
        await self.events.publish(terms.paid(cs_id, move["_id"]))
        # The post's hold paid first (the poster's entry moved its held money by that much).
        from_held = -(move.get("held_diffs") or [0])[0]
        return {
            "success": True,
            "move_id": move["_id"],
            "wallet": await self.wallets.payer_view(move),
            "last_offer": given,
            "finder_fees": terms.fees_view(),
            "paid_from_held": cents_number(from_held),
            "paid_from_available": cents_number(terms.total_cents - from_held),
        }

    async def _terms(
        self, caller: Caller, cs_id: str, offer_amount: float | int | str | None
    ) -> OfferTerms:
        owner = caller.user
        item, chat, participant_id = await self._chat_about_own_item(owner["_id"], cs_id)
        cents, currency = self._amount(item, offer_amount)
        participant = await self.users.get(participant_id)
        if participant is None:
            raise NotFound({"cs_id": NO_SUCH_CHAT})
        fees = split(
            cents,
            item.get("finder_fee_percent", 0),
            currency,
            await self._chain(item, chat),
            owner["_id"],
            participant_id,
        )
        people = await self.users.by_ids([p.user_id for p in fees]) if fees else []
        names = {u["_id"]: u.get("name", "") for u in people}
        return OfferTerms(item, owner, participant, cents, currency, fees, names)

    async def _chain(self, item: dict[str, Any], chat: dict[str, Any]) -> list[str]:
        """The chain of the route the asker arrived through, as the chat recorded it when it
        began; a route of another post counts for nothing."""
        route_id = (chat.get("data") or {}).get("route_id")
        route = await self.items.route(route_id) if route_id else None
        if route is None or route["item_id"] != item["_id"]:
            return []
        return chain(route)

    async def _chat_about_own_item(self, owner_id: str, cs_id: str) -> tuple[dict, dict, str]:
        parsed = parse_item_chat_id(cs_id)
        chat = await self.sessions.get(cs_id) if parsed else None
        membership = await self.sessions.membership(cs_id, owner_id) if chat else None
        kind = membership["session_user_type"] if membership else None
        if parsed is None or chat is None or hidden_from(chat, kind):
            raise NotFound({"cs_id": NO_SUCH_CHAT})
        item_id, participant_id = parsed
        item = await self.items.get(item_id)
        if item is None or not is_visible(item):
            raise NotFound({"cs_id": "This post does not exist or was deleted"})
        if item["user_id"] != owner_id or participant_id == owner_id:
            raise Forbidden({"cs_id": "Only the post's owner can give an offer in its chats"})
        return item, chat, participant_id

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

    async def announce_paid(self, paid: OfferPaid) -> None:
        """The offer and its finder's fees show in the chat (an `OfferPaid` subscriber); the
        money has moved even if this notice is late."""
        text = (
            f"{paid.payer_name} gave an offer of {format_amount(paid.amount_cents, paid.currency)}"
            f" to {paid.payee_name}"
        )
        if paid.finder_fees:
            parts = ", ".join(
                f"{fee.name} {format_amount(fee.amount_cents, paid.currency)}"
                for fee in paid.finder_fees
            )
            text += f" (finder's fees: {parts})"
        data = {
            "offer": {
                "move_id": paid.move_id,
                "amount": cents_number(paid.amount_cents),
                "currency": paid.currency,
                "finder_fees": finder_fee_views(paid.finder_fees),
            }
        }
        try:
            await self.notices.post_notice(
                paid.session_id, paid.payer_id, f"offer:{paid.move_id}", text, data
            )
        except Exception:
            log.warning("could not post the notice of offer %s", paid.move_id, exc_info=True)


def finder_fee_views(fees: tuple[FinderFee, ...]) -> list[dict[str, Any]]:
    """The split as replies and notices show it: who, their name, how much."""
    return [
        {"user_id": fee.user_id, "name": fee.name, "amount": cents_number(fee.amount_cents)}
        for fee in fees
    ]


def offer_postings(terms: OfferTerms) -> list[Posting]:
    """The poster pays the offer and the fees in one debit (the first posting, so a short
    balance refuses the move before anyone is credited), taken from what the post holds
    first and the rest from what is available."""
    owner, participant, currency = terms.owner, terms.participant, terms.currency
    title = f"Offer for '{terms.item['title']}'"
    debit_title = f"{title} to {participant['name']}"
    if terms.fees:
        debit_title += " with finder's fees"

    def posting(user_id: str, cents: int, text: str, hold: HoldChange | None = None) -> Posting:
        return Posting(wallet_id(user_id, currency), user_id, currency, cents, text, hold)

    return [
        posting(
            owner["_id"],
            -terms.total_cents,
            debit_title,
            HoldChange(terms.item["_id"], DRAW, terms.cents),
        ),
        posting(participant["_id"], terms.cents, f"{title} from {owner['name']}"),
        *(
            posting(p.user_id, p.cents, f"Finder's fee for sharing '{terms.item['title']}'")
            for p in terms.fees
        ),
    ]
