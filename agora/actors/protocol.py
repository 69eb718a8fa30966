"""What crosses between an edge and the shards (Ray calls): a typed command per operation and a
typed outcome per answer, never a dict carrying control flags.

Every message operation on a session shard is a command (`StoreMessage` in a `SendBatch`,
`ReadPage`, `NewestOf`, a `MessageChange`, `React`) answered by one of its outcomes (`Stored`,
`Moved`, `NoSuchChat`, `Unavailable`, `Refused`; `Page`, `NotHeld`; `Newest`; `Changed`,
`Reacted`, `NoSuchMessage`). The edge turns an outcome into the client's reply
(`services.chat.sending`), once. A user shard takes one stream of `UserEvent`s per edge
(`UserEvents`).

They are msgspec Structs: frozen and slotted, and a batch crosses Ray as one MessagePack blob
(`Blob.__reduce__`): Ray's pickler calls back into Python once per object it does not know,
so a batch of 256 structs pickled one by one cost 2-6 times what today's dicts did, and the
blob less than the dicts (docs/decisions.md, "A typed chat pipeline").
"""

import pickle
from functools import cache
from typing import Any

import msgspec

from agora.core.push import Notification

# A message as clients see it (`core.chat.views.message_view`), and a message's stored document:
# the wire's and the store's shapes, which the kinds extend (`core.message_kinds`).
MessageView = dict[str, Any]
StoredMessage = dict[str, Any]
# A refusal's `errors`, as the client reads them: a text, a list, or field -> text.
Errors = str | list[Any] | dict[str, Any]


class Blob(msgspec.Struct, frozen=True):
    """A struct pickled as one MessagePack blob (a batch, a page): one call of Ray's pickler
    for the whole of it."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (_decoded, (type(self), _ENCODER.encode(self)))


# A value MessagePack has no type for, in a stored document (the store's own types), crosses
# pickled; the store's 64-bit integers (bson's Int64) as the integers they are.
PICKLED = 1


def _unknown(value: Any) -> Any:
    if isinstance(value, int):
        return int(value)
    return msgspec.msgpack.Ext(PICKLED, pickle.dumps(value))


def _pickled(code: int, data: memoryview) -> Any:
    if code != PICKLED:
        raise ValueError(f"unknown MessagePack extension {code}")
    return pickle.loads(data)


_ENCODER = msgspec.msgpack.Encoder(enc_hook=_unknown)


def _decoded(kind: type[Blob], blob: bytes) -> Blob:
    return _decoder(kind).decode(blob)


@cache
def _decoder(kind: type[Blob]) -> msgspec.msgpack.Decoder:
    return msgspec.msgpack.Decoder(kind, ext_hook=_pickled)


# Sending --------------------------------------------------------------------------------


class StoreMessage(msgspec.Struct, frozen=True, array_like=True):
    """A message checked by the edge, for its session's shard to number, store and announce
    (or refuse: whether the sender may post there is the shard's to say). `local_id` makes a
    resend the message stored before."""

    session_id: str
    src_id: str
    local_id: str
    type: int
    payload: str
    # The files as stored (`StoredFiles.stored_files`).
    payload1: list[dict[str, Any]] = []
    client_created_at: int | None = None
    # The kind's `data` as checked, and the first flags a feature gives it (`PreparesSend`).
    data: dict[str, Any] | None = None
    info: dict[str, Any] | None = None


class SendBatch(Blob, frozen=True):
    """The sends an edge hands one shard at once; answered by `SendOutcomes`, in order."""

    sends: list[StoreMessage]


class Stored(msgspec.Struct, frozen=True, tag="stored"):
    """The message is stored: `message` as clients see it. `stored_now` says this call stored
    it, not an earlier one (a resend): the edge tells `MessageStored` for it, once, with
    `members`, the chat's members' user ids as the shard holds them when it has at most
    `MEMBERS_TOLD` (None for a bigger chat, and for a resend). `seq`: its number in the chat
    (None for a message stored before messages were numbered), which clients are not shown."""

    message: MessageView
    stored_now: bool
    members: list[str] | None = None
    seq: int | None = None


class Moved(msgspec.Struct, frozen=True, tag="moved"):
    """The shard does not serve the session under the newest shard map (the pool grew): the
    edge reads the map again and asks the session's shard."""


class NoSuchChat(msgspec.Struct, frozen=True, tag="no_such_chat"):
    """No such chat, or one hidden from the sender: the first message of an item chat makes
    it real; anything else is answered as a send to a missing chat, alike for both."""


class Unavailable(msgspec.Struct, frozen=True, tag="unavailable"):
    """The store failed: the edge answers 503, and the sender may send again."""


class Refused(msgspec.Struct, frozen=True, tag="refused"):
    """The message is not taken (the sender may not post it there, or it cannot be stored);
    with `retry_after_ms`, not yet: it may be sent after that long (slow mode)."""

    errors: Errors
    retry_after_ms: int | None = None


SendOutcome = Stored | Moved | NoSuchChat | Unavailable | Refused


class SendOutcomes(Blob, frozen=True):
    outcomes: list[SendOutcome]


# Reading --------------------------------------------------------------------------------


class ReadPage(msgspec.Struct, frozen=True):
    """The first `limit` messages after `after`, or with None the newest `limit`, from the
    shard's memory."""

    session_id: str
    after: int | None
    limit: int


class Page(Blob, frozen=True):
    messages: list[StoredMessage]


class NotHeld(msgspec.Struct, frozen=True):
    """The shard's memory does not surely hold the page: it is read from the store."""


PageOutcome = Page | NotHeld | Moved


class NewestOf(msgspec.Struct, frozen=True):
    """Each of these sessions' newest message, for those the shard holds with one."""

    session_ids: list[str]


class Newest(Blob, frozen=True):
    messages: dict[str, StoredMessage]


NewestOutcome = Newest | Moved


# Changing a stored message -------------------------------------------------------------


class EditMessage(msgspec.Struct, frozen=True, tag="edit"):
    """The sender's new text (checked by the edge) for their message at `created_at`."""

    session_id: str
    created_at: int
    user_id: str
    payload: str


class DeleteMessage(msgspec.Struct, frozen=True, tag="delete"):
    """The message at `created_at` deleted by its sender, or by one of the group's moderators."""

    session_id: str
    created_at: int
    user_id: str


class PinMessage(msgspec.Struct, frozen=True, tag="pin"):
    """The message at `created_at` pinned (or unpinned) in its chat."""

    session_id: str
    created_at: int
    user_id: str
    pinned: bool


MessageChange = EditMessage | DeleteMessage | PinMessage


class Changed(msgspec.Struct, frozen=True, tag="changed"):
    """The change is stored and announced: `message` as clients see it now, the chat's
    pinned messages (the newest pin first) when they changed with it, and the urls of the
    files a deletion took out of the message."""

    message: MessageView
    pins: list[MessageView] | None = None
    removed_files: list[str] = msgspec.field(default_factory=list)


class NoSuchMessage(msgspec.Struct, frozen=True, tag="no_such_message"):
    """The chat holds no such message (or none that takes this change: a notice)."""


ChangeOutcome = Changed | NoSuchMessage | NoSuchChat | Refused | Unavailable | Moved


class React(msgspec.Struct, frozen=True):
    """`user_id`'s reaction to the message of the session at `created_at`, checked by the edge
    (one of the offered emoji; '' takes theirs away); whether they may react is the shard's
    to say, as for a send."""

    session_id: str
    created_at: int
    user_id: str
    emoji: str


class Reacted(msgspec.Struct, frozen=True, tag="reacted"):
    """The message's reactions now (user id -> emoji); its chat's viewers hear of them within
    a tick."""

    reactions: dict[str, str]


ReactOutcome = Reacted | NoSuchMessage | NoSuchChat | Refused | Unavailable | Moved


# The user shards ------------------------------------------------------------------------


class Socket(msgspec.Struct, frozen=True):
    """One of a user's sockets on an edge."""

    edge: str
    sid: str
    user_id: str


class Connected(Socket, frozen=True, tag="connect"):
    pass


class Viewing(Socket, frozen=True, tag="viewing"):
    """The chat the socket's tab shows while visible (None: none, or hidden)."""

    session_id: str | None


class Disconnected(Socket, frozen=True, tag="disconnect"):
    pass


class EdgePresence(msgspec.Struct, frozen=True, tag="edge"):
    """The edge's whole presence on one shard: (socket id, user id, chat shown) each."""

    edge: str
    sockets: list[tuple[str, str, str | None]]


class SubscriptionsChanged(msgspec.Struct, frozen=True, tag="subscriptions"):
    user_id: str


class Notify(msgspec.Struct, frozen=True, tag="notify"):
    """Push `notification` to each of `user_ids` not looking at its chat; `ref` (a message
    id) is pushed once however often it is reported."""

    user_ids: list[str]
    ref: str
    coalesce: bool
    notification: Notification


class Withdrawn(msgspec.Struct, frozen=True, tag="withdraw"):
    """The chat's message at `created_at` was deleted: a push of it not sent yet is not sent,
    and a busy chat's push held meanwhile shows nothing of it."""

    session_id: str
    created_at: int


SocketEvent = Connected | Viewing | Disconnected
UserEvent = SocketEvent | EdgePresence | SubscriptionsChanged | Notify | Withdrawn


class UserEvents(Blob, frozen=True):
    """One edge's events for one user shard, in the order the edge saw them."""

    events: list[UserEvent]
