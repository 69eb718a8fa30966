"""A group's feed: newest posts first, searched and filtered, paged by keyset cursors.

The first page of the plain feed and of tag filters comes from heads kept in Redis and
brought up to date after every new post (on `PostAdded`; see `store/feed_cache.py`): on a
MongoDB-wire server without index use, computing one costs tens of milliseconds, and readers
would otherwise wait for that after every post.
"""

import json
import logging
from typing import Any

from cachetools import LRUCache

from agora.core import json_text
from agora.core.clock import now_ms
from agora.core.documents import Item
from agora.core.errors import InvalidInput
from agora.core.groups import clean_tags, group_view, membership_view
from agora.core.items import FEED_PAGE_SIZE, decode_cursor, encode_cursor, item_view, search_words
from agora.services.accounts import Caller
from agora.services.groups import GroupService
from agora.store.feed_cache import FeedCache
from agora.store.items import ItemStore

log = logging.getLogger("agora.feed")

SELECT_CITY = "Please select your city"
# A head holds a page and one more post, which tells whether there is a next page.
HEAD_SIZE = FEED_PAGE_SIZE + 1
# Posts are stamped by their edge's clock just before they are stored; a writer looks for new
# posts this far before the heads' `since`, covering clock differences between edges and the
# time between stamping and storing.
CLOCK_SKEW_MS = 10_000
# As many new posts as this since the heads were read: drop them instead (readers rebuild).
NEWER_MAX = 500
HEAD_UPDATE_TRIES = 3
# Pages kept rendered on an edge, the ones read last (a head of 21 posts renders to about
# 20 kB of views).
RENDERED_PAGES_MAX = 64


def matches_tags(post: Item, tags: list[str]) -> bool:
    """The tag filter as MongoDB's `$all` applies it: every chosen tag is on the post."""
    return all(tag in post.get("tags", []) for tag in tags)


def merged_head(head: list[Item], newer: list[Item], tags: list[str]) -> list[Item]:
    """The head of a filter with the newer posts that match it, newest first, deduplicated.

    `head` held the newest posts of the filter when it was read and `newer` holds every post
    made since, so the newest HEAD_SIZE of both are the newest of the filter now.
    """
    by_key = {post["feed_key"]: post for post in head}
    by_key.update({post["feed_key"]: post for post in newer if matches_tags(post, tags)})
    return sorted(by_key.values(), key=lambda post: post["feed_key"], reverse=True)[:HEAD_SIZE]


def page_of(found: list[Item]) -> dict[str, Any]:
    """A page from up to HEAD_SIZE posts: the extra one only says that more follow."""
    items = found[:FEED_PAGE_SIZE]
    has_more = len(found) > FEED_PAGE_SIZE
    return {
        "items": items,
        "next_cursor": encode_cursor(items[-1]["feed_key"]) if has_more else None,
        "has_more": has_more,
    }


class RenderedPages:
    """Pages as their readers get them, by their posts' cached JSON text and whether the
    reader is signed in: every reader of a group's feed is served the same text until a write
    changes it, so a page is parsed and rendered once per change on an edge, not per reader
    (a function of the text alone: never stale)."""

    def __init__(self, max_pages: int = RENDERED_PAGES_MAX) -> None:
        self.max_pages = max_pages
        self._pages: LRUCache[tuple[str, bool], dict[str, Any]] = LRUCache(maxsize=max_pages)

    def page(self, posts_text: str, *, logged_in: bool) -> dict[str, Any]:
        key = (posts_text, logged_in)
        page = self._pages.get(key)
        if page is None:
            page = page_of(json_text.loads(posts_text))
            page["items"] = [item_view(item, logged_in=logged_in) for item in page["items"]]
            self._pages[key] = page
        return page


class FeedService:
    def __init__(self, groups: GroupService, items: ItemStore, cache: FeedCache) -> None:
        self.groups = groups
        self.items = items
        self.cache = cache
        self._rendered = RenderedPages()

    async def feed(
        self,
        caller: Caller | None,
        *,
        group_id: str | None,
        search_text: str,
        tags: list[str],
        cursor: str | None,
    ) -> dict[str, Any]:
        if not group_id:
            # No outside geo-IP service is used; the visitor picks a city instead.
            raise InvalidInput({"select_city": SELECT_CITY})
        group, membership = await self.groups.readable(group_id, caller)
        words = search_words(search_text)
        wanted = clean_tags(tags)
        before = decode_cursor(cursor) if cursor else None
        posts_text = await self._found(group_id, words, wanted, before)
        page = self._rendered.page(posts_text, logged_in=caller is not None)
        return {
            "items": await self._shares_counted(page["items"]),
            "group": group_view(group, membership),
            "group_member": membership_view(membership, group),
            "next_cursor": page["next_cursor"],
            "has_more": page["has_more"],
        }

    async def _found(
        self, group_id: str, words: list[str], tags: list[str], before: str | None
    ) -> str:
        """Up to HEAD_SIZE posts of the page that starts after `before`, as JSON text."""
        # Searches stay out of the heads: a text search is quick even without index use, and
        # deciding whether a new post matches one would take a query per search.
        if before is None and not words:
            return await self._head(group_id, tags)
        return await self.cache.page(
            group_id,
            json.dumps([words, tags, before]),
            before is None,
            lambda: self.items.feed_page(
                group_id, words=words, tags=tags, before_key=before, limit=HEAD_SIZE
            ),
        )

    async def _head(self, group_id: str, tags: list[str]) -> str:
        filter_key = json.dumps(tags)
        head, version = await self.cache.head(group_id, filter_key)
        if head is not None:
            return head

        async def compute() -> list[Item]:
            since = now_ms()
            found = await self.items.feed_page(
                group_id, words=[], tags=tags, before_key=None, limit=HEAD_SIZE
            )
            # Kept unless a post came in meanwhile or the group has enough heads; either way
            # the page cache below keeps it until the next write.
            await self.cache.keep_head(group_id, filter_key, version, found, since)
            return found

        return await self.cache.page(group_id, json.dumps([[], tags, None]), True, compute)

    async def _shares_counted(self, cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The cards, each with its post's share count as this edge's copy of the post has it
        when that is further. A share moves only that count, and the pages are not computed
        again for it (a share invalidated every page of its group: most of the feed's reads
        of the store, 1.7 a second at 300 people); every share announces its post
        (`ItemStore.share_route`), and counts only grow, so the larger of the page's and the
        copy's is the count as the edge last heard of it. A card that shows no count (a
        visitor's of a post that needs a login) gets none."""
        posts = await self.items.get_many([card["_id"] for card in cards])
        counts = {post["_id"]: post.get("share_count", 0) for post in posts}
        return [
            {**card, "share_count": counts[card["_id"]]}
            if "share_count" in card and counts.get(card["_id"], 0) > card["share_count"]
            else card
            for card in cards
        ]

    async def post_changed(self, group_id: str) -> None:
        """A post's card changed (`OfferPaid`): every cached page of the group is read
        again."""
        await self.cache.changed(group_id)

    async def post_added(self, group_id: str) -> None:
        """Merges the group's new posts into its heads, so that readers need not rebuild them.

        Subscribed to `PostAdded`, on the edge that stored the post. Concurrent writers retry
        on the heads the other one left; if they keep colliding, or anything fails, the heads
        are dropped.
        """
        try:
            for _ in range(HEAD_UPDATE_TRIES):
                if await self._merge_new_posts(group_id):
                    return
        except Exception:
            log.exception("could not bring the feed heads of %s up to date", group_id)
        await self.cache.forget_heads(group_id)

    async def _merge_new_posts(self, group_id: str) -> bool:
        heads = await self.cache.heads(group_id)
        since = now_ms()
        # No heads (or too many new posts to be sure of having them all): nothing is kept.
        merged: dict[str, list[Item]] = {}
        if heads.posts and heads.since is not None:
            since_stamp = heads.since - CLOCK_SKEW_MS
            newer = await self.items.posted_since(group_id, since_stamp, NEWER_MAX)
            if len(newer) < NEWER_MAX:
                merged = {
                    key: merged_head(head, newer, json.loads(key))
                    for key, head in heads.posts.items()
                }
        return await self.cache.replace_heads(group_id, heads.version, merged, since)
