"""Composition root: builds stores, integrations and services from settings, then the edge."""

import asyncio
import secrets
from dataclasses import dataclass

from aiohttp import web
from pydantic import SecretStr

from agora.actors.client import SessionShards
from agora.actors.runtime import RayLink, start_shards
from agora.composition.base import build_foundation
from agora.composition.chat import build_chat, build_shards
from agora.composition.money import build_money, build_offers, build_payments
from agora.composition.people import build_accounts, build_push, build_reviews
from agora.composition.posts import build_feed, build_groups, build_items, build_uploads
from agora.composition.whatsapp import (
    build_whatsapp,
    build_whatsapp_replies,
    business_sends,
    whatsapp_stores,
)
from agora.core.items import POST_EXPIRY_SWEEP_SECONDS
from agora.generate.seed import seed_demo_city
from agora.http.openapi import OPENAPI_DOCUMENT
from agora.http.server import create_app
from agora.integrations.web_pages import PageFetcher
from agora.realtime.emitter import socket_manager
from agora.realtime.transport import RoomChannelManager
from agora.services.chat.live import Visitors
from agora.services.chat.memberships import Memberships
from agora.services.chat.moderation import ChatSettings
from agora.services.chat.receipts import Receipts
from agora.services.client_errors import ClientErrorService
from agora.services.events import (
    Events,
    GroupEdited,
    MemberAnnounced,
    MemberJoined,
    MemberRemoved,
    MemberTypeChanged,
    MessageDeleted,
    MessageStored,
    OfferPaid,
    PostAdded,
    PostHidden,
    PostHoldMoved,
    RewardReleased,
    SessionClosed,
    SignedOut,
    WhatsAppStatusReceived,
)
from agora.services.feed import FeedService
from agora.services.finder_fees import EarnedFromSharing
from agora.services.geo import GeoService
from agora.services.groups import GroupService
from agora.services.items import ItemService, PostReader
from agora.services.link_previews import LinkPreviewService
from agora.services.offers import OfferService
from agora.services.payments import PaymentService
from agora.services.push import PushService
from agora.services.registry import Services
from agora.services.rewards import RewardHolds
from agora.services.standing import Standing
from agora.services.uploads import UploadService
from agora.services.wallet import WalletService
from agora.services.whatsapp import WhatsApp
from agora.services.whatsapp.replies import WhatsAppReplies
from agora.settings import Settings, require_secret
from agora.store.auth_keys import AuthKeyStore
from agora.store.client_errors import ClientErrorStore
from agora.store.feed_cache import FeedCache
from agora.store.file_store import import_local_files
from agora.store.items import ItemStore
from agora.store.link_previews import LinkPreviewCache
from agora.store.mongo import connect_mongo, database, ensure_indexes
from agora.store.push_subscriptions import PushSubscriptionStore
from agora.store.redis import connect_redis
from agora.store.reviews import ReviewStore
from agora.store.session_copies import SessionCopies
from agora.store.users import UserStore
from agora.tools.background import sweep_forever
from agora.tools.garbage import collecting
from agora.tools.heap import heap_snapshots

MOVE_SWEEP_SECONDS = 30


# The edge's event publisher, for those who subscribe outside `subscribe` below (tests).
EVENTS = web.AppKey("events", Events)
# The edge's WhatsApp services, for tests that wait for webhook deliveries to be processed.
WHATSAPP = web.AppKey("whatsapp", WhatsApp)
# Posts, for tests that drive the expiry sweep.
ITEMS = web.AppKey("items", ItemService)
# The agents' side of business chats, for tests that drive its sweep.
WHATSAPP_REPLIES = web.AppKey("whatsapp_replies", WhatsAppReplies)
# The edge's copies of groups and memberships, for tests that wait until they are served.
SESSION_COPIES = web.AppKey("session_copies", SessionCopies)


@dataclass(frozen=True, kw_only=True)
class Built:
    services: Services
    events: Events
    users: UserStore  # for seeding
    indexed: list  # stores whose indexes must exist
    # what keeps edge copies whose `changes` must be heard
    copied: list[UserStore | ItemStore | SessionCopies]
    session_copies: SessionCopies  # groups and memberships
    ray_link: RayLink  # the edge's connection to Ray, which the shard clients share
    session_shards: SessionShards  # started with the edge, and again when Ray's head returns


def build_services(
    settings: Settings,
    db,
    redis,
    page_fetcher: PageFetcher | None = None,
    sockets: RoomChannelManager | None = None,
) -> Built:
    """Each feature built by its builder (`agora/composition/`), in the order they take each
    other. `sockets`: the edge's Socket.IO manager, which the emitter publishes through
    (without it, as in scripts and tests, the emitter is a write-only publisher)."""
    base = build_foundation(
        settings=settings, db=db, redis=redis, page_fetcher=page_fetcher, sockets=sockets
    )
    auth_keys = AuthKeyStore(db=db, redis=redis, keys=base.keys)
    feed_cache = FeedCache(redis=redis, keys=base.keys)
    review_store = ReviewStore(db=db)
    push_subscriptions = PushSubscriptionStore(db=db)
    wa_stores = whatsapp_stores(base)
    money = build_money(base)
    uploads = build_uploads(base)
    groups = build_groups(base, feed_cache, uploads)
    feed = build_feed(base, feed_cache, groups)
    posts = PostReader(items=base.items, groups=groups)
    shards = build_shards(base)
    push = build_push(base, subscriptions=push_subscriptions, shards=shards.users)
    chat = build_chat(
        base, shards=shards, posts=posts, uploads=uploads, sends=business_sends(base, wa_stores)
    )
    reviews = build_reviews(base, store=review_store, wallets=money.wallets, groups=groups)
    standing = Standing(items=base.items, groups=groups, reviews=reviews)
    whatsapp = build_whatsapp(base, stores=wa_stores, groups=groups, uploads=uploads, shards=shards)
    whatsapp_replies = build_whatsapp_replies(
        base, stores=wa_stores, whatsapp=whatsapp, wallets=money.wallets
    )
    services = Services(
        accounts=build_accounts(
            base,
            auth_keys=auth_keys,
            wallets=money.wallets,
            uploads=uploads,
            push_subscriptions=push_subscriptions,
            standing=standing,
        ),
        client_errors=ClientErrorService(
            settings=settings, reports=ClientErrorStore(db=db), limits=base.limits
        ),
        groups=groups,
        geo=GeoService(cities=groups.cities),
        feed=feed,
        items=build_items(
            base,
            posts=posts,
            groups=groups,
            feed_cache=feed_cache,
            uploads=uploads,
            rewards=money.rewards,
        ),
        uploads=uploads,
        chat=chat,
        link_previews=LinkPreviewService(
            fetcher=base.fetcher,
            cache=LinkPreviewCache(redis=redis, keys=base.keys),
            limits=base.limits,
            kept_image=uploads.kept_image,
        ),
        wallets=money.wallets,
        offers=build_offers(base, money=money, shards=shards),
        payments=build_payments(base, money, groups),
        push=push,
        finder_fees=EarnedFromSharing(wallets=money.wallet_store, items=base.items),
        rewards=money.rewards,
        reviews=reviews,
        whatsapp=whatsapp,
        whatsapp_replies=whatsapp_replies,
    )
    subscribe(
        base.events,
        groups,
        feed,
        shards.memberships,
        Visitors(sessions=base.sessions, emitter=base.emitter),
        chat.chat_settings,
        chat.receipts,
        services.offers,
        money.rewards,
        push,
        whatsapp,
        whatsapp_replies,
        uploads,
    )
    indexed = [base.users, auth_keys, base.groups, base.items, base.sessions, base.messages]
    indexed += [money.wallet_store, review_store, money.payment_store, money.recharges]
    indexed += [push_subscriptions, *wa_stores.indexed()]
    return Built(
        services=services,
        events=base.events,
        users=base.users,
        indexed=indexed,
        copied=[base.users, base.items, base.copies],
        session_copies=base.copies,
        ray_link=shards.ray_link,
        session_shards=shards.sessions,
    )


def subscribe(
    events: Events,
    groups: GroupService,
    feed: FeedService,
    memberships: Memberships,
    visitors: Visitors,
    chat_settings: ChatSettings,
    receipts: Receipts,
    offers: OfferService,
    rewards: RewardHolds,
    push: PushService,
    whatsapp: WhatsApp,
    whatsapp_replies: WhatsAppReplies,
    uploads: UploadService,
) -> None:
    """Who reacts to what, in this process (see `services/events.py`). The comment above
    each subscription says what it does: docs/architecture.md's events table shows it
    (`python -m agora events`)."""
    # A new post is merged into the group's cached first pages.
    events.subscribe(PostAdded, lambda e: feed.post_added(e.group_id))
    # A group's new member: its chat's shard takes their messages by their type (told before
    # the join answers), they read its chat from now on, and their sockets follow its room.
    events.subscribe(
        MemberJoined, lambda e: memberships.member_joined(e.session_id, e.user_id, e.user_type)
    )
    # A group or chat that closed to non-members sends away the sockets of those who read it
    # without following it (and of a group, of its posts' open chats).
    events.subscribe(SessionClosed, visitors.session_closed)
    # An edited group's chat takes messages by its new rules (who may write).
    events.subscribe(GroupEdited, chat_settings.group_edited)
    # A deleted post's open chats send away the sockets of their visitors.
    events.subscribe(PostHidden, visitors.post_hidden)
    # A rejected request to join no longer counts among the group's members.
    events.subscribe(MemberRemoved, lambda e: groups.member_removed(e.session_id))
    # Joining (or asking to join) a group shows as a notice in the group's chat.
    events.subscribe(
        MemberAnnounced,
        lambda e: memberships.announce_member(e.session_id, e.user_id, e.event, e.by_user_id),
    )
    # The receipts of a message sent through this edge find its place without reading it.
    events.subscribe(MessageStored, receipts.message_stored)
    # Members away from a chat hear of its new messages by web push (queued: the send does
    # not wait for it).
    events.subscribe(MessageStored, push.message_stored)
    # A deleted message's push not sent yet is not sent, nor shown in a busy chat's push.
    events.subscribe(MessageDeleted, push.message_deleted)
    # A message's files count one more message that names them.
    events.subscribe(MessageStored, uploads.message_stored)
    # A deleted message's files that nothing else names are deleted.
    events.subscribe(MessageDeleted, uploads.message_deleted)
    # A paid offer shows in its chat with its finder's fees.
    events.subscribe(OfferPaid, offers.announce_paid)
    # The participant and each paid sharer are told by web push, once per money move.
    events.subscribe(OfferPaid, push.offer_paid)
    # A post's cards show what it paid and still holds: the group's cached pages are read again.
    events.subscribe(OfferPaid, lambda e: feed.post_changed(e.group_id))
    # The poster's tabs get the post with its hold as the money move left it.
    events.subscribe(PostHoldMoved, rewards.hold_moved)
    # The poster's open tabs hear what a closed, deleted or expired post gave back.
    events.subscribe(RewardReleased, rewards.tell_released)
    # The poster is told by web push what came back, once per post and currency.
    events.subscribe(RewardReleased, push.reward_released)
    # A logged-out browser's subscriptions are gone: the user shards forget what they knew.
    events.subscribe(SignedOut, push.signed_out)
    # A group member made moderator answers its WhatsApp customers from now on; one blocked
    # no longer reads their chats.
    events.subscribe(
        MemberTypeChanged,
        lambda e: whatsapp.business_chats.member_type_changed(
            e.session_id, e.user_id, e.old_type, e.new_type
        ),
    )
    # An agent's reply in a business chat goes to WhatsApp, in a task of its own.
    events.subscribe(MessageStored, whatsapp_replies.outbound.message_stored)
    # WhatsApp's statuses of a reply move its flags, forward only, announced as `wa_status`.
    events.subscribe(WhatsAppStatusReceived, whatsapp_replies.statuses.status_received)


async def finish_stalled_moves(wallets: WalletService, payments: PaymentService) -> None:
    """A withdrawal debited but never paid out is paid; where a move's writes each stand
    alone (no transactions), a move an edge died in the middle of is finished by another."""
    await wallets.recover()
    await payments.resume_stalled_payouts()


async def hear_changes(store: UserStore | ItemStore | SessionCopies, stop: asyncio.Event) -> None:
    """While the edge serves, it hears of documents changed on any edge: only then may the
    store serve its copies of them (the auth keys' revocations are heard by the sockets)."""
    async for _ in store.changes(stop):
        pass


def build_app(
    settings: Settings, *, with_ray: bool = True, page_fetcher: PageFetcher | None = None
) -> web.Application:
    """`page_fetcher` lets tests stand a loopback alias in for the public internet."""
    require_secret(settings)
    mongo = connect_mongo(settings)
    db = database(mongo, settings)
    redis = connect_redis(settings)
    # One Socket.IO manager for the edge's server and its services' emitter: what the edge
    # publishes reaches its own sockets without a trip through Redis, and sockets moved into
    # a room are in it before the call returns.
    sockets = socket_manager(settings)
    built = build_services(settings, db, redis, page_fetcher, sockets)
    services = built.services
    app = create_app(settings, services, sockets)
    app[EVENTS] = built.events
    app[WHATSAPP] = services.whatsapp
    app[ITEMS] = services.items
    app[WHATSAPP_REPLIES] = services.whatsapp_replies
    app[SESSION_COPIES] = built.session_copies

    async def lifecycle(app: web.Application):
        await ensure_indexes(db, built.indexed)
        # Files an older version kept on this edge's disk join the shared store.
        await import_local_files(settings.local_uploads_dir, services.uploads.files)
        if settings.seed_demo:
            await seed_demo_city(services, built.users)
        stop_watching = asyncio.Event()
        if with_ray:
            await asyncio.get_running_loop().run_in_executor(None, built.ray_link.connect)
            # The first sends need not wait for a shard's process to start.
            await start_shards(built.session_shards.start_all)
            # Ray's head may go and come back while the edge serves.
            ray_watch = asyncio.create_task(
                built.ray_link.watch(stop_watching, built.session_shards.start_all)
            )
        # Every edge sweeps; each sweep's work happens once, whichever edge gets there first.
        sweeper = asyncio.create_task(
            sweep_forever(
                MOVE_SWEEP_SECONDS,
                lambda: finish_stalled_moves(services.wallets, services.payments),
                "stalled money moves",
            )
        )
        # Posts past their expiry close and give back their held rewards.
        expiry_sweeper = asyncio.create_task(
            sweep_forever(POST_EXPIRY_SWEEP_SECONDS, services.items.expire_due, "expired posts")
        )
        # Deliveries an edge accepted but did not finish (it died) are processed here.
        whatsapp_sweeper = asyncio.create_task(services.whatsapp.webhooks.recover_forever())
        # Agents' replies an edge stored but did not send (it died) are sent here.
        replies_sweeper = asyncio.create_task(services.whatsapp_replies.outbound.sweep_forever())
        stop_listening = asyncio.Event()
        listeners = [
            asyncio.create_task(hear_changes(store, stop_listening)) for store in built.copied
        ]
        yield
        stop_watching.set()
        if with_ray:
            await ray_watch
        sweeper.cancel()
        expiry_sweeper.cancel()
        whatsapp_sweeper.cancel()
        replies_sweeper.cancel()
        stop_listening.set()
        # A listener cancelled by the shutdown has nothing left to do.
        await asyncio.gather(*listeners, return_exceptions=True)
        await sockets.close()
        await services.push.close()
        await services.whatsapp_replies.outbound.close()
        await services.whatsapp.close()
        await services.uploads.files.close()
        if services.payments.gateway is not None:
            await services.payments.gateway.close()
        await redis.aclose()
        await mongo.close()

    async def collecting_garbage(app: web.Application):
        # Last to start: what everything before it built is frozen out of collections.
        async with collecting(settings.gc_full_every_seconds):
            yield

    async def tracing_the_heap(app: web.Application):
        with heap_snapshots(settings.heap_snapshots_dir, "edge"):
            yield

    app.cleanup_ctx.insert(0, lifecycle)
    # First to start: every block the edge allocates from here on is traced.
    app.cleanup_ctx.insert(0, tracing_the_heap)
    app.cleanup_ctx.append(collecting_garbage)
    return app


def api_document(settings: Settings) -> dict:
    """The OpenAPI document of the edge these settings build. Built, never started: nothing
    is connected to, and nothing is signed (the document does not depend on the secret)."""
    unsigned = settings.model_copy(update={"secret_key": SecretStr(secrets.token_urlsafe(48))})
    return build_app(unsigned, with_ray=False)[OPENAPI_DOCUMENT].document
