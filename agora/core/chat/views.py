"""What clients see of a session and a message, and the replies to a send."""

from typing import Any

from agora.core.chat.access import can_send
from agora.core.chat.constants import SEND_REPLY_OK, SEND_REPLY_REFUSED, USER_TYPE_MEMBER
from agora.core.chat.counts import member_mention_count, unseen_count
from agora.core.chat.receipts import delivery
from agora.core.documents import ChatSession, Membership, Message
from agora.core.message_kinds import ChatKinds
from agora.core.slow_mode import SLOW_MODE_FIELD, slow_mode_seconds

# What an edit or a deletion adds to a message (`core.message_changes`).
CHANGED_FIELDS = ("edited_at", "deleted_at", "deleted_by")


def message_view(message: Message, kinds: ChatKinds) -> dict[str, Any]:
    """A message as clients see it, with what its kind adds (an agent's WhatsApp message
    shows its flags, `info`: its ticks come from them)."""
    view = {
        "id": message["_id"],
        "dest_session_id": message["dest_session_id"],
        "src_id": message["src_id"],
        "local_id": message.get("local_id"),
        "created_at": message["created_at"],
        "type": message["type"],
        "payload": message.get("payload", ""),
        "payload1": message.get("payload1", []),
        # Messages are stored without flags (older ones with these): the status a reader sees
        # comes from the members' marks (`message_view_for`).
        "flags": message.get("flags") or {"status": "sent"},
        "data": message.get("data", {}),
        # An edited or deleted message says when (and a deletion by whom, when not its sender).
        **{key: message[key] for key in CHANGED_FIELDS if key in message},
    }
    extras = kinds.message(message["type"]).view
    return view | extras(message) if extras is not None else view


def send_accepted(
    message: dict[str, Any], *, new_session_created: bool | None = None
) -> dict[str, Any]:
    """The reply to a send the shard accepted (spec: type 13 with `inbox_message`, a message
    view); the edge adds whether the send made the item chat real."""
    reply = {"type": SEND_REPLY_OK, "inbox_message": message}
    if new_session_created is None:
        return reply
    return {**reply, "new_session_created": new_session_created, "is_user_in_session": True}


def send_refused(errors: Any, *, retry_after_ms: int | None = None) -> dict[str, Any]:
    """The reply to a refused send: type -1 with `errors`; with `retry_after_ms` when it may
    be sent after that long (slow mode)."""
    reply = {"type": SEND_REPLY_REFUSED, "errors": errors}
    return reply if retry_after_ms is None else reply | {"retry_after_ms": retry_after_ms}


def session_view(
    session: dict[str, Any],
    membership: dict[str, Any] | None,
    *,
    kinds: ChatKinds,
    post_deleted: bool = False,
    readable: bool = True,
) -> dict[str, Any]:
    """A chat session for one viewer (spec section 3, Session). An item chat whose post was
    deleted says so (`data.item_deleted`): its history stays readable. A viewer who may not
    read it (`readable`, from `may_read`) sees nothing of its messages: not when the latest
    came (`seen_time`), nor any unseen count (only followers, who all may read, have one).
    A kind of conversation a feature brings is named (`kind`), and shows its own `data`."""
    kind = membership["session_user_type"] if membership else None
    data = session.get("data") or {}
    conversation = kinds.conversation(session)
    shown = conversation.view_data if conversation is not None else ()
    view = {
        "_id": session["_id"],
        "title": session.get("title", ""),
        "description": session.get("description", ""),
        "image": session.get("image", ""),
        "files": session.get("files", []),
        "is_public": bool(session.get("is_public")),
        "is_read_allowed": bool(session.get("is_read_allowed")),
        "write_permission": session.get("write_permission", USER_TYPE_MEMBER),
        "created_at": session.get("created_at"),
        "updated_at": seen_time(session, membership, readable),
        "is_inactive": bool(session.get("is_inactive")),
        "is_dummy": bool(session.get("is_dummy")),
        SLOW_MODE_FIELD: slow_mode_seconds(session),
        "session_user_type": kind,
        "can_send": can_send(session, kind) if not session.get("is_dummy") else True,
        "unseen_count": unseen_count(session, membership),
        "mention_count": member_mention_count(session, membership),
        "notification_flag": membership.get("notification_flag") if membership else None,
        "data": {
            key: data[key]
            for key in (
                "item_id",
                "owner_id",
                "user_id",
                "route_id",
                "tags",
                "num_posts",
                "last_offer",
                *shown,
            )
            if key in data
        }
        | ({"item_deleted": True} if post_deleted else {}),
    }
    if conversation is not None:
        # The web draws it with the feature's conversation kind.
        view["kind"] = conversation.name
    return view


def seen_time(session: ChatSession, membership: Membership | None, readable: bool) -> int:
    """When a chat last changed as its viewer may know it, which places it in their chat
    list: its latest message (or its creation); for a viewer who may not read it, the time
    of their membership (when they asked to join, say) or its creation, never a message's."""
    if readable:
        return int(session.get("updated_at") or session.get("created_at") or 0)
    return int((membership or {}).get("updated_at") or session.get("created_at") or 0)


VIEWER_FIELDS = (
    "session_user_type",
    "can_send",
    "unseen_count",
    "mention_count",
    "notification_flag",
)


def shared_session_view(view: dict[str, Any]) -> dict[str, Any]:
    """A session view without what belongs to one viewer, for everyone in its room."""
    return {key: value for key, value in view.items() if key not in VIEWER_FIELDS}


def message_view_for(
    message: dict[str, Any], marks: list[dict[str, Any]], kinds: ChatKinds
) -> dict[str, Any]:
    """A message as read back: its tick derived from the members' marks."""
    view = message_view(message, kinds)
    view["flags"] = {**view["flags"], "status": delivery(message, marks).status}
    return view
