"""People: accounts, their standing (reviews), and web push to their browsers."""

from agora.actors.user_client import UserShards
from agora.composition.base import Foundation
from agora.integrations.messaging import email_sender, sms_sender
from agora.services.accounts import AccountService
from agora.services.groups import GroupService
from agora.services.push import PushService
from agora.services.reviews import ReviewService
from agora.services.standing import Standing
from agora.services.uploads import UploadService
from agora.services.wallet import WalletService
from agora.store.auth_keys import AuthKeyStore
from agora.store.otp import OtpStore
from agora.store.push_subscriptions import PushSubscriptionStore
from agora.store.reviews import ReviewStore
from agora.store.vapid_keys import VapidKeyStore


def build_accounts(
    base: Foundation,
    *,
    auth_keys: AuthKeyStore,
    wallets: WalletService,
    uploads: UploadService,
    push_subscriptions: PushSubscriptionStore,
    standing: Standing,
) -> AccountService:
    settings = base.settings
    return AccountService(
        settings=settings,
        users=base.users,
        auth_keys=auth_keys,
        otps=OtpStore(redis=base.redis, keys=base.keys),
        limits=base.limits,
        email=email_sender(settings.smtp_url, settings.smtp_from),
        sms=sms_sender(),
        wallets=wallets,
        kept_image=uploads.kept_image,
        push_subscriptions=push_subscriptions,
        events=base.events,
        standing=standing.of,
    )


def build_reviews(
    base: Foundation, *, store: ReviewStore, wallets: WalletService, groups: GroupService
) -> ReviewService:
    return ReviewService(
        reviews=store,
        wallets=wallets,
        items=base.items,
        groups=groups,
        users=base.users,
        emitter=base.emitter,
    )


def build_push(
    base: Foundation, *, subscriptions: PushSubscriptionStore, shards: UserShards
) -> PushService:
    return PushService(
        settings=base.settings,
        subscriptions=subscriptions,
        vapid=VapidKeyStore(db=base.db),
        shards=shards,
        sessions=base.sessions,
        users=base.users,
        kinds=base.kinds,
    )
