"""Domain events: what happened, told to whoever subscribed, inside this process.

A service publishes an event after the fact it describes is stored; the composition root
(`agora/app.py`) subscribes the services that react to it, in one block. Delivery is
in-process only: events that must reach other edges or the chat shards travel by the
Redis and Ray paths described in `docs/architecture.md`.

Subscribers run one after another, in the order they subscribed, and the publisher waits
for them. A subscriber that fails is logged and skipped: the fact is stored already, so
neither the publisher nor the other subscribers fail with it. Delivery is shielded from
the publisher's cancellation (a client that hangs up does not cut a reaction short). The
publisher waits: a slow reaction (a push to an outside service) starts a task of its own.

A subscriber that only queues work may be a plain function: it runs at once, in the
publisher's own step. Shielding a delivery costs a task and two event-loop passes, and the
sending edge publishes `MessageStored` before it acknowledges each message: under load, a
pass is many milliseconds.
"""

import asyncio
import inspect
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from agora.core.money import ItemHold

log = logging.getLogger("agora.events")


@dataclass(frozen=True)
class MessageStored:
    """A chat message was stored by its session's shard and acknowledged to this edge.

    Published once per new message, by the edge that sent it (a resend of a stored message
    is not published again), system notices (type 1010) included. `message` is the message
    as clients see it (`core.chat.views.message_view`: `id`, `dest_session_id`, `src_id`,
    `local_id`, `created_at`, `type`, `payload`, `payload1`, `flags`, `data`); the session
    and its members are the subscriber's to read (`SessionStore`) if it needs them.
    """

    session_id: str
    sender_id: str
    message: dict[str, Any]
    # The chat's members when it stored it, if its shard told them (a small chat): their
    # memberships need no query by chat.
    members: tuple[str, ...] | None = None
    # Its number in the chat (None for a message stored before messages were numbered).
    seq: int | None = None


@dataclass(frozen=True)
class MessageDeleted:
    """A chat message was deleted (by its sender or a moderator): its content is gone from
    the store and its chat's room was told. Published by the edge that asked its shard.
    `files`: the urls of the files it carried."""

    session_id: str
    created_at: int
    files: tuple[str, ...] = ()


@dataclass(frozen=True)
class SignedOut:
    """One of the user's auth keys was logged out; that browser's push subscriptions are
    deleted already."""

    user_id: str


@dataclass(frozen=True)
class MemberJoined:
    """Someone became a member of a group (a group is also a chat session) with this type."""

    session_id: str
    user_id: str
    user_type: int


@dataclass(frozen=True)
class MemberAnnounced:
    """A membership change the group's chat shows as a notice: `event` is "joined" or
    "asked" (to join); `by_user_id` is who acted for them, if anyone."""

    session_id: str
    user_id: str
    event: str
    by_user_id: str | None = None


@dataclass(frozen=True)
class MemberRemoved:
    """A member (a request to join, rejected) was removed from a chat or group."""

    session_id: str
    user_id: str


@dataclass(frozen=True)
class MemberTypeChanged:
    """A moderator changed a member's type in a chat or group (made moderator, blocked,
    unblocked, approved); `old_type` and `new_type` are the membership types."""

    session_id: str
    user_id: str
    old_type: int
    new_type: int


@dataclass(frozen=True)
class SessionClosed:
    """A group or chat stopped letting non-members read it (`core.chat.access.is_open`: it is no
    longer public or read-allowed)."""

    session_id: str


@dataclass(frozen=True)
class GroupEdited:
    """A group's admin changed it (who may read or write it among the rest): copies of it
    held elsewhere (the chat shard that takes its chat's messages) are out of date."""

    group_id: str


@dataclass(frozen=True)
class WhatsAppStatusReceived:
    """Meta reported a status of one of a channel's sent messages: `status` is Meta's
    status object as delivered (`id` = the wamid, `status` = sent|delivered|read|failed,
    `timestamp`, `recipient_id`, maybe `errors`, `conversation`, `pricing`). Published for
    every delivery, again when Meta delivers it again: hearers merge forward only."""

    channel_id: str
    status: dict[str, Any]


@dataclass(frozen=True)
class PostAdded:
    """A post was stored in a group."""

    group_id: str
    item_id: str


@dataclass(frozen=True)
class PostHidden:
    """A post was deleted (it is hidden, not removed): only members read its chats now."""

    group_id: str
    item_id: str


@dataclass(frozen=True)
class FinderFee:
    """One sharer's part of an offer's finder's fee, in the offer's currency's cents."""

    user_id: str
    name: str
    amount_cents: int


@dataclass(frozen=True)
class OfferPaid:
    """A post's owner paid an offer to a participant of the post's chat, and the finder's
    fees to the sharers on the chat's route, in the same money move.

    Published after the money moved (`move_id` is the wallet move, unique per offer: a
    retried offer with the same request id publishes again with the same `move_id`, so a
    subscriber that must act once keys on it). Amounts are in `currency`'s cents.
    """

    move_id: str
    payer_id: str
    payee_id: str
    session_id: str
    item_id: str
    group_id: str
    item_title: str
    payer_name: str
    payee_name: str
    amount_cents: int
    currency: str
    finder_fees: tuple[FinderFee, ...] = ()


@dataclass(frozen=True)
class PostHoldMoved:
    """A ledger entry moved a post's held reward (held, raised, lowered, drawn on by an
    offer, released) in its poster's wallet of `currency`, and the post's copy of its hold
    now says so; `hold` is the post's hold after entry `seq` of that wallet. Published once
    the money move that wrote both is stored, by whoever drove it (a sweep finishing a
    stalled move included)."""

    item_id: str
    user_id: str
    currency: str
    seq: int
    hold: ItemHold


@dataclass(frozen=True)
class RewardReleased:
    """What a post still held was given back to its poster, because it was closed, deleted
    or expired (`reason`); published by whoever released it (a release asked again, which
    moves nothing more, tells it again: hearers that must act once key on the post and
    currency)."""

    item_id: str
    user_id: str
    title: str
    amount_cents: int
    currency: str
    reason: str


Event = (
    MessageStored
    | MessageDeleted
    | MemberJoined
    | MemberAnnounced
    | MemberRemoved
    | MemberTypeChanged
    | SessionClosed
    | GroupEdited
    | PostAdded
    | PostHidden
    | OfferPaid
    | PostHoldMoved
    | RewardReleased
    | SignedOut
    | WhatsAppStatusReceived
)
E = TypeVar("E")
Handler = Callable[[E], Awaitable[None] | None]


class Events:
    """The in-process publisher: `subscribe(EventType, handler)`, `await publish(event)`."""

    def __init__(self) -> None:
        self._handlers: dict[type, list[Handler]] = defaultdict(list)

    def subscribe(self, event_type: type[E], handler: Handler[E]) -> None:
        self._handlers[event_type].append(handler)

    async def publish(self, event: Event) -> None:
        handlers = list(self._handlers.get(type(event), ()))
        for position, handler in enumerate(handlers):
            if (pending := _start(handler, event)) is not None:
                # The first subscriber that waits, and those after it, finish shielded.
                await asyncio.shield(_finish(event, pending, handlers[position + 1 :]))
                return


def _start(handler: Handler, event: Event) -> Awaitable[None] | None:
    """Runs a plain subscriber; what a coroutine subscriber has yet to do, to be awaited."""
    try:
        outcome = handler(event)
    except Exception:
        _failed(event)
        return None
    return outcome if inspect.isawaitable(outcome) else None


async def _finish(event: Event, pending: Awaitable[None], rest: list[Handler]) -> None:
    """A subscriber's unfinished work, then the subscribers after it, in turn."""
    await _logged(pending, event)
    for handler in rest:
        if (more := _start(handler, event)) is not None:
            await _logged(more, event)


async def _logged(work: Awaitable[None], event: Event) -> None:
    try:
        await work
    except Exception:
        _failed(event)


def _failed(event: Event) -> None:
    log.exception("a subscriber of %s failed", type(event).__name__)
