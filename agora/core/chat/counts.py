"""How a session numbers its messages and how far each member read: unseen counts and the red
dot, with nothing written per message and member."""

from typing import Any

from agora.core.chat.access import is_reader
from agora.core.chat.constants import NOTIFICATION_UNMUTED, SESSION_KIND_GROUP
from agora.core.documents import ChatSession, Membership
from agora.core.mentions import mention_count

# Where a session keeps how far each sender read: the number of their latest message,
# written with the session's count (one write per batch, not one more per sender).
SENT_SEQ = "sent_seq"


def has_no_messages(session: ChatSession) -> bool:
    """Whether the session surely has no message: stored since sessions are counted (they
    start with `announced_seq`) and none counted yet. A chat list row then reads none (most
    of a seller's chats are asked about and never written in)."""
    return not session.get("message_seq") and "announced_seq" in session


def keeps_senders_marks(session: ChatSession) -> bool:
    """Chats keep their senders' marks themselves; a group, whose senders may number in the
    thousands, moves each sender's membership instead (`read_seq`)."""
    return session.get("kind") != SESSION_KIND_GROUP


def read_through(session: ChatSession, membership: Membership) -> int:
    """How far the member has read: their screens' mark, or their own latest message."""
    sent = (session.get(SENT_SEQ) or {}).get(membership["user_id"], 0)
    return max(membership.get("read_seq", 0), sent)


def unseen_count(session: ChatSession, membership: Membership | None) -> int:
    """Messages of others the member has not read. The session numbers its messages
    (`message_seq`) and keeps how far each member read (`read_through`), so nothing is
    written per message and member."""
    if membership is None:
        return 0
    return _messages_after(session, membership, read_through(session, membership))


def member_mention_count(
    session: ChatSession, membership: Membership | None, past: int | None = None
) -> int:
    """Unread messages that mentioned the member (`core.mentions`), for those who follow the
    chat: zeroed by reading it, as the unseen count is; with `past`, only those after it."""
    if membership is None or not is_reader(membership.get("session_user_type")):
        return 0
    read = read_through(session, membership) if past is None else past
    return mention_count(session, membership, read)


def notification_count(session: ChatSession, membership: Membership) -> int:
    """What the chat adds to the red dot on Chats: unseen messages that arrived since its
    member last opened Chats (`seen_seq`); while muted ("only mentions"), only those that
    mentioned the member."""
    seen = max(read_through(session, membership), membership.get("seen_seq", 0))
    if is_muted(membership):
        return member_mention_count(session, membership, seen)
    return _messages_after(session, membership, seen)


def red_dot_count(followed: list[tuple[ChatSession, Membership]]) -> int:
    """The red dot on Chats: what each followed chat (session, membership) adds to it."""
    return sum(notification_count(c, m) for c, m in followed)


def is_muted(membership: Membership) -> bool:
    return membership.get("notification_flag", NOTIFICATION_UNMUTED) > NOTIFICATION_UNMUTED


def _messages_after(session: dict[str, Any], membership: dict[str, Any], seq: int) -> int:
    if not is_reader(membership.get("session_user_type")):
        return 0
    return max(0, session.get("message_seq", 0) - seq)


def announced_seq(session: dict[str, Any]) -> int:
    """How far the session's messages are known to have been announced; messages after it
    were stored by a shard that may have died before its fan-out. A session stored before
    announcements were recorded counts as announced up to its last message."""
    return session.get("announced_seq", session.get("message_seq", 0))


def next_created_at(now: int, last: int) -> int:
    """Strictly increasing within a session, whatever the clock does."""
    return max(now, last + 1)
