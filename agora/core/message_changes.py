"""Changes to a stored message, the pure part: its sender edits it (for a while) or deletes
it, a group's admins and moderators delete others', and a chat's pinned messages.

The session's shard applies them (`actors/sessions.py`, `change_message`), so that its memory
and the store change together; it decides with these rules and the members it holds.
"""

from typing import Any

from agora.core.chat.access import can_send, is_reader, posting_refusal
from agora.core.chat.constants import (
    MESSAGE_TYPE_BANNER,
    MESSAGE_TYPE_CHAT,
    SESSION_KIND_GROUP,
    USER_TYPE_ADMIN,
    USER_TYPE_MODERATOR,
)
from agora.core.message_kinds import ChatKinds

# How long after sending its sender may edit a message (as WhatsApp allows).
MESSAGE_EDIT_WINDOW_SECONDS = 15 * 60
# Pinned messages a chat keeps at most; the newest pin first.
PINS_MAX = 10
# What shows in place of a deleted message (its bubble, a reply's quote, the chat list).
MESSAGE_DELETED_TEXT = "This message was deleted"

# Members' own words: notices and WhatsApp's messages are neither edited nor deleted (a
# message that reached a customer's WhatsApp cannot be taken back there).
CHANGEABLE_TYPES = frozenset({MESSAGE_TYPE_CHAT, MESSAGE_TYPE_BANNER})

NOT_YOURS_TO_EDIT = "You can only edit your own messages"
EDIT_WINDOW_PASSED = (
    f"Messages can be edited for {MESSAGE_EDIT_WINDOW_SECONDS // 60} minutes after they are sent"
)
NOT_EDITABLE = "This message cannot be edited"
ALREADY_DELETED = "This message was deleted"
NOT_YOURS_TO_DELETE = "You can only delete your own messages"
NOT_DELETABLE = "This message cannot be deleted"
CANNOT_PIN = "Only the group's admins and moderators can pin messages"
CANNOT_PIN_HERE = "Messages cannot be pinned in this chat"
PINS_FULL = f"At most {PINS_MAX} messages can be pinned: unpin one first"
NO_SUCH_MESSAGE = "No such message"


def edit_refusal(
    kinds: ChatKinds,
    session: dict[str, Any],
    actor_type: int | None,
    actor_id: str,
    message: dict[str, Any],
    now: int,
) -> str | None:
    """Why this member may not edit the message now, or None: only its sender, while they
    may still post it there, a text message (not one of files only), within the window."""
    if refusal := posting_refusal(kinds, session, actor_type, message["type"]):
        return refusal
    if message["src_id"] != actor_id:
        return NOT_YOURS_TO_EDIT
    if message.get("deleted_at"):
        return ALREADY_DELETED
    if message["type"] not in CHANGEABLE_TYPES or not message.get("payload"):
        return NOT_EDITABLE
    if now - message["created_at"] > MESSAGE_EDIT_WINDOW_SECONDS * 1000:
        return EDIT_WINDOW_PASSED
    return None


def deletion(
    kinds: ChatKinds,
    session: dict[str, Any],
    actor_type: int | None,
    actor_id: str,
    message: dict[str, Any],
    sender_type: int | None,
) -> tuple[str | None, str | None]:
    """(why the member may not delete the message, or None; who deleted it as the message
    shows it: None for its sender, else "admin" or "moderator").

    A sender deletes their own message whenever they may still post there. In a group, its
    admins and moderators delete the messages of those below them (members, the blocked,
    former members), as they may block them; in an item chat each side only their own
    (a conversation of two, which neither moderates)."""
    if message["type"] not in CHANGEABLE_TYPES:
        return NOT_DELETABLE, None
    if message["src_id"] == actor_id:
        return posting_refusal(kinds, session, actor_type, message["type"]), None
    if not moderates(session, actor_type) or (
        sender_type is not None and sender_type <= (actor_type or 0)
    ):
        return NOT_YOURS_TO_DELETE, None
    return (
        None,
        "admin" if actor_type is not None and actor_type <= USER_TYPE_ADMIN else "moderator",
    )


def moderates(session: dict[str, Any], actor_type: int | None) -> bool:
    """Whether the member is one of an active group's admins or moderators."""
    return (
        session.get("kind") == SESSION_KIND_GROUP
        and not session.get("is_inactive")
        and is_reader(actor_type)
        and actor_type is not None
        and actor_type <= USER_TYPE_MODERATOR
    )


def pin_refusal(
    kinds: ChatKinds, session: dict[str, Any], actor_type: int | None, message: dict[str, Any]
) -> str | None:
    """Why this member may not pin (or unpin) the message, or None: in a group its admins
    and moderators, in an item chat both sides (while they may write there)."""
    if kinds.conversation(session) is not None:
        return CANNOT_PIN_HERE
    if session.get("kind") == SESSION_KIND_GROUP:
        if not moderates(session, actor_type):
            return CANNOT_PIN
    elif actor_type is None or not can_send(session, actor_type):
        return posting_refusal(kinds, session, actor_type, MESSAGE_TYPE_CHAT) or CANNOT_PIN
    if message.get("deleted_at"):
        return ALREADY_DELETED
    return None


def pins_after(
    pins: list[dict[str, Any]], created_at: int, pinned: bool, by: str, at: int
) -> list[dict[str, Any]] | str:
    """The chat's pins after pinning (first: the newest pin) or unpinning the message at
    `created_at`; a text when a pin is refused (the chat has PINS_MAX already)."""
    rest = [pin for pin in pins if pin["created_at"] != created_at]
    if not pinned:
        return rest
    if len(rest) >= PINS_MAX:
        return PINS_FULL
    return [{"created_at": created_at, "by": by, "at": at}, *rest]


def pinned_times(session: dict[str, Any]) -> list[int]:
    """The created_at of each pinned message, the newest pin first."""
    return [pin["created_at"] for pin in session.get("pins") or []]


def edited(payload: str, at: int) -> dict[str, Any]:
    """What an edit sets on the message."""
    return {"payload": payload, "edited_at": at}


def deleted(at: int, by: str | None) -> dict[str, Any]:
    """What a deletion sets on the message; its text goes with it, and what DELETED_CONTENT
    names is removed."""
    return {"payload": "", "deleted_at": at, **({"deleted_by": by} if by else {})}


# A deleted message's content besides its text: its files, its place, what it answered.
DELETED_CONTENT = ("payload1", "data")
