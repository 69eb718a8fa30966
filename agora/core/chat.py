"""Chat rules: who reads and sends where, moderation, message shape and ordering."""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Annotated, Any, NoReturn

from pydantic import WithJsonSchema

from agora.core.constants import (
    CHAT_ATTACHMENTS_MAX,
    ITEM_CHAT_PREFIX,
    LOCAL_ID_MAX_LENGTH,
    LOCATION_ADDRESS_MAX_LENGTH,
    MESSAGE_TEXT_MAX_LENGTH,
    MESSAGE_TYPE_BANNER,
    MESSAGE_TYPE_CHAT,
    MESSAGE_TYPE_SYSTEM,
    NOTIFICATION_MUTED,
    NOTIFICATION_UNMUTED,
    SEND_REPLY_OK,
    SEND_REPLY_REFUSED,
    SESSION_KIND_GROUP,
    SESSION_KIND_ITEM_CHAT,
    USER_TYPE_ADMIN,
    USER_TYPE_AWAITING_APPROVAL,
    USER_TYPE_BLOCKED,
    USER_TYPE_BLOCKED_REVERSIBLE,
    USER_TYPE_MEMBER,
    USER_TYPE_MODERATOR,
)
from agora.core.documents import ChatSession, Item, Membership, Message
from agora.core.errors import Forbidden, InvalidInput
from agora.core.geo import COORDINATE_LIMITS, check_coordinate
from agora.core.mentions import Mentions, check_mentions, mention_count
from agora.core.message_kinds import ChatKinds, KindData, MessageKind
from agora.core.slow_mode import SLOW_MODE_FIELD, slow_mode_seconds
from agora.core.text import CONTROL_CHARACTERS, without_format_characters

CANNOT_SEND = "You cannot send messages here."
BANNER_ADMINS_ONLY = "Only admins can post banners"
NO_SUCH_CHAT = "This chat does not exist"
NOT_IN_THIS_CHAT = "The message answered is not in this chat"


def session_room(session_id: str) -> str:
    return f"s:{session_id}"


def visitor_room(session_id: str) -> str:
    """Where the sockets of a chat's visitors (who read it without following it: the chat is
    open to them) are marked, besides its room: all of them leave at once when it closes."""
    return f"v:{session_id}"


def viewer_room(session_id: str) -> str:
    """Where the sockets of the tabs showing a chat are (the `viewing` event), besides its
    room: typing goes there only, as no other screen shows it (a city group's typing reached
    every member's socket, most of them on other screens)."""
    return f"w:{session_id}"


def heard_rooms(session_ids: Iterable[str]) -> list[str]:
    """The rooms through which a socket hears these chats: a socket that may no longer read
    one leaves them all."""
    return [room for s in session_ids for room in (session_room(s), viewer_room(s))]


def visited_rooms(session_ids: Iterable[str]) -> list[str]:
    """The rooms a visitor's socket leaves when its visit of these chats ends: those it heard
    them through, and their visitors' rooms."""
    ids = list(session_ids)
    return [*heard_rooms(ids), *map(visitor_room, ids)]


def user_room(user_id: str) -> str:
    return f"user:{user_id}"


def item_chat_id(item_id: str, user_id: str) -> str:
    """One chat per post and person asking, so two tabs opening it meet in the same chat."""
    return f"{ITEM_CHAT_PREFIX}{item_id}_{user_id}"


def parse_item_chat_id(session_id: str) -> tuple[str, str] | None:
    if not session_id.startswith(ITEM_CHAT_PREFIX):
        return None
    item_id, sep, user_id = session_id[len(ITEM_CHAT_PREFIX) :].partition("_")
    return (item_id, user_id) if sep and item_id and user_id else None


def open_to_readers(session: dict[str, Any]) -> bool:
    """Anyone may read it: public, or private and letting non-members read."""
    return bool(session.get("is_public") or session.get("is_read_allowed"))


def hidden_from(session: dict[str, Any], user_type: int | None) -> bool:
    """Whether a chat or group is, to this person, as if it did not exist: they hold no
    membership (which would tell them of it) and it is not open to readers. Every path answers
    them as it answers an id that names nothing, so ids cannot be probed for private ones."""
    return user_type is None and not open_to_readers(session)


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


def check_make_public(session: dict[str, Any], user_type: int | None) -> None:
    if session.get("is_inactive"):
        raise Forbidden("This chat is no longer active")
    if session.get("is_read_allowed"):
        raise InvalidInput({"is_read_allowed": "This chat is already public"})
    if user_type is None or user_type > USER_TYPE_ADMIN:
        raise Forbidden("Only the chat's owner can make it public")


def moderated_type(action: str, actor_type: int, target_type: int) -> int | None:
    """The member's new type after `action`, None when it removes them; Forbidden otherwise."""
    if actor_type > USER_TYPE_MODERATOR or target_type <= actor_type:
        raise Forbidden("You cannot moderate this member")
    if action == "approve" and target_type == USER_TYPE_AWAITING_APPROVAL:
        return USER_TYPE_MEMBER
    if action == "reject" and target_type == USER_TYPE_AWAITING_APPROVAL:
        return None
    if action == "block" and target_type <= USER_TYPE_MEMBER:
        return USER_TYPE_BLOCKED_REVERSIBLE
    if action == "unblock" and target_type == USER_TYPE_BLOCKED_REVERSIBLE:
        return USER_TYPE_MEMBER
    if (
        action == "make_moderator"
        and actor_type <= USER_TYPE_ADMIN
        and target_type == USER_TYPE_MEMBER
    ):
        return USER_TYPE_MODERATOR
    raise Forbidden(f"'{action}' does not apply to this member")


def notification_flag(muted: bool) -> int:
    return NOTIFICATION_MUTED if muted else NOTIFICATION_UNMUTED


def is_blocked(user_type: int | None) -> bool:
    return user_type is not None and user_type >= USER_TYPE_BLOCKED


MEMBER_NOTICES = {
    "joined": "{name} joined",
    "asked": "{name} asked to join",
    "approved": "{name} was approved by {by}",
}


def member_notice(event: str, name: str, by: str = "") -> str:
    """The text of a system notice (type 1010) about a member."""
    return MEMBER_NOTICES[event].format(name=name or "Someone", by=by or "a moderator")


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


def member_mention_count(session: ChatSession, membership: Membership | None) -> int:
    """Unread messages that mentioned the member (`core.mentions`), for those who follow the
    chat: zeroed by reading it, as the unseen count is."""
    if membership is None or not is_reader(membership.get("session_user_type")):
        return 0
    return mention_count(session, membership, read_through(session, membership))


def notification_count(session: ChatSession, membership: Membership) -> int:
    """What the chat adds to the red dot on Chats: unseen messages that arrived since its
    member last opened Chats (`seen_seq`); nothing while muted."""
    if is_muted(membership):
        return 0
    seen = max(read_through(session, membership), membership.get("seen_seq", 0))
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


@dataclass(frozen=True)
class Outgoing:
    """A message as a member sends it, validated."""

    session_id: str
    src_id: str
    local_id: str
    type: int
    payload: str
    attachments: tuple[str, ...]
    client_created_at: int | None
    # Spec section 3, Location: {address, latitude, longitude}, kept as `data.location`.
    location: dict[str, Any] | None = None
    # A plug-in kind's `data` as it is stored (its `MessageKind.check`).
    data: dict[str, Any] | None = None


LOCATION_KEYS = {"address", "latitude", "longitude"}


def check_location(raw: Any) -> dict[str, Any]:
    """A shared place: an address as the sender wrote it, and where it is on the map."""
    if not isinstance(raw, dict):
        raise InvalidInput({"location": "Send a location as {address, latitude, longitude}"})
    unknown = sorted(set(raw) - LOCATION_KEYS)
    if unknown:
        raise InvalidInput({"location": f"Unknown field '{unknown[0]}'"})
    address = raw.get("address")
    if not isinstance(address, str) or not address.strip():
        raise InvalidInput({"location": "Enter an address"})
    address = without_format_characters(address).strip()
    if len(address) > LOCATION_ADDRESS_MAX_LENGTH:
        raise InvalidInput({"location": f"At most {LOCATION_ADDRESS_MAX_LENGTH} characters"})
    if CONTROL_CHARACTERS.search(address):
        raise InvalidInput({"location": "The address contains characters that are not allowed"})
    location: dict[str, Any] = {"address": address}
    for name in COORDINATE_LIMITS:
        location[name] = check_coordinate(name, raw.get(name), "location")
    return location


def check_outgoing(
    kinds: ChatKinds,
    *,
    session_id: str,
    src_id: str,
    local_id: str,
    message_type: int,
    payload: str,
    attachments: list[str],
    client_created_at: int | None,
    location: Any = None,
    data: Any = None,
) -> Outgoing:
    """The message as sent, checked on its own; whether the sender may post it in the session
    is the shard's to say (`posting_refusal`), with the session's current members at hand.
    What the message carries besides its text and files is its kind's to check."""
    if not local_id or len(local_id) > LOCAL_ID_MAX_LENGTH:
        raise InvalidInput(
            {"local_id": f"Give each message an id of 1-{LOCAL_ID_MAX_LENGTH} chars"}
        )
    text = without_format_characters(payload).strip()
    if len(text) > MESSAGE_TEXT_MAX_LENGTH:
        raise InvalidInput({"payload": f"At most {MESSAGE_TEXT_MAX_LENGTH} characters"})
    if CONTROL_CHARACTERS.search(text):
        raise InvalidInput({"payload": "Contains characters that are not allowed"})
    if len(attachments) > CHAT_ATTACHMENTS_MAX:
        raise InvalidInput({"payload1": "You can only send upto 3 attachments"})
    check = kinds.message(message_type).check or refuse_unsendable
    location, data = check(message_type, text, attachments, location, data)
    return Outgoing(
        session_id=session_id,
        src_id=src_id,
        local_id=local_id,
        type=message_type,
        payload=text,
        attachments=tuple(attachments),
        client_created_at=client_created_at,
        location=location,
        data=data,
    )


def check_reply_context(raw: Any) -> dict[str, Any]:
    """A reply's `data.context`: `reply_to` is the created_at of the message it answers (that
    it is a message of the same chat, the sender's service looks up)."""
    if raw is None:
        return {}
    if not isinstance(raw, dict) or set(raw) - {"reply_to"}:
        raise InvalidInput({"context": "Send a context as {reply_to}"})
    reply_to = raw.get("reply_to")
    if not isinstance(reply_to, int) or isinstance(reply_to, bool) or reply_to <= 0:
        raise InvalidInput({"context": "reply_to is the created_at of a message"})
    return {"context": {"reply_to": reply_to}}


def reply_to_of(data: dict[str, Any] | None) -> int | None:
    """The created_at of the message a message answers, if it answers one."""
    return ((data or {}).get("context") or {}).get("reply_to")


# What a reply's `data.context` is (`check_reply_context`), for the API document.
ReplyContext = Annotated[
    Any,
    WithJsonSchema(
        {
            "type": "object",
            "properties": {
                "reply_to": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "The created_at of the message of the same chat it answers",
                }
            },
            "required": ["reply_to"],
            "additionalProperties": False,
        }
    ),
]
# A shared place (`check_location`).
Location = Annotated[
    Any,
    WithJsonSchema(
        {
            "type": "object",
            "properties": {
                "address": {"type": "string", "maxLength": LOCATION_ADDRESS_MAX_LENGTH},
                **{
                    name: {"type": "number", "minimum": -limit, "maximum": limit}
                    for name, limit in COORDINATE_LIMITS.items()
                },
            },
            "required": ["address", *COORDINATE_LIMITS],
            "additionalProperties": False,
        }
    ),
]


class ChatMessageData(KindData):
    """A chat message (1003) carries a shared place (its text is optional then), a reply
    the message it answers, and the members it mentions."""

    location: Location = None
    context: ReplyContext = None
    mentions: Mentions = None


class BannerData(KindData):
    """A banner (1100, a group's admins') carries, as a reply, the message it answers, and
    the members it mentions."""

    context: ReplyContext = None
    mentions: Mentions = None


def check_member_extras(
    message_type: int, text: str, attachments: list[str], location: Any, data: Any
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """A chat or banner message's checked location, and the message it answers (`data.context`)
    and the members it mentions (`data.mentions`) as its `data`; its kind's shape
    (`ChatMessageData`, `BannerData`) let nothing else in."""
    if location is not None:
        if message_type != MESSAGE_TYPE_CHAT:
            raise InvalidInput({"location": "Only chat messages carry a location"})
        location = check_location(location)
    if not text and not attachments and location is None:
        raise InvalidInput({"payload": "Write a message, attach a file or share a location"})
    data = data or {}
    checked = check_reply_context(data.get("context")) | check_mentions(data.get("mentions"))
    return location, checked or None


def refuse_unsendable(
    message_type: int, text: str, attachments: list[str], location: Any, data: Any
) -> NoReturn:
    """A type members may not send (a notice, or a type no kind has): refused once the
    member's checks have spoken, as they are for any message."""
    check_member_extras(message_type, text, attachments, location, data)
    raise InvalidInput({"_type": "Unsupported message type"})


# The chat's own kinds; features bring theirs (`core.message_kinds`).
CHAT_MESSAGE_KINDS = (
    MessageKind(MESSAGE_TYPE_CHAT, data=ChatMessageData, check=check_member_extras),
    MessageKind(
        MESSAGE_TYPE_BANNER, data=BannerData, check=check_member_extras, refusal=banner_refusal
    ),
    # Notices (joins, offers) are not pushed: offers have a push of their own.
    MessageKind(MESSAGE_TYPE_SYSTEM, by_service=True, pushed=False),
)


def announced_seq(session: dict[str, Any]) -> int:
    """How far the session's messages are known to have been announced; messages after it
    were stored by a shard that may have died before its fan-out. A session stored before
    announcements were recorded counts as announced up to its last message."""
    return session.get("announced_seq", session.get("message_seq", 0))


def next_created_at(now: int, last: int) -> int:
    """Strictly increasing within a session, whatever the clock does."""
    return max(now, last + 1)


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


def item_chat_session(
    item: dict[str, Any], asker_id: str, route_id: str | None, at: int
) -> dict[str, Any]:
    files = item.get("files") or []
    return {
        "_id": item_chat_id(item["_id"], asker_id),
        "kind": SESSION_KIND_ITEM_CHAT,
        "title": item.get("title", ""),
        "description": (item.get("description") or "")[:140],
        "image": files[0].get("thumbnail") or files[0].get("url") if files else "",
        "files": [],
        "is_public": False,
        "is_read_allowed": False,
        "write_permission": USER_TYPE_MEMBER,
        "created_at": at,
        "updated_at": at,
        "is_inactive": False,
        "data": {
            "item_id": item["_id"],
            "owner_id": item["user_id"],
            "user_id": asker_id,
            "route_id": route_id,
            "group_id": item.get("group_id"),
        },
    }


def item_chat_members(item: Item, asker_id: str) -> dict[str, int]:
    """The poster owns the chat (may make it public); the asker is a member."""
    return {item["user_id"]: USER_TYPE_ADMIN, asker_id: USER_TYPE_MEMBER}


# Delivery ticks ------------------------------------------------------------------------
#
# Nothing is written per message and reader: each membership keeps how far its member's
# screens received (`delivered_seq`) and read (`read_seq`) the session's numbered messages,
# with the times of its latest receipts (`delivered_marks` / `read_marks`, {seq, at}).
# A message's status follows from the other members' marks, as in Telegram's groups: read
# once any other member read it, delivered once any other member's screen received it.

RECEIPT_STATUSES = ("delivered", "read")


@dataclass(frozen=True)
class Delivery:
    """Who read and who (only) received one message, each with when if known."""

    read: tuple[tuple[str, int | None], ...]
    delivered: tuple[tuple[str, int | None], ...]

    @property
    def status(self) -> str:
        if self.read:
            return "read"
        return "delivered" if self.delivered else "sent"

    def info(self) -> dict[str, list[dict[str, Any]]]:
        """The message info view (GET /session/im_info), earliest first."""
        return {
            "read": _by_time(self.read),
            "delivered": _by_time(self.delivered),
        }


def delivery(message: dict[str, Any], marks: list[dict[str, Any]]) -> Delivery:
    """The one place ticks and the info view come from: `marks` are memberships (at least
    the furthest ones) with their `read_seq`, `delivered_seq` and receipt times."""
    seq = message.get("seq")
    if seq is None:  # stored before messages were numbered: the receipts it kept itself
        return _legacy(message)
    read: list[tuple[str, int | None]] = []
    delivered: list[tuple[str, int | None]] = []
    for mark in marks:
        if mark["user_id"] == message["src_id"]:
            continue
        if mark.get("read_seq", 0) >= seq:
            read.append((mark["user_id"], _receipt_time(mark.get("read_marks"), seq)))
        elif mark.get("delivered_seq", 0) >= seq:
            delivered.append((mark["user_id"], _receipt_time(mark.get("delivered_marks"), seq)))
    return Delivery(read=tuple(read), delivered=tuple(delivered))


# A receipt as far as this many other members' marks moves no tick: one of them did not send
# the message, whose tick shows their mark already.
MARKS_DECIDING_A_TICK = 2


def mark_of(user_id: str, status: str, seq: int) -> dict[str, Any]:
    """A membership's mark after a receipt (reading implies receiving)."""
    mark = {"user_id": user_id, "delivered_seq": seq}
    return {**mark, "read_seq": seq} if status == "read" else mark


def is_behind(membership: dict[str, Any] | None, mark: Any) -> bool:
    """Whether a receipt (`status`, `seq`) would move this membership's mark (as read)."""
    return membership is not None and membership.get(f"{mark.status}_seq", 0) < mark.seq


def moves_a_tick(user_id: str, status: str, seq: int, marks: list[dict[str, Any]]) -> bool:
    """Whether a member's receipt up to message number `seq` may change any message's tick,
    given the furthest other marks (`SessionStore.furthest_marks`): in a big group the first
    receipts for a message move its tick, the hundreds after them nothing."""
    field = f"{status}_seq"
    as_far = {m["user_id"] for m in marks if m["user_id"] != user_id and m.get(field, 0) >= seq}
    return len(as_far) < MARKS_DECIDING_A_TICK


def marks_with_senders(session: ChatSession, marks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The members' marks with what the chat keeps of its senders (`sent_seq`): a member
    who sent message n has read and received everything up to it, as a reply shows."""
    sent = session.get(SENT_SEQ) or {}
    if not sent:
        return marks
    found = {mark["user_id"]: mark for mark in marks}
    for user_id in sent:
        found.setdefault(user_id, {"user_id": user_id})
    return [
        {
            **mark,
            "read_seq": read_through(session, mark),
            "delivered_seq": max(mark.get("delivered_seq", 0), sent.get(mark["user_id"], 0)),
        }
        for mark in found.values()
    ]


def message_view_for(
    message: dict[str, Any], marks: list[dict[str, Any]], kinds: ChatKinds
) -> dict[str, Any]:
    """A message as read back: its tick derived from the members' marks."""
    view = message_view(message, kinds)
    view["flags"] = {**view["flags"], "status": delivery(message, marks).status}
    return view


def _receipt_time(receipts: list[dict[str, int]] | None, seq: int) -> int | None:
    """When the first receipt that covered message `seq` came, if still remembered."""
    return next((r["at"] for r in receipts or [] if r["seq"] >= seq), None)


def _by_time(entries: tuple[tuple[str, int | None], ...]) -> list[dict[str, Any]]:
    ordered = sorted(entries, key=lambda entry: (entry[1] is None, entry[1] or 0, entry[0]))
    return [{"user_id": user_id, "at": at} for user_id, at in ordered]


def _legacy(message: dict[str, Any]) -> Delivery:
    info = message.get("info") or {}
    read = tuple((u, at) for u, at in (info.get("read") or {}).items())
    delivered = tuple(
        (u, at) for u, at in (info.get("delivered") or {}).items() if u not in dict(read)
    )
    return Delivery(read=read, delivered=delivered)
