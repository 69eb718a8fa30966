"""The edge's side of the user shards: stable placement, one ordered stream per shard.

Nothing here waits for a shard: socket events and stored messages are queued, and each
shard gets its queue in one call a few milliseconds later (presence before the messages
that follow it, in the order the edge saw them), one call at a time. A call that fails (the
shard's process or node died, it is restarting, or its store did not answer) is made again
after a wait, growing to 2 s: the presence changes in it replaced by this edge's whole
presence (the shard may have lost it), its messages until UNDECIDED_PUSH_SECONDS after they
were queued. The shard answers once the messages are decided, and decides a message once
(`UserShardLogic.recent`): a call whose answer was lost and that is made again pushes
nothing twice.

Users are placed by the pool's shard map in the store (`core/shard_map.py`), read again with
each presence report. A user shard's state is soft (presence, repeated by every edge; push
windows): when the pool grows, the edge reports its whole presence to the new placement at
once, and a user who moved is decided for by the new shard without their other edges'
sockets until those edges report too (within PRESENCE_REFRESH_SECONDS; a push may meanwhile
reach someone looking at the chat). No handover as the session shards make is needed.
"""

import asyncio
import contextlib
import logging
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import ray

from agora.actors.client import ABANDONED_AFTER_SECONDS, BATCH_WINDOW_SECONDS, ShardHandles
from agora.actors.protocol import (
    Connected,
    Disconnected,
    EdgePresence,
    Notify,
    SocketEvent,
    SubscriptionsChanged,
    UserEvent,
    UserEvents,
    Viewing,
    Withdrawn,
)
from agora.actors.runtime import RayAway, RayLink
from agora.actors.users import (
    PRESENCE_REFRESH_SECONDS,
    UNDECIDED_PUSH_SECONDS,
    USER_POOL,
    UserShard,
)
from agora.actors.wiring import StoreFactory
from agora.core.push import Notification
from agora.core.shard_map import shard_of
from agora.settings import Settings
from agora.store.shard_maps import ShardMapStore
from agora.tools.background import BackgroundTasks, Backoff

log = logging.getLogger("agora.actors.user_client")

# What a shard hears of sockets: the edge's whole presence stands for all of them.
Presence = SocketEvent | EdgePresence
# Events a shard's stream holds (while the shard is away) past which messages are not pushed.
STREAM_LIMIT = 10_000


@dataclass
class _Stream:
    """This edge's events for one user shard, in the order it saw them."""

    # (when queued, event)
    events: list[tuple[float, UserEvent]] = field(default_factory=list)
    # Done once the shard has handled `events` (or they were given up).
    handled: list[asyncio.Future] = field(default_factory=list)
    # The future of the events queued since the last batch left.
    open: asyncio.Future | None = None
    sending: bool = False
    # Whether the shard has this edge's whole presence: until it has (a first batch, or one
    # after a failure), a batch begins with it and its presence changes are left out.
    told: bool = False

    def take(self) -> tuple[list[tuple[float, UserEvent]], list[asyncio.Future]]:
        taken = self.events, self.handled
        self.events, self.handled, self.open = [], [], None
        return taken

    def put_back(
        self, events: list[tuple[float, UserEvent]], handled: list[asyncio.Future]
    ) -> None:
        self.events[:0] = events
        self.handled[:0] = handled


class UserShardCalls:
    """A user shard's Ray handle with its remote method's types (`UserShard`'s own:
    tests/unit/test_shard_protocol.py holds them equal)."""

    def __init__(self, actor: Any) -> None:
        self.actor = actor

    async def handle(self, edge: str, events: UserEvents) -> bool:
        return await self.actor.handle.remote(edge, events)


class UserShards:
    def __init__(
        self, *, settings: Settings, stores: StoreFactory, link: RayLink, maps: ShardMapStore
    ) -> None:
        self.settings = settings
        self.stores = stores
        # The pool's count, as the store's map last said (the first report reads it).
        self.count = settings.user_shards
        self.maps = maps
        self.link = link
        self.edge = uuid.uuid4().hex
        # The user shards start a node further than the session shards: on two nodes with
        # one session shard and two user shards (the defaults), each node holds a shard.
        self._actors = ShardHandles(link, UserShard, USER_POOL, stores, first_slot=1)
        self._streams: dict[int, _Stream] = {}
        self._calls = BackgroundTasks()
        # This edge's signed-in sockets: sid -> (user id, chat shown in a visible tab)
        self.local: dict[str, tuple[str, str | None]] = {}

    # Presence ---------------------------------------------------------------------

    def connected(self, sid: str, user_id: str) -> None:
        self.local[sid] = (user_id, None)
        self._queue(user_id, Connected(self.edge, sid, user_id))

    async def viewing(self, sid: str, session_id: str | None) -> None:
        """Returns once the user's shard knows (a socket's tab changes seldom): a message
        stored after the acknowledgement is decided with it, whichever edge stores it."""
        known = self.local.get(sid)
        if known is None:
            return
        self.local[sid] = (known[0], session_id)
        index = shard_of(known[0], self.count)
        # A shard on its first use is still starting: the answer waits for it to run (as a
        # send's does), then for the event, so that the acknowledgement holds.
        with contextlib.suppress(RayAway):
            await self._actors.started(index)
        event = Viewing(self.edge, sid, known[0], session_id)
        await self._handled_in_time(self._queue_on(index, event))

    def disconnected(self, sid: str) -> None:
        known = self.local.pop(sid, None)
        if known is not None:
            self._queue(known[0], Disconnected(self.edge, sid, known[0]))

    async def keep_reporting(self, stop: asyncio.Event) -> None:
        """Repeats this edge's whole presence now and then (see `actors/users.py`), placed
        by the pool's map as the store has it now."""
        while not stop.is_set():
            await self._read_count()
            # Shards this edge has no sockets on hear nothing: they forget it once it is silent.
            for index, sockets in self._sockets_by_shard().items():
                self._queue_on(index, self._presence(sockets))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), PRESENCE_REFRESH_SECONDS)

    def _sockets_by_shard(self) -> dict[int, list[tuple[str, str, str | None]]]:
        by_shard: dict[int, list[tuple[str, str, str | None]]] = {}
        for sid, (user_id, session_id) in self.local.items():
            by_shard.setdefault(shard_of(user_id, self.count), []).append(
                (sid, user_id, session_id)
            )
        return by_shard

    def _presence(self, sockets: list[tuple[str, str, str | None]]) -> EdgePresence:
        """This edge's whole presence on one shard: it replaces what the shard knew of it."""
        return EdgePresence(self.edge, sockets)

    async def _read_count(self) -> None:
        try:
            self.count = (await self.maps.current(USER_POOL, self.settings.user_shards)).count
        except Exception:
            log.warning("the user shards' map could not be read; placing by %d", self.count)

    async def subscriptions_changed(self, user_ids: list[str]) -> None:
        """Returns once the users' shards forgot the subscriptions they knew of them: the
        next message is pushed to a new one and never to a deleted one."""
        handled = [self._queue(user_id, SubscriptionsChanged(user_id)) for user_id in user_ids]
        await asyncio.gather(*map(self._handled_in_time, handled))

    async def _handled_in_time(self, handled: asyncio.Future | None) -> None:
        """Waits for a shard to handle an event, at most the answer bound: a shard that does
        not answer (Ray away) holds up no socket or call; it handles the event when it can."""
        if handled is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(handled), self.link.answer_seconds)

    # Messages -----------------------------------------------------------------------

    def notify(
        self, user_ids: list[str], ref: str, notification: Notification, coalesce: bool
    ) -> None:
        """Asks the users' shards to push `notification` to each who is not looking at its
        chat; `ref` (a message id) is pushed once however often it is reported. One event
        per shard, however many of its users: a big group's message is one event, not a
        thousand."""
        by_shard: dict[int, list[str]] = {}
        for user_id in user_ids:
            by_shard.setdefault(shard_of(user_id, self.count), []).append(user_id)
        for index, users in by_shard.items():
            self._queue_on(index, Notify(users, ref, coalesce, notification))

    def withdraw(self, session_id: str, created_at: int) -> None:
        """The chat's message was deleted: no shard pushes it from now on (each may have
        been told of it, for its users). One event per shard; deletions are rare."""
        for index in range(self.count):
            self._queue_on(index, Withdrawn(session_id, created_at))

    # Batching -------------------------------------------------------------------------

    def _queue(self, user_id: str, event: UserEvent) -> asyncio.Future | None:
        return self._queue_on(shard_of(user_id, self.count), event)

    def _queue_on(self, index: int, event: UserEvent) -> asyncio.Future | None:
        """Queues the event; the future is done once its shard has handled it (or it was
        given up). None on an edge without Ray (some tests, tools), or while Ray is away: no
        shards to tell (each edge's presence is told again every PRESENCE_REFRESH_SECONDS)."""
        if not ray.is_initialized() or self.link.away:
            return None
        stream = self._streams.setdefault(index, _Stream())
        if isinstance(event, Notify) and len(stream.events) >= STREAM_LIMIT:
            log.warning(
                "user shard %d is away with %d events queued: a message is not pushed",
                index,
                STREAM_LIMIT,
            )
            return None
        stream.events.append((time.monotonic(), event))
        if stream.open is None:
            stream.open = asyncio.get_running_loop().create_future()
            stream.handled.append(stream.open)
        if not stream.sending:
            stream.sending = True
            self._calls.start(self._send(index, stream))
        return stream.open

    async def _send(self, index: int, stream: _Stream) -> None:
        """Sends the stream's events, batch after batch, until none is left."""
        await asyncio.sleep(BATCH_WINDOW_SECONDS)
        backoff = Backoff()
        while stream.events:
            queued, handled = stream.take()
            batch = [event for _, event in queued]
            if not stream.told:
                sockets = self._sockets_by_shard().get(index, [])
                changes = (e for e in batch if not isinstance(e, Presence))
                batch = [self._presence(sockets), *changes]
            try:
                taken = await self._handled_by(index, batch)
            except Exception as error:
                log.warning(
                    "user shard %d did not take %d events (%r); sending them again in %.1f s",
                    index,
                    len(batch),
                    error,
                    backoff.next,
                )
                stream.put_back(_still_wanted(queued, index), handled)
                stream.told = False
                await backoff.wait()
                continue
            stream.told = taken
            if not taken:
                # The shard does not know this edge's sockets (it restarted): they go first.
                stream.put_back(queued, handled)
                continue
            backoff.reset()
            _settle(handled)
        _settle(stream.handled)
        stream.handled.clear()
        stream.sending = False

    async def _handled_by(self, index: int, batch: list[UserEvent]) -> bool:
        shard = UserShardCalls(await self._actors.get(index))
        return await asyncio.wait_for(
            shard.handle(self.edge, UserEvents(batch)), ABANDONED_AFTER_SECONDS
        )


def _still_wanted(
    queued: list[tuple[float, UserEvent]], index: int
) -> list[tuple[float, UserEvent]]:
    """All but the messages queued longer than UNDECIDED_PUSH_SECONDS ago."""
    oldest = time.monotonic() - UNDECIDED_PUSH_SECONDS
    kept = [(at, event) for at, event in queued if at >= oldest or not isinstance(event, Notify)]
    if len(kept) < len(queued):
        log.error(
            "user shard %d was away for %.0f s: %d messages are not pushed",
            index,
            UNDECIDED_PUSH_SECONDS,
            len(queued) - len(kept),
        )
    return kept


def _settle(handled: list[asyncio.Future]) -> None:
    for future in handled:
        if not future.done():
            future.set_result(None)
