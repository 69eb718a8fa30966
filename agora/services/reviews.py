"""Reviews after a paid offer (issue 32): each side reviews the other once per offer,
changes it for a week; anyone signed in reports one to the post's group's moderators, who
hide it. Profiles show the count and average of the reviews not hidden."""

import logging
import re
from typing import Any

from agora.core.accounts import user_card
from agora.core.chat.access import NO_SUCH_CHAT
from agora.core.chat.constants import USER_TYPE_MODERATOR
from agora.core.chat.item_chats import parse_item_chat_id
from agora.core.clock import now_ms
from agora.core.errors import Conflict, Forbidden, InvalidInput, NotFound
from agora.core.groups import member_type
from agora.core.numbers import bounded_int
from agora.core.reviews import (
    ALREADY_REVIEWED,
    EDIT_WINDOW_OVER,
    NO_SUCH_OFFER,
    NO_SUCH_REVIEW,
    NOT_OF_ONESELF,
    ONLY_AUTHOR,
    ONLY_MODERATORS_HIDE,
    ONLY_MODERATORS_SEE,
    OWN_REVIEW,
    REVIEW_EDIT_MS,
    REVIEWS_PAGE,
    check_rating,
    clean_report_reason,
    clean_review_text,
    is_side,
    offer_sides,
    offer_view,
    other_side,
    people_in,
    review_view,
    summary,
)
from agora.realtime.emitter import RealtimeEmitter
from agora.services.accounts import Caller
from agora.services.groups import GroupService
from agora.services.wallet import WalletService
from agora.store.items import ItemStore
from agora.store.reviews import ReviewStore
from agora.store.users import UserStore

log = logging.getLogger("agora.reviews")

_REVIEW_ID = re.compile(r"[0-9a-f]{24}")


class ReviewService:
    def __init__(
        self,
        *,
        reviews: ReviewStore,
        wallets: WalletService,
        items: ItemStore,
        groups: GroupService,
        users: UserStore,
        emitter: RealtimeEmitter,
    ) -> None:
        self.reviews = reviews
        self.wallets = wallets
        self.items = items
        self.groups = groups
        self.users = users
        # The person reviewed sees it on their open tabs.
        self.emitter = emitter

    # Writing ------------------------------------------------------------------

    async def create(
        self, caller: Caller, move_id: str, rating: object, text: str
    ) -> dict[str, Any]:
        author_id = caller.user["_id"]
        subject_id, move = await self._side_of(author_id, move_id)
        fields = {"rating": check_rating(rating), "text": clean_review_text(text)}
        item = await self.items.get(move["item_id"])
        review = await self.reviews.create(
            {
                "move_id": move_id,
                "item_id": move["item_id"],
                "group_id": item["group_id"] if item else None,
                "author_id": author_id,
                "subject_id": subject_id,
                **fields,
            },
            now_ms(),
        )
        if review is None:
            raise Conflict({"move_id": ALREADY_REVIEWED})
        return {"review": await self._written(review, caller)}

    async def update(
        self, caller: Caller, review_id: str, rating: object, text: str
    ) -> dict[str, Any]:
        review = await self._review(review_id)
        if review["author_id"] != caller.user["_id"]:
            raise Forbidden({"review_id": ONLY_AUTHOR})
        now = now_ms()
        changes = {
            "rating": check_rating(rating),
            "text": clean_review_text(text),
            "updated_at": now,
        }
        changed = await self.reviews.rewrite(
            review_id, caller.user["_id"], now - REVIEW_EDIT_MS, changes
        )
        if changed is None:
            raise InvalidInput({"review_id": EDIT_WINDOW_OVER})
        return {"review": await self._written(changed, caller)}

    async def _written(self, review: dict[str, Any], caller: Caller) -> dict[str, Any]:
        view = review_view(review, {caller.user["_id"]: user_card(caller.user)})
        try:
            await self.emitter.to_user(review["subject_id"], "review", {"review": view})
        except Exception:
            # The review is stored; the open tab that missed it sees it on the next read.
            log.warning("could not announce review %s", review["_id"], exc_info=True)
        return view

    async def report(self, caller: Caller, review_id: str, reason: str) -> dict[str, Any]:
        review = await self._review(review_id)
        if review["author_id"] == caller.user["_id"]:
            raise InvalidInput({"review_id": OWN_REVIEW})
        await self.reviews.report(
            review_id, caller.user["_id"], clean_report_reason(reason), now_ms()
        )
        return {"success": True}

    async def hide(self, caller: Caller, review_id: str, hidden: bool) -> dict[str, Any]:
        review = await self._review(review_id)
        if not await self._moderates(caller, review.get("group_id")):
            raise Forbidden({"review_id": ONLY_MODERATORS_HIDE})
        if review["subject_id"] == caller.user["_id"]:
            # Nobody moderates a review of themselves (issue 41: an admin hid a one-star
            # review of them, and their rating rose).
            raise Forbidden({"review_id": NOT_OF_ONESELF})
        changed = await self.reviews.set_hidden(review_id, hidden, caller.user["_id"], now_ms())
        if changed is None:
            raise NotFound({"review_id": NO_SUCH_REVIEW})
        return {"review": (await self._views([changed], for_moderators=True))[0]}

    # Reading ------------------------------------------------------------------

    async def of_user(
        self, viewer: Caller | None, user_id: str, cursor: str | None
    ) -> dict[str, Any]:
        """The person's reviews as the viewer may read them (`core.reviews.review_view`)."""
        if cursor is not None and not _REVIEW_ID.fullmatch(cursor):
            raise InvalidInput({"cursor": "This list position is not valid"})
        found = await self.reviews.of_subject(user_id, cursor, REVIEWS_PAGE + 1)
        page, has_more = found[:REVIEWS_PAGE], len(found) > REVIEWS_PAGE
        return {
            "reviews": await self._views(page, withheld=await self._withheld(viewer, page)),
            **summary(await self.reviews.ratings_of(user_id)),
            "has_more": has_more,
            "cursor": page[-1]["_id"] if has_more else None,
        }

    async def summary(self, user_id: str) -> dict[str, Any]:
        return summary(await self.reviews.ratings_of(user_id))

    async def for_offer(self, caller: Caller, move_id: str) -> dict[str, Any]:
        """What the chat shows after a paid offer: whom the caller may review, and the
        reviews each side wrote of the other."""
        user_id = caller.user["_id"]
        subject_id, move = await self._side_of(user_id, move_id)
        written = {r["author_id"]: r for r in await self.reviews.of_move(move_id)}
        mine, theirs = written.get(user_id), written.get(subject_id)
        theirs = theirs if theirs and not theirs.get("hidden") else None
        shown = [r for r in (mine, theirs) if r]
        views = dict(zip([r["_id"] for r in shown], await self._views(shown), strict=True))
        return {
            "move_id": move_id,
            "item_id": move["item_id"],
            "subject": user_card(await self.users.get(subject_id)),
            "review": views.get(mine["_id"]) if mine else None,
            "their_review": views.get(theirs["_id"]) if theirs else None,
            "can_review": mine is None,
        }

    async def for_chat(self, caller: Caller, cs_id: str) -> dict[str, Any]:
        """Every offer paid in an item chat, oldest first, and whether the caller reviewed
        it: the chat offers a review of each, not only of the latest. Only the post's owner
        and the person asking may list them."""
        user_id = caller.user["_id"]
        parsed = parse_item_chat_id(cs_id)
        item = await self.items.get(parsed[0]) if parsed else None
        if parsed is None or item is None or user_id not in (parsed[1], item["user_id"]):
            raise NotFound({"cs_id": NO_SUCH_CHAT})
        moves = [
            move
            for move in await self.wallets.offers_paid_in(cs_id)
            if (sides := offer_sides(move)) and other_side(sides, user_id)
        ]
        written = await self.reviews.by_author_of(user_id, [move["_id"] for move in moves])
        reviewed = {review["move_id"] for review in written}
        return {
            "offers": [{**offer_view(move), "reviewed": move["_id"] in reviewed} for move in moves]
        }

    async def reported(self, caller: Caller, group_id: str, cursor: str | None) -> dict[str, Any]:
        if not await self._moderates(caller, group_id):
            raise Forbidden({"group_id": ONLY_MODERATORS_SEE})
        before = bounded_int(cursor, "cursor") if cursor is not None else None
        found = await self.reviews.reported_in(group_id, before, REVIEWS_PAGE + 1)
        page, has_more = found[:REVIEWS_PAGE], len(found) > REVIEWS_PAGE
        return {
            "reviews": await self._views(page, for_moderators=True),
            "not_hidden_count": await self.reviews.count_reported_not_hidden(group_id),
            "has_more": has_more,
            "cursor": str(page[-1]["reported_at"]) if has_more else None,
        }

    # Internals ----------------------------------------------------------------

    async def _side_of(self, user_id: str, move_id: str) -> tuple[str, dict[str, Any]]:
        """The other side of the caller's paid offer, and the offer's move; 404 otherwise
        (whether such an offer exists is nobody else's business)."""
        move = await self.wallets.move(move_id)
        sides = offer_sides(move)
        subject_id = other_side(sides, user_id) if sides else None
        if move is None or subject_id is None:
            raise NotFound({"move_id": NO_SUCH_OFFER})
        return subject_id, move

    async def _review(self, review_id: str) -> dict[str, Any]:
        review = await self.reviews.get(review_id)
        if review is None:
            raise NotFound({"review_id": NO_SUCH_REVIEW})
        return review

    async def _moderates(self, caller: Caller, group_id: str | None) -> bool:
        if group_id is None:
            return False
        try:
            _, membership = await self.groups.found(group_id, caller, fresh=True)
        except NotFound:
            return False
        kind = member_type(membership)
        return kind is not None and kind <= USER_TYPE_MODERATOR

    async def _withheld(self, viewer: Caller | None, reviews: list[dict[str, Any]]) -> set[str]:
        """The reviews the viewer may not read in full: of offers in groups they may not read
        (the group's own rule, `GroupService.readable_ids`), unless they are a side of it."""
        viewer_id = viewer.user["_id"] if viewer else None
        others = [r for r in reviews if viewer_id is None or not is_side(r, viewer_id)]
        group_ids = {r["group_id"] for r in others if r["group_id"]}
        readable = await self.groups.readable_ids(viewer, group_ids)
        return {r["_id"] for r in others if r["group_id"] not in readable}

    async def _views(
        self,
        reviews: list[dict[str, Any]],
        *,
        withheld: set[str] | frozenset[str] = frozenset(),
        for_moderators: bool = False,
    ) -> list[dict[str, Any]]:
        """The reviews' views; those in `withheld` without their group, post and text."""
        people = {u["_id"]: user_card(u) for u in await self.users.by_ids(people_in(reviews))}
        return [
            review_view(r, people, readable=r["_id"] not in withheld, for_moderators=for_moderators)
            for r in reviews
        ]
