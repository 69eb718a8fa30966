"""The edge's side of the user shards: stable placement, one ordered stream per shard.

Nothing here waits for a shard: socket events and stored messages are queued, and each
shard gets its queue in one call a few milliseconds later (presence before the messages
that follow it, in the order the edge saw them).

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
import uuid
from typing import Any

import ray

from agora.actors.client import ABANDONED_AFTER_SECONDS, BATCH_WINDOW_SECONDS, ShardHandles
from agora.actors.runtime import RayAway, RayLink
from agora.actors.users import PRESENCE_REFRESH_SECONDS, USER_POOL, UserShard
from agora.background import BackgroundTasks
from agora.core.push import Notification
from agora.core.shard_map import shard_of
from agora.settings import Settings
from agora.store.shard_maps import ShardMapStore
from agora.wiring import StoreFactory

log = logging.getLogger("agora.actors.user_client")


class UserShards:
    def __init__(
        self, settings: Settings, stores: StoreFactory, link: RayLink, maps: ShardMapStore
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
        self._pending: dict[int, list[dict[str, Any]]] = {}
        self._calls = BackgroundTasks()
        self._handled: dict[int, asyncio.Future] = {}
        # This edge's signed-in sockets: sid -> (user id, chat shown in a visible tab)
        self.local: dict[str, tuple[str, str | None]] = {}

    # Presence ---------------------------------------------------------------------

    def connected(self, sid: str, user_id: str) -> None:
        self.local[sid] = (user_id, None)
        self._queue(user_id, {"op": "connect", "edge": self.edge, "sid": sid, "user_id": user_id})

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
        event = {"op": "viewing", "edge": self.edge, "sid": sid, "user_id": known[0]}
        await self._handled_in_time(self._queue_on(index, {**event, "session_id": session_id}))

    def disconnected(self, sid: str) -> None:
        known = self.local.pop(sid, None)
        if known is not None:
            event = {"op": "disconnect", "edge": self.edge, "sid": sid, "user_id": known[0]}
            self._queue(known[0], event)

    async def keep_reporting(self, stop: asyncio.Event) -> None:
        """Repeats this edge's whole presence now and then (see `actors/users.py`), placed
        by the pool's map as the store has it now."""
        while not stop.is_set():
            await self._read_count()
            by_shard: dict[int, list[list[Any]]] = {}
            for sid, (user_id, session_id) in self.local.items():
                by_shard.setdefault(shard_of(user_id, self.count), []).append(
                    [sid, user_id, session_id]
                )
            # Shards this edge has no sockets on hear nothing: they forget it once it is silent.
            for index, sockets in by_shard.items():
                if sockets:
                    self._queue_on(index, {"op": "edge", "edge": self.edge, "sockets": sockets})
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), PRESENCE_REFRESH_SECONDS)

    async def _read_count(self) -> None:
        try:
            self.count = (await self.maps.current(USER_POOL, self.settings.user_shards)).count
        except Exception:
            log.warning("the user shards' map could not be read; placing by %d", self.count)

    async def subscriptions_changed(self, user_ids: list[str]) -> None:
        """Returns once the users' shards forgot the subscriptions they knew of them: the
        next message is pushed to a new one and never to a deleted one."""
        handled = [
            self._queue(user_id, {"op": "subscriptions", "user_id": user_id})
            for user_id in user_ids
        ]
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
            event = {"op": "notify", "user_ids": users, "ref": ref, "coalesce": coalesce}
            self._queue_on(index, {**event, "notification": notification})

    # Batching -------------------------------------------------------------------------

    def _queue(self, user_id: str, event: dict[str, Any]) -> asyncio.Future | None:
        return self._queue_on(shard_of(user_id, self.count), event)

    def _queue_on(self, index: int, event: dict[str, Any]) -> asyncio.Future | None:
        """Queues the event; the future is done once its shard has handled it (or failed
        to). None on an edge without Ray (some tests, tools), or while Ray is away: no
        shards to tell (each edge's presence is told again every PRESENCE_REFRESH_SECONDS)."""
        if not ray.is_initialized() or self.link.away:
            return None
        pending = self._pending.setdefault(index, [])
        pending.append(event)
        if len(pending) == 1:
            self._handled[index] = asyncio.get_running_loop().create_future()
            asyncio.get_running_loop().call_later(BATCH_WINDOW_SECONDS, self._flush, index)
        return self._handled[index]

    def _flush(self, index: int) -> None:
        batch = self._pending.pop(index, [])
        handled = self._handled.pop(index)
        self._calls.start(self._call(index, batch, handled))

    async def _call(self, index: int, batch: list[dict[str, Any]], handled: asyncio.Future) -> None:
        try:
            shard = await self._actors.get(index)
            await asyncio.wait_for(shard.handle.remote(batch), ABANDONED_AFTER_SECONDS)
        except RayAway:
            log.warning("a user shard lost %d events: Ray is away", len(batch))
        except Exception:
            log.warning("a user shard lost %d events", len(batch), exc_info=True)
        handled.set_result(None)
