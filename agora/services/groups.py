"""City groups and other groups: viewing, choosing by location, joining, editing, members."""

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from agora.core.accounts import clean_image_url
from agora.core.chat.access import is_open, may_read
from agora.core.chat.constants import USER_TYPE_ADMIN, USER_TYPE_AWAITING_APPROVAL
from agora.core.errors import Forbidden, NotFound
from agora.core.geo import CITY_SEARCH_RESULTS, check_coordinate
from agora.core.groups import (
    NOT_VIEWABLE,
    RECENT_GROUPS_SCANNED,
    check_write_permission,
    clean_group_description,
    clean_group_title,
    clean_tags,
    group_view,
    invitation_view,
    is_admin,
    joining_type,
    membership_view,
)
from agora.integrations.geonames import City, CityIndex
from agora.services.accounts import Caller
from agora.services.creation_limits import CreationLimit
from agora.services.events import (
    Events,
    GroupEdited,
    MemberAnnounced,
    MemberJoined,
    SessionClosed,
)
from agora.services.uploads import KeptImage
from agora.store.feed_cache import FeedCache
from agora.store.groups import GroupStore

CITY_TAGS = ["Jobs", "For sale", "Services", "Housing", "Lost & found", "Events", "Help"]


@dataclass(frozen=True)
class GroupChanges:
    tags: list[str] | None = None
    title: str | None = None
    description: str | None = None
    image: str | None = None
    is_public: bool | None = None
    is_read_allowed: bool | None = None
    write_permission: int | None = None


async def created_city_group(groups: GroupStore, city: City) -> dict[str, Any]:
    """The city's group, created on first need."""
    return await groups.create(
        city.group_id,
        title=city.name,
        description=f"Requests, products and services in {city.name}",
        tags=CITY_TAGS,
        is_public=True,
        is_read_allowed=True,
        city={k: v for k, v in city.view().items() if k != "group_id"},
    )


GROUPS_LIMITED = "You have created many groups lately, please try again later"


class GroupService:
    def __init__(
        self,
        *,
        groups: GroupStore,
        feed_cache: FeedCache,
        cities,
        kept_image: KeptImage,
        events: Events,
        creations: CreationLimit,
    ) -> None:
        self.groups = groups
        self.creations = creations
        # Chat listens: a new member's sockets follow the group's chat, and joins show in it.
        self.events = events
        self.kept_image = kept_image
        self.feed_cache = feed_cache
        # Loading the city list takes about a second, so it happens on first use, off the loop.
        self._cities_loader = cities
        self._cities: CityIndex | None = None

    async def cities(self) -> CityIndex:
        if self._cities is None:
            self._cities = await asyncio.to_thread(self._cities_loader)
        return self._cities

    async def found(
        self, group_id: str, caller: Caller | None, *, fresh: bool = False
    ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """The group and the viewer's membership, whether or not they may read it; from this
        edge's copies unless `fresh` (which are exact but for the counters that move with each
        message: how far the group's messages and the member's reading went)."""
        group = await self.groups.get(group_id, fresh=fresh) or await self._city_group(group_id)
        if group is None:
            raise NotFound({"invalid_group": NOT_VIEWABLE})
        return group, await self._membership(group_id, caller, fresh=fresh)

    async def found_many(
        self, group_ids: Iterable[str], caller: Caller | None, *, fresh: bool = False
    ) -> dict[str, tuple[dict[str, Any] | None, dict[str, Any] | None]]:
        """`found` of each group (a missing one: `(None, None)`), by id."""
        groups: dict[str, tuple[dict[str, Any] | None, dict[str, Any] | None]] = {}
        for group_id in set(group_ids):
            try:
                groups[group_id] = await self.found(group_id, caller, fresh=fresh)
            except NotFound:
                groups[group_id] = (None, None)
        return groups

    async def readable_ids(self, caller: Caller | None, group_ids: Iterable[str]) -> set[str]:
        """Those of the groups the viewer may read (`core.chat.access.may_read`: open ones, and
        those they are a reading member of), from this edge's copies."""
        found = await self.found_many(group_ids, caller)
        return {
            group_id
            for group_id, (group, membership) in found.items()
            if group is not None and may_read(group, membership)
        }

    async def readable(
        self, group_id: str, caller: Caller | None, *, fresh: bool = False
    ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """The group and the viewer's membership, or the spec's not-viewable error: as for an
        unknown id (404) to whoever holds no membership, so ids cannot be probed for private
        groups; a 403 to a member who may not read (awaiting approval, blocked)."""
        group, membership = await self.found(group_id, caller, fresh=fresh)
        if not may_read(group, membership):
            refusal = NotFound if membership is None else Forbidden
            raise refusal({"invalid_group": NOT_VIEWABLE})
        return group, membership

    async def _city_group(self, group_id: str) -> dict[str, Any] | None:
        """City groups come into being on first visit, whether by link or by location."""
        city = (await self.cities()).by_group.get(group_id)
        return await created_city_group(self.groups, city) if city else None

    async def _membership(
        self, group_id: str, caller: Caller | None, *, fresh: bool = False
    ) -> dict[str, Any] | None:
        if caller is None:
            return None
        return await self.groups.membership(group_id, caller.user["_id"], fresh=fresh)

    async def view(self, group_id: str, caller: Caller | None) -> dict[str, Any]:
        """The group's screen, read as stored: it shows the member's unseen count."""
        group, membership = await self.readable(group_id, caller, fresh=True)
        return {
            "group": group_view(group, membership),
            "group_membership": membership_view(membership, group),
        }

    async def for_location(
        self, latitude: float, longitude: float, caller: Caller | None
    ) -> dict[str, Any]:
        latitude = check_coordinate("latitude", latitude, "lat_long")
        longitude = check_coordinate("longitude", longitude, "lat_long")
        city = (await self.cities()).nearest(latitude, longitude)
        if city is None:
            raise NotFound({"lat_long": "No city found near this location"})
        group = await created_city_group(self.groups, city)
        return {"group": group_view(group, await self._membership(group["_id"], caller))}

    async def search_cities(self, text: str) -> dict[str, Any]:
        found = (await self.cities()).search(text, CITY_SEARCH_RESULTS)
        return {"cities": [city.view() for city in found]}

    async def recent(self, limit: int) -> dict[str, Any]:
        """The newest groups anyone may read: a private group that hides itself from
        non-members is not shown to strangers here either (its title and description)."""
        newest = await self.groups.latest(RECENT_GROUPS_SCANNED)
        return {"groups": [group_view(g, None) for g in newest if may_read(g, None)][:limit]}

    async def invitation(self, group_id: str, caller: Caller) -> dict[str, Any]:
        """The group as its link shows it to a signed-in person who may not read it yet (a
        private group they were invited to): its invitation and their own membership (none,
        awaiting approval, blocked), so they can ask to join. Holding the id is what lets them
        see it (a new group's id is random); an unknown id is the spec's not-viewable error."""
        group, membership = await self.found(group_id, caller)
        return {
            "group": invitation_view(group),
            "group_membership": membership_view(membership, group),
        }

    async def join(self, group_id: str, caller: Caller) -> dict[str, Any]:
        # Private groups that hide their posts can still be asked to join (by id: the one way
        # in); the asker sees the group once they may read it, and its admins see the asker.
        group, membership = await self.found(group_id, caller)
        if membership is None:
            user_type = joining_type(group)
            membership = await self.add_member(group_id, caller.user["_id"], user_type)
            event = "asked" if user_type == USER_TYPE_AWAITING_APPROVAL else "joined"
            await self.events.publish(MemberAnnounced(group_id, caller.user["_id"], event))
        shown = may_read(group, membership)
        return {
            "group": group_view(group, membership) if shown else None,
            "group_membership": membership_view(membership, group),
        }

    async def add_member(self, group_id: str, user_id: str, user_type: int) -> dict[str, Any]:
        """Adds the user unless already a member; returns the membership."""
        membership = await self.groups.join(group_id, user_id, user_type)
        joined_as = membership.get("session_user_type", user_type)
        await self.events.publish(MemberJoined(group_id, user_id, joined_as))
        return membership

    async def member_removed(self, group_id: str) -> None:
        """A membership was removed (`MemberRemoved`): the group counts one member fewer."""
        await self.groups.count_members(group_id, -1)

    async def create(
        self, caller: Caller, title: str, description: str, changes: GroupChanges
    ) -> dict[str, Any]:
        fields = {
            "title": clean_group_title(title),
            "description": clean_group_description(description),
            "tags": clean_tags(changes.tags or []),
            "is_public": bool(changes.is_public),
            "is_read_allowed": bool(changes.is_read_allowed),
        }
        if changes.write_permission is not None:
            fields["write_permission"] = check_write_permission(changes.write_permission)
        if changes.image:
            image = clean_image_url(changes.image)
            fields["image"] = await self.kept_image(caller.user["_id"], image)
        # Counted once the group is valid: a form sent back for a fix costs no attempt.
        await self.creations.count(caller.user["_id"])
        group = await self.groups.create(None, **fields, created_by=caller.user["_id"])
        membership = await self.add_member(group["_id"], caller.user["_id"], USER_TYPE_ADMIN)
        return {
            "group": group_view({**group, "data": {**group["data"], "num_members": 1}}, membership),
            "group_membership": membership_view(membership, group),
        }

    async def update(self, caller: Caller, group_id: str, changes: GroupChanges) -> dict[str, Any]:
        group, membership = await self.readable(group_id, caller)
        if not is_admin(membership):
            raise Forbidden("Only the group's admins can change it")
        fields: dict[str, Any] = {}
        if changes.tags is not None:
            fields["tags"] = clean_tags(changes.tags)
        if changes.title is not None:
            fields["title"] = clean_group_title(changes.title)
        if changes.description is not None:
            fields["description"] = clean_group_description(changes.description)
        if changes.image is not None:
            image = clean_image_url(changes.image)
            fields["image"] = await self.kept_image(caller.user["_id"], image)
        for flag in ("is_public", "is_read_allowed"):
            if getattr(changes, flag) is not None:
                fields[flag] = getattr(changes, flag)
        if changes.write_permission is not None:
            fields["write_permission"] = check_write_permission(changes.write_permission)
        updated = await self.groups.update(group_id, fields) if fields else group
        await self.feed_cache.changed(group_id)
        if fields:
            await self.events.publish(GroupEdited(group_id))
        if is_open(group) and not is_open(updated or group):
            await self.events.publish(SessionClosed(group_id))
        return {
            "group": group_view(updated or group, membership),
            "group_membership": membership_view(membership, updated or group),
        }
