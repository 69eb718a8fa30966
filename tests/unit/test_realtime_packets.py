"""The edge's Socket.IO packets: binary data is still found wherever it sits."""

import socketio

from agora.realtime.transport.packets import EdgePacket

SHAPES = [
    None,
    "text",
    [],
    {"inbox_message": {"payload": "hi", "payload1": [{"url": "/u/a.png"}], "seq": 3}},
    ["message", {"payload": "hi"}],
    b"raw",
    ["file", {"parts": [1, {"blob": bytearray(b"x")}]}],
    {"deep": [[[{"bytes": b"\x00"}]]]},
]


def test_binary_is_found_as_the_library_finds_it():
    for data in SHAPES:
        assert EdgePacket.data_is_binary(data) == socketio.packet.Packet.data_is_binary(data), data


def test_an_event_with_bytes_goes_as_a_binary_event_and_text_as_text():
    assert EdgePacket(socketio.packet.EVENT, ["file", {"blob": b"x"}]).packet_type == (
        socketio.packet.BINARY_EVENT
    )
    text = EdgePacket(socketio.packet.ACK, [{"type": 13, "inbox_message": {"payload": "hi"}}], id=4)
    assert text.packet_type == socketio.packet.ACK
    assert text.encode() == '34[{"type":13,"inbox_message":{"payload":"hi"}}]'
