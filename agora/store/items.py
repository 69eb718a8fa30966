"""Posts and their share routes. Chats and offers look a post up on every call: edges keep
copies, and every change to a post is announced (`store/announced_copies.py`)."""

import asyncio
import secrets
from collections.abc import AsyncIterator
from typing import Any

from pymongo import ReturnDocument
from pymongo.asynchronous.collection import AsyncCollection
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError
from redis.asyncio import Redis

from agora.core.documents import Item, Route
from agora.core.items import ITEM_HIDDEN_SORT_ORDER, feed_key
from agora.core.routes import chain
from agora.store.announced_copies import AnnouncedCopies
from agora.store.local_copies import LocalCopies
from agora.store.mongo import Indexes, new_id
from agora.store.reads_together import find_in
from agora.store.redis import Keys
from agora.store.unit_of_work import InUnit

ROUTE_ID_BYTES = 9
# The post's copy of its held reward (`set_hold`): absent on posts that never held one.
HOLD_COPY_FIELDS = ("reward_ledger", "holding")
# A share route never changes once stored, so its copy needs no announcement: it is kept ten
# minutes (a post's page is opened through the same few links), or until the table is full.
# Its one deletion, `ItemStore.discard`, goes with its post's, and every reader of a route
# reads its post next, so a copy of a discarded route reads as a missing one.
ROUTE_COPY_SECONDS = 600.0


def new_route_id() -> str:
    """Route ids end up in shared links: short, and not guessable from one another."""
    return secrets.token_urlsafe(ROUTE_ID_BYTES)


def root_route(item_id: str, owner_id: str, created_at: int) -> Route:
    """The poster's own route, where every chain of shares starts."""
    return {
        "_id": new_route_id(),
        "item_id": item_id,
        "user_id": owner_id,
        "prev_user_ids": [],
        "parent_route_id": None,
        "created_at": created_at,
    }


def extended_route(parent: Route, user_id: str, created_at: int) -> Route:
    """The sharer's own route, continuing the chain they arrived through."""
    return {
        "_id": new_route_id(),
        "item_id": parent["item_id"],
        "user_id": user_id,
        "prev_user_ids": chain(parent),
        "parent_route_id": parent["_id"],
        "created_at": created_at,
    }


def new_item(fields: dict[str, Any], root: Route, group_id: str) -> Item:
    """A visible post from its checked fields, shared by its owner through `root`."""
    item_id, created_at = root["item_id"], root["created_at"]
    return {
        "_id": item_id,
        **fields,
        "user_id": root["user_id"],
        "group_id": group_id,
        "route_id": root["_id"],
        "created_at": created_at,
        "updated_at": created_at,
        "sort_order": 0,
        "feed_key": feed_key(created_at, item_id),
    }


def _visible(conditions: dict[str, Any]) -> dict[str, Any]:
    return {**conditions, "sort_order": {"$ne": ITEM_HIDDEN_SORT_ORDER}}


class HoldCopies(InUnit):
    """Posts' copies of their held rewards, written in the unit of work of the money move
    whose ledger entry they copy (`store/money.py`)."""

    def __init__(self, items: AsyncCollection, copies: AnnouncedCopies[dict[str, Any]]) -> None:
        self.items = items
        self._copies = copies

    async def set(
        self, item_id: str, currency: str, seq: int, hold: dict[str, Any], holding: bool
    ) -> bool:
        """The post's copy of its hold in its poster's wallet of `currency`, as entry `seq`
        of that wallet left it: never replaced by an older one. False when it was newer."""
        field = f"reward_ledger.{currency}"
        # `$and`, not `_id` beside `$or`: nx-27017 then writes to the first document the `$or`
        # matches, whatever its `_id` (reads are right; docs/decisions.md).
        newer = {"$or": [{f"{field}.seq": {"$lt": seq}}, {field: None}]}
        written = await self.items.update_one(
            {"$and": [{"_id": item_id}, newer]},
            {"$set": {field: {"seq": seq, "hold": hold}, "holding": holding}},
            session=self.session,
        )
        if not written.matched_count:
            return False
        await self.unit.after_commit(lambda: self._copies.announce(item_id))
        return True


class ItemStore:
    def __init__(self, db: AsyncDatabase, redis: Redis, keys: Keys) -> None:
        self.items = db["items"]
        self.routes = db["routes"]
        self._copies: AnnouncedCopies[dict[str, Any]] = AnnouncedCopies(
            "post",
            redis,
            keys("posts-changed"),
            keep_missing=False,
        )
        self.holds = HoldCopies(self.items, self._copies)
        self._routes: LocalCopies[Route] = LocalCopies(
            "share route",
            fresh_for=ROUTE_COPY_SECONDS,
            refresh_after=ROUTE_COPY_SECONDS,
            keep_missing=False,
        )

    async def ensure_indexes(self, indexes: Indexes) -> None:
        await indexes.ensure(self.items, [("group_id", 1), ("feed_key", -1)])
        await indexes.ensure(self.items, [("user_id", 1), ("feed_key", -1)])
        await indexes.ensure(self.items, [("search_text", "text")])
        # The expiry sweep: posts past their time, and closed ones still holding.
        await indexes.ensure(self.items, [("expires_at", 1)])
        await indexes.ensure(self.items, [("closed_at", 1), ("holding", 1)])
        await indexes.ensure(self.routes, [("item_id", 1), ("user_id", 1)], unique=True)

    async def create(
        self, fields: dict[str, Any], *, user_id: str, group_id: str, created_at: int
    ) -> tuple[Item, Route]:
        """Stores a new post of `user_id` in the group, with its root share route."""
        root = root_route(new_id(), user_id, created_at)
        item = new_item(fields, root, group_id)
        await self.routes.insert_one(root)
        await self.items.insert_one(item)
        return item, root

    async def discard(self, item: Item) -> None:
        """Removes a post stored a moment ago that nobody was shown (its reward could not be
        held), with its root route."""
        await self.items.delete_one({"_id": item["_id"]})
        await self.routes.delete_one({"_id": item["route_id"]})
        await self._copies.announce(item["_id"])

    async def get(self, item_id: str) -> Item | None:
        return await self._copies.get(item_id, lambda: self.items.find_one({"_id": item_id}))

    async def get_many(self, item_ids: list[str]) -> list[Item]:
        """`get` for many: those found, from this edge's copies where it has them, the others
        in one query."""
        found = await self._copies.get_many(item_ids, self._read_many)
        return list(found.values())

    async def _read_many(self, item_ids: list[str]) -> dict[str, Item]:
        return {item["_id"]: item for item in await self.by_ids(item_ids)}

    def changes(self, stop: asyncio.Event) -> AsyncIterator[str]:
        """Ids of posts changed on any edge; heard, they keep this edge's copies true."""
        return self._copies.changes(stop)

    async def hide(self, item_id: str, owner_id: str, now: int) -> Item | None:
        """Takes a visible post of this owner out of every list (it stays stored)."""
        return await self.update(
            item_id, owner_id, {"sort_order": ITEM_HIDDEN_SORT_ORDER, "updated_at": now}
        )

    async def close(self, item_id: str, now: int, reason: str) -> Item | None:
        """Closes an open post (visible or just hidden); None when it was closed already."""
        return await self._changed(
            {"_id": item_id, "closed_at": None},
            {"$set": {"closed_at": now, "closed_reason": reason, "updated_at": now}},
        )

    async def due_to_close(self, now: int, closed_before: int, limit: int) -> list[Item]:
        """Open posts past their expiry, and closed ones still holding a reward since before
        `closed_before` (an edge died between closing and giving it back)."""
        # Two queries, each led by a field only a few posts match, rather than one `$or`:
        # nx-27017 answers an `$or` by reading every post (55 ms among 1,500, every other
        # command waiting meanwhile, once a minute on every edge), and each of these from
        # its index.
        past_expiry = {"expires_at": {"$lt": now}, "closed_at": None}
        still_holding = {"closed_at": {"$lt": closed_before}, "holding": True}
        found = await self.items.find(past_expiry).limit(limit).to_list()
        if len(found) < limit:
            found += await self.items.find(still_holding).limit(limit - len(found)).to_list()
        return found

    async def reward_ledgers(self, user_id: str) -> list[dict[str, Any]]:
        """The hold copies of every post of the user, hidden ones included, with their group."""
        query = {"user_id": user_id, "reward_ledger": {"$exists": True}}
        return await self.items.find(query, {"reward_ledger": 1, "group_id": 1}).to_list()

    async def claim_reward_revision(self, item_id: str, owner_id: str) -> Item | None:
        """The next revision of the reward of an open, visible post of this owner, claimed for
        one edit (`reward_rev`, 0 when posted); the post as it is with it, or None when there
        is no such post. No two edits claim the same revision, on any edge."""
        return await self._changed(
            _visible({"_id": item_id, "user_id": owner_id, "closed_at": None}),
            {"$inc": {"reward_rev": 1}},
        )

    async def update(
        self, item_id: str, owner_id: str, fields: dict[str, Any], *, reward_rev: int | None = None
    ) -> Item | None:
        """Changes a visible post of this owner (if `reward_rev` is given, only while that is
        still the latest revision claimed of its reward); None when there is no such post."""
        conditions: dict[str, Any] = {"_id": item_id, "user_id": owner_id}
        if reward_rev is not None:
            conditions["reward_rev"] = reward_rev
        return await self._changed(_visible(conditions), {"$set": fields})

    async def _changed(self, conditions: dict[str, Any], change: dict[str, Any]) -> Item | None:
        """The post matching `conditions` as `change` left it, announced to every edge (their
        copies of it go); None when no post matched."""
        changed = await self.items.find_one_and_update(
            conditions, change, return_document=ReturnDocument.AFTER
        )
        if changed is not None:
            await self._copies.announce(changed["_id"])
        return changed

    async def feed_page(
        self,
        group_id: str,
        *,
        words: list[str],
        tags: list[str],
        before_key: str | None,
        limit: int,
    ) -> list[Item]:
        """The group's visible posts holding every word and every tag, newest first,
        strictly after the cursor key."""
        query: dict[str, Any] = {"group_id": group_id}
        if words:
            # Quoted terms: every word must appear (MongoDB ORs unquoted terms).
            query["$text"] = {"$search": " ".join(f'"{w}"' for w in words)}
        if tags:
            query["tags"] = {"$all": tags}
        return await self._newest(query, before_key, limit)

    async def posted_since(self, group_id: str, since: int, limit: int) -> list[Item]:
        """The group's visible posts stamped at `since` or later, newest first."""
        recent = {"group_id": group_id, "created_at": {"$gte": since}}
        return await self._newest(recent, None, limit)

    async def posted_by(self, user_id: str, limit: int) -> list[Item]:
        """The user's visible posts, newest first."""
        return await self._newest({"user_id": user_id}, None, limit)

    async def _newest(
        self, query: dict[str, Any], before_key: str | None, limit: int
    ) -> list[Item]:
        conditions = _visible(query)
        if before_key is not None:
            conditions["feed_key"] = {"$lt": before_key}
        return await self.items.find(conditions).sort("feed_key", -1).limit(limit).to_list()

    async def by_ids(self, item_ids: list[str]) -> list[Item]:
        return await find_in(self.items, "_id", item_ids)

    async def route(self, route_id: str) -> Route | None:
        """The route, from this process's copy when it has one (`ROUTE_COPY_SECONDS`)."""
        return await self._routes.get(route_id, lambda: self.routes.find_one({"_id": route_id}))

    async def route_of(self, item_id: str, user_id: str) -> Route | None:
        return await self.routes.find_one({"item_id": item_id, "user_id": user_id})

    async def share_route(self, parent: Route, user_id: str, created_at: int) -> tuple[Route, bool]:
        """The user's own route for the post, continuing `parent`'s chain unless they have
        one already (then theirs, unchanged), and whether it was stored now.

        The post's `share_count` (the badges' count) is moved before the route is stored and
        back if it was not: it is never below the number of the post's shared routes, which
        tells a reader of the post that the routes it knows are all there are
        (`core.routes.own_chain_told`). A process dying in between leaves it one too high."""
        route = extended_route(parent, user_id, created_at)
        item = {"_id": route["item_id"]}
        await self.items.update_one(item, {"$inc": {"share_count": 1}})
        try:
            await self.routes.insert_one(route)
        except DuplicateKeyError:
            await self.items.update_one(item, {"$inc": {"share_count": -1}})
            existing = await self.route_of(parent["item_id"], user_id)
            if existing is None:
                raise
            return existing, False
        self._routes.put(route["_id"], route)
        await self._copies.announce(route["item_id"])
        return route, True
