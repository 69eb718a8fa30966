"""Uploads, groups with their feed, and posts."""

from agora.composition.base import Foundation
from agora.core.clock import DAY_MS
from agora.integrations.geonames import city_index
from agora.services.creation_limits import CreationLimit
from agora.services.feed import FeedService
from agora.services.groups import GROUPS_LIMITED, GroupService
from agora.services.items import POSTS_LIMITED, ItemService, PostReader
from agora.services.rewards import RewardHolds
from agora.services.uploads import UploadService
from agora.store.feed_cache import FeedCache
from agora.store.file_store import file_store
from agora.store.uploads import UploadStore


def creation_limit(base: Foundation, *, kind: str, per_user: int, refusal: str) -> CreationLimit:
    """How many of a kind (groups, posts) one person creates in the settings' window."""
    return CreationLimit(
        limits=base.limits,
        kind=kind,
        per_user=per_user,
        window_seconds=base.settings.creation_window_seconds,
        refusal=refusal,
    )


def build_uploads(base: Foundation) -> UploadService:
    return UploadService(
        settings=base.settings,
        uploads=UploadStore(db=base.db),
        files=file_store(base.settings, base.db),
        limits=base.limits,
        fetcher=base.fetcher,
    )


def build_groups(base: Foundation, feed_cache: FeedCache, uploads: UploadService) -> GroupService:
    return GroupService(
        groups=base.groups,
        feed_cache=feed_cache,
        cities=city_index,
        kept_image=uploads.kept_image,
        events=base.events,
        creations=creation_limit(
            base, kind="groups", per_user=base.settings.groups_per_user, refusal=GROUPS_LIMITED
        ),
    )


def build_feed(base: Foundation, feed_cache: FeedCache, groups: GroupService) -> FeedService:
    return FeedService(groups=groups, items=base.items, cache=feed_cache)


def build_items(
    base: Foundation,
    *,
    posts: PostReader,
    groups: GroupService,
    feed_cache: FeedCache,
    uploads: UploadService,
    rewards: RewardHolds,
) -> ItemService:
    return ItemService(
        base_url=base.settings.public_base_url,
        items=base.items,
        posts=posts,
        groups=groups,
        group_store=base.groups,
        users=base.users,
        feed_cache=feed_cache,
        uploads=uploads,
        events=base.events,
        creations=creation_limit(
            base, kind="posts", per_user=base.settings.posts_per_user, refusal=POSTS_LIMITED
        ),
        rewards=rewards,
        expiry_ms=base.settings.post_expiry_days * DAY_MS,
    )
