"""This edge's copies of chats (groups, item chats, business chats) and memberships: what
nearly every request checks (may the caller read this chat, post in it, follow it) without a
MongoDB round trip.

They are exact, not merely recent: every store write that changes a chat or a membership
announces its id on one channel (`<prefix>sessions-changed`: a chat by its id, a membership
by `membership_id`, session and user), the writing process drops its own copy before the
write returns (an edge whose shard wrote a chat's pins drops it as the shard answers), and
every other edge drops it as the announcement arrives (`store/announced_copies.py`). Copies
are served only while the edge's subscription is confirmed. The counters that move with
every message (a chat's `message_seq` and `sent_seq`, a member's read and delivery marks)
are not announced: what a copy shows of them may be behind, so a chat is served without
them (`SessionStore.chat`), a chat's senders' marks come with its furthest marks
(`SessionStore.ticks_marks`), and nothing checks a membership's marks from a copy but the
receipts, which write by compare-and-set.

Which chats a person is in is known the same way (`SessionCopies.chats_of`): read with all of
their memberships, then added to by every membership's announcement, which names its session
and user. Their memberships themselves are not served from there: a chat list shows their
marks, which move unannounced, so it reads the memberships as stored in the same command as
those chats (`SessionStore.followed_whole`).

The age bound is a safety net for writes made behind the stores' back (a migration, an
operator's hand edit), which nothing announces: they show once it passes.
"""

from collections.abc import Iterable
from typing import Any

from redis.asyncio import Redis

from agora.core.chat.receipts import RECEIPT_TIMES
from agora.store.announced_copies import ANNOUNCED_COPY_SECONDS, AnnouncedCopies
from agora.store.local_copies import LocalCopies
from agora.store.redis import Keys

# An edge's readers' memberships, the members of the chats whose receipts it decides, and
# their chats.
SESSION_COPIES = 50_000
# The people whose chats this edge knows (`SessionCopies.chats_of`): those it serves.
PEOPLE_COPIES = 10_000


def membership_id(session_id: str, user_id: str) -> str:
    return f"{session_id}:{user_id}"


def membership_parts(key: str) -> tuple[str, str] | None:
    """The session and user a membership's id names; None for a chat's id (user ids are
    ObjectId text, with no colon)."""
    session_id, colon, user_id = key.rpartition(":")
    return (session_id, user_id) if colon and session_id and user_id else None


class SessionCopies(AnnouncedCopies[dict[str, Any]]):
    """The copies of chats and memberships, and each person's chats: the ids of the chats
    their memberships are of, as this edge last read them all (`keep_chats_of`), with every
    chat they joined since, which its membership's announcement names. So a person's chats
    can be read in the same command as their memberships (a chat list read the memberships,
    then their chats). A chat they left since stays among them until the next read; a
    membership written behind the stores' back is missed until then: whoever reads the
    memberships with them reads the chats of any they did not name afterwards."""

    def __init__(self, redis: Redis, channel: str) -> None:
        super().__init__(
            "group or membership",
            redis,
            channel,
            # A stranger's membership is no membership, read by every page they open.
            keep_missing=True,
            max_copies=SESSION_COPIES,
        )
        self._chats_of: LocalCopies[tuple[str, ...]] = LocalCopies(
            "a person's chats",
            fresh_for=ANNOUNCED_COPY_SECONDS,
            refresh_after=ANNOUNCED_COPY_SECONDS,
            max_copies=PEOPLE_COPIES,
        )

    def chats_of(self, user_id: str) -> tuple[str, ...] | None:
        """The chats of the person's memberships as far as this edge knows; None when it does
        not (or hears no announcements)."""
        return self._chats_of.peek(user_id) if self.listening else None

    def keep_chats_of(self, user_id: str, session_ids: Iterable[str], since: int) -> None:
        """The chats of all of the person's memberships, as read after `since`; with those this
        edge knew of besides when a change was heard meanwhile (a join written after the read
        was heard already)."""
        if not self.listening:
            return
        known = tuple(dict.fromkeys(session_ids))
        if self.since() != since:
            known = tuple(dict.fromkeys((*known, *(self._chats_of.peek(user_id) or ()))))
        self._chats_of.put(user_id, known)

    def _heard(self, key: str) -> None:
        super()._heard(key)
        if (parts := membership_parts(key)) is None:
            return
        session_id, user_id = parts
        known = self._chats_of.peek(user_id)
        if known is not None and session_id not in known:
            self._chats_of.put(user_id, (*known, session_id))

    def _forget(self) -> None:
        super()._forget()
        self._chats_of.clear()


# What a membership's copy is read without: its latest receipts' numbers and times (up to
# 2 x 2 x 20 numbers, ~9 kB of a copy in a busy chat), which receipts append to in the store
# without reading them and the message info view reads from the store (`marks_covering`).
MEMBERSHIP_COPIED = {name: 0 for names in RECEIPT_TIMES.values() for name in names}


def session_copies(redis: Redis, keys: Keys) -> SessionCopies:
    return SessionCopies(redis, keys("sessions-changed"))
