"""Who reads and who sends where: the one read rule (`may_read`) and the send rule, with the
refusals they answer."""

from typing import Any

from agora.core.chat.constants import (
    SESSION_KIND_ITEM_CHAT,
    USER_TYPE_ADMIN,
    USER_TYPE_BLOCKED,
    USER_TYPE_MEMBER,
)
from agora.core.documents import ChatSession, Membership
from agora.core.message_kinds import ChatKinds

CANNOT_SEND = "You cannot send messages here."
BANNER_ADMINS_ONLY = "Only admins can post banners"
NO_SUCH_CHAT = "This chat does not exist"


def hidden_from(session: dict[str, Any], user_type: int | None) -> bool:
    """Whether a chat or group is, to this person, as if it did not exist: they hold no
    membership (which would tell them of it) and it is not open to readers. Every path answers
    them as it answers an id that names nothing, so ids cannot be probed for private ones."""
    return user_type is None and not is_open(session)


def can_send(session: dict[str, Any], user_type: int | None) -> bool:
    """Spec section 6: public sessions, or a type within the write permission; never the
    blocked or those awaiting approval, and never in an inactive session."""
    if session.get("is_inactive"):
        return False
    if user_type is not None and user_type > USER_TYPE_MEMBER:
        return False
    if session.get("is_public"):
        return True
    return user_type is not None and user_type <= session.get("write_permission", 0)


def posting_refusal(
    kinds: ChatKinds, session: dict[str, Any], user_type: int | None, message_type: int
) -> str | None:
    """Why this member may not post a message of this type in the session, or None.

    Kinds services post (system notices, a WhatsApp customer's message) come from services,
    never from clients (the edge refuses them: `check_outgoing`), so they are not bound by the
    sender's membership.

    A chat hidden from the sender is refused as a missing one is (NO_SUCH_CHAT). A kind of
    conversation a feature brings takes only its own types (a business chat, WhatsApp's:
    a 1003 there would never reach the customer); then the message's kind decides, or the
    chat's write permission."""
    kind = kinds.message(message_type)
    if kind.by_service:
        return None
    if hidden_from(session, user_type):
        return NO_SUCH_CHAT
    conversation = kinds.conversation(session)
    if conversation is not None and message_type not in conversation.takes:
        return conversation.refused
    if kind.refusal is not None:
        return kind.refusal(session, user_type)
    return None if can_send(session, user_type) else CANNOT_SEND


def banner_refusal(session: dict[str, Any], user_type: int | None) -> str | None:
    if user_type is None or user_type > USER_TYPE_ADMIN:
        return BANNER_ADMINS_ONLY
    return None if can_send(session, user_type) else CANNOT_SEND


def is_blocked(user_type: int | None) -> bool:
    return user_type is not None and user_type >= USER_TYPE_BLOCKED


def is_reader(user_type: int | None) -> bool:
    """Members who follow a chat: their sockets sit in its room, its messages count as unseen
    for them and are pushed to them. Each of them may read it (`may_read`'s first clause);
    those awaiting approval or blocked never follow."""
    return user_type is not None and user_type <= USER_TYPE_MEMBER


def may_read(
    session: ChatSession, membership: Membership | None, *, post_readable: bool = False
) -> bool:
    """The one read rule of a session's content: a group's posts, and every part of a chat's
    messages (text, sender, files, when they came, how many are unseen) on every path that
    shows one (pages, message info, the chat list, lookups, socket rooms, pushes).

    Its members read it; anyone else (awaiting approval, blocked, a former member, a
    stranger, a visitor) only a public or read-allowed session, and a public item chat only
    if they may also read its post (`post_readable`: the chat shows the post's title and
    description; `core.items.can_read_post`), which the caller finds out when this rule
    holds with it and not without."""
    if is_reader(membership["session_user_type"] if membership else None):
        return True
    if not is_open(session):
        return False
    return post_readable or session.get("kind") != SESSION_KIND_ITEM_CHAT


def is_open(session: ChatSession) -> bool:
    """Whether the session lets non-members read it (an item chat: those who may read its
    post); when it stops, its visitors stop reading it (`visitor_room`)."""
    return bool(session.get("is_public") or session.get("is_read_allowed"))
