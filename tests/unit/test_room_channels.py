"""Which room channels an edge listens to: a room left empty has its channel dropped a little
later, never while a socket is in it."""

import asyncio

from agora.realtime.transport.room_channels import IDLE_ROOM_SECONDS, RoomChannelManager

ROOM = "v:r_chat"


class Subscriber:
    """Redis's pub/sub as the manager commands it, recording SUBSCRIBEs and UNSUBSCRIBEs; a
    SUBSCRIBE waits for `answer` (Redis slow to confirm) when it is cleared."""

    def __init__(self) -> None:
        self.listening: set[str] = set()
        self.answer = asyncio.Event()
        self.answer.set()

    async def subscribe(self, *channels: str) -> None:
        await self.answer.wait()
        self.listening.update(channels)

    async def unsubscribe(self, *channels: str) -> None:
        self.listening.difference_update(channels)


async def test_a_socket_entering_an_idle_room_while_a_subscribe_is_confirmed_keeps_its_channel():
    """A reload: the old socket left the chat's room; its new socket connects, entering many
    rooms (a SUBSCRIBE that holds the manager's command lock while Redis confirms it), and
    the chat's room just as the idle room is dropped. The room's events must still come."""
    manager = RoomChannelManager("redis://localhost:1/0", "c")
    subscriber = manager._subscriber = Subscriber()
    channel = manager.room_channel("/", ROOM)
    manager.basic_enter_room("old", "/", ROOM, eio_sid="old-eio")
    await asyncio.sleep(0)  # its SUBSCRIBE, answered at once
    assert channel in subscriber.listening
    manager.basic_leave_room("old", "/", ROOM)

    subscriber.answer.clear()
    manager.basic_enter_room("new", "/", "u:someone", eio_sid="new-eio")
    await asyncio.sleep(0)  # its SUBSCRIBE holds the lock, waiting for Redis
    left_at = manager.idle_since[channel]
    dropping = asyncio.create_task(manager._drop_idle(left_at + IDLE_ROOM_SECONDS))
    await asyncio.sleep(0)  # the dropper waits for the lock
    manager.basic_enter_room("new", "/", ROOM, eio_sid="new-eio")
    subscriber.answer.set()
    await dropping

    assert channel in manager.subscribed
    assert channel in subscriber.listening


async def test_a_channel_dropped_leaves_nothing_of_it_behind():
    """An edge hears thousands of rooms over its life: what it kept of a channel (its count of
    messages decoded) goes when the channel is dropped, and a room still served keeps its own."""
    manager = RoomChannelManager("redis://localhost:1/0", "c")
    subscriber = manager._subscriber = Subscriber()
    left, served = manager.room_channel("/", ROOM), manager.room_channel("/", "u:someone")
    manager.basic_enter_room("sid", "/", ROOM, eio_sid="eio")
    manager.basic_enter_room("sid", "/", "u:someone", eio_sid="eio")
    await asyncio.sleep(0)  # their SUBSCRIBE, answered at once
    manager.decoded.update([left, served])
    manager.basic_leave_room("sid", "/", ROOM)
    await manager._drop_idle(manager.idle_since[left] + IDLE_ROOM_SECONDS)

    assert left not in subscriber.listening
    assert set(manager.decoded) == {served}
    assert set(manager.subscribed) == {served}


async def test_a_room_entered_waits_only_for_channels_redis_has_not_confirmed():
    """`settled` runs on every room a socket enters: the channels Redis confirmed long ago
    (an edge's thousands) are not looked through again, and a new one is still waited for."""
    manager = RoomChannelManager("redis://localhost:1/0", "c")
    manager._subscriber = Subscriber()
    confirmations: asyncio.Queue = asyncio.Queue()

    async def redis_messages():
        while True:
            yield {"type": "subscribe", "channel": await confirmations.get()}

    manager._redis_messages = redis_messages
    listening = asyncio.create_task(anext(manager._listen(), None))
    rooms = [f"v:r_chat{n}" for n in range(1000)]
    for room in rooms:
        manager.basic_enter_room("old", "/", room, eio_sid="old-eio")
        confirmations.put_nowait(manager.room_channel("/", room))
    await manager.settled()
    assert manager.confirming == {}

    manager.basic_enter_room("new", "/", "v:r_new", eio_sid="new-eio")
    entering = asyncio.create_task(manager.settled())
    await asyncio.sleep(0.01)
    assert not entering.done()  # waiting for Redis to confirm the new room's channel
    confirmations.put_nowait(manager.room_channel("/", "v:r_new"))
    await entering
    listening.cancel()


class WalkedRooms(dict):
    """A namespace's rooms, counting the walks through all of them."""

    walks = 0

    def copy(self):
        self.walks += 1
        return super().copy()

    def items(self):
        self.walks += 1
        return super().items()

    def __iter__(self):
        self.walks += 1
        return super().__iter__()


async def test_a_socket_closing_leaves_its_own_rooms_without_walking_the_edges():
    """A socket closing looked for itself in every room of the edge (python-socketio's
    `basic_disconnect`: a walk as long as the edge's thousands of rooms per socket closed).
    It leaves its own rooms; the other sockets stay in theirs, shared or not."""
    manager = RoomChannelManager("redis://localhost:1/0", "c", write_only=True)

    def connect(sid: str, rooms: list[str]) -> None:
        for room in [None, sid, *rooms]:
            manager.basic_enter_room(sid, "/", room, eio_sid=f"{sid}-eio")

    for n in range(1000):
        connect(f"other{n}", [f"u:other{n}", "v:r_city"])
    connect("leaving", ["u:leaving", "v:r_city", "v:r_chat"])
    manager.basic_leave_room("leaving", "/", "v:r_chat")
    manager.rooms["/"] = walked = WalkedRooms(manager.rooms["/"])

    manager.basic_disconnect("leaving", "/")

    assert walked.walks == 0
    assert not manager.is_connected("leaving", "/")
    assert {"leaving", "u:leaving", "v:r_chat"}.isdisjoint(walked)
    assert len(walked["v:r_city"]) == 1000
    assert all(manager.is_connected(f"other{n}", "/") for n in range(1000))
    assert sorted(manager.get_rooms("other7", "/")) == ["other7", "u:other7", "v:r_city"]
    # Nothing of the socket is kept once it left.
    assert ("/", "leaving") not in manager._rooms_of
