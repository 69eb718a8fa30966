"""Malformed input from outside gets a 400 with `errors`, never a 500 or a silent socket."""

import asyncio
import base64
import gzip
import json
import logging

import aiohttp
import pytest
import socketio

from agora.http.realtime import SOCKET_SERVER
from agora.realtime.transport import MALFORMED_EVENT
from tests.integration.helpers import (
    CLIENT_EVENTS,
    bearer,
    event_handlers_run,
    member,
    new_group,
    raw_socket,
)

ANY_POSTS = ["/user/chats", "/get_by_ids", "/session/send", "/api/giveoffer", "/api/feed"]


@pytest.fixture
async def ada(client, smtp_sink):
    return await member(client, smtp_sink)


async def _refused(reply, field: str | None = None) -> dict:
    assert reply.status == 400, await reply.text()
    errors = (await reply.json())["errors"]
    if field is not None:
        assert field in errors
    return errors


@pytest.mark.parametrize("path", ANY_POSTS)
@pytest.mark.parametrize("opening", [b"[", b'{"a":'])
async def test_deeply_nested_json_is_refused(ada, path, opening):
    body = opening * (250_000 // len(opening))  # 100,000 levels and more, under the size limit
    reply = await ada.client.post(
        path, data=body, headers={**bearer(ada.key), "Content-Type": "application/json"}
    )
    await _refused(reply)


async def test_json_nested_past_the_limit_is_refused_even_when_it_parses(ada):
    body = {"cursor": None, "x": json.loads("[" * 40 + "]" * 40)}
    await _refused(await ada.client.post("/user/chats", json=body, headers=bearer(ada.key)))


@pytest.mark.parametrize("depth", [1_020, 40])
async def test_json_text_inside_a_field_is_read_with_the_same_depth_cap(ada, depth):
    """A push subscription arrives as JSON text inside the body's JSON."""
    body = {"os_type": "WEB_PUSH", "push_token": "[" * depth + "]" * depth}
    await _refused(
        await ada.client.post("/update_push_token", json=body, headers=bearer(ada.key)),
        "push_token",
    )


async def _raw_exchange(port: int, requests: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(requests)
    await writer.drain()
    data = b""
    while data.count(b"HTTP/1.1 ") < 2 or not data.rstrip().endswith(b"}"):
        chunk = await asyncio.wait_for(reader.read(65536), 10)
        if not chunk:
            break
        data += chunk
    writer.close()
    return data


def _post(body: bytes, encoding: str) -> bytes:
    return (
        b"POST /get_by_ids HTTP/1.1\r\nHost: edge\r\nContent-Type: application/json\r\n"
        + f"Content-Encoding: {encoding}\r\nContent-Length: {len(body)}\r\n\r\n".encode()
        + body
    )


async def test_a_body_that_is_not_what_its_encoding_says_is_refused_and_the_connection_lives(
    client,
):
    second = b"GET /realtime/connect HTTP/1.1\r\nHost: edge\r\n\r\n"
    answer = await _raw_exchange(client.server.port, _post(b'{"user_ids": []}', "gzip") + second)
    first, _, rest = answer.partition(b"\r\n\r\n")
    assert first.startswith(b"HTTP/1.1 400 ")
    assert b'"errors"' in rest
    # The same connection still answers the next request.
    assert b"HTTP/1.1 200 OK" in rest
    assert b'"path":"/socket.io"' in rest


async def test_gzip_bodies_are_inflated_and_bounded(client):
    reply = await client.post(
        "/get_by_ids",
        data=gzip.compress(b'{"user_ids": []}'),
        headers={"Content-Type": "application/json", "Content-Encoding": "gzip"},
    )
    assert reply.status == 200
    bomb = gzip.compress(b'{"user_ids": ["' + b"a" * 2_000_000 + b'"]}')
    reply = await client.post(
        "/get_by_ids",
        data=bomb,
        headers={"Content-Type": "application/json", "Content-Encoding": "gzip"},
    )
    assert reply.status == 413
    reply = await client.post(
        "/get_by_ids",
        data=b"{}",
        headers={"Content-Type": "application/json", "Content-Encoding": "br"},
    )
    await _refused(reply)


BAD_NUMBERS = ["\u00b2", "1\u00b2", "\u0661\u0662", "1" * 25, "-1", "1e3", " 12", "1_000", ""]


@pytest.mark.parametrize("number", BAD_NUMBERS)
async def test_query_numbers_are_plain_bounded_digits(ada, number):
    await _refused(
        await ada.client.get(
            "/session/im_info",
            params={"session_id": "x", "created_at": number},
            headers=bearer(ada.key),
        ),
        "created_at",
    )
    if number:  # an empty `before` means the first page
        await _refused(
            await ada.client.get(
                "/api/wallet/ledger",
                params={
                    "wallet_user_id": ada.id,
                    "wallet_for": "user",
                    "wallet_currency": "POINTS",
                    "before": number,
                },
                headers=bearer(ada.key),
            ),
            "before",
        )


@pytest.mark.parametrize("field", ["greater_than_timestamp", "less_than_timestamp"])
async def test_body_timestamps_are_bounded(ada, field):
    body = {"session_id": "x", field: 10**25}
    await _refused(
        await ada.client.post("/session/messages", json=body, headers=bearer(ada.key)), field
    )


def _b64(raw: str, strip: bool = False) -> str:
    encoded = base64.urlsafe_b64encode(raw.encode()).decode()
    return encoded.rstrip("=") if strip else encoded


@pytest.mark.parametrize(
    "cursor",
    [
        _b64('[1e400, "x"]'),
        _b64('[-1e400, "x"]'),
        _b64('[NaN, "x"]'),
        _b64(f'[{10**30}, "x"]'),
        _b64("[1, 2]"),
        _b64('[true, "x"]'),
        "%%%",
    ],
)
async def test_chat_list_cursors_are_checked(ada, cursor):
    reply = await ada.client.post("/user/chats", json={"cursor": cursor}, headers=bearer(ada.key))
    await _refused(reply, "cursor")


@pytest.mark.parametrize(
    "key", ["\u00b2" * 15 + ":abc", "0" * 14 + "\u0661:abc", "1" * 15 + ":", "x:abc"]
)
async def test_feed_cursors_are_checked(ada, key):
    body = {"group_id": await new_group(ada), "cursor": _b64(key, strip=True)}
    reply = await ada.client.post("/api/feed", json=body, headers=bearer(ada.key))
    await _refused(reply, "cursor")


@pytest.fixture
async def ada_socket(ada):
    sio = socketio.AsyncClient(reconnection=False)
    await sio.connect(
        str(ada.client.make_url("/")), auth={"auth_key": ada.key}, transports=["websocket"]
    )
    yield sio
    await sio.disconnect()


BAD_SOCKET_DATA = [None, [], "x", 7, {}, {"session_id": 5, "created_at": "1"}]


@pytest.mark.parametrize("event", ["read", "delivered"])
@pytest.mark.parametrize(
    "data",
    [
        *BAD_SOCKET_DATA,
        {"session_id": "x", "created_at": 10**25},
        {"session_id": "x", "created_at": 1e20},
        {"session_id": "nothing-here", "created_at": 5},
    ],
)
async def test_delivery_events_answer_errors_for_bad_data(ada_socket, event, data):
    answer = await ada_socket.call(event, data, timeout=5)
    assert "errors" in answer


@pytest.mark.parametrize("event", ["read", "delivered", "unseen", "send", "join"])
async def test_events_without_data_or_with_extra_arguments_are_answered(ada_socket, event):
    assert "errors" in await ada_socket.call(event, timeout=5) or event == "unseen"
    answer = await ada_socket.call(event, ("a", "b"), timeout=5)
    assert "errors" in answer


@pytest.mark.parametrize("data", BAD_SOCKET_DATA)
async def test_socket_sends_with_a_bad_envelope_are_refused(ada_socket, data):
    answer = await ada_socket.call("send", data, timeout=5)
    assert answer["type"] == -1
    assert "errors" in answer


async def test_visitors_sockets_are_told_to_sign_in(client):
    visitor = socketio.AsyncClient(reconnection=False)
    await visitor.connect(str(client.make_url("/")), transports=["websocket"])
    for event in ("read", "delivered", "unseen", "send"):
        answer = await visitor.call(event, {"session_id": "x", "created_at": 1}, timeout=5)
        assert answer["need_user"] is True
    await visitor.disconnect()


ACK_GUARD_SECONDS = 5  # a hang guard, not a speed check


async def _answer(socket, packet: str, ack_id: int) -> list:
    """Sends a packet asking for acknowledgement `ack_id`; the acknowledgement's arguments."""
    await socket.send_str(packet)
    prefix = f"43{ack_id}["
    while True:
        message = await asyncio.wait_for(socket.receive(), ACK_GUARD_SECONDS)
        assert message.type == aiohttp.WSMsgType.TEXT, message
        if message.data.startswith(prefix):
            return json.loads(message.data[len(prefix) - 1 :])


async def _still_answers(socket) -> dict:
    [counts] = await _answer(socket, '4299["unseen"]', 99)
    return counts


def _no_failure_logged(caplog) -> None:
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert failures == [], [r.getMessage() for r in failures]


@pytest.mark.parametrize(
    "data", ["[" * 100_000 + "]" * 100_000, "[" * 40 + "]" * 40, "{not json", '"x"]']
)
async def test_socket_events_with_unreadable_data_are_answered(client, data):
    async with raw_socket(client) as socket:
        [answer] = await _answer(socket, f'421["unseen",{data}]', 1)
        assert "errors" in answer
        assert (await _still_answers(socket))["need_user"] is True


# What follows the event's name: no argument, null, an object, two and three arguments.
ARGUMENTS = ["", ",null", ",{}", ',"a","b"', ",{},null,7"]


def test_the_events_tried_are_every_event_the_edge_handles(client):
    handled = set(client.server.app[SOCKET_SERVER].handlers["/"])
    assert handled - {"connect", "disconnect", MALFORMED_EVENT} == set(CLIENT_EVENTS)


@pytest.mark.parametrize("who", ["user", "visitor"])
@pytest.mark.parametrize("event", CLIENT_EVENTS)
async def test_every_event_is_answered_whatever_number_of_arguments_it_has(ada, caplog, who, event):
    auth = {"auth_key": ada.key} if who == "user" else None
    async with raw_socket(ada.client, auth) as socket:
        for ack_id, arguments in enumerate(ARGUMENTS):
            [answer] = await _answer(socket, f'42{ack_id}["{event}"{arguments}]', ack_id)
            assert isinstance(answer, dict), (arguments, answer)
            if arguments.count(",") > 1:
                assert "errors" in answer, (arguments, answer)
        assert "need_user" not in await _still_answers(socket) or who == "visitor"
    _no_failure_logged(caplog)


RESERVED_EVENTS = ["connect", "disconnect", "connect_error", "disconnecting", "newListener"]


@pytest.mark.parametrize("event", [*RESERVED_EVENTS, "removeListener", "no-such-event", ""])
async def test_reserved_and_unknown_event_names_are_refused_and_change_nothing(ada, caplog, event):
    async with raw_socket(ada.client, {"auth_key": ada.key}) as socket:
        for ack_id, arguments in enumerate(ARGUMENTS):
            [answer] = await _answer(socket, f'42{ack_id}["{event}"{arguments}]', ack_id)
            assert "errors" in answer, (arguments, answer)
            await socket.send_str(f'42["{event}"{arguments}]')  # no acknowledgement asked
        # Still the signed-in socket it was (a `connect` made it a guest's).
        counts = await _still_answers(socket)
        assert "errors" not in counts, counts
    _no_failure_logged(caplog)


async def test_a_second_connect_packet_does_not_make_the_socket_a_guests(ada, caplog):
    async with raw_socket(ada.client, {"auth_key": ada.key}) as socket:
        await socket.send_str("40")
        await socket.send_str('40{"auth_key": "nobody"}')
        counts = await _still_answers(socket)
        assert "errors" not in counts, counts
    _no_failure_logged(caplog)


# Packets of Socket.IO's framing that no client sends: ignored, or refused when they ask for
# an acknowledgement; the socket goes on working.
ODD_PACKETS = [
    "42",
    "421",
    "42[]",
    "421[]",
    "42{}",
    '421{"a":1}',
    "42[7]",
    "421[null]",
    '421[["unseen"]]',
    '421[{"unseen":1}]',
    '42/elsewhere,1["unseen"]',
    "42" + "1" * 12 + '-["unseen"]',
    "42" + "1" * 101 + '["unseen"]',
    '42²["unseen"]',
    '451-["send",{"_placeholder":true,"num":0}]',
    '461-[{"_placeholder":true,"num":0}]',
    "43",
    '437["x"]',
    "44",
    '44{"message":"x"}',
    "47",
    "49x",
    "41/elsewhere,",
]


@pytest.mark.parametrize("packet", ODD_PACKETS)
async def test_odd_socket_io_packets_are_ignored_and_the_socket_goes_on(ada, caplog, packet):
    async with raw_socket(ada.client, {"auth_key": ada.key}) as socket:
        await socket.send_str(packet)
        counts = await _still_answers(socket)
        assert "errors" not in counts, counts
    _no_failure_logged(caplog)


async def test_a_binary_event_asking_for_an_answer_gets_one(ada, caplog):
    async with raw_socket(ada.client, {"auth_key": ada.key}) as socket:
        [answer] = await _answer(socket, '451-1["send",{"_placeholder":true,"num":0}]', 1)
        assert "errors" in answer
        assert "errors" not in await _still_answers(socket)
    _no_failure_logged(caplog)


# Frames that carry no Engine.IO packet a client sends (binary data too: no event takes any):
# the socket is closed, cleanly.
BAD_FRAMES = ["\x00", "", "9", "7x", "b!!!", "bAAAA", "4", "4x", "4\x00", "3" + "[" * 5_000]
BAD_FRAMES += ["2" + "{" * 3_000, "4" + "[" * 5_000, "d=42", "\u0664\u0662[]"]
BAD_FRAMES += [b"\x00", b'42["unseen"]']


@pytest.mark.parametrize("frame", BAD_FRAMES)
async def test_frames_outside_engine_io_close_the_socket_cleanly(client, caplog, frame):
    async with raw_socket(client) as socket:
        await (socket.send_bytes if isinstance(frame, bytes) else socket.send_str)(frame)
        closing = await asyncio.wait_for(socket.receive(), ACK_GUARD_SECONDS)
        assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED), closing
    _no_failure_logged(caplog)


async def _poll(client, method: str, sid: str | None = None, body: str | None = None):
    query = "EIO=4&transport=polling" + (f"&sid={sid}" if sid else "")
    reply = await client.request(method, f"/socket.io/?{query}", data=body)
    return reply.status, await reply.text()


@pytest.mark.parametrize("payload", ["\x00", "40\x1e\x00", "3" + "[" * 5_000, "b!!!", "4x"])
async def test_polled_payloads_outside_engine_io_are_refused_cleanly(client, caplog, payload):
    status, opened = await _poll(client, "GET")
    assert status == 200
    sid = json.loads(opened[1:])["sid"]
    assert (await _poll(client, "POST", sid, "40"))[0] == 200
    assert (await _poll(client, "GET", sid))[1].startswith("40")
    # As a client does, a poll waits for packets while another request sends some.
    waiting = asyncio.create_task(_poll(client, "GET", sid))
    status, _ = await asyncio.wait_for(_poll(client, "POST", sid, payload), ACK_GUARD_SECONDS)
    assert status == 400
    # The session is closed: the waiting poll gets Engine.IO's close packet.
    assert (await asyncio.wait_for(waiting, ACK_GUARD_SECONDS))[1].endswith("1")
    _no_failure_logged(caplog)


@pytest.mark.parametrize("transports", [["polling"], ["polling", "websocket"], ["websocket"]])
async def test_clients_on_every_transport_still_get_through(ada, caplog, transports):
    """What a real client sends passes the checks: polls, the upgrade's probe, messages."""
    sio = socketio.AsyncClient(reconnection=False)
    await sio.connect(
        str(ada.client.make_url("/")), auth={"auth_key": ada.key}, transports=transports
    )
    for _ in range(3):
        counts = await sio.call("unseen", timeout=ACK_GUARD_SECONDS)
        assert "errors" not in counts, counts
    assert sio.transport() == transports[-1]
    await sio.disconnect()
    _no_failure_logged(caplog)


async def test_a_polling_clients_close_answers_its_waiting_poll_and_ends_the_session(ada):
    """A polling client sends its close by POST while its GET waits for packets, and
    python-socketio's client waits for that GET in `disconnect()`. The edge answers it at
    once, as socket.io's own server does; engine.io held it for its ping interval and timeout
    (45 s, the client giving up after 30)."""
    sio = socketio.AsyncClient(reconnection=False)
    await sio.connect(
        str(ada.client.make_url("/")), auth={"auth_key": ada.key}, transports=["polling"]
    )
    session = sio.eio.sid
    await asyncio.wait_for(sio.disconnect(), ACK_GUARD_SECONDS)
    assert session not in ada.client.server.app[SOCKET_SERVER].eio.sockets


# A chat event's valid data, for a socket that closes as soon as it has sent it.
CLOSING_EVENTS = {
    "join": lambda chat: {"session_id": chat},
    "leave": lambda chat: {"session_id": chat},
    "viewing": lambda chat: {"session_id": chat},
    "typing": lambda chat: {"session_id": chat},
    "unseen": lambda chat: {},
    "read": lambda chat: {"session_id": chat, "created_at": 1},
    "delivered": lambda chat: {"session_id": chat, "created_at": 1},
}


async def test_a_socket_closed_while_its_event_is_handled_ends_quietly(ada, caplog, monkeypatch):
    """The event's handler runs on after the socket closed (a `join` reads the chat, a
    `viewing` waits for the user's shard), and finds its session and rooms gone: nothing to
    answer, nothing failed (it logged `KeyError: 'Session not found'` with a traceback)."""
    group_id = await new_group(ada, is_public=True)
    handlers = event_handlers_run(ada.client, monkeypatch)
    for event, data in CLOSING_EVENTS.items():
        for ack_id in range(5):
            async with raw_socket(ada.client, {"auth_key": ada.key}) as socket:
                await socket.send_str(f"42{ack_id}" + json.dumps([event, data(group_id)]))
    await asyncio.wait_for(asyncio.gather(*handlers), ACK_GUARD_SECONDS)
    _no_failure_logged(caplog)


@pytest.mark.parametrize("event", ["join", "leave", "typing", "viewing"])
async def test_a_chat_id_that_is_no_text_is_refused(ada, caplog, event):
    """A lone surrogate reads from JSON as a string, but is no text: it failed in the
    store's encoding ("Something went wrong on our side", a traceback logged)."""
    async with raw_socket(ada.client, {"auth_key": ada.key}) as socket:
        [answer] = await _answer(socket, f'421["{event}",{{"session_id":"\\ud800"}}]', 1)
        assert answer == {"errors": {"session_id": "Must be text"}}
        assert "errors" not in await _still_answers(socket)
    reply = await ada.client.post(
        "/session/messages",
        data='{"session_id": "\\udc00"}',
        headers={**bearer(ada.key), "Content-Type": "application/json"},
    )
    assert await _refused(reply, "session_id") == {"session_id": "Must be text"}
    _no_failure_logged(caplog)


@pytest.mark.parametrize(
    "request_head",
    [
        b"GET /" + b"a" * 9_000 + b" HTTP/1.1\r\nHost: edge\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: edge\r\nX-Long: " + b"b" * 9_000 + b"\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: edge\r\nNot a header: x\r\n\r\n",
    ],
)
async def test_a_request_that_is_not_http_gets_its_400_without_a_logged_failure(
    client, caplog, request_head
):
    reader, writer = await asyncio.open_connection("127.0.0.1", client.port)
    writer.write(request_head)
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), ACK_GUARD_SECONDS)
    writer.close()
    assert answer.startswith(b"HTTP/1.0 400 "), answer[:100]
    _no_failure_logged(caplog)
