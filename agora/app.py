"""Composition root: builds stores, integrations and services from settings, then the edge."""

import asyncio
import secrets
from collections.abc import Mapping
from dataclasses import dataclass

from aiohttp import web
from pydantic import SecretStr

from agora.actors.client import SessionShards
from agora.actors.runtime import RayLink, start_shards
from agora.actors.user_client import UserShards
from agora.background import sweep_forever
from agora.core.chat import CHAT_MESSAGE_KINDS
from agora.core.constants import DAY_MS, POST_EXPIRY_SWEEP_SECONDS
from agora.core.message_kinds import ChatKinds
from agora.core.whatsapp.kinds import BUSINESS_CHATS, WHATSAPP_MESSAGE_KINDS
from agora.core.whatsapp.outbound import WA_MESSAGE_TYPES
from agora.garbage import collecting
from agora.http.openapi import OPENAPI_DOCUMENT
from agora.http.server import create_app
from agora.integrations.geonames import city_index
from agora.integrations.messaging import email_sender, sms_sender
from agora.integrations.stripe_gateway import StripeGateway
from agora.integrations.web_pages import PageFetcher
from agora.integrations.whatsapp.client import GraphApi
from agora.realtime.emitter import RealtimeEmitter, socket_manager
from agora.realtime.transport import RoomChannelManager
from agora.seed import seed_demo_city
from agora.services.accounts import AccountService
from agora.services.chat import ChatParts
from agora.services.chat.access import ChatAccess
from agora.services.chat.chat_list import ChatList, UnseenCounts
from agora.services.chat.last_offer import LastOffer
from agora.services.chat.live import ChatRooms, Typing, Visitors
from agora.services.chat.lookups import ItemChats, Lookups
from agora.services.chat.memberships import Memberships
from agora.services.chat.moderation import ChatSettings, MemberList, Moderation
from agora.services.chat.reading import MessageInfo, MessagePages
from agora.services.chat.receipts import Receipts
from agora.services.chat.search import ChatSearch
from agora.services.chat.sending import PreparesSend, Sending
from agora.services.chat.shard_sends import ShardSends
from agora.services.chat.ticks import Ticks
from agora.services.client_errors import ClientErrorService
from agora.services.creation_limits import CreationLimit
from agora.services.events import (
    Events,
    GroupEdited,
    MemberAnnounced,
    MemberJoined,
    MemberRemoved,
    MemberTypeChanged,
    MessageStored,
    OfferPaid,
    PostAdded,
    PostHidden,
    PostHoldMoved,
    PostShared,
    RewardReleased,
    SessionClosed,
    SignedOut,
    WhatsAppStatusReceived,
)
from agora.services.feed import FeedService
from agora.services.finder_fees import EarnedFromSharing
from agora.services.geo import GeoService
from agora.services.groups import GROUPS_LIMITED, GroupService
from agora.services.items import POSTS_LIMITED, ItemService, PostReader
from agora.services.link_previews import LinkPreviewService
from agora.services.offers import OfferService
from agora.services.payments import PaymentService, PayoutsStatus
from agora.services.push import PushService
from agora.services.registry import Services
from agora.services.reviews import ReviewService
from agora.services.rewards import RewardHolds
from agora.services.standing import Standing
from agora.services.uploads import UploadService
from agora.services.wallet import WalletService
from agora.services.whatsapp import WhatsApp
from agora.services.whatsapp.business_chats import BusinessChats
from agora.services.whatsapp.channels import WhatsAppChannels
from agora.services.whatsapp.clicks import WhatsAppClicks
from agora.services.whatsapp.inbound import InboundMessages
from agora.services.whatsapp.outbound import BusinessSends, WhatsAppOutbound
from agora.services.whatsapp.replies import WhatsAppReplies
from agora.services.whatsapp.statuses import WhatsAppStatuses
from agora.services.whatsapp.templates import WhatsAppTemplates
from agora.services.whatsapp.webhooks import RateLimit, WhatsAppWebhooks
from agora.settings import Settings, require_secret
from agora.store.auth_keys import AuthKeyStore
from agora.store.business_chats import BusinessChatStore
from agora.store.chat_hints import ChatHints
from agora.store.client_errors import ClientErrorStore
from agora.store.feed_cache import FeedCache
from agora.store.file_store import file_store, import_local_files
from agora.store.groups import GroupStore
from agora.store.items import ItemStore
from agora.store.link_previews import LinkPreviewCache
from agora.store.messages import MessageStore
from agora.store.money import money_unit_of_work
from agora.store.mongo import connect_mongo, database
from agora.store.otp import OtpStore
from agora.store.payments import PaymentStore, Recharges
from agora.store.push_subscriptions import PushSubscriptionStore
from agora.store.rate_limits import RateLimiter
from agora.store.redis import Keys, connect_redis
from agora.store.reviews import ReviewStore
from agora.store.session_copies import SessionCopies, session_copies
from agora.store.sessions import SessionStore
from agora.store.uploads import UploadStore
from agora.store.users import UserStore
from agora.store.vapid_keys import VapidKeyStore
from agora.store.wallets import WalletStore
from agora.store.whatsapp_channels import WhatsAppChannelStore
from agora.store.whatsapp_events import WhatsAppEventStore
from agora.store.whatsapp_statuses import WhatsAppFlags
from agora.store.whatsapp_templates import WhatsAppTemplateStore
from agora.wiring import StoreFactory

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


@dataclass(frozen=True)
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


def chat_kinds() -> ChatKinds:
    """The message kinds chat knows: its own, and those WhatsApp brings with its business
    chats (`core.message_kinds`)."""
    return ChatKinds([*CHAT_MESSAGE_KINDS, *WHATSAPP_MESSAGE_KINDS], [BUSINESS_CHATS])


def build_services(
    settings: Settings,
    db,
    redis,
    page_fetcher: PageFetcher | None = None,
    sockets: RoomChannelManager | None = None,
) -> Built:
    """`sockets`: the edge's Socket.IO manager, which the emitter publishes through (without
    it, as in scripts and tests, the emitter is a write-only publisher)."""
    keys = Keys(settings.redis_prefix)
    events = Events()
    users = UserStore(db, redis, keys)
    auth_keys = AuthKeyStore(db, redis, keys)
    limits = RateLimiter(redis, keys)
    # Groups and memberships, as the group and chat stores keep them on this edge.
    copies = session_copies(redis, keys)
    group_store = GroupStore(db, copies)
    item_store = ItemStore(db, redis, keys)
    upload_store = UploadStore(db)
    feed_cache = FeedCache(redis, keys)
    sessions = SessionStore(db, copies)
    messages = MessageStore(db)
    wallet_store = WalletStore(db)
    emitter = RealtimeEmitter(settings, sockets)
    payment_store = PaymentStore(db, users, group_store)
    recharges = Recharges(db)
    # A money move writes its ledger entries, its record, the posts' copies of the holds it
    # moves and a card recharge's record in one unit of work.
    money = money_unit_of_work(
        db,
        settings.mongo_transactions,
        wallets=wallet_store,
        holds=item_store.holds,
        recharges=recharges,
    )
    # Wallets show whether their owner can be paid out, which only payments' store knows.
    wallets = WalletService(
        wallet_store, money, emitter, events, PayoutsStatus(payment_store).charge_enabled
    )
    rewards = RewardHolds(wallets, item_store, emitter, events)
    review_store = ReviewStore(db)

    fetcher = page_fetcher or PageFetcher()
    uploads = UploadService(settings, upload_store, file_store(settings, db), limits, fetcher)
    groups = GroupService(
        group_store,
        feed_cache,
        city_index,
        uploads.kept_image,
        events,
        CreationLimit(
            limits,
            "groups",
            settings.groups_per_user,
            settings.creation_window_seconds,
            GROUPS_LIMITED,
        ),
    )
    payments = PaymentService(
        settings, stripe_gateway(settings), payment_store, recharges, wallets, groups
    )
    posts = PostReader(item_store, groups)
    push_subscriptions = PushSubscriptionStore(db)
    kinds = chat_kinds()
    # How the Ray shards (other processes) build their stores.
    shard_stores = StoreFactory(settings, kinds)
    ray_link = RayLink(settings)
    shard_maps = shard_stores.shard_maps(db)
    user_shards = UserShards(settings, shard_stores, ray_link, shard_maps)
    push = PushService(
        settings, push_subscriptions, VapidKeyStore(db), user_shards, sessions, users, kinds
    )
    whatsapp_templates = WhatsAppTemplateStore(db)
    session_shards = SessionShards(settings, shard_stores, ray_link, shard_maps)
    shard_sends = ShardSends(shards=session_shards, events=events)
    memberships = Memberships(
        sessions=sessions,
        users=users,
        emitter=emitter,
        shards=session_shards,
        shard_sends=shard_sends,
    )
    chat = chat_parts(
        shards=session_shards,
        shard_sends=shard_sends,
        memberships=memberships,
        sessions=sessions,
        messages=messages,
        posts=posts,
        users=users,
        uploads=uploads,
        hints=ChatHints(redis, keys),
        emitter=emitter,
        events=events,
        kinds=kinds,
        # An agent's reply to a WhatsApp customer is checked against its business chat.
        sends=dict.fromkeys(
            WA_MESSAGE_TYPES,
            BusinessSends(settings.public_base_url, sessions, messages, whatsapp_templates),
        ),
    )
    feed = FeedService(groups, item_store, feed_cache)
    reviews = ReviewService(review_store, wallets, item_store, groups, users, emitter)
    standing = Standing(item_store, groups, reviews)
    whatsapp, whatsapp_stores = build_whatsapp(
        settings,
        db,
        groups,
        sessions,
        uploads,
        emitter,
        events,
        limits,
        shards=session_shards,
        shard_sends=shard_sends,
        memberships=memberships,
        kinds=kinds,
    )
    whatsapp_flags = WhatsAppFlags(db)
    statuses = WhatsAppStatuses(whatsapp_flags, emitter)
    whatsapp_replies = WhatsAppReplies(
        outbound=WhatsAppOutbound(
            settings.public_base_url,
            settings.whatsapp_template_price,
            settings.whatsapp_template_currency,
            whatsapp.graph,
            whatsapp.channels,
            sessions,
            group_store,
            whatsapp_flags,
            wallets,
            statuses,
            kinds,
        ),
        statuses=statuses,
        templates=WhatsAppTemplates(
            whatsapp.channels, whatsapp.graph, whatsapp_templates, sessions
        ),
        clicks=WhatsAppClicks(whatsapp_templates, whatsapp_flags, statuses),
    )
    services = Services(
        accounts=AccountService(
            settings,
            users,
            auth_keys,
            OtpStore(redis, keys),
            limits,
            email=email_sender(settings.smtp_url, settings.smtp_from),
            sms=sms_sender(),
            wallets=wallets,
            kept_image=uploads.kept_image,
            push_subscriptions=push_subscriptions,
            events=events,
            standing=standing.of,
        ),
        client_errors=ClientErrorService(settings, ClientErrorStore(db), limits),
        groups=groups,
        geo=GeoService(groups.cities),
        feed=feed,
        items=ItemService(
            settings.public_base_url,
            item_store,
            posts,
            groups,
            group_store,
            users,
            feed_cache,
            uploads,
            events,
            CreationLimit(
                limits,
                "posts",
                settings.posts_per_user,
                settings.creation_window_seconds,
                POSTS_LIMITED,
            ),
            rewards,
            settings.post_expiry_days * DAY_MS,
        ),
        uploads=uploads,
        chat=chat,
        link_previews=LinkPreviewService(
            fetcher, LinkPreviewCache(redis, keys), limits, uploads.kept_image
        ),
        wallets=wallets,
        offers=OfferService(
            wallets,
            LastOffer(sessions=sessions, emitter=emitter, kinds=kinds),
            shard_sends,
            sessions,
            item_store,
            users,
            events,
        ),
        payments=payments,
        push=push,
        finder_fees=EarnedFromSharing(wallet_store, item_store),
        rewards=rewards,
        reviews=reviews,
        whatsapp=whatsapp,
        whatsapp_replies=whatsapp_replies,
    )
    visitors = Visitors(sessions=sessions, emitter=emitter)
    subscribe(
        events,
        groups,
        feed,
        memberships,
        visitors,
        chat.chat_settings,
        services.offers,
        rewards,
        push,
        whatsapp,
        whatsapp_replies,
    )
    indexed = [users, auth_keys, group_store, item_store, sessions, messages, wallet_store]
    indexed += [review_store]
    indexed += [payment_store, recharges, push_subscriptions, *whatsapp_stores]
    indexed += [whatsapp_templates, whatsapp_flags]
    copied = [users, item_store, copies]
    return Built(services, events, users, indexed, copied, copies, ray_link, session_shards)


def chat_parts(
    *,
    shards: SessionShards,
    shard_sends: ShardSends,
    memberships: Memberships,
    sessions: SessionStore,
    messages: MessageStore,
    posts: PostReader,
    users: UserStore,
    uploads: UploadService,
    hints: ChatHints,
    emitter: RealtimeEmitter,
    events: Events,
    kinds: ChatKinds,
    sends: Mapping[int, PreparesSend],
) -> ChatParts:
    """The chat's parts the edge calls, each given what it uses; the read rule and the
    receipts' ticks are shared by those that need them."""
    access = ChatAccess(sessions=sessions, posts=posts)
    ticks = Ticks(sessions=sessions, emitter=emitter)
    return ChatParts(
        kinds=kinds,
        sending=Sending(
            shards=shards,
            shard_sends=shard_sends,
            access=access,
            messages=messages,
            uploads=uploads,
            posts=posts,
            sessions=sessions,
            hints=hints,
            emitter=emitter,
            kinds=kinds,
            sends=sends,
        ),
        pages=MessagePages(
            access=access,
            shards=shards,
            messages=messages,
            sessions=sessions,
            users=users,
            kinds=kinds,
            ticks=ticks,
        ),
        message_info=MessageInfo(access=access, messages=messages, sessions=sessions, kinds=kinds),
        receipts=Receipts(access=access, messages=messages, sessions=sessions, ticks=ticks),
        chat_list=ChatList(
            access=access,
            posts=posts,
            sessions=sessions,
            messages=messages,
            shards=shards,
            emitter=emitter,
            kinds=kinds,
            ticks=ticks,
        ),
        unseen=UnseenCounts(sessions=sessions),
        rooms=ChatRooms(access=access, sessions=sessions),
        typing=Typing(access=access, hints=hints, emitter=emitter),
        members=MemberList(access=access, sessions=sessions, users=users),
        chat_settings=ChatSettings(
            access=access,
            sessions=sessions,
            shards=shards,
            events=events,
            emitter=emitter,
            kinds=kinds,
        ),
        moderation=Moderation(
            sessions=sessions,
            events=events,
            emitter=emitter,
            kinds=kinds,
            memberships=memberships,
        ),
        item_chats=ItemChats(
            access=access, posts=posts, sessions=sessions, hints=hints, kinds=kinds
        ),
        lookups=Lookups(access=access, posts=posts, sessions=sessions, users=users, kinds=kinds),
        search=ChatSearch(
            access=access, messages=messages, sessions=sessions, users=users, kinds=kinds
        ),
    )


def subscribe(
    events: Events,
    groups: GroupService,
    feed: FeedService,
    memberships: Memberships,
    visitors: Visitors,
    chat_settings: ChatSettings,
    offers: OfferService,
    rewards: RewardHolds,
    push: PushService,
    whatsapp: WhatsApp,
    whatsapp_replies: WhatsAppReplies,
) -> None:
    """Who reacts to what, in this process (see `services/events.py`). The comment above
    each subscription says what it does: docs/architecture.md's events table shows it
    (`python -m agora events`)."""
    # A new post is merged into the group's cached first pages.
    events.subscribe(PostAdded, lambda e: feed.post_added(e.group_id))
    # A post's cards show its share count: the group's cached pages are read again.
    events.subscribe(PostShared, lambda e: feed.post_changed(e.group_id))
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
    # Members away from a chat hear of its new messages by web push (queued: the send does
    # not wait for it).
    events.subscribe(MessageStored, push.message_stored)
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


def build_whatsapp(
    settings: Settings,
    db,
    groups: GroupService,
    sessions: SessionStore,
    uploads: UploadService,
    emitter: RealtimeEmitter,
    events: Events,
    limits: RateLimiter,
    *,
    shards: SessionShards,
    shard_sends: ShardSends,
    memberships: Memberships,
    kinds: ChatKinds,
) -> tuple[WhatsApp, list]:
    """WhatsApp business chats, and the stores whose indexes they need."""
    graph = GraphApi(settings.whatsapp_graph_url)
    channel_store = WhatsAppChannelStore(db)
    deliveries = WhatsAppEventStore(db)
    business_chats = BusinessChatStore(db)
    channels = WhatsAppChannels(
        settings.public_base_url,
        channel_store,
        graph,
        groups,
        settings.secret_key.get_secret_value(),
    )
    agents = BusinessChats(
        business_chats,
        sessions,
        emitter,
        memberships=memberships,
        shards=shards,
        kinds=kinds,
    )
    inbound = InboundMessages(
        agents,
        business_chats,
        uploads,
        graph,
        emitter,
        shard_sends=shard_sends,
        shards=shards,
        kinds=kinds,
    )
    bad_signatures = RateLimit(
        settings.whatsapp_bad_signatures_per_ip, settings.rate_window_seconds
    )
    webhooks = WhatsAppWebhooks(channels, deliveries, inbound, events, limits, bad_signatures)
    return WhatsApp(graph, channels, webhooks, agents), [channel_store, deliveries, business_chats]


def stripe_gateway(settings: Settings) -> StripeGateway | None:
    """None without a secret key: card payments are then off and answer 503."""
    if not settings.card_payments:
        return None
    return StripeGateway(
        settings.stripe_secret_key.get_secret_value(),
        api_base=settings.stripe_api_base,
        webhook_secrets=(
            settings.stripe_webhook_secret.get_secret_value(),
            settings.stripe_connect_webhook_secret.get_secret_value(),
        ),
        tolerance_seconds=settings.stripe_webhook_tolerance_seconds,
        timeout_seconds=settings.stripe_timeout_seconds,
    )


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
        for store in built.indexed:
            await store.ensure_indexes()
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

    app.cleanup_ctx.insert(0, lifecycle)
    app.cleanup_ctx.append(collecting_garbage)
    return app


def api_document(settings: Settings) -> dict:
    """The OpenAPI document of the edge these settings build. Built, never started: nothing
    is connected to, and nothing is signed (the document does not depend on the secret)."""
    unsigned = settings.model_copy(update={"secret_key": SecretStr(secrets.token_urlsafe(48))})
    return build_app(unsigned, with_ray=False)[OPENAPI_DOCUMENT]
