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

The age bound is a safety net for writes made behind the stores' back (a migration, an
operator's hand edit), which nothing announces: they show once it passes.
"""

from typing import Any

from redis.asyncio import Redis

from agora.core.chat.receipts import RECEIPT_TIMES
from agora.store.announced_copies import AnnouncedCopies
from agora.store.redis import Keys

# An edge's readers' memberships, the members of the chats whose receipts it decides, and
# their chats.
SESSION_COPIES = 50_000

SessionCopies = AnnouncedCopies[dict[str, Any]]

# What a membership's copy is read without: its latest receipts' numbers and times (up to
# 2 x 2 x 20 numbers, ~9 kB of a copy in a busy chat), which receipts append to in the store
# without reading them and the message info view reads from the store (`marks_covering`).
MEMBERSHIP_COPIED = {name: 0 for names in RECEIPT_TIMES.values() for name in names}


def session_copies(redis: Redis, keys: Keys) -> SessionCopies:
    return AnnouncedCopies(
        "group or membership",
        redis,
        keys("sessions-changed"),
        # A stranger's membership is no membership, read by every page they open.
        keep_missing=True,
        max_copies=SESSION_COPIES,
    )
