"""Mentions: a message names some of its chat's members (`data.mentions`, user ids), or all of
them (`"all"`, `"here"`, for a group's admins and moderators).

Nothing is written per message and reader: each mentioned membership keeps the numbers
(`seq`) of the messages that mentioned its member (`MENTION_SEQS`), and the session those that
mentioned everyone (`EVERYONE_MENTION_SEQS`), each list the newest `MENTION_SEQS_KEPT`. A
member's mention count is how many of them are past how far the member read, so reading the
chat zeroes it as it zeroes the unseen count.
"""

from collections.abc import Callable, Iterable, Mapping
from typing import Annotated, Any, TypeVar

from pydantic import WithJsonSchema

from agora.core.chat.constants import USER_TYPE_MODERATOR
from agora.core.errors import InvalidInput

# At most this many names in one message.
MENTIONS_MAX = 20
# Mentions everyone: every member counts it and is pushed to (`all`, even with the chat
# muted), or only those around now are (`here`: its push follows each member's mute).
MENTION_ALL = "all"
MENTION_HERE = "here"
MENTION_EVERYONE = (MENTION_ALL, MENTION_HERE)
# The longest id a mention may name (user ids are 24 hex characters).
MENTION_ID_MAX_LENGTH = 64
# The unread mentions a membership (or, for everyone, a session) remembers: a count above it
# shows as this many.
MENTION_SEQS_KEPT = 50
# Where they are kept: on a membership, and on its session.
MENTION_SEQS = "mention_seqs"
EVERYONE_MENTION_SEQS = "everyone_mention_seqs"

EVERYONE_ONLY_FOR_MODERATORS = "Only admins and moderators can mention @all or @here"
TOO_MANY_MENTIONS = f"At most {MENTIONS_MAX} mentions in a message"
MENTIONS_SHAPE = "Send mentions as a list of user ids, 'all' or 'here'"

# `data.mentions` of a sent message (`check_mentions`), for the API document.
Mentions = Annotated[
    Any,
    WithJsonSchema(
        {
            "type": "array",
            "items": {"type": "string", "minLength": 1, "maxLength": MENTION_ID_MAX_LENGTH},
            "maxItems": MENTIONS_MAX,
            "description": "The chat's members it names, by user id; 'all' or 'here' "
            "(a group's admins and moderators) for every member",
        }
    ),
]


def check_mentions(raw: Any) -> dict[str, Any]:
    """A message's `data.mentions` as it is kept (each name once), or nothing without any.
    Whether each id names a member who reads the chat is the shard's to say
    (`kept_mentions`)."""
    if raw is None or raw == []:
        return {}
    if not isinstance(raw, list) or not all(
        isinstance(m, str) and 0 < len(m) <= MENTION_ID_MAX_LENGTH for m in raw
    ):
        raise InvalidInput({"mentions": MENTIONS_SHAPE})
    mentions = list(dict.fromkeys(raw))
    if len(mentions) > MENTIONS_MAX:
        raise InvalidInput({"mentions": TOO_MANY_MENTIONS})
    return {"mentions": mentions}


def mentions_of(data: dict[str, Any] | None) -> list[str]:
    return list((data or {}).get("mentions") or ())


def mentions_everyone(mentions: Iterable[str]) -> bool:
    return any(m in MENTION_EVERYONE for m in mentions)


def everyone_refusal(mentions: list[str], user_type: int | None) -> dict[str, str] | None:
    """`@all` and `@here` are a group's admins' and moderators' only."""
    if mentions_everyone(mentions) and (user_type is None or user_type > USER_TYPE_MODERATOR):
        return {"mentions": EVERYONE_ONLY_FOR_MODERATORS}
    return None


def kept_mentions(mentions: list[str], reads: Callable[[str], bool], sender_id: str) -> list[str]:
    """The mentions a message keeps: everyone, and the members who read the chat (`reads`),
    but the sender. Anyone else is dropped, not refused: a member who left or was blocked
    between the picker and the send leaves the rest of the message as it was written."""
    return [m for m in mentions if m in MENTION_EVERYONE or (m != sender_id and reads(m))]


def mention_count(session: dict[str, Any], membership: dict[str, Any], read_seq: int) -> int:
    """The messages that mentioned the member (by name or everyone) past `read_seq`, how far
    they read (`core.chat.read_through`)."""
    mentioned = {
        *(membership.get(MENTION_SEQS) or ()),
        *(session.get(EVERYONE_MENTION_SEQS) or ()),
    }
    return sum(1 for seq in mentioned if seq > read_seq)


def mentioned_recipients(
    message: dict[str, Any], readers: Iterable[str], muted: Callable[[str], bool]
) -> list[str]:
    """Of the chat's readers, those the message mentions (by name, or all of them with `@all`,
    or with `@here` those who have not muted the chat), the sender aside: each is pushed to
    as mentioned, whether or not they muted the chat ("only mentions")."""
    mentions = mentions_of(message.get("data"))
    if not mentions:
        return []
    named = set(mentions)
    sender = message["src_id"]
    return [
        user_id
        for user_id in readers
        if user_id != sender
        and (
            user_id in named
            or MENTION_ALL in named
            or (MENTION_HERE in named and not muted(user_id))
        )
    ]


def mention_text(sender_name: str) -> str:
    """A mention's push names who mentioned its reader."""
    return f"{sender_name} mentioned you" if sender_name else "You were mentioned"


# The longest text the member picker searches names for (`/session/users`'s `search`).
MEMBER_SEARCH_MAX_LENGTH = 64


Person = TypeVar("Person", bound=Mapping[str, object])


def members_named(people: list[Person], text: str, limit: int) -> list[Person]:
    """The people whose name holds `text` (any case), those whose name or a word of it starts
    with it first, then by name: what the picker offers as one types after `@`."""
    wanted = text.strip().casefold()

    def rank(person: Person) -> tuple[int, str]:
        name = str(person.get("name") or "").casefold()
        starts = name.startswith(wanted) or any(w.startswith(wanted) for w in name.split())
        return (0 if starts else 1, name)

    found = [p for p in people if wanted in str(p.get("name") or "").casefold()]
    return sorted(found, key=rank)[:limit]
