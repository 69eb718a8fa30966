"""Fan-out frames written straight to a websocket never overtake a packet engine.io's
writer already took from the socket's queue."""

import asyncio
from types import SimpleNamespace

from agora.realtime.transport.websockets import UnsentCountingQueue, text_frame, write_directly


class Transport:
    def __init__(self) -> None:
        self.frames: list[bytes] = []

    def write(self, frame: bytes) -> None:
        self.frames.append(frame)

    def is_closing(self) -> bool:
        return False

    def get_write_buffer_size(self) -> int:
        return 0


def idle_socket() -> SimpleNamespace:
    return SimpleNamespace(queue=UnsentCountingQueue(), direct_transport=Transport())


async def test_a_packet_the_writer_took_but_has_not_written_keeps_the_frame_in_the_queue():
    socket = idle_socket()
    socket.queue.put_nowait("earlier packet")
    # Engine.io's writer, as it polls: the queue empties a loop pass before it writes.
    taken = asyncio.ensure_future(asyncio.wait_for(socket.queue.get(), 10))
    for _ in range(10):  # a few loop passes: the writer's inner task takes the packet
        if socket.queue.empty():
            break
        await asyncio.sleep(0)
    assert socket.queue.empty() and not taken.done()
    assert not write_directly(socket, text_frame("later"))
    assert socket.direct_transport.frames == []
    await taken
    socket.queue.written()  # the writer wrote it
    assert write_directly(socket, text_frame("later"))
    assert socket.direct_transport.frames == [text_frame("later")]


def test_an_idle_socket_is_written_directly_with_one_unmasked_text_frame():
    socket = idle_socket()
    assert write_directly(socket, text_frame("hi"))
    assert socket.direct_transport.frames == [b"\x81\x02hi"]
    long = text_frame("x" * 300)
    assert long[:4] == b"\x81\x7e\x01\x2c" and len(long) == 304
