"""The chat list: a user's chats by latest activity (`ChatList`), and their unseen counts
(`UnseenCounts`)."""

import asyncio
import base64
import json
from collections.abc import Awaitable
from typing import Any

from agora.actors.client import SessionShards
from agora.core.chat.constants import CHATS_PAGE
from agora.core.chat.counts import has_no_messages, is_muted, notification_count, red_dot_count
from agora.core.chat.receipts import marks_with_senders
from agora.core.chat.views import message_view_for, seen_time, session_view
from agora.core.errors import InvalidInput
from agora.core.message_kinds import ChatKinds
from agora.core.numbers import bounded_int
from agora.realtime.emitter import RealtimeEmitter
from agora.services.accounts import Caller
from agora.services.chat.access import ChatAccess, deleted_posts, post_of
from agora.services.chat.ticks import Ticks
from agora.services.items import PostReader
from agora.store.messages import MessageStore
from agora.store.sessions import CHATS_READ_WHOLE, SessionStore


class ChatList:
    def __init__(
        self,
        *,
        access: ChatAccess,
        posts: PostReader,
        sessions: SessionStore,
        messages: MessageStore,
        shards: SessionShards,
        emitter: RealtimeEmitter,
        kinds: ChatKinds,
        ticks: Ticks,
    ) -> None:
        self.access = access
        self.posts = posts
        self.sessions = sessions
        self.messages = messages
        self.shards = shards
        self.emitter = emitter
        self.kinds = kinds
        self.ticks = ticks

    async def chats(self, caller: Caller, cursor: str | None) -> dict[str, Any]:
        """The user's chats, latest activity first, in pages after the (updated_at, id) cursor.

        Memberships are not touched per message, so the order comes from the sessions: all
        of the user's memberships and their sessions' counters are read and sorted (a person
        has at most a few thousand chats), and the page's sessions are then read in full;
        most people have no more chats than `CHATS_READ_WHOLE`, and theirs are read whole at
        once.
        A chat the user may not read (asked to join, blocked) stays listed, so that they see
        their request or block, with nothing of its messages: no `last_message`, no unseen
        count, and the time of their membership in place of the chat's latest activity.
        """
        user_id = caller.user["_id"]
        before = _decode_chats_cursor(cursor) if cursor else None
        followed, whole = await self.sessions.followed_whole(user_id, CHATS_READ_WHOLE)
        readable = await self.access.may_read_all(caller, followed)
        rows = [((seen_time(c, m, c["_id"] in readable), c["_id"]), c, m) for c, m in followed]
        rows.sort(key=lambda row: row[0], reverse=True)
        if before is not None:
            rows = [row for row in rows if row[0] < before]
        page = rows[:CHATS_PAGE]
        has_more = len(rows) > CHATS_PAGE
        # Reads that do not wait for each other go at once: each waits its turn at the store
        # behind everyone else's, and the list is one of the app's most frequent calls.
        reads: list[Awaitable[Any]] = [self._whole([c for _, c, _ in page], whole)]
        if cursor is None:
            reads.append(self._notifications_seen(user_id, followed))
        found, *_ = await asyncio.gather(*reads)
        chats = {c["_id"]: c for c in found}
        memberships = {c["_id"]: m for _, c, m in page}
        shown = [chats[i] for i in chats if i in readable]
        gone, last = await asyncio.gather(
            deleted_posts(self.posts, chats.values()),
            self._last_messages(user_id, shown, memberships),
        )
        return {
            "sessions": [
                session_view(
                    chats[c["_id"]],
                    m,
                    kinds=self.kinds,
                    post_deleted=post_of(chats[c["_id"]]) in gone,
                    readable=c["_id"] in readable,
                )
                | ({"last_message": last[c["_id"]]} if c["_id"] in last else {})
                for _, c, m in page
                if c["_id"] in chats
            ],
            "cursor": _encode_chats_cursor(page[-1][0]) if has_more else None,
            "has_more": has_more,
        }

    async def _whole(self, sessions: list[dict[str, Any]], whole: bool) -> list[dict[str, Any]]:
        """The page's sessions in full: as read, when they were read whole."""
        return sessions if whole else await self.sessions.by_ids([c["_id"] for c in sessions])

    async def _last_messages(
        self, user_id: str, chats: list[dict[str, Any]], memberships: dict[str, dict[str, Any]]
    ) -> dict[str, dict]:
        """Each chat's newest message as a chat list row shows it, ticked like in the chat.
        Another's newest message reached the user's screen with the list: it is delivered
        (as a poll of the chat's new messages), and its sender's tick moves."""

        held = await self.shards.newest([c["_id"] for c in chats if self.kinds.kept_as_stored(c)])

        async def newest(chat: dict[str, Any]) -> dict[str, Any] | None:
            message = held.get(chat["_id"])
            # A chat written in through this edge is known held (`SessionShards`) and its
            # newest comes from its shard at once; for another, no send of it is under way
            # here, so its count tells that it has none (counts follow acknowledgements).
            asked_of_shards = self.kinds.kept_as_stored(chat)
            if message is None and not (asked_of_shards and has_no_messages(chat)):
                message = next(iter(await self.messages.newest(chat["_id"], 1)), None)
            if message is None:
                return None
            if message["src_id"] != user_id:
                self._listed(memberships[chat["_id"]], message)
                return message_view_for(message, [], self.kinds)
            marks = marks_with_senders(chat, await self.sessions.furthest_marks(chat["_id"]))
            return message_view_for(message, marks, self.kinds)

        views = await asyncio.gather(*(newest(chat) for chat in chats))
        return {c["_id"]: view for c, view in zip(chats, views, strict=True) if view is not None}

    def _listed(self, membership: dict[str, Any], message: dict[str, Any]) -> None:
        """A `delivered` receipt for a listed message, unless the member's mark covers it:
        written behind, as a screen's receipts are (the list waited for each row's write)."""
        seq = message.get("seq")
        if seq is not None and seq > membership.get("delivered_seq", 0):
            self.ticks.receipt_behind(membership, "delivered", seq, message)

    async def _notifications_seen(
        self, user_id: str, followed: list[tuple[dict[str, Any], dict[str, Any]]]
    ) -> None:
        """Opening Chats clears the red dot: what counted for it so far no longer does."""
        await self.sessions.mark_seen(
            {
                m["_id"]: counters.get("message_seq", 0)
                for counters, m in followed
                if notification_count(counters, m)
            }
        )
        await self.emitter.to_user(user_id, "unseen", {"notifications_unseen_count": 0})


class UnseenCounts:
    def __init__(self, *, sessions: SessionStore) -> None:
        self.sessions = sessions

    async def notifications_unseen(self, user_id: str) -> int:
        """The red dot's count (spec: `data.notifications_unseen_count`), taken when asked."""
        return red_dot_count(await self.sessions.followed(user_id))

    async def unseen_summary(self, user_id: str) -> dict[str, Any]:
        """What a screen needs to keep the red dot itself from `message` events: the count
        now, and the chats that must not raise it (muted)."""
        followed = await self.sessions.followed(user_id)
        return {
            "notifications_unseen_count": red_dot_count(followed),
            "muted_session_ids": [m["session_id"] for _, m in followed if is_muted(m)],
        }


def _encode_chats_cursor(row_time: tuple[int, str]) -> str:
    raw = json.dumps(list(row_time))
    return base64.urlsafe_b64encode(raw.encode()).decode()


def _decode_chats_cursor(cursor: str) -> tuple[int, str]:
    try:
        updated_at, session_id = json.loads(base64.urlsafe_b64decode(cursor.encode()))
    except (ValueError, TypeError) as exc:
        raise InvalidInput({"cursor": "This list position is not valid"}) from exc
    if not isinstance(session_id, str):
        raise InvalidInput({"cursor": "This list position is not valid"})
    return bounded_int(updated_at, "cursor"), session_id
