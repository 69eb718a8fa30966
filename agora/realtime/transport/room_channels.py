"""python-socketio's Redis manager with one Redis channel per room.

The stock AsyncRedisManager publishes every event on one channel, so every edge decodes
every event of every room, served there or not. Here an event for a room is published on
the room's own channel, and an edge subscribes (SUBSCRIBE, never PSUBSCRIBE, which would
match and decode everything again) only to the channels of rooms holding one of its
sockets. Broadcasts and python-socketio's own control messages (disconnects, callbacks,
rooms of sockets on other edges) keep the deployment's base channel, which every edge
subscribes to. A write-only instance (actors, services) publishes the same way.

Fan-out to a room also skips python-socketio's task per recipient (a socket's send only
queues the frame for its writer, so a plain loop does the same work), and `message` events
for a busy room are merged into one `messages` event carrying the list. A room is busy while
its previous frame is younger than its window (COALESCE_SECONDS, or COALESCE_SECONDS_PER_SOCKET
for each of its local sockets in big rooms, so that a big room's frames take a bounded share
of the edge) or still being written (its sockets' writer tasks have not all sent it): the
held messages go out together once both are over, or after HOLD_SECONDS_MAX at the latest.
A quiet room's message leaves at once; a busy room costs its sockets one frame per window,
however many messages it gets.
"""

import asyncio
import base64
import contextlib
import logging
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import socketio
from engineio import packet as eio_packet
from redis import asyncio as aioredis
from socketio import packet
from socketio.packet import Packet

from agora.core import json_text
from agora.realtime.transport.websockets import message_frame, write_directly
from agora.tools import metrics
from agora.tools.background import BackgroundTasks
from agora.tools.group_commit import GroupCommit, Pending, succeed_all

log = logging.getLogger("agora.realtime.rooms")

ROOMS_METHOD = "rooms"  # our control message: a room's sockets enter or leave other rooms
MOVED_METHOD = "rooms_moved"  # an edge's answer to it: its sockets are in, their channels heard
CONFIRM_SECONDS = 5.0
IDLE_ROOM_SECONDS = 2.0
RETRY_SECONDS_MAX = 60
CLOSE_SECONDS = 5
COALESCE_SECONDS = 0.01
# Queuing and writing a frame costs the edge about 50 us a socket: a room of 1,000 sockets
# gets at most one frame per 50 ms, so its fan-out keeps to about half of one core.
COALESCE_SECONDS_PER_SOCKET = 0.00005
HOLD_SECONDS_MAX = 0.1
PUBLISHES_PER_PIPELINE = 500
WRITING_POLL_SECONDS = 0.005
# A frame queued on a socket reaches the wire three event-loop passes later: engine.io's
# writer waits with asyncio.wait_for, whose inner task, waiter callback and writer step
# each take a pass. A callback passed along that many times runs after every writer sent.
WRITER_PASSES = 3
COALESCED_EVENTS = {"message": "messages"}
# A shard announces a batch of a session's messages as one list ("messages"): held like
# that many single messages.
LISTED_EVENTS = {listed: single for single, listed in COALESCED_EVENTS.items()}


@dataclass
class _Held:
    """Events held for a busy room; `timer` checks whether they can go."""

    event: str
    since: float
    items: list[Any] = field(default_factory=list)
    timer: asyncio.TimerHandle | None = None


@dataclass
class _Move:
    """A move of sockets into rooms, waiting for the edges that got it to say they made it."""

    answered: int = 0
    receivers: int | None = None  # the edges listening to the room moved, once Redis said
    done: asyncio.Event = field(default_factory=asyncio.Event)

    def check(self) -> None:
        if self.receivers is not None and self.answered >= self.receivers:
            self.done.set()


@dataclass
class _LastFrame:
    """A room's previous frame: when it was queued, and whether its writers all sent it."""

    at: float
    written: bool = False


def start_receiving(server: socketio.AsyncServer) -> None:
    """Starts the server's manager (its Redis listener) now, as python-socketio does with the
    first socket that connects: an edge with no socket yet would not hear the other edges
    answer its moves of sockets, and would not wait for them."""
    if not server.manager_initialized:
        server.manager_initialized = True
        server.manager.initialize()


class RoomChannelManager(socketio.AsyncRedisManager):
    """Overrides of the library's private methods are marked "Overrides"; besides those it
    uses the library's `_redis_connect` (sets `redis`, `connected`), `thread` (the listener
    task `initialize` starts) and the message `emit` hands to `_handle_emit` and `_publish`."""

    name = "agora-room-channels"

    def __init__(
        self,
        url: str,
        channel: str,
        *,
        write_only: bool = False,
        local_rooms: Callable[[str], bool] = lambda room: False,
        coalesce_seconds: float = COALESCE_SECONDS,
    ) -> None:
        super().__init__(url, channel=channel, write_only=write_only)
        # Rooms that are only ever addressed on their own edge need no channel.
        self.local_rooms = local_rooms
        self.coalesce_seconds = coalesce_seconds
        self.subscribed: dict[str, tuple[str, str]] = {}  # channel -> (namespace, room)
        self.idle_since: dict[str, float] = {}  # channel -> when its last local socket left
        self.confirming: dict[str, asyncio.Future] = {}
        # Messages decoded per channel heard (the base channel's too): a channel's count goes
        # with it, or the edge would keep one for every room it ever heard.
        self.decoded: Counter = Counter()
        self._subscriber: Any = None
        self._commands = asyncio.Lock()  # keeps SUBSCRIBE and UNSUBSCRIBE in order
        self._to_subscribe: list[str] = []
        self._tasks = BackgroundTasks()
        self._last_frame: dict[tuple[str, str], _LastFrame] = {}
        self._held: dict[tuple[str, str], _Held] = {}
        self._publishes = GroupCommit(self._send_publishes, PUBLISHES_PER_PIPELINE)
        self._moves: dict[str, _Move] = {}
        # Each socket's rooms, kept beside the library's rooms by socket, so that a socket
        # leaving finds its own (`basic_disconnect`).
        self._rooms_of: dict[tuple[str, str], set[Any]] = {}

    # Channels ------------------------------------------------------------------------

    def room_channel(self, namespace: str, room: str) -> str:
        return f"{self.channel}:{namespace}:{room}"

    def _has_channel(self, namespace: str | None, room: Any, sid: str | None = None) -> bool:
        """Rooms named by the application; a socket's own room and lists go the base way."""
        return (
            isinstance(room, str)
            and room != sid
            and not self.local_rooms(room)
            and not self.is_sid_room(namespace or "/", room)
        )

    def _publish_channel(self, data: dict[str, Any]) -> str | None:
        """Where a message goes; None when this edge already delivered it (its own socket)."""
        room, namespace = data.get("room"), data.get("namespace") or "/"
        if data.get("method") not in ("emit", ROOMS_METHOD):
            return self.channel
        if isinstance(room, str) and self.is_sid_room(namespace, room):
            return None
        if room is None or not self._has_channel(namespace, room):
            return self.channel
        return self.room_channel(namespace, room)

    async def _publish(self, data: dict[str, Any]) -> int | None:
        # Overrides AsyncRedisManager._publish (every message on the one base channel, one
        # PUBLISH each): a room's events go on the room's channel, pipelined in batches.
        # Returns how many listeners Redis gave it to (None: not published).
        channel = self._publish_channel(data)
        if channel is None:
            return None
        return await self._publishes.add((channel, json_text.dumps(data)))

    async def _send_publishes(self, batch: Pending) -> None:
        """The publishes gathered meanwhile, in order, in one pipeline (a shard announces the
        batches of many sessions at once). A publish that failed twice is logged and dropped:
        screens catch up on what they missed when they next read."""
        for retries_left in (1, 0):
            try:
                if not self.connected:
                    self._redis_connect()
                pipeline = self.redis.pipeline(transaction=False)
                for (channel, payload), _ in batch:
                    pipeline.publish(channel, payload)
                receivers = await pipeline.execute()
                for (_, future), count in zip(batch, receivers, strict=True):
                    future.set_result(count)
                return
            except Exception as exc:
                log.error("cannot publish to Redis (%s)%s", exc, ", retrying" * retries_left)
                self.connected = False
        succeed_all(batch)

    # Which channels this edge listens to ---------------------------------------------

    def basic_enter_room(self, sid, namespace, room, eio_sid=None):
        # Overrides BaseManager.basic_enter_room, through which every entry passes (connect,
        # enter_room, the library's room messages): the room's channel is subscribed.
        super().basic_enter_room(sid, namespace, room, eio_sid=eio_sid)
        self._rooms_of.setdefault((namespace, sid), set()).add(room)
        if not self.write_only and self._has_channel(namespace, room, sid):
            self._listen_to(self.room_channel(namespace, room), namespace, room)

    def basic_leave_room(self, sid, namespace, room):
        # Overrides BaseManager.basic_leave_room, through which every exit passes (leave_room,
        # disconnects): a room left empty has its channel dropped later.
        super().basic_leave_room(sid, namespace, room)
        rooms = self._rooms_of.get((namespace, sid))
        if rooms is not None:
            rooms.discard(room)
            if not rooms:
                del self._rooms_of[(namespace, sid)]
        channel = self.room_channel(namespace, room) if isinstance(room, str) else None
        if channel in self.subscribed and room not in self.rooms.get(namespace, {}):
            # Dropped a little later, so a socket coming straight back finds it still there.
            self.idle_since[channel] = time.monotonic()

    def basic_disconnect(self, sid, namespace, **kwargs):
        # Overrides BaseManager.basic_disconnect, which copies every room of the namespace and
        # looks for the socket in each: a walk as long as the edge's rooms (each person's own,
        # their chats') per socket closed. The socket leaves the rooms kept for it; the rest
        # is the library's (the socket's callbacks, its connect or disconnect pending).
        if namespace not in self.rooms:
            return
        for room in list(self._rooms_of.get((namespace, sid), ())):
            self.basic_leave_room(sid, namespace, room)
        self.callbacks.pop(sid, None)
        for pending in (self.pending_connect, self.pending_disconnect):
            if sid in pending.get(namespace, ()):
                pending[namespace].remove(sid)
                if not pending[namespace]:
                    del pending[namespace]

    def _listen_to(self, channel: str, namespace: str, room: str) -> None:
        self.idle_since.pop(channel, None)
        if channel in self.subscribed:
            return
        self.subscribed[channel] = (namespace, room)
        self.confirming[channel] = asyncio.get_running_loop().create_future()
        self._to_subscribe.append(channel)
        if len(self._to_subscribe) == 1:
            self._tasks.start(self._subscribe())

    async def _subscribe(self) -> None:
        """One SUBSCRIBE for the channels asked for meanwhile (a socket enters many rooms)."""
        async with self._commands:
            channels, self._to_subscribe = self._to_subscribe, []
            # Without a connection yet, the listener subscribes to everything once it has one.
            if channels and self._subscriber is not None:
                try:
                    await self._subscriber.subscribe(*channels)
                except Exception as exc:  # the listener reconnects and subscribes again
                    log.warning("subscribing to %d channels failed: %s", len(channels), exc)

    async def settled(self) -> None:
        """Waits until Redis confirmed every channel asked for so far: a socket that entered
        a room gets everything published to it from then on."""
        waiting = list(self.confirming.values())
        if waiting:
            await asyncio.wait(waiting, timeout=CONFIRM_SECONDS)

    async def enter_room(self, sid, namespace, room, eio_sid=None):
        # Overrides AsyncPubSubManager.enter_room: returns once Redis confirmed the channel.
        await super().enter_room(sid, namespace, room, eio_sid=eio_sid)
        await self.settled()

    def in_room(self, sid: str, room: str, namespace: str = "/") -> bool:
        """Whether this edge's socket is in the room (the library's `get_rooms` walks every
        room of the namespace to tell)."""
        return sid in self.rooms.get(namespace, {}).get(room, ())

    async def enter_rooms(self, sid: str, namespace: str, rooms: list[str]) -> None:
        """Several rooms with one wait for Redis's confirmations."""
        for room in rooms:
            self.basic_enter_room(sid, namespace, room)
        await self.settled()

    async def _drop_idle_channels(self) -> None:
        while True:
            await asyncio.sleep(IDLE_ROOM_SECONDS)
            await self._drop_idle(time.monotonic())

    async def _drop_idle(self, now: float) -> None:
        """Unsubscribes the channels of rooms left empty since IDLE_ROOM_SECONDS. Whether a
        room is still empty is asked once the commands' lock is held: a socket that entered it
        while a SUBSCRIBE held the lock (a socket connecting enters many rooms) found its
        channel still subscribed and asked for nothing, and would hear nothing more."""
        idle = [c for c, at in self.idle_since.items() if now - at >= IDLE_ROOM_SECONDS]
        for channel in idle:
            self.idle_since.pop(channel, None)
        if not idle:
            return
        async with self._commands:
            # Left again meanwhile (stamped anew): its turn comes later.
            gone = [
                c
                for c in idle
                if c in self.subscribed and c not in self.idle_since and not self._served(c)
            ]
            if not gone:
                return
            for channel in gone:
                self.subscribed.pop(channel, None)
                self.confirming.pop(channel, None)
                self.decoded.pop(channel, None)
            if self._subscriber is not None:
                try:
                    await self._subscriber.unsubscribe(*gone)
                except Exception as exc:
                    log.warning("unsubscribing %d channels failed: %s", len(gone), exc)
        self._forget_frames(now)

    def _served(self, channel: str) -> bool:
        namespace, room = self.subscribed[channel]
        return room in self.rooms.get(namespace, {})

    def _forget_frames(self, now: float) -> None:
        old = [k for k, f in self._last_frame.items() if now - f.at > HOLD_SECONDS_MAX]
        for key in old:
            del self._last_frame[key]

    # Receiving -----------------------------------------------------------------------

    def initialize(self):
        # Overrides AsyncPubSubManager.initialize (starts the listener, `thread`, on `_thread`
        # reading `_listen`): also starts dropping the channels of rooms left empty.
        super().initialize()
        if not self.write_only:
            self._idle_dropper = self.server.start_background_task(self._drop_idle_channels)

    async def close(self) -> None:
        """Stops receiving: an edge that shut down no longer reads (or retries) Redis. Bounded:
        a Redis connection that does not answer must not hold up the shutdown."""
        receivers = [getattr(self, "thread", None), getattr(self, "_idle_dropper", None)]
        receivers = [task for task in receivers if task is not None]
        for task in receivers:
            task.cancel()
        if receivers:
            await asyncio.wait(receivers, timeout=CLOSE_SECONDS)
        subscriber, self._subscriber = self._subscriber, None
        if subscriber is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(subscriber.aclose(), CLOSE_SECONDS)

    async def _connect_subscriber(self) -> None:
        client = aioredis.Redis.from_url(self.redis_url, **self.redis_options)
        subscriber = client.pubsub()
        async with self._commands:
            await subscriber.subscribe(self.channel, *self.subscribed)
            self._subscriber = subscriber

    async def _redis_messages(self) -> AsyncIterator[dict[str, Any]]:
        retry_seconds = 1
        while True:
            try:
                if self._subscriber is None:
                    await self._connect_subscriber()
                    retry_seconds = 1
                async for message in self._subscriber.listen():
                    yield message
            except Exception as exc:
                log.error("cannot receive from Redis (%s); retrying in %d s", exc, retry_seconds)
                self._subscriber = None
                await asyncio.sleep(retry_seconds)
                retry_seconds = min(retry_seconds * 2, RETRY_SECONDS_MAX)

    async def _listen(self):
        # Overrides AsyncRedisManager._listen (one channel, raw data): reads the base and room
        # channels, confirms subscriptions, handles our `rooms` message and yields the decoded
        # dicts (`_thread` takes a dict as it comes).
        async for message in self._redis_messages():
            channel = _text(message.get("channel"))
            if message["type"] == "subscribe":
                # Off the list once confirmed: `settled`, on every room a socket enters, looks
                # through the list (a `viewing` event walked every channel of the edge's
                # thousands: a tenth of the edge's CPU at 1,000 people).
                confirmed = self.confirming.pop(channel, None)
                if confirmed is not None and not confirmed.done():
                    confirmed.set_result(None)
                continue
            if message["type"] != "message":
                continue
            self.decoded[channel] += 1
            try:
                data = self.json.loads(message["data"])
            except ValueError:
                continue
            method = data.get("method") if isinstance(data, dict) else None
            if method == ROOMS_METHOD:
                # Its own message was handled when sent; it answers it all the same, as one of
                # the listeners Redis counted. Confirmations are awaited apart: they arrive
                # here, and this loop waiting for them heard nothing for CONFIRM_SECONDS.
                if data.get("host_id") != self.host_id:
                    self._move(data)
                if isinstance(data.get("move_id"), str):
                    self._tasks.start(self._answer_move(data["move_id"]))
                continue
            if method == MOVED_METHOD:
                move = self._moves.get(data.get("move_id"))
                if move is not None:
                    move.answered += 1
                    move.check()
                continue
            yield data

    # Our control message: a room's sockets enter or leave rooms -----------------------

    async def move_sockets(
        self, room: str, enter: Iterable[str] = (), leave: Iterable[str] = (), namespace: str = "/"
    ) -> None:
        """Every socket in `room`, on whichever edge, enters `enter` and leaves `leave`
        (python-socketio moves only one socket at a time, by its id).

        Sockets entering rooms are in them, on every edge, when this returns (or after
        CONFIRM_SECONDS): what is published to those rooms then reaches them. Returning once
        the message was published, the first messages of a new chat were published before
        the other edges had subscribed to its room, and their sockets never got them. The
        message goes on `room`'s channel, so Redis counts the edges holding its sockets, and
        each answers once its sockets are in and their channels confirmed."""
        message = {
            "method": ROOMS_METHOD,
            "namespace": namespace,
            "room": room,
            "enter": list(enter),
            "leave": list(leave),
            "host_id": self.host_id,
        }
        if not self.write_only:
            self._move(message)
            await self.settled()
        # Answers come to the listener, which the edge starts as it starts
        # (`start_receiving`): a write-only publisher has none and does not wait.
        if getattr(self, "thread", None) is None or not message["enter"]:
            await self._publish(message)
            return
        move_id = message["move_id"] = uuid.uuid4().hex
        move = self._moves[move_id] = _Move()
        try:
            move.receivers = await self._publish(message) or 0
            move.check()
            await asyncio.wait_for(move.done.wait(), CONFIRM_SECONDS)
        except TimeoutError:
            log.warning(
                "%d of %s edges moved the sockets of %s", move.answered, move.receivers, room
            )
        finally:
            del self._moves[move_id]

    def _move(self, message: dict[str, Any]) -> None:
        namespace, room = message.get("namespace") or "/", message.get("room")
        if not isinstance(room, str):
            return
        for sid, _ in list(self.get_participants(namespace, room)):
            for room in message.get("enter") or []:
                self.basic_enter_room(sid, namespace, room)
            for room in message.get("leave") or []:
                self.basic_leave_room(sid, namespace, room)

    async def _answer_move(self, move_id: str) -> None:
        """Tells the edge moving sockets that this edge's are in, their channels confirmed."""
        await self.settled()
        await self._publish({"method": MOVED_METHOD, "move_id": move_id, "host_id": self.host_id})

    # Delivering ----------------------------------------------------------------------

    async def _handle_emit(self, message: dict[str, Any]) -> None:
        # Overrides AsyncPubSubManager._handle_emit (AsyncManager.emit: a task per recipient
        # through the server's `_send_eio_packet`): one encoding written to every socket of the
        # room, a busy room's messages coalesced. Events awaiting a callback keep its path.
        if message.get("callback") is not None or self.server is None:
            await super()._handle_emit(message)
            return
        data = message["data"]
        if message.get("binary"):
            attachments = [base64.b64decode(a) for a in data[1:]]
            data = Packet.reconstruct_binary(data[0], attachments)
        args = list(data) if isinstance(data, list) else [data]
        namespace = message.get("namespace") or "/"
        await self._deliver(message["event"], args, namespace, message.get("room"), message)

    async def _deliver(
        self, event: str, args: list[Any], namespace: str, room: Any, message: dict[str, Any]
    ) -> None:
        key = (namespace, room) if isinstance(room, str) else None
        items = _coalescable(event, args) if key and not message.get("skip_sid") else None
        if items is not None and self._hold(key, LISTED_EVENTS.get(event, event), items):
            return
        if key in self._held:
            # Whatever else the room gets comes after the messages held for it.
            await self._flush(key)
        await self._send(event, args, namespace, room, message.get("skip_sid"))

    def _hold(self, key: tuple[str, str], event: str, items: list[Any]) -> bool:
        """Keeps the items for the room's next frame while the room is busy."""
        held = self._held.get(key)
        if held is None or held.event != event:
            now = time.monotonic()
            if held is not None or not self._busy(key, now):
                return False
            held = self._held[key] = _Held(event, since=now)
            last = self._last_frame[key].at
            self._check_later(key, max(last + self._window(key) - now, WRITING_POLL_SECONDS))
        held.items.extend(items)
        return True

    def _busy(self, key: tuple[str, str], now: float) -> bool:
        frame = self._last_frame.get(key)
        if frame is None:
            return False
        return now - frame.at < self._window(key) or not frame.written

    def _window(self, key: tuple[str, str]) -> float:
        namespace, room = key
        sockets = len(self.rooms.get(namespace, {}).get(room, ()))
        return max(
            self.coalesce_seconds, min(sockets * COALESCE_SECONDS_PER_SOCKET, HOLD_SECONDS_MAX)
        )

    def _check_later(self, key: tuple[str, str], delay: float) -> None:
        held = self._held[key]
        held.timer = asyncio.get_running_loop().call_later(delay, self._due, key)

    def _due(self, key: tuple[str, str]) -> None:
        held = self._held.get(key)
        if held is None:
            return
        frame = self._last_frame.get(key)
        waited = time.monotonic() - held.since
        if frame is not None and self._busy(key, time.monotonic()) and waited < HOLD_SECONDS_MAX:
            self._check_later(key, WRITING_POLL_SECONDS)
            return
        self._tasks.start(self._flush(key))

    async def _flush(self, key: tuple[str, str]) -> None:
        held = self._held.pop(key, None)
        if held is None:
            return
        if held.timer is not None:
            held.timer.cancel()
        namespace, room = key
        if len(held.items) == 1:
            await self._send(held.event, held.items, namespace, room, None)
        else:
            await self._send(COALESCED_EVENTS[held.event], [held.items], namespace, room, None)

    async def _send(
        self, event: str, args: list[Any], namespace: str, room: Any, skip_sid: Any
    ) -> None:
        """One encoding for every recipient, queued straight onto each socket's writer."""
        if namespace not in self.rooms:
            return
        skip = set(skip_sid if isinstance(skip_sid, list) else [skip_sid])
        encoded = self.server.packet_class(
            packet.EVENT, namespace=namespace, data=[event, *args]
        ).encode()
        frames = [
            eio_packet.Packet(eio_packet.MESSAGE, p)
            for p in (encoded if isinstance(encoded, list) else [encoded])
        ]
        # Text events (all but binary ones) are one websocket frame, framed once for all.
        direct = None if isinstance(encoded, list) else message_frame(encoded)
        # engine.io's sockets by id, each with its packet `queue` and `closed` flag.
        sockets = self.server.eio.sockets
        written = 0
        for sid, eio_sid in list(self.get_participants(namespace, room)):
            socket = sockets.get(eio_sid)
            if sid in skip or socket is None or socket.closed:
                continue
            written += 1
            if direct is not None and write_directly(socket, direct):
                continue
            for frame in frames:
                # What engine.io's send does, less a coroutine, a log call and a ping check
                # per recipient (engine.io's own ping task closes sockets that went silent).
                socket.queue.put_nowait(frame)
        metrics.frame_written(written)
        if isinstance(room, str):
            sent = self._last_frame[(namespace, room)] = _LastFrame(time.monotonic())
            _after_passes(WRITER_PASSES, lambda: setattr(sent, "written", True))


def _coalescable(event: str, args: list[Any]) -> list[Any] | None:
    """The messages an event carries, when the room's next frame may take them."""
    if len(args) != 1:
        return None
    if event in COALESCED_EVENTS:
        return [args[0]]
    if event in LISTED_EVENTS and isinstance(args[0], list):
        return args[0]
    return None


def _after_passes(passes: int, callback: Callable[[], None]) -> None:
    """Runs `callback` once the event loop went through its ready callbacks `passes` times."""
    if passes == 0:
        callback()
    else:
        asyncio.get_running_loop().call_soon(_after_passes, passes - 1, callback)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value or "")
