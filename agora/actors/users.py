"""Per-user state: logical per-user actors hosted in a fixed pool of sharded Ray actors.

A shard knows, for each of its users, the sockets they have open on any edge and the chat
each shows in a visible tab; it decides who of a message's members is told by Web Push
(nobody looking at that chat) and keeps a busy chat to one push per person per window,
then sends the pushes itself, off every acknowledgement path.

Presence is reported by the edges as it changes, and each edge repeats the whole of it
now and then: a shard that restarted, or an edge that died without a word, is set right
within `PRESENCE_STALE_SECONDS`. An edge this shard does not know (it restarted, or the edge
was silent) reports its whole presence before anything it sends is decided.

Each edge's events arrive in batches, one at a time, and a batch is answered once each of its
messages is decided: pushed now (the push sent right after), or held in its chat's window. A
batch that fails (the shard died, or its store did not answer) is sent again by the edge
(`actors/user_client.py`); a message decided once is not pushed again (`recent`).
"""

import asyncio
import logging
import time
from dataclasses import replace

import ray
from cachetools import FIFOCache, LRUCache

from agora.actors.protocol import (
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
from agora.actors.wiring import StoreFactory, UserShardStores
from agora.core.chat.counts import red_dot_count
from agora.core.push import (
    PUSH_SUBSCRIPTIONS_PER_ACCOUNT,
    DeliveryReceipt,
    Notification,
    PushWindows,
    Subscription,
    delivery_receipt,
)
from agora.integrations.web_push import Delivery, WebPushSender, generate_vapid_keys
from agora.settings import Settings
from agora.store.vapid_keys import VapidKeyStore
from agora.tools.background import retried
from agora.tools.garbage import start_collecting

log = logging.getLogger("agora.actors.users")

PRESENCE_REFRESH_SECONDS = 20.0
PRESENCE_STALE_SECONDS = 3 * PRESENCE_REFRESH_SECONDS
# A message not decided on this long after it was stored (a user shard or the store away) is
# given up: its push would come too late to tell anything. The edges try until then.
UNDECIDED_PUSH_SECONDS = 120.0
# Message ids pushed lately: a resent message (same id) is not pushed again.
RECENT_MESSAGES = 10_000
CONCURRENT_DELIVERIES = 64
# People whose subscriptions a shard keeps (most recently pushed to); others are read again.
KNOWN_SUBSCRIBERS = 100_000
WINDOW_SWEEP_SECONDS = 10.0

SocketKey = tuple[str, str]  # (edge id, socket id)
# The pool's name: its shards' Ray names (`user-shard-0`, ...) and its shard map's.
USER_POOL = "user-shard"


async def vapid_pair(settings: Settings, store: VapidKeyStore) -> dict[str, str]:
    """The operator's key pair if given, otherwise the deployment's stored one."""
    private = settings.vapid_private_key.get_secret_value()
    if private and settings.vapid_public_key:
        return {"private_key": private, "public_key": settings.vapid_public_key}
    stored = await store.get_or_create(generate_vapid_keys)
    return {"private_key": stored["private_key"], "public_key": stored["public_key"]}


class UserShardLogic:
    """The shard's behaviour, kept apart from Ray so that one object serves both."""

    def __init__(self, settings: Settings, stores: UserShardStores) -> None:
        self.settings = settings
        self.mongo = stores.mongo
        self.sessions = stores.sessions
        self.subscriptions = stores.subscriptions
        self.vapid = stores.vapid
        self.sender: WebPushSender | None = None
        # user id -> socket -> the chat it shows in a visible tab (None: none)
        self.sockets: dict[str, dict[SocketKey, str | None]] = {}
        self.edges_heard: dict[str, float] = {}
        self.windows = PushWindows(settings.push_coalesce_seconds)
        self.windows_swept_at = time.monotonic()
        self.recent: FIFOCache[tuple[str, str], None] = FIFOCache(maxsize=RECENT_MESSAGES)
        # Deleted messages lately, (session id, created_at): never pushed from now on.
        self.withdrawn: FIFOCache[tuple[str, int], None] = FIFOCache(maxsize=RECENT_MESSAGES)
        self.deliveries = asyncio.Semaphore(CONCURRENT_DELIVERIES)
        self.tasks: set[asyncio.Task] = set()
        # user id -> their subscriptions (an empty list: none), forgotten when the edges
        # report a change (subscribe, logout) or a push service says one is gone.
        self.known: LRUCache[str, list[Subscription]] = LRUCache(maxsize=KNOWN_SUBSCRIBERS)
        # Bumped by every change: a read that started before one is not kept.
        self.changes = 0

    # Presence ------------------------------------------------------------------

    async def handle(self, edge: str, batch: list[UserEvent]) -> bool:
        """Presence changes, subscription changes and stored messages from one edge, in the
        order the edge saw them; returns once each message is decided. False, with nothing
        done, when this shard does not know the edge's sockets and the batch does not begin
        with them: the edge sends it again after its whole presence."""
        self._forget_silent_edges()
        if edge not in self.edges_heard and not isinstance(batch[0], EdgePresence):
            return False
        self._forget_idle_windows()
        # Early is as good as in order: a subscription forgotten is only read again.
        for event in batch:
            if isinstance(event, SubscriptionsChanged):
                self._forget_subscriptions(event.user_id)
        # The one wait: a failure leaves every message undecided, for the edge to send again.
        notified = [u for event in batch if isinstance(event, Notify) for u in event.user_ids]
        known = await self._subscriptions(list(dict.fromkeys(notified)))
        pushes = self._apply(batch, known)
        # Sent after the answer: the edge's next events are not held up by push services.
        self._spawn(self._deliver(pushes, known))
        return True

    def _apply(
        self, batch: list[UserEvent], known: dict[str, list[Subscription]]
    ) -> list[tuple[str, Notification]]:
        """The batch's presence changes and decisions, in its order, all at once (nothing
        else runs between them); returns the pushes to send now."""
        now = time.monotonic()
        pushes: list[tuple[str, Notification]] = []
        # Windows opened by the same messages end together: released as one batch.
        held: dict[float, list[tuple[str, str]]] = {}
        for event in batch:
            if isinstance(event, Notify):
                pushes += self._decide(event, known, now, held)
            elif isinstance(event, EdgePresence):
                self._edge_sockets(event.edge, event.sockets)
            elif isinstance(event, Withdrawn):
                self._withdraw(event)
            elif not isinstance(event, SubscriptionsChanged):
                self._socket(event)
        for release_at, keys in held.items():
            self._spawn(self._release_later(keys, release_at - now))
        # A message deleted later in the same batch is not pushed either.
        return [(u, n) for u, n in pushes if not self._withdrawn(n)]

    def _withdraw(self, event: Withdrawn) -> None:
        """A deleted message: not pushed when its decision comes later, and what a busy
        chat's window holds of it is forgotten."""
        self.withdrawn[(event.session_id, event.created_at)] = None
        self.windows.withdraw(event.session_id, event.created_at)

    def _withdrawn(self, notification: Notification) -> bool:
        return (notification.session_id, notification.created_at) in self.withdrawn

    def _socket(self, event: SocketEvent) -> None:
        self.edges_heard[event.edge] = time.monotonic()
        key = (event.edge, event.sid)
        sockets = self.sockets.setdefault(event.user_id, {})
        if isinstance(event, Disconnected):
            sockets.pop(key, None)
            if not sockets:
                del self.sockets[event.user_id]
        else:
            sockets[key] = event.session_id if isinstance(event, Viewing) else None

    def _edge_sockets(self, edge: str, listed: list[tuple[str, str, str | None]]) -> None:
        """Everything the edge has open for this shard's users, replacing what was known."""
        self.edges_heard[edge] = time.monotonic()
        self._drop_edge(edge)
        for sid, user_id, session_id in listed:
            self.sockets.setdefault(user_id, {})[(edge, sid)] = session_id

    def _forget_silent_edges(self) -> None:
        limit = time.monotonic() - PRESENCE_STALE_SECONDS
        for edge in [e for e, heard in self.edges_heard.items() if heard < limit]:
            del self.edges_heard[edge]
            self._drop_edge(edge)

    def _drop_edge(self, edge: str) -> None:
        for user_id in list(self.sockets):
            sockets = self.sockets[user_id]
            for key in [k for k in sockets if k[0] == edge]:
                del sockets[key]
            if not sockets:
                del self.sockets[user_id]

    def viewing(self, user_id: str, session_id: str) -> bool:
        return session_id in self.sockets.get(user_id, {}).values()

    # Push decisions -------------------------------------------------------------

    def _decide(
        self,
        event: Notify,
        known: dict[str, list[Subscription]],
        now: float,
        held: dict[float, list[tuple[str, str]]],
    ) -> list[tuple[str, Notification]]:
        """Whom of the event's users to push to now: each who has a subscription and is not
        looking at its chat, unless the chat's window holds it (then `held` gets its key).
        Only subscribers cost anything beyond a lookup: in a big group most members have
        none."""
        notification = event.notification
        session_id = notification.session_id
        if self._withdrawn(notification):
            return []
        send = []
        for user_id in (u for u in event.user_ids if known[u]):
            if self.viewing(user_id, session_id) or self._seen(user_id, event.ref):
                continue
            if not event.coalesce:
                send.append((user_id, notification))
                continue
            key = (user_id, session_id)
            decision = self.windows.arrive(key, notification, now)
            if decision == "send":
                send.append((user_id, notification))
            elif decision == "hold":
                held.setdefault(self.windows.release_at(key), []).append(key)
        return send

    def _forget_idle_windows(self) -> None:
        """Now and then, not per message: a message to a big group reaches many windows."""
        now = time.monotonic()
        if now - self.windows_swept_at >= WINDOW_SWEEP_SECONDS:
            self.windows_swept_at = now
            self.windows.forget_idle(now)

    def _seen(self, user_id: str, ref: str) -> bool:
        if (user_id, ref) in self.recent:
            return True
        self.recent[(user_id, ref)] = None
        return False

    async def _release_later(self, keys: list[tuple[str, str]], delay: float) -> None:
        await asyncio.sleep(max(0.0, delay))
        now = time.monotonic()
        released = ((key, self.windows.release(key, now)) for key in keys)
        # Someone who opened the chat meanwhile has seen what was held.
        pushes = [(k[0], c) for k, c in released if c is not None and not self.viewing(*k)]
        if pushes:
            await self._deliver(pushes, await self._subscriptions([u for u, _ in pushes]))

    def _spawn(self, work) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            # The store did not answer for UNDECIDED_PUSH_SECONDS: those pushes are lost.
            log.error("sending pushes failed", exc_info=task.exception())

    # Subscriptions -----------------------------------------------------------------

    async def _subscriptions(self, user_ids: list[str]) -> dict[str, list[Subscription]]:
        """Each user's subscriptions, read from MongoDB (in one query) only for those this
        shard does not know yet."""
        missing = [u for u in user_ids if u not in self.known]
        found: dict[str, list[Subscription]] = {}
        if missing:
            changes = self.changes
            found = await self.subscriptions.of_users(missing, PUSH_SUBSCRIPTIONS_PER_ACCOUNT)
            if changes != self.changes:
                # Changed meanwhile: used this once, read again next time.
                return {u: self.known.get(u) or found.get(u, []) for u in user_ids}
            for user_id in missing:
                self.known[user_id] = found.get(user_id, [])
        # Each read keeps the user among the most recently pushed to.
        return {u: self.known.get(u, found.get(u, [])) for u in user_ids}

    def _forget_subscriptions(self, user_id: str) -> None:
        self.changes += 1
        self.known.pop(user_id, None)

    # Sending ----------------------------------------------------------------------

    async def _deliver(
        self, pushes: list[tuple[str, Notification]], known: dict[str, list[Subscription]]
    ) -> None:
        """Reads the red dots of all these people at once (two queries per person made the
        database the bottleneck of a big group), then sends, each push with its red dot and
        the recipient's delivery receipt."""
        if not pushes:
            return
        # The store away: tried again (the pushes are decided, only their red dots are missing).
        followed = await retried(
            lambda: self.sessions.followed_by(list({u for u, _ in pushes})),
            f"reading the red dots of {len(pushes)} pushes",
            UNDECIDED_PUSH_SECONDS,
        )
        sender = await retried(self._sender, "reading the VAPID keys", UNDECIDED_PUSH_SECONDS)
        await asyncio.gather(
            *(
                self._one(
                    sender,
                    u,
                    s,
                    replace(
                        n,
                        red_dot=red_dot_count(followed.get(u, [])),
                        receipt=self._receipt(u, n),
                    ),
                )
                for u, n in pushes
                for s in known.get(u, [])
            )
        )

    def _receipt(self, user_id: str, notification: Notification) -> str:
        """What the recipient's service worker acknowledges the push's messages with."""
        if not notification.created_at:
            return ""
        receipt = DeliveryReceipt(user_id, notification.session_id, notification.created_at)
        return delivery_receipt(self.settings.secret_key.get_secret_value(), receipt)

    async def _one(
        self,
        sender: WebPushSender,
        user_id: str,
        subscription: Subscription,
        notification: Notification,
    ) -> None:
        async with self.deliveries:
            try:
                if await sender.deliver(subscription, notification) is Delivery.GONE:
                    await self.subscriptions.remove(subscription.endpoint)
                    self._forget_subscriptions(user_id)
            except Exception:
                log.exception("pushing to %s failed", subscription.endpoint)

    async def _sender(self) -> WebPushSender:
        if self.sender is None:
            pair = await vapid_pair(self.settings, self.vapid)
            self.sender = WebPushSender(
                pair["private_key"],
                self.settings.vapid_subject,
                self.settings.push_allow_loopback_endpoints,
            )
        return self.sender


@ray.remote(max_restarts=-1, max_task_retries=0)
class UserShard:
    """Ray host of UserShardLogic. A restart loses the windows of busy chats (and what they
    held), the pushes being sent, and presence until each edge reports it again: an edge does
    before its next events are decided, the others within PRESENCE_REFRESH_SECONDS (pushes
    meanwhile may reach someone who is looking)."""

    def __init__(self, stores: StoreFactory) -> None:
        # From the edge's composition root: the shard builds its stores as the edge does.
        self.stores = stores
        self.logic: UserShardLogic | None = None
        self.collector: asyncio.Task | None = None

    def _logic(self) -> UserShardLogic:
        if self.logic is None:
            self.logic = UserShardLogic(self.stores.settings, self.stores.user_shard_stores())
            # Full collections would hold up acknowledgements for 100 ms or more.
            self.collector = start_collecting(self.stores.settings.gc_full_every_seconds)
        return self.logic

    async def handle(self, edge: str, events: UserEvents) -> bool:
        return await self._logic().handle(edge, events.events)
