"""A group's feed: newest posts first, searched and filtered, paged by keyset cursors."""

import json
from typing import Any

from agora.core.constants import FEED_PAGE_SIZE
from agora.core.errors import InvalidInput
from agora.core.groups import clean_tags, group_view, membership_view
from agora.core.items import decode_cursor, encode_cursor, item_view, search_words
from agora.services.accounts import Session
from agora.services.groups import GroupService
from agora.store.feed_cache import FeedCache
from agora.store.items import ItemStore

SELECT_CITY = "Please select your city"


class FeedService:
    def __init__(self, groups: GroupService, items: ItemStore, cache: FeedCache) -> None:
        self.groups = groups
        self.items = items
        self.cache = cache

    async def feed(
        self,
        session: Session | None,
        *,
        group_id: str | None,
        search_text: str,
        tags: list[str],
        cursor: str | None,
    ) -> dict[str, Any]:
        if not group_id:
            # No outside geo-IP service is used; the visitor picks a city instead.
            raise InvalidInput({"select_city": SELECT_CITY})
        group, membership = await self.groups.readable(group_id, session)
        words = search_words(search_text)
        wanted = clean_tags(tags)
        before = decode_cursor(cursor) if cursor else None
        page = await self._page(group_id, words, wanted, before)
        logged_in = session is not None
        return {
            "items": [item_view(item, logged_in=logged_in) for item in page["items"]],
            "group": group_view(group, membership),
            "group_member": membership_view(membership),
            "next_cursor": page["next_cursor"],
            "has_more": page["has_more"],
        }

    async def _page(
        self, group_id: str, words: list[str], tags: list[str], before: str | None
    ) -> dict[str, Any]:
        async def compute() -> dict[str, Any]:
            query: dict[str, Any] = {"group_id": group_id}
            if words:
                # Quoted terms: every word must appear (MongoDB ORs unquoted terms).
                query["$text"] = {"$search": " ".join(f'"{w}"' for w in words)}
            if tags:
                query["tags"] = {"$all": tags}
            found = await self.items.page(query, before, FEED_PAGE_SIZE + 1)
            page_items = found[:FEED_PAGE_SIZE]
            has_more = len(found) > FEED_PAGE_SIZE
            return {
                "items": page_items,
                "next_cursor": encode_cursor(page_items[-1]["feed_key"]) if has_more else None,
                "has_more": has_more,
            }

        query_key = json.dumps([words, tags, before])
        return await self.cache.page(group_id, query_key, before is None, compute)
