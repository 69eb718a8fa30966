"""Chat: item chats, sending, reading, chat lists, lookups by id, settings and moderation."""

import asyncio
import base64
import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from agora.actors.client import SessionShards
from agora.core.accounts import user_card
from agora.core.chat import (
    NO_SUCH_CHAT,
    RECEIPT_STATUSES,
    check_make_public,
    check_outgoing,
    delivery,
    is_muted,
    is_reader,
    item_chat_id,
    item_chat_members,
    item_chat_session,
    member_notice,
    message_view_for,
    moderated_type,
    notification_count,
    notification_flag,
    parse_item_chat_id,
    session_view,
    shared_session_view,
)
from agora.core.clock import now_ms
from agora.core.constants import (
    CHAT_ATTACHMENT_TYPES,
    CHATS_PAGE,
    LOCAL_ID_MAX_LENGTH,
    MEMBERS_PAGE,
    MESSAGE_TYPE_SYSTEM,
    MESSAGES_PAGE,
    SEND_REPLY_OK,
    SEND_REPLY_REFUSED,
    SESSION_KIND_ITEM_CHAT,
    TYPING_INTERVAL_SECONDS,
    USER_TYPE_ADMIN,
    USER_TYPE_MODERATOR,
)
from agora.core.errors import AgoraError, Forbidden, InvalidInput, NotFound, Unavailable
from agora.core.groups import (
    can_read,
    clean_group_description,
    clean_group_title,
    is_member,
    membership_view,
)
from agora.core.items import item_view
from agora.core.numbers import bounded_int
from agora.realtime.emitter import RealtimeEmitter
from agora.services.accounts import Caller
from agora.services.items import PostReader, StoredFiles
from agora.store.chat_hints import ChatHints
from agora.store.messages import MessageStore
from agora.store.sessions import SessionStore
from agora.store.users import UserStore

log = logging.getLogger("agora.chat")


@dataclass(frozen=True)
class SendInput:
    dest_session_id: str
    payload: str = ""
    payload1: tuple[str, ...] = ()
    type: int = 1003
    is_dummy_session: bool = False
    created_at: int | None = None
    local_id: str = ""
    # `data.location` as sent, checked with the rest of the message.
    location: Any = None


class ChatService:
    def __init__(
        self,
        shards: SessionShards,
        sessions: SessionStore,
        messages: MessageStore,
        posts: PostReader,
        users: UserStore,
        uploads: StoredFiles,
        hints: ChatHints,
        emitter: RealtimeEmitter,
    ) -> None:
        self.shards = shards
        self.sessions = sessions
        self.messages = messages
        self.posts = posts
        self.users = users
        self.uploads = uploads
        self.hints = hints
        self.emitter = emitter

    def publish_through(self, manager: Any) -> None:
        """On an edge, realtime events go through its own Socket.IO manager (see the
        emitter): local sockets get them, and enter new rooms, without a Redis round trip."""
        self.emitter.publish_through(manager)

    # Item chats ---------------------------------------------------------------

    async def item_chats(
        self, caller: Caller, item_id: str, route_id: str | None
    ) -> dict[str, Any]:
        """The owner gets every chat about the post; anyone else their own, maybe a dummy,
        if they may read the post."""
        item, _, _ = await self.posts.readable(caller, item_id)
        user_id = caller.user["_id"]
        is_owner = item["user_id"] == user_id
        if is_owner:
            chats = await self.sessions.item_chats(item_id)
        else:
            chat_id = item_chat_id(item_id, user_id)
            stored = await self.sessions.get(chat_id)
            if stored is None and route_id:
                await self.hints.remember_route(chat_id, route_id)
            chats = [
                stored or {**item_chat_session(item, user_id, route_id, now_ms()), "is_dummy": True}
            ]
        member_of = await self._memberships(user_id, [c["_id"] for c in chats])
        shown = item_view(item, logged_in=True)
        return {
            "item": shown,
            "chats": [
                {
                    "session": session_view(chat, member_of.get(chat["_id"])),
                    "item": shown,
                    "is_item_owner": is_owner,
                    "is_user_in_session": chat["_id"] in member_of,
                }
                for chat in chats
            ],
        }

    async def _memberships(self, user_id: str, session_ids: list[str]) -> dict[str, dict]:
        found = await self.sessions.memberships_for_user(user_id, session_ids)
        return {m["session_id"]: m for m in found}

    # Sending ------------------------------------------------------------------

    async def send(self, caller: Caller, data: SendInput) -> dict[str, Any]:
        try:
            return await self._send(caller, data)
        except AgoraError as error:
            # Refusals are replies of their own (type -1); a caller who must log in, or a
            # store that failed (send again later), is told by the status.
            if error.status in (401, 503):
                raise
            return {"type": SEND_REPLY_REFUSED, "errors": error.errors}

    async def _send(self, caller: Caller, data: SendInput) -> dict[str, Any]:
        """Checks the message and hands it to the session's shard, which knows the session and
        its members and says whether the sender may post; an item chat that is still a dummy
        becomes real with its first message."""
        user_id = caller.user["_id"]
        outgoing = check_outgoing(
            session_id=data.dest_session_id,
            src_id=user_id,
            local_id=data.local_id,
            message_type=data.type,
            payload=data.payload,
            attachments=list(data.payload1),
            client_created_at=data.created_at,
            location=data.location,
        )
        files = await self.uploads.stored_files(user_id, list(outgoing.attachments))
        if any(f["mime_type"] not in CHAT_ATTACHMENT_TYPES for f in files):
            raise InvalidInput({"payload1": "Attach jpeg, png, pdf, docx or mp4 files"})
        request = {
            "session_id": outgoing.session_id,
            "src_id": user_id,
            "local_id": outgoing.local_id,
            "type": outgoing.type,
            "payload": outgoing.payload,
            "payload1": files,
            "client_created_at": outgoing.client_created_at,
            **({"data": {"location": outgoing.location}} if outgoing.location else {}),
        }
        reply = await self._to_shard(request)
        created = False
        if reply.pop("no_such_chat", False):
            created = await self._make_real(outgoing.session_id, caller)
            reply = await self._to_shard(request)
            if reply.pop("no_such_chat", False):
                raise NotFound({"dest_session_id": NO_SUCH_CHAT})
        if reply["type"] != SEND_REPLY_OK:
            return reply
        return {**reply, "new_session_created": created, "is_user_in_session": True}

    async def _to_shard(self, request: dict[str, Any]) -> dict[str, Any]:
        reply = await self.shards.send(request)
        if reply.pop("unavailable", False):
            raise Unavailable(reply["errors"])
        return reply

    async def post_notice(
        self, session_id: str, src_id: str, local_id: str, text: str, data: dict[str, Any]
    ) -> dict[str, Any]:
        """A system notice (type 1010); `local_id` makes a repeated notice appear once."""
        return await self.shards.send(
            {
                "session_id": session_id,
                "src_id": src_id,
                "local_id": local_id,
                "type": MESSAGE_TYPE_SYSTEM,
                "payload": text,
                "payload1": [],
                "data": data,
            }
        )

    async def _make_real(self, session_id: str, caller: Caller) -> bool:
        """A dummy item chat becomes a stored one with its first message; says whether this
        call stored it (a concurrent first message may have)."""
        user_id = caller.user["_id"]
        parsed = parse_item_chat_id(session_id)
        if parsed is None or parsed[1] != user_id:
            raise NotFound({"dest_session_id": NO_SUCH_CHAT})
        try:
            item, _, _ = await self.posts.readable(caller, parsed[0])
        except AgoraError as error:
            # A post the sender may not read has no chat they could open.
            raise NotFound({"dest_session_id": NO_SUCH_CHAT}) from error
        if item["user_id"] == user_id:
            raise NotFound({"dest_session_id": NO_SUCH_CHAT})
        route_id = await self.hints.route(session_id) or item["route_id"]
        chat = item_chat_session(item, user_id, route_id, now_ms())
        members = item_chat_members(item, user_id)
        _, created = await self.sessions.create_once(chat, members)
        if created:
            # The poster hears of the chat on whatever screen they have open.
            for member_id in members:
                await self.emitter.follow(member_id, [session_id])
        return created

    # Reading ------------------------------------------------------------------

    async def _readable(
        self, caller: Caller | None, session_id: str
    ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        chat = await self.sessions.get(session_id)
        if chat is None:
            raise NotFound({"session_id": NO_SUCH_CHAT})
        membership = (
            await self.sessions.membership(session_id, caller.user["_id"]) if caller else None
        )
        if not await self._may_read(caller, chat, membership):
            raise Forbidden({"session_id": "You cannot read this chat"})
        return chat, membership

    async def _may_read(
        self, caller: Caller | None, chat: dict[str, Any], membership: dict[str, Any] | None
    ) -> bool:
        """A chat's readers, its members or anyone when it is public; an item chat shows its
        post (title, description, picture), so a public one only to those who may read the
        post: a private group's posts stay with its members."""
        if not can_read(chat, membership):
            return False
        if is_member(membership) or chat.get("kind") != SESSION_KIND_ITEM_CHAT:
            return True
        try:
            await self.posts.readable(caller, (chat.get("data") or {}).get("item_id", ""))
        except AgoraError:
            return False
        return True

    async def can_join(self, caller: Caller | None, session_id: str) -> bool:
        try:
            await self._readable(caller, session_id)
        except AgoraError:
            return False
        return True

    async def messages_page(
        self,
        caller: Caller | None,
        session_id: str,
        after: int | None,
        before: int | None,
    ) -> dict[str, Any]:
        chat, membership = await self._readable(caller, session_id)
        found = None
        if after is not None:
            found = await self.shards.buffered(session_id, after, MESSAGES_PAGE + 1)
        if found is None:
            found = await self.messages.page(
                session_id, after=after, before=before, limit=MESSAGES_PAGE + 1
            )
        has_more = len(found) > MESSAGES_PAGE
        page = found[:MESSAGES_PAGE] if after is not None else found[-MESSAGES_PAGE:]
        if caller is not None and membership is not None and page:
            # The screen that fetched the newest page shows it; a poll only received it.
            status = "read" if after is None and before is None else "delivered"
            seq = chat.get("message_seq", 0) if status == "read" else page[-1].get("seq")
            if seq:
                await self._receipt(session_id, caller.user["_id"], status, seq, page[-1])
        marks = await self.sessions.furthest_marks(session_id)
        senders = await self.users.by_ids([m["src_id"] for m in page])
        return {
            "inbox_messages": [message_view_for(m, marks) for m in page],
            "refs": {"users": {u["_id"]: user_card(u) for u in senders}},
            "has_more": has_more,
            "next_less_than_timestamp": page[0]["created_at"] if page and has_more else None,
        }

    async def chats(self, caller: Caller, cursor: str | None) -> dict[str, Any]:
        """The user's chats, latest activity first, in pages after the (updated_at, id) cursor.

        Memberships are not touched per message, so the order comes from the sessions: all
        of the user's memberships and their sessions' counters are read and sorted (a person
        has at most a few thousand chats), and the page's sessions are then read in full.
        """
        user_id = caller.user["_id"]
        before = _decode_chats_cursor(cursor) if cursor else None
        followed = await self._followed(user_id)
        followed.sort(key=lambda pair: _activity(pair[0]), reverse=True)
        if before is not None:
            followed = [pair for pair in followed if _activity(pair[0]) < before]
        page = followed[:CHATS_PAGE]
        has_more = len(followed) > CHATS_PAGE
        page_ids = [c["_id"] for c, _ in page]
        chats = {c["_id"]: c for c in await self.sessions.by_ids(page_ids)}
        if cursor is None:
            await self._notifications_seen(user_id, followed)
        gone = await self._deleted_posts(chats.values())
        last = await self._last_messages(user_id, list(chats))
        return {
            "sessions": [
                session_view(chats[c["_id"]], m, post_deleted=_about(chats[c["_id"]]) in gone)
                | ({"last_message": last[c["_id"]]} if c["_id"] in last else {})
                for c, m in page
                if c["_id"] in chats
            ],
            "cursor": _encode_chats_cursor(page[-1][0]) if has_more else None,
            "has_more": has_more,
        }

    async def _last_messages(self, user_id: str, session_ids: list[str]) -> dict[str, dict]:
        """Each chat's newest message as a chat list row shows it, ticked like in the chat."""

        async def newest(session_id: str) -> dict[str, Any] | None:
            found = await self.messages.newest(session_id, 1)
            if not found:
                return None
            mine = found[0]["src_id"] == user_id
            marks = await self.sessions.furthest_marks(session_id) if mine else []
            return message_view_for(found[0], marks)

        views = await asyncio.gather(*(newest(s) for s in session_ids))
        return {s: view for s, view in zip(session_ids, views, strict=True) if view is not None}

    async def _deleted_posts(self, chats: Iterable[dict[str, Any]]) -> set[str]:
        """The posts of these item chats that were deleted (their chats stay readable)."""
        item_ids = [item_id for chat in chats if (item_id := _about(chat))]
        return await self.posts.deleted(item_ids) if item_ids else set()

    async def _followed(self, user_id: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """(session counters, membership) for each of the user's memberships."""
        memberships = await self.sessions.memberships_of_user(user_id)
        counters = {
            c["_id"]: c
            for c in await self.sessions.counters([m["session_id"] for m in memberships])
        }
        return [(counters[m["session_id"]], m) for m in memberships if m["session_id"] in counters]

    async def _notifications_seen(
        self, user_id: str, followed: list[tuple[dict[str, Any], dict[str, Any]]]
    ) -> None:
        """Opening Chats clears the red dot: what counted for it so far no longer does."""
        await self.sessions.mark_notified(
            {
                m["_id"]: counters.get("message_seq", 0)
                for counters, m in followed
                if notification_count(counters, m)
            }
        )
        await self.emitter.to_user(user_id, "unseen", {"notifications_unseen_count": 0})

    async def notifications_unseen(self, user_id: str) -> int:
        """The red dot's count (spec: `data.notifications_unseen_count`), taken when asked."""
        return sum(notification_count(c, m) for c, m in await self._followed(user_id))

    async def unseen_summary(self, user_id: str) -> dict[str, Any]:
        """What a screen needs to keep the red dot itself from `message` events: the count
        now, and the chats that must not raise it (muted)."""
        followed = await self._followed(user_id)
        return {
            "notifications_unseen_count": sum(notification_count(c, m) for c, m in followed),
            "muted_session_ids": [m["session_id"] for _, m in followed if is_muted(m)],
        }

    async def followed_sessions(self, user_id: str) -> list[str]:
        """Sessions whose rooms the user's sockets enter when they connect."""
        memberships = await self.sessions.memberships_of_user(user_id)
        return [m["session_id"] for m in memberships if is_reader(m["session_user_type"])]

    async def follows(self, caller: Caller | None, session_id: str) -> bool:
        """Whether the caller's sockets stay in the session's room when its window closes."""
        if caller is None:
            return False
        membership = await self.sessions.membership(session_id, caller.user["_id"])
        return membership is not None and is_reader(membership["session_user_type"])

    async def announce_member(
        self, session_id: str, user_id: str, event: str, by_user_id: str | None = None
    ) -> None:
        """A 1010 notice that someone joined, asked to join or was approved; at most once per
        person, event and chat. Best effort: the membership already changed."""
        if not self.shards.running():
            return
        try:
            named = {
                u["_id"]: u.get("name", "")
                for u in await self.users.by_ids([user_id, *([by_user_id] if by_user_id else [])])
            }
            text = member_notice(event, named.get(user_id, ""), named.get(by_user_id or "", ""))
            source = by_user_id or user_id
            local_id = f"{event}:{session_id}:{user_id}"[:LOCAL_ID_MAX_LENGTH]
            data = {"member": {"event": event, "user_id": user_id}}
            await self.post_notice(session_id, source, local_id, text, data)
        except Exception:
            log.warning("could not post the %s notice in %s", event, session_id, exc_info=True)

    async def member_joined(self, session_id: str, user_id: str, user_type: int) -> None:
        """Someone became a member of a group or chat: its history is not unseen for them,
        and their sockets join its room on every edge."""
        if is_reader(user_type):
            await self.sessions.start_reading(session_id, user_id)
            await self.emitter.follow(user_id, [session_id])

    async def by_ids(
        self,
        caller: Caller | None,
        user_ids: list[str],
        session_ids: list[str],
        session_with_user_ids: list[str],
        item_ids: list[str],
    ) -> dict[str, Any]:
        users = await self.users.by_ids(user_ids)
        wanted_sessions = list({*session_ids, *session_with_user_ids})
        readable = {}
        found = await self.sessions.by_ids(wanted_sessions)
        gone = await self._deleted_posts(found)
        for chat in found:
            membership = (
                await self.sessions.membership(chat["_id"], caller.user["_id"]) if caller else None
            )
            if await self._may_read(caller, chat, membership):
                readable[chat["_id"]] = session_view(
                    chat, membership, post_deleted=_about(chat) in gone
                )
        with_users = {}
        for session_id in session_with_user_ids:
            if session_id in readable:
                members = await self.sessions.member_types(session_id)
                people = {u["_id"]: u for u in await self.users.by_ids(list(members))}
                with_users[session_id] = {
                    "session": readable[session_id],
                    "session_users": [
                        {"user_id": u, "session_user_type": t, "user": user_card(people.get(u))}
                        for u, t in members.items()
                    ],
                }
        items = await self.posts.readable_many(caller, item_ids)
        logged_in = caller is not None
        return {
            "users": {u["_id"]: user_card(u) for u in users},
            "sessions": {sid: readable[sid] for sid in session_ids if sid in readable},
            "session_with_users": with_users,
            "items": {i["_id"]: item_view(i, logged_in=logged_in) for i in items},
        }

    async def members(
        self, caller: Caller | None, session_id: str, cursor: str | None
    ) -> dict[str, Any]:
        """Members of a chat or group in a stable order, with their public cards."""
        chat, _ = await self._readable(caller, session_id)
        page = await self.sessions.members_page(session_id, cursor, MEMBERS_PAGE + 1)
        has_more = len(page) > MEMBERS_PAGE
        page = page[:MEMBERS_PAGE]
        people = {u["_id"]: u for u in await self.users.by_ids([m["user_id"] for m in page])}
        return {
            "session_users": [
                {**membership_view(m, chat), "user": user_card(people.get(m["user_id"]))}
                for m in page
            ],
            "has_more": has_more,
            "cursor": page[-1]["_id"] if has_more else None,
            "session_users_count": await self.sessions.count_members(session_id),
        }

    # Settings and moderation ----------------------------------------------------

    async def update_session(
        self, caller: Caller, session_id: str, changes: dict[str, Any]
    ) -> dict[str, Any]:
        chat, membership = await self._readable(caller, session_id)
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
        updated = await self.sessions.update(session_id, fields) if fields else chat
        await self.shards.forget(session_id)
        view = session_view(updated or chat, membership)
        await self.emitter.to_session(session_id, "session", shared_session_view(view))
        return {"session": view}

    async def offer_given(self, cs_id: str, offer: dict[str, Any]) -> None:
        """The chat remembers its latest offer (`data.last_offer`), so both people's screens
        show it was given, now and after a reload."""
        updated = await self.sessions.update(cs_id, {"data.last_offer": offer})
        if updated is not None:
            view = shared_session_view(session_view(updated, None))
            await self.emitter.to_session(cs_id, "session", view)

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
            raise Forbidden("You are not in this chat")
        if for_user_id is None:
            if notification_flag_value is None:
                raise InvalidInput({"notification_flag": "This field is required"})
            muted = notification_flag_value > 20
            updated = await self.sessions.set_member(
                session_id, user_id, {"notification_flag": notification_flag(muted)}
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
            await self.sessions.remove_member(session_id, for_user_id)
            changed = None
        else:
            changed = await self.sessions.set_member(
                session_id, for_user_id, {"session_user_type": new_type}
            )
        await self.shards.forget(session_id)
        await self._moderated(session_id, for_user_id, target["session_user_type"], new_type)
        if action == "approve" and new_type is not None:
            await self.announce_member(session_id, for_user_id, "approved", user_id)
        chat = await self.sessions.get(session_id) or {}
        # Every screen of the member shows the chat as it now is for them (the composer
        # gives way to 'You cannot send messages here.' at once, and comes back).
        await self.emitter.to_user(for_user_id, "session", session_view(chat, changed))
        return {"is_user_in_session": True, "session_user": membership_view(changed, chat)}

    async def _moderated(
        self, session_id: str, user_id: str, old_type: int, new_type: int | None
    ) -> None:
        """An approved or unblocked member starts following the chat; a blocked or removed
        one stops (their sockets leave its room)."""
        was, now = is_reader(old_type), is_reader(new_type)
        if now and not was:
            await self.member_joined(session_id, user_id, new_type)
        elif was and not now:
            await self.emitter.unfollow(user_id, [session_id])

    async def message_info(
        self, caller: Caller, session_id: str, created_at: int
    ) -> dict[str, Any]:
        _, membership = await self._readable(caller, session_id)
        message = await self.messages.get(session_id, created_at)
        if message is None:
            raise NotFound({"created_at": "No such message"})
        kind = membership["session_user_type"] if membership else None
        is_moderator = kind is not None and kind <= USER_TYPE_MODERATOR
        if not is_moderator and message["src_id"] != caller.user["_id"]:
            raise Forbidden("Only moderators and the sender see delivery details")
        seq = message.get("seq")
        marks = await self.sessions.marks_covering(session_id, seq) if seq is not None else []
        return {"info": delivery(message, marks).info()}

    # Live signals -----------------------------------------------------------------

    async def mark(self, caller: Caller, session_id: str, created_at: int, status: str) -> None:
        """A recipient's screen got (or showed) the messages up to this one: ticks move."""
        if status not in RECEIPT_STATUSES:
            raise InvalidInput({"status": "Unknown delivery status"})
        user_id = caller.user["_id"]
        await self._following(session_id, user_id)
        message = await self.messages.get(session_id, created_at)
        if message is None:
            raise NotFound({"created_at": "No such message"})
        seq = message.get("seq")
        if seq is None:  # stored before messages were numbered: everything up to now
            seq = ((await self.sessions.get(session_id)) or {}).get("message_seq", 0)
        await self._receipt(session_id, user_id, status, seq, message)

    async def _receipt(
        self, session_id: str, user_id: str, status: str, seq: int, last: dict[str, Any]
    ) -> None:
        """Moves the member's mark; when it moved, the senders' screens hear of it (one
        event to the chat's room, covering every message up to `last`)."""
        if await self.sessions.record_receipt(session_id, user_id, status, seq, now_ms()):
            await self.emitter.to_session(
                session_id,
                "message_status",
                {
                    "session_id": session_id,
                    "created_at": last["created_at"],
                    "status": status,
                    "user_id": user_id,
                },
            )

    async def _following(self, session_id: str, user_id: str) -> None:
        """Receipts and typing come from members who follow the chat: not from those blocked
        or still awaiting approval, who may not read it."""
        membership = await self.sessions.membership(session_id, user_id)
        if membership is None or not is_reader(membership["session_user_type"]):
            raise Forbidden("You are not in this chat")

    async def typing(self, caller: Caller, session_id: str) -> None:
        user_id = caller.user["_id"]
        await self._following(session_id, user_id)
        if await self.hints.allow_typing(session_id, user_id, TYPING_INTERVAL_SECONDS):
            await self.emitter.to_session(
                session_id,
                "typing",
                {"session_id": session_id, "user_id": user_id, "name": caller.user["name"]},
            )


def _about(chat: dict[str, Any]) -> str | None:
    """The post an item chat is about; None for groups."""
    is_item_chat = chat.get("kind") == SESSION_KIND_ITEM_CHAT
    return (chat.get("data") or {}).get("item_id") if is_item_chat else None


def _activity(session: dict[str, Any]) -> tuple[int, str]:
    """A chat's place in its members' lists: its latest message (or creation), then its id."""
    return int(session.get("updated_at") or session.get("created_at") or 0), session["_id"]


def _encode_chats_cursor(session: dict[str, Any]) -> str:
    raw = json.dumps(list(_activity(session)))
    return base64.urlsafe_b64encode(raw.encode()).decode()


def _decode_chats_cursor(cursor: str) -> tuple[int, str]:
    try:
        updated_at, session_id = json.loads(base64.urlsafe_b64decode(cursor.encode()))
    except (ValueError, TypeError) as exc:
        raise InvalidInput({"cursor": "This list position is not valid"}) from exc
    if not isinstance(session_id, str):
        raise InvalidInput({"cursor": "This list position is not valid"})
    return bounded_int(updated_at, "cursor"), session_id
