"""A chat's members (`MemberList`), its settings (`ChatSettings`) and its moderation, with
each member's own notification setting (`Moderation`)."""

import asyncio
from typing import Any

from agora.actors.client import SessionShards
from agora.core.accounts import user_card
from agora.core.chat.access import is_open, is_reader, may_read
from agora.core.chat.constants import MEMBERS_PAGE, NOTIFICATION_UNMUTED, USER_TYPE_ADMIN
from agora.core.chat.moderation import check_make_public, moderated_type, notification_flag
from agora.core.chat.views import session_view, shared_session_view
from agora.core.errors import Forbidden, InvalidInput, NotFound
from agora.core.groups import clean_group_description, clean_group_title, membership_view
from agora.core.mentions import members_named
from agora.core.message_kinds import ChatKinds
from agora.core.slow_mode import SLOW_MODE_FIELD, check_slow_mode
from agora.realtime.emitter import RealtimeEmitter
from agora.services.accounts import Caller
from agora.services.chat.access import NOT_IN_CHAT, ChatAccess
from agora.services.chat.memberships import Memberships
from agora.services.events import (
    Events,
    GroupEdited,
    MemberRemoved,
    MemberTypeChanged,
    SessionClosed,
)
from agora.store.sessions import SessionStore
from agora.store.users import UserStore


class MemberList:
    def __init__(self, *, access: ChatAccess, sessions: SessionStore, users: UserStore) -> None:
        self.access = access
        self.sessions = sessions
        self.users = users

    async def members(
        self, caller: Caller | None, session_id: str, cursor: str | None
    ) -> dict[str, Any]:
        """Members of a chat or group in a stable order, with their public cards."""
        chat, _ = await self.access.readable(caller, session_id)
        # Each member's unseen count shows the chat's counters as stored now.
        chat, page = await asyncio.gather(
            self.sessions.with_counters(chat),
            self.sessions.members_page(session_id, cursor, MEMBERS_PAGE + 1),
        )
        has_more = len(page) > MEMBERS_PAGE
        page = page[:MEMBERS_PAGE]
        people = {u["_id"]: u for u in await self.users.by_ids([m["user_id"] for m in page])}
        return {
            "session_users": [
                {**(membership_view(m, chat) or {}), "user": user_card(people.get(m["user_id"]))}
                for m in page
            ],
            "has_more": has_more,
            "cursor": page[-1]["_id"] if has_more else None,
            "session_users_count": await self.sessions.count_members(session_id),
        }

    async def search(self, caller: Caller | None, session_id: str, text: str) -> dict[str, Any]:
        """The chat's members who read it and whose name holds `text`, for the mention picker,
        best matches first, one page of them. The members' names come from this edge's
        copies of users, so a person typing reads the chat's members' types (one indexed
        query) and, the first time, their users."""
        chat, _ = await self.access.readable(caller, session_id)
        chat, types = await asyncio.gather(
            self.sessions.with_counters(chat), self.sessions.member_types(session_id)
        )
        people = await self.users.by_ids([u for u, t in types.items() if is_reader(t)])
        found = members_named(people, text, MEMBERS_PAGE)
        pairs = [(session_id, person["_id"]) for person in found]
        memberships = await self.sessions.memberships(pairs)
        return {
            "session_users": [
                {**(membership_view(memberships.get(pair), chat) or {}), "user": user_card(p)}
                for pair, p in zip(pairs, found, strict=True)
                if pair in memberships
            ],
            "has_more": False,
            "cursor": None,
            "session_users_count": len(types),
        }


class ChatSettings:
    def __init__(
        self,
        *,
        access: ChatAccess,
        sessions: SessionStore,
        shards: SessionShards,
        events: Events,
        emitter: RealtimeEmitter,
        kinds: ChatKinds,
    ) -> None:
        self.access = access
        self.sessions = sessions
        self.shards = shards
        self.events = events
        self.emitter = emitter
        self.kinds = kinds

    async def update_session(
        self, caller: Caller, session_id: str, changes: dict[str, Any]
    ) -> dict[str, Any]:
        chat, membership = await self.access.readable(caller, session_id)
        kind = membership["session_user_type"] if membership else None
        fields: dict[str, Any] = {}
        if changes.get("is_read_allowed") is not None:
            if changes["is_read_allowed"] is not True:
                raise InvalidInput({"is_read_allowed": "A public chat cannot be made private"})
            check_make_public(chat, kind)
            fields["is_read_allowed"] = True
        admin_fields = {
            k: v for k, v in changes.items() if k != "is_read_allowed" and v is not None
        }
        if admin_fields:
            if kind is None or kind > USER_TYPE_ADMIN:
                raise Forbidden("Only the chat's admins can edit it")
            if "title" in admin_fields:
                fields["title"] = clean_group_title(admin_fields["title"])
            if "description" in admin_fields:
                fields["description"] = clean_group_description(admin_fields["description"])
            if "is_public" in admin_fields:
                fields["is_public"] = bool(admin_fields["is_public"])
            if SLOW_MODE_FIELD in admin_fields:
                fields[SLOW_MODE_FIELD] = check_slow_mode(chat, admin_fields[SLOW_MODE_FIELD])
        if fields:
            updated = await self.sessions.update(session_id, fields)
        else:
            # The view shows the chat's counters (its unseen count): as stored, not the copy's.
            updated = await self.sessions.with_counters(chat)
        await self.shards.forget(session_id)
        if is_open(chat) and not is_open(updated or chat):
            await self.events.publish(SessionClosed(session_id))
        view = session_view(updated or chat, membership, kinds=self.kinds)
        await self.emitter.to_session(session_id, "session", shared_session_view(view))
        return {"session": view}

    async def group_edited(self, edited: GroupEdited) -> None:
        """The shard taking the group chat's messages reads the group again (who may write
        there)."""
        await self.shards.forget(edited.group_id)


class Moderation:
    def __init__(
        self,
        *,
        sessions: SessionStore,
        events: Events,
        emitter: RealtimeEmitter,
        kinds: ChatKinds,
        memberships: Memberships,
    ) -> None:
        self.sessions = sessions
        self.events = events
        self.emitter = emitter
        self.kinds = kinds
        self.memberships = memberships

    async def update_member(
        self,
        caller: Caller,
        session_id: str,
        *,
        notification_flag_value: int | None,
        for_user_id: str | None,
        action: str | None,
    ) -> dict[str, Any]:
        user_id = caller.user["_id"]
        membership = await self.sessions.membership(session_id, user_id)
        if membership is None:
            raise Forbidden(NOT_IN_CHAT)
        if for_user_id is None:
            if notification_flag_value is None:
                raise InvalidInput({"notification_flag": "This field is required"})
            flag = notification_flag(notification_flag_value > NOTIFICATION_UNMUTED)
            updated = await self.sessions.set_member(
                session_id, user_id, {"notification_flag": flag}
            )
            # The member's other screens (the chat list, the window, other tabs) show the
            # mute at once, and their red dot stops (or starts) counting the chat.
            await self.emitter.to_user(
                user_id, "session", {"_id": session_id, "notification_flag": flag}
            )
            chat = await self.sessions.get(session_id) or {}
            return {"is_user_in_session": True, "session_user": membership_view(updated, chat)}
        if action is None:
            raise InvalidInput({"action": "This field is required"})
        target = await self.sessions.membership(session_id, for_user_id)
        if target is None:
            raise NotFound({"for_user_id": "This person is not in the chat"})
        new_type = moderated_type(
            action, membership["session_user_type"], target["session_user_type"]
        )
        if new_type is None:
            if await self.sessions.remove_member(session_id, for_user_id):
                await self.events.publish(MemberRemoved(session_id, for_user_id))
            changed = None
        else:
            changed = await self.sessions.set_member(
                session_id, for_user_id, {"session_user_type": new_type}
            )
            old_type = target["session_user_type"]
            await self.events.publish(
                MemberTypeChanged(session_id, for_user_id, old_type, new_type)
            )
        await self.memberships.moderated(
            session_id, for_user_id, target["session_user_type"], new_type
        )
        if action == "approve" and new_type is not None:
            await self.memberships.announce_member(session_id, for_user_id, "approved", user_id)
        chat = await self.sessions.get(session_id) or {}
        # Every screen of the member shows the chat as it now is for them (the composer
        # gives way to 'You cannot send messages here.' at once, and comes back).
        view = session_view(chat, changed, kinds=self.kinds, readable=may_read(chat, changed))
        await self.emitter.to_user(for_user_id, "session", view)
        return {"is_user_in_session": True, "session_user": membership_view(changed, chat)}
