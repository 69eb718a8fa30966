"""Wallets, the ledger's money moves, posts' reward holds and card payments."""

from dataclasses import dataclass

from agora.composition.base import Foundation
from agora.composition.chat import Shards
from agora.integrations.stripe_gateway import StripeGateway
from agora.services.chat.last_offer import LastOffer
from agora.services.groups import GroupService
from agora.services.offers import OfferService
from agora.services.payments import PaymentService, PayoutsStatus
from agora.services.rewards import RewardHolds
from agora.services.wallet import WalletService
from agora.settings import Settings
from agora.store.money import money_unit_of_work
from agora.store.payments import PaymentStore, Recharges
from agora.store.wallets import WalletStore


@dataclass(frozen=True, kw_only=True)
class Money:
    wallet_store: WalletStore
    payment_store: PaymentStore
    recharges: Recharges
    wallets: WalletService
    rewards: RewardHolds


def build_money(base: Foundation) -> Money:
    wallet_store = WalletStore(db=base.db)
    payment_store = PaymentStore(db=base.db, user_store=base.users, group_store=base.groups)
    recharges = Recharges(db=base.db)
    # A money move writes its ledger entries, its record, the posts' copies of the holds it
    # moves and a card recharge's record in one unit of work.
    money = money_unit_of_work(
        base.db,
        base.settings.mongo_transactions,
        wallets=wallet_store,
        holds=base.items.holds,
        recharges=recharges,
    )
    # Wallets show whether their owner can be paid out, which only payments' store knows.
    wallets = WalletService(
        store=wallet_store,
        money=money,
        emitter=base.emitter,
        events=base.events,
        charge_enabled=PayoutsStatus(store=payment_store).charge_enabled,
    )
    rewards = RewardHolds(
        wallets=wallets, items=base.items, emitter=base.emitter, events=base.events
    )
    return Money(
        wallet_store=wallet_store,
        payment_store=payment_store,
        recharges=recharges,
        wallets=wallets,
        rewards=rewards,
    )


def build_payments(base: Foundation, money: Money, groups: GroupService) -> PaymentService:
    return PaymentService(
        settings=base.settings,
        gateway=stripe_gateway(base.settings),
        store=money.payment_store,
        recharges=money.recharges,
        wallets=money.wallets,
        groups=groups,
    )


def stripe_gateway(settings: Settings) -> StripeGateway | None:
    """None without a secret key: card payments are then off and answer 503."""
    if not settings.card_payments:
        return None
    return StripeGateway(
        secret_key=settings.stripe_secret_key.get_secret_value(),
        api_base=settings.stripe_api_base,
        webhook_secrets=(
            settings.stripe_webhook_secret.get_secret_value(),
            settings.stripe_connect_webhook_secret.get_secret_value(),
        ),
        tolerance_seconds=settings.stripe_webhook_tolerance_seconds,
        timeout_seconds=settings.stripe_timeout_seconds,
    )


def build_offers(base: Foundation, *, money: Money, shards: Shards) -> OfferService:
    """Offers in item chats: paid from wallets, shown in the chat as its last offer."""
    return OfferService(
        wallets=money.wallets,
        last_offer=LastOffer(sessions=base.sessions, emitter=base.emitter, kinds=base.kinds),
        notices=shards.sends,
        sessions=base.sessions,
        items=base.items,
        users=base.users,
        events=base.events,
    )
