"""Warm feed heads: first pages kept current by writers, exact while several edges post."""

import asyncio
import json
import uuid

import pytest
from pymongo import AsyncMongoClient
from redis.asyncio import Redis

from agora.app import build_services
from agora.core.accounts import identifier_from
from agora.services.accounts import Caller
from agora.services.groups import GroupChanges
from agora.services.items import ItemInput
from agora.store.feed_cache import HEADS_MAX, FeedCache
from agora.store.mongo import connect_mongo, database, ensure_indexes
from agora.store.redis import Keys, connect_redis
from tests.integration.helpers import Member, member, new_email, new_group

TAGS = ["Help", "For sale", "Jobs"]
PAGE = 20


async def _truth(db, group_id: str, tags: list[str]) -> list[str]:
    """The first page's posts as MongoDB orders them, bypassing every cache."""
    query = {"group_id": group_id, "sort_order": {"$ne": -1}}
    if tags:
        query["tags"] = {"$all": tags}
    found = await db.items.find(query, {"title": 1}).sort("feed_key", -1).limit(PAGE + 1).to_list()
    return [post["title"] for post in found]


async def test_first_pages_stay_exact_while_two_edges_post(client_for, smtp_sink, settings_for):
    settings = settings_for()
    shared = {"redis_prefix": settings.redis_prefix}
    first, second = await client_for(**shared), await client_for(**shared)
    on_first = await member(first, smtp_sink)
    on_second = Member(second, on_first.key, on_first.user)
    group_id = await new_group(on_first, is_public=True, tags=TAGS)
    for n in range(PAGE):
        await on_first.post_item(group_id, f"Old {n}", tags=[TAGS[n % 3]])
    mongo = AsyncMongoClient(settings.mongo_url)
    db = mongo[settings.mongo_db]

    async def warm_up() -> None:
        for reader in (on_first, on_second):
            for tags in ([], ["Help"], ["Help", "Jobs"]):
                await reader.call("/api/feed", {"group_id": group_id, "tags": tags})

    async def check() -> None:
        for reader in (on_first, on_second):
            for tags in ([], ["Help"], ["Help", "Jobs"], ["For sale"]):
                page = await reader.call("/api/feed", {"group_id": group_id, "tags": tags})
                truth = await _truth(db, group_id, tags)
                assert [item["title"] for item in page["items"]] == truth[:PAGE], tags
                assert page["has_more"] == (len(truth) > PAGE)

    try:
        for round_ in range(3):
            # Readers on both edges keep the plain feed and two tag filters warm; posts come
            # through either edge, one after the other...
            await warm_up()
            for n, poster in enumerate([on_first, on_second] * 2):
                await poster.post_item(group_id, f"Next {round_}.{n}", tags=[TAGS[n % 3]])
                await check()
            # ...then at once, so that writers collide on the heads.
            await warm_up()
            await asyncio.gather(
                *(
                    poster.post_item(group_id, f"New {round_}.{n}", tags=[TAGS[n % 3], "Jobs"])
                    for n, poster in enumerate([on_first, on_second] * 3)
                )
            )
            await check()
    finally:
        await mongo.close()


@pytest.fixture
async def services(settings_for):
    """The services of one edge, built as the app builds them, for looking inside."""
    settings = settings_for()
    mongo = connect_mongo(settings)
    redis = connect_redis(settings)
    db = database(mongo, settings)
    built = build_services(settings, db, redis)
    await ensure_indexes(db, built.indexed)
    yield built.services, built.users
    await redis.aclose()
    await mongo.close()


async def test_a_post_reaches_warm_heads_without_the_feed_being_read_again(services, monkeypatch):
    built, users = services
    user = await users.create(identifier_from(new_email(), None), "Ada")
    caller = Caller(user=user, key_hash="not-checked-here")
    changes = GroupChanges(is_public=True, tags=TAGS)
    group_id = (await built.groups.create(caller, "Club", "", changes))["group"]["_id"]
    await built.items.create(caller, group_id, ItemInput(title="First", tags=("Jobs",)))

    async def titles(*tags: str) -> list[str]:
        page = await built.feed.feed(
            None, group_id=group_id, search_text="", tags=list(tags), cursor=None
        )
        return [item["title"] for item in page["items"]]

    assert await titles() == ["First"]
    assert await titles("Jobs") == ["First"]

    reads: list[tuple[str, list[str] | None]] = []
    feed_page, posted_since = built.feed.items.feed_page, built.feed.items.posted_since

    async def recording_page(group_id, **conditions):
        reads.append(("feed_page", conditions["tags"]))
        return await feed_page(group_id, **conditions)

    async def recording_since(group_id, since, limit):
        reads.append(("posted_since", None))
        return await posted_since(group_id, since, limit)

    monkeypatch.setattr(built.feed.items, "feed_page", recording_page)
    monkeypatch.setattr(built.feed.items, "posted_since", recording_since)
    await built.items.create(caller, group_id, ItemInput(title="Second", tags=("Help",)))
    assert await titles() == ["Second", "First"]
    assert await titles("Jobs") == ["First"]
    assert await titles("Help") == ["Second"]
    # The writer looked for new posts once; of the readers only the one of a filter nobody
    # had read before went to MongoDB.
    assert reads == [("posted_since", None), ("feed_page", ["Help"])]


@pytest.fixture
async def cache(redis_url):
    redis = Redis.from_url(redis_url, decode_responses=True)
    yield FeedCache(redis, Keys(f"test:{uuid.uuid4().hex[:12]}:"))
    await redis.aclose()


def _posts(*keys: str) -> list[dict]:
    return [{"_id": key, "feed_key": key} for key in keys]


async def test_a_head_is_kept_only_if_no_write_came_after_its_reader_read_the_version(cache):
    head, version = await cache.head("g", "[]")
    assert head is None
    await cache.forget_heads("g")  # a post while the reader was asking MongoDB
    assert not await cache.keep_head("g", "[]", version, _posts("1"), since=100)
    assert (await cache.head("g", "[]"))[0] is None

    _, version = await cache.head("g", "[]")
    assert await cache.keep_head("g", "[]", version, _posts("2", "1"), since=200)
    assert json.loads((await cache.head("g", "[]"))[0]) == _posts("2", "1")


async def test_a_writer_replaces_the_heads_it_read_and_drops_heads_added_meanwhile(cache):
    _, version = await cache.head("g", "[]")
    await cache.keep_head("g", "[]", version, _posts("1"), since=100)
    read = await cache.heads("g")
    assert (read.since, read.posts) == (100, {"[]": _posts("1")})
    # A reader adds a head after the writer read them: it may lack the writer's post.
    assert await cache.keep_head("g", '["Jobs"]', read.version, _posts("1"), since=150)

    assert await cache.replace_heads("g", read.version, {"[]": _posts("2", "1")}, since=300)
    after = await cache.heads("g")
    assert (after.since, after.posts) == (300, {"[]": _posts("2", "1")})
    # A second writer that read the same version must read the heads again.
    assert not await cache.replace_heads("g", read.version, {"[]": _posts("3")}, since=400)
    assert (await cache.heads("g")).posts == {"[]": _posts("2", "1")}


async def test_edits_drop_every_head_and_a_group_keeps_at_most_heads_max(cache):
    _, version = await cache.head("g", "[]")
    for n in range(HEADS_MAX):
        assert await cache.keep_head("g", f'["t{n}"]', version, _posts("1"), since=100)
    assert not await cache.keep_head("g", '["one more"]', version, _posts("1"), since=100)
    assert await cache.keep_head("g", '["t0"]', version, _posts("2"), since=100)
    await cache.changed("g")
    assert (await cache.heads("g")).posts == {}
