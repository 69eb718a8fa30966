"""Posts: create, edit, hide, read; share routes that record who passed a post on."""

from dataclasses import dataclass
from typing import Any, Protocol

from agora.core.accounts import user_card
from agora.core.clock import now_ms
from agora.core.documents import ChatSession, Item, Route
from agora.core.errors import Conflict, Forbidden, InvalidInput, NotFound, PaymentRequired
from agora.core.finder_fees import FINDER_FEE_PERCENT_DEFAULT, share_earnings
from agora.core.groups import NOT_VIEWABLE, can_write, group_view, joining_type
from agora.core.items import (
    POST_CLOSED,
    POST_DELETED,
    POST_EXPIRED,
    build_draft,
    can_read_post,
    check_post_files,
    is_visible,
    item_view,
)
from agora.core.routes import SHARED_ROUTES, chain, own_chain_told, route_view
from agora.services.accounts import Caller
from agora.services.creation_limits import CreationLimit
from agora.services.events import Events, PostAdded, PostHidden
from agora.services.groups import GroupService
from agora.services.rewards import RewardHolds
from agora.store.feed_cache import FeedCache
from agora.store.groups import GroupStore
from agora.store.items import ItemStore
from agora.store.users import UserStore

ITEM_NOT_FOUND = "This post does not exist or was deleted"
NOT_THIS_POSTS_LINK = "This link is not one of this post's"
MY_ITEMS_LIMIT = 100
POST_IS_CLOSED = "This post is closed"
CHANGED_MEANWHILE = "This post was changed meanwhile: open it again to edit it"
# Posts the expiry sweep closes at a time; the next round takes the rest.
EXPIRY_BATCH = 100
# A closed post still holding this long after it closed: the edge closing it died (or an
# edit's raise landed after the release), and the sweep gives the hold back.
CLOSED_HOLD_GRACE_MS = 60_000


class StoredFiles(Protocol):
    """The user's stored uploads as media items: for a message, and for a post (which keeps
    them)."""

    async def stored_files(self, user_id: str, urls: list[str]) -> list[dict[str, Any]]: ...

    async def post_files(self, user_id: str, urls: list[str]) -> list[dict[str, Any]]: ...


@dataclass(frozen=True)
class ItemInput:
    title: str
    description: str = ""
    files: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    offer_amount: float | int | str | None = None
    offer_currency: str | None = None
    offer_description: str = ""
    need_user_to_view: bool = False
    finder_fee_percent: int = FINDER_FEE_PERCENT_DEFAULT


class PostReader:
    """Posts as one viewer may read them (`core.items.can_read_post`): the one gate of every
    path that shows a post or opens a chat about it (the post itself, its share links, the
    lookups by id, its chats), so none can show what another refuses."""

    def __init__(self, items: ItemStore, groups: GroupService) -> None:
        self.items = items
        self.groups = groups

    async def readable(
        self,
        caller: Caller | None,
        item_id: str,
        *,
        group_id: str | None = None,
        field: str = "item_id",
    ) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any] | None]:
        """The post, its group and the viewer's membership; NotFound (naming `field`) for a
        missing or hidden post, and for one in a group the viewer may not read and holds no
        membership of (ids cannot be probed); the spec's not-viewable error for a member who
        may not read the group (awaiting approval, blocked)."""
        item = await self.items.get(item_id)
        if item is not None and is_visible(item) and group_id in (None, item["group_id"]):
            group, membership = await self.groups.found(item["group_id"], caller)
            if can_read_post(item, group, membership):
                return item, group, membership
            if membership is not None:
                raise Forbidden({"invalid_group": NOT_VIEWABLE})
        raise NotFound({field: ITEM_NOT_FOUND})

    async def readable_many(
        self, caller: Caller | None, item_ids: list[str], *, fresh: bool = False
    ) -> list[dict[str, Any]]:
        """Those of the posts the viewer may read; the others are left out. Groups and
        memberships come from this edge's copies unless `fresh`."""
        found = await self.items.by_ids(item_ids)
        group_ids = [item["group_id"] for item in found]
        groups = await self.groups.found_many(group_ids, caller, fresh=fresh)
        return [item for item in found if can_read_post(item, *groups[item["group_id"]])]

    async def check_route(self, item: Item, route_id: str) -> None:
        """A share route someone says they arrived through must be one of this post's: its
        chain earns the finder's fees of the chat it begins."""
        route = await self.items.route(route_id)
        if route is None or route["item_id"] != item["_id"]:
            raise InvalidInput({"route_id": NOT_THIS_POSTS_LINK})

    async def deleted(self, item_ids: list[str]) -> set[str]:
        """Those of the posts that were deleted: the chats about them stay and say so. Asked
        on every chat call about posts (a page, the list, a lookup): the edge's copies say."""
        shown = {item["_id"] for item in await self.items.get_many(item_ids) if is_visible(item)}
        return set(item_ids) - shown


POSTS_LIMITED = "You have posted a lot lately, please try again later"


class ItemService:
    def __init__(
        self,
        *,
        base_url: str,
        items: ItemStore,
        posts: PostReader,
        groups: GroupService,
        group_store: GroupStore,
        users: UserStore,
        feed_cache: FeedCache,
        uploads: StoredFiles,
        events: Events,
        creations: CreationLimit,
        rewards: RewardHolds,
        expiry_ms: int,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        # A post's reward is held while it is open (issue 32); it is open `expiry_ms`.
        self.rewards = rewards
        self.expiry_ms = expiry_ms
        self.creations = creations
        self.items = items
        self.posts = posts
        self.groups = groups
        self.group_store = group_store
        self.users = users
        self.feed_cache = feed_cache
        self.uploads = uploads
        # The feed listens for new posts to bring its cached first pages up to date.
        self.events = events

    async def _draft(self, caller: Caller, group: ChatSession, data: ItemInput):
        draft = build_draft(
            title=data.title,
            description=data.description,
            tags=list(data.tags),
            group_tags=list((group.get("data") or {}).get("tags", [])),
            offer_amount=data.offer_amount,
            offer_currency=data.offer_currency,
            offer_description=data.offer_description,
            need_user_to_view=data.need_user_to_view,
            finder_fee_percent=data.finder_fee_percent,
        )
        files = await self.uploads.post_files(caller.user["_id"], list(data.files))
        check_post_files(files)
        return {**draft.fields(), "files": files}

    async def create(self, caller: Caller, group_id: str, data: ItemInput) -> dict[str, Any]:
        user_id = caller.user["_id"]
        group, membership = await self.groups.readable(group_id, caller)
        if not can_write(group, membership):
            raise Forbidden("You cannot post in this group")
        fields = await self._draft(caller, group, data)
        await self.rewards.check_available(user_id, fields)
        # Counted once the post is valid: a form sent back for a fix costs no attempt.
        await self.creations.count(user_id)
        if membership is None:
            await self.groups.add_member(group_id, user_id, joining_type(group))
        now = now_ms()
        fields["expires_at"] = now + self.expiry_ms
        item, root = await self.items.create(
            fields, user_id=user_id, group_id=group_id, created_at=now
        )
        try:
            await self.rewards.hold(item, fields, first=True)
        except PaymentRequired:
            # Spent meanwhile: the post nobody saw yet goes, as if refused before storing.
            await self.items.discard(item)
            raise
        item = await self.items.get(item["_id"]) or item
        await self.group_store.count_posts(group_id, 1)
        await self.events.publish(PostAdded(group_id, item["_id"]))
        return {"item": self._view(item, root)}

    async def _owned(self, caller: Caller, item_id: str) -> dict[str, Any]:
        item = await self.items.get(item_id)
        if item is None or not is_visible(item):
            raise NotFound({"item_id": ITEM_NOT_FOUND})
        if item["user_id"] != caller.user["_id"]:
            # One who may not read the post is told it does not exist.
            await self.posts.readable(caller, item_id)
            raise Forbidden("Only the person who posted this can change it")
        return item

    async def update(self, caller: Caller, item_id: str, data: ItemInput) -> dict[str, Any]:
        item = await self._owned(caller, item_id)
        if item.get("closed_at"):
            raise InvalidInput({"item_id": POST_IS_CLOSED})
        group, _ = await self.groups.found(item["group_id"], caller)
        fields = {**await self._draft(caller, group, data), "updated_at": now_ms()}
        # The edit claims the next revision of the post's reward (issue 41: edits at once,
        # each holding in another currency, held in all of them): it holds by the post as
        # stored with that claim, and writes the post only while no later edit claimed one.
        claimed = await self.items.claim_reward_revision(item_id, caller.user["_id"])
        if claimed is None:
            raise await self._not_editable(item_id)
        rev = claimed["reward_rev"]
        moved = await self.rewards.hold(claimed, fields, first=False, rev=rev)
        updated = await self.items.update(item_id, caller.user["_id"], fields, reward_rev=rev)
        # Closed (or deleted) meanwhile? A close writes `closed_at` before it gives the hold
        # back, so either that release came after this edit's hold, or this edit sees the
        # post closed here and gives back what it held itself.
        current = updated or await self._fresh(item_id)
        if current is not None and current.get("closed_at"):
            await self.rewards.release(current, current.get("closed_reason") or POST_CLOSED)
        if updated is None:
            if current is None or not is_visible(current):
                raise NotFound({"item_id": ITEM_NOT_FOUND})
            # A later edit claimed a revision: it stands, and what this one moved goes back
            # to what the post as written asks.
            await self.rewards.restore(current, moved, rev)
            raise Conflict({"item_id": CHANGED_MEANWHILE})
        await self.feed_cache.changed(item["group_id"])
        return {"item": self._view(await self.items.get(item_id) or updated)}

    async def _fresh(self, item_id: str) -> Item | None:
        return next(iter(await self.items.by_ids([item_id])), None)

    async def _not_editable(self, item_id: str) -> InvalidInput | NotFound:
        """Why an edit found no open post to claim a revision of: closed or gone."""
        current = await self._fresh(item_id)
        if current is not None and is_visible(current) and current.get("closed_at"):
            return InvalidInput({"item_id": POST_IS_CLOSED})
        return NotFound({"item_id": ITEM_NOT_FOUND})

    async def delete(self, caller: Caller, item_id: str) -> dict[str, Any]:
        item = await self._owned(caller, item_id)
        now = now_ms()
        updated = await self.items.hide(item_id, caller.user["_id"], now)
        if updated is None:
            raise NotFound({"item_id": ITEM_NOT_FOUND})
        updated = await self._close(updated, now, POST_DELETED) or updated
        await self.group_store.count_posts(item["group_id"], -1)
        await self.feed_cache.changed(item["group_id"])
        await self.events.publish(PostHidden(item["group_id"], item_id))
        return {"item": self._view(updated)}

    async def close(self, caller: Caller, item_id: str) -> dict[str, Any]:
        """The owner closes the post: it stays readable, its held reward comes back."""
        item = await self._owned(caller, item_id)
        closed = await self._close(item, now_ms(), POST_CLOSED)
        if closed is not None:
            await self.feed_cache.changed(item["group_id"])
        return {"item": self._view(await self.items.get(item_id) or closed or item)}

    async def _close(self, item: Item, now: int, reason: str) -> Item | None:
        """Closes an open post and gives back its hold; None when it was closed already."""
        closed = await self.items.close(item["_id"], now, reason)
        if closed is not None:
            await self.rewards.release(closed, reason)
        return closed

    async def expire_due(self) -> int:
        """Closes the posts past their expiry, and gives back what closed posts still hold
        (a close an edge died in the middle of); safe on every edge at once, as a post is
        closed once and a hold given back once. Returns how many posts it looked at."""
        now = now_ms()
        due = await self.items.due_to_close(now, now - CLOSED_HOLD_GRACE_MS, EXPIRY_BATCH)
        for item in due:
            if item.get("closed_at") is None:
                if await self._close(item, now, POST_EXPIRED) is not None:
                    await self.feed_cache.changed(item["group_id"])
            else:
                await self.rewards.release(item, item.get("closed_reason") or POST_CLOSED)
        return len(due)

    async def hold_preview(
        self,
        caller: Caller,
        *,
        item_id: str | None,
        offer_amount: float | int | str | None,
        offer_currency: str | None,
        finder_fee_percent: object,
    ) -> dict[str, Any]:
        """What the post form's reward would hold (for an edit, of the caller's post)."""
        item = await self._owned(caller, item_id) if item_id else None
        return await self.rewards.preview(
            caller.user["_id"], item, offer_amount, offer_currency, finder_fee_percent
        )

    async def get(
        self, caller: Caller | None, item_id: str, group_id: str | None
    ) -> dict[str, Any]:
        item, group, membership = await self.posts.readable(caller, item_id, group_id=group_id)
        return {
            "item": self._view(item, logged_in=caller is not None),
            "group": group_view(group, membership),
        }

    async def mine(self, caller: Caller) -> dict[str, Any]:
        found = await self.items.posted_by(caller.user["_id"], MY_ITEMS_LIMIT)
        return {"items": [self._view(item) for item in found]}

    async def by_route(self, caller: Caller | None, route_id: str) -> dict[str, Any]:
        route = await self._route(route_id)
        item, group, membership = await self.posts.readable(
            caller, route["item_id"], field="route_id"
        )
        people = {u["_id"]: u for u in await self.users.by_ids(chain(route))}
        return {
            "item": self._view(item, route, logged_in=caller is not None),
            "group": group_view(group, membership),
            "route_users": [user_card(people.get(uid)) for uid in chain(route)],
            "share_earnings": await self._share_earnings(caller, item, route),
        }

    async def _share_earnings(
        self, caller: Caller | None, item: Item, route: Route
    ) -> dict[str, Any] | None:
        """What the viewer's own link of the post earns them (`share` gives them that link:
        theirs if they have one, else one continuing the route they came by). Their route is
        read only when the post, the route they came by and their count of routes shared do
        not tell it (`own_chain_told`): it was a read on every opening of a post, 1.8 a second
        at 300 people."""
        if caller is None:
            return None
        viewer = caller.user["_id"]
        told = own_chain_told(item, route, viewer, caller.user.get(SHARED_ROUTES))
        if told is None:
            own = await self.items.route_of(item["_id"], viewer)
            told = chain(own) if own else [*chain(route), viewer]
        return share_earnings(item, told)

    async def share(self, caller: Caller, route_id: str) -> dict[str, Any]:
        """The sharer's own link: the same one every time, extending the chain they came by."""
        route = await self._route(route_id)
        item, _, _ = await self.posts.readable(caller, route["item_id"], field="route_id")
        user_id = caller.user["_id"]
        own = await self.items.route_of(item["_id"], user_id)
        if own is None:
            # Counted before the route is stored and back if it was not, so that a reader
            # counted at none has no route (`own_chain_told`); a process dying in between
            # leaves the count one too high, which only makes their routes read.
            await self.users.count_shared_routes(user_id, 1)
            # The post's cards show its count from the post's copies (`FeedService.feed`),
            # which the route's storing announces.
            own, stored_now = await self.items.share_route(route, user_id, now_ms())
            if not stored_now:
                await self.users.count_shared_routes(user_id, -1)
        return {"url": f"{self.base_url}/r/{own['_id']}", "route_id": own["_id"]}

    async def _route(self, route_id: str) -> dict[str, Any]:
        route = await self.items.route(route_id)
        if route is None:
            raise NotFound({"route_id": ITEM_NOT_FOUND})
        return route

    def _view(
        self,
        item: Item,
        route: Route | None = None,
        *,
        logged_in: bool = True,
    ) -> dict[str, Any]:
        view = item_view(item, logged_in=logged_in)
        if route is not None:
            view["route"] = route_view(route)
        return view
