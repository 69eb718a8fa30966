"""Chat against real edges, a real local Ray cluster, the MongoDB-wire server and Redis."""

import asyncio
import contextlib
import gc
import uuid

import pytest
import ray
import socketio
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from pymongo import AsyncMongoClient, monitoring

from agora.actors.protocol import ReadPage
from agora.app import SESSION_COPIES, build_app
from agora.core.chat.checks import NOT_IN_THIS_CHAT
from agora.core.chat.constants import (
    MESSAGES_PAGE,
    SESSION_BUFFER_MESSAGES,
    SESSION_KIND_ITEM_CHAT,
    USER_TYPE_ADMIN,
    USER_TYPE_BLOCKED,
    USER_TYPE_MEMBER,
)
from agora.core.chat.rooms import session_room, user_room
from agora.core.items import ITEM_HIDDEN_SORT_ORDER
from agora.core.shard_map import FIRST_VERSION, ShardMap, shard_of
from agora.http.realtime import SOCKET_SERVER
from agora.realtime.emitter import RealtimeEmitter
from agora.services.chat import ticks as ticks_module
from agora.services.chat.access import NOT_IN_CHAT
from agora.services.push import PushService
from agora.store import mongo
from agora.store.messages import MessageStore
from agora.store.sessions import SessionStore
from tests.integration.helpers import (
    Member,
    bearer,
    deployment_stores,
    eventually,
    member,
    new_group,
    open_socket,
    receipt_recorded,
    send_as_a_client,
)
from tests.integration.helpers import all_messages as _all_messages
from tests.integration.helpers import item_chat as _item_chat
from tests.integration.helpers import send_text as _send
from tests.integration.helpers import until as _until

pytestmark = pytest.mark.usefixtures("ray_cluster", "opened_sockets_closed")


async def _eventually(user, read, expected, seconds: float = 10.0):
    """What `read` takes from /user/me once it equals `expected`, or its last value."""
    value = None
    for _ in range(int(seconds / 0.1)):
        value = read(await user.get("/user/me"))
        if value == expected:
            break
        await asyncio.sleep(0.1)
    return value


async def test_an_item_chat_starts_as_a_dummy_and_becomes_real_with_the_first_message(
    chat_client, smtp_sink
):
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    opened = await asker.call(f"/api/chats/{item['_id']}", {"route_id": item["route_id"]})
    [entry] = opened["chats"]
    session_id = entry["session"]["_id"]
    assert session_id.startswith("r_")
    assert entry["session"]["is_dummy"] is True
    assert (entry["is_item_owner"], entry["is_user_in_session"]) == (False, False)
    assert (await owner.call(f"/api/chats/{item['_id']}", {}))["chats"] == []

    sent = await _send(asker, session_id, "Is it still available?", is_dummy_session=True)
    assert sent["type"] == 13
    assert sent["new_session_created"] is True
    assert sent["inbox_message"]["payload"] == "Is it still available?"

    owners_view = await owner.call(f"/api/chats/{item['_id']}", {})
    [chat] = owners_view["chats"]
    assert chat["session"]["_id"] == session_id
    assert chat["session"]["session_user_type"] == 10
    assert chat["session"]["unseen_count"] == 1
    assert chat["session"]["data"]["route_id"] == item["route_id"]

    reply = await _send(owner, session_id, "Yes, come by tomorrow")
    assert reply["new_session_created"] is False
    page = await asker.call("/session/messages", {"session_id": session_id})
    assert [m["payload"] for m in page["inbox_messages"]] == [
        "Is it still available?",
        "Yes, come by tomorrow",
    ]
    assert set(page["refs"]["users"]) == {owner.id, asker.id}


async def test_a_chat_being_stored_is_never_seen_without_its_members(another_edge):
    """A chat's first messages sent at once each make it real (`SessionStore.create_once`).
    One that found it stored before its members (another one's doing) took it to its shard,
    which loaded it without them and refused every message of it (e2e: an asker's two first
    messages both answered "This chat does not exist"). Whoever reads the chat reads its
    members as they were when it was stored."""
    sessions = another_edge.sessions
    members = {"owner": USER_TYPE_ADMIN, "asker": USER_TYPE_MEMBER}
    for n in range(10):
        session_id = f"r_created{n}_{uuid.uuid4().hex}"
        chat = {"_id": session_id, "kind": SESSION_KIND_ITEM_CHAT}
        seen, *created = await asyncio.gather(
            _members_once_stored(sessions, session_id),
            *(sessions.create_once(chat, members) for _ in range(2)),
        )
        assert seen == members
        assert sorted(made for _, made in created) == [False, True]


async def _members_once_stored(sessions: SessionStore, session_id: str) -> dict[str, int]:
    """The chat's members as read right after the chat is first seen stored."""
    while await sessions.get(session_id) is None:
        pass
    return await sessions.member_types(session_id)


async def test_unseen_counts_rise_and_opening_chats_resets_the_red_dot(chat_client, smtp_sink):
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    for text in ("one", "two", "three"):
        await _send(asker, session_id, text)
    # Counts follow the acknowledgement (they are not on the send path): wait for them.
    unseen = await _eventually(
        owner, lambda me: me["user"]["data"]["notifications_unseen_count"], 3
    )
    assert unseen == 3
    chats = await owner.call("/user/chats", {})
    # The newest activity first; the group the owner created is a chat of theirs too.
    listed = [(s["_id"], s["unseen_count"]) for s in chats["sessions"]]
    assert listed == [(session_id, 3), (item["group_id"], 0)]
    # Every row carries its newest message; a chat without messages has none.
    rows = {s["_id"]: s for s in chats["sessions"]}
    assert rows[session_id]["last_message"]["payload"] == "three"
    assert "last_message" not in rows[item["group_id"]]
    assert (await owner.get("/user/me"))["user"]["data"]["notifications_unseen_count"] == 0
    await owner.call("/session/messages", {"session_id": session_id})
    chats = await owner.call("/user/chats", {})
    assert [s["unseen_count"] for s in chats["sessions"]] == [0, 0]


class MembershipUpdates(monitoring.CommandListener):
    """The statements of each update of memberships an edge sends."""

    def __init__(self) -> None:
        self.updates: list[int] = []

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        if event.command_name == "update" and event.command["update"] == "session_users":
            self.updates.append(len(event.command["updates"]))

    def succeeded(self, event) -> None:
        pass

    def failed(self, event) -> None:
        pass


async def test_opening_chats_moves_the_red_dots_marks_without_waiting_for_receipts(
    client_for, smtp_sink, chat_prefix, mongo_url, monkeypatch
):
    """Opening Chats moves the red dot's seen marks, and the list waits for them, but not for
    the receipts waiting to be written behind: in their command, a list waited for the write
    in flight (its reads and announcements too) and then its own, 80-160 ms at 500 people.
    With the receipts held back an hour, the list's marks go alone and the receipts wait."""
    monkeypatch.setattr(ticks_module, "MARKS_WRITE_LINGER_SECONDS", 3600)
    watch = MembershipUpdates()

    def watched(*args, event_listeners=(), **options) -> AsyncMongoClient:
        return AsyncMongoClient(*args, event_listeners=[*event_listeners, watch], **options)

    monkeypatch.setattr(mongo, "AsyncMongoClient", watched)
    edge = await client_for(session_shards=2, redis_prefix=chat_prefix)
    owner, asker, item = await _item_chat(edge, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    for text in ("one", "two"):
        await _send(asker, session_id, text)

    def red_dot(me):
        return me["user"]["data"]["notifications_unseen_count"]

    assert await _eventually(owner, red_dot, 2) == 2
    # The list delivers its rows' newest messages: that receipt waits (an hour) for a write.
    await owner.call("/user/chats", {})
    assert await _eventually(owner, red_dot, 0) == 0
    await _send(asker, session_id, "three")
    assert await _eventually(owner, red_dot, 1) == 1
    watch.updates.clear()
    await owner.call("/user/chats", {})
    assert watch.updates == [1]
    assert await _eventually(owner, red_dot, 0) == 0
    db = AsyncMongoClient(mongo_url)
    try:
        stored = await db["agora_test"].session_users.find_one({"_id": f"{session_id}:{owner.id}"})
    finally:
        await db.close()
    assert (stored["seen_seq"], stored.get("delivered_seq", 0)) == (3, 0)
    # The lists' receipts go with the owner's page's, which is written at once.
    await owner.call("/session/messages", {"session_id": session_id})


async def test_sending_reads_up_to_ones_own_message_in_chats_and_groups(chat_client, smtp_sink):
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"

    async def unseen(user, chat_id: str) -> int:
        chats = await user.call("/user/chats", {})
        return {s["_id"]: s["unseen_count"] for s in chats["sessions"]}[chat_id]

    for text in ("one", "two"):
        await _send(asker, session_id, text)
    assert (await unseen(owner, session_id), await unseen(asker, session_id)) == (2, 0)
    # A reply without opening the chat first: the owner has read what came before it.
    await _send(owner, session_id, "three")
    assert (await unseen(owner, session_id), await unseen(asker, session_id)) == (0, 1)
    # The reply ticks what came before it, in the chat and in the message's info.
    page = await asker.call("/session/messages", {"session_id": session_id})
    statuses = [(m["payload"], m["flags"]["status"]) for m in page["inbox_messages"]]
    assert statuses[:2] == [("one", "read"), ("two", "read")]
    first = page["inbox_messages"][0]
    info = await asker.get(
        f"/session/im_info?session_id={session_id}&created_at={first['created_at']}"
    )
    assert info["info"]["read"] == [{"user_id": owner.id, "at": None}]
    await _send(asker, session_id, "four")
    assert (await unseen(owner, session_id), await unseen(asker, session_id)) == (1, 0)
    # A group keeps its senders' marks on their memberships: the same for its members.
    group_id = item["group_id"]
    await asker.call("/api/group?action=join", {"group_id": group_id})
    await _send(asker, group_id, "hello all")
    await _send(owner, group_id, "welcome")
    assert (await unseen(owner, group_id), await unseen(asker, group_id)) == (0, 1)


async def test_the_same_local_id_over_http_and_socket_at_once_makes_one_message(
    chat_client, smtp_sink
):
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    await _send(asker, session_id, "first")
    sio = socketio.AsyncClient(reconnection=False)
    await sio.connect(
        str(chat_client.make_url("/")), auth={"auth_key": asker.key}, transports=["websocket"]
    )
    body = {"dest_session_id": session_id, "payload": "only once", "local_id": "dup-1"}
    replies = await asyncio.gather(
        *(asker.call("/session/send", body) for _ in range(5)),
        *(sio.call("send", body) for _ in range(5)),
    )
    await sio.disconnect()
    assert {r["type"] for r in replies} == {13}
    assert len({r["inbox_message"]["id"] for r in replies}) == 1
    page = await owner.call("/session/messages", {"session_id": session_id})
    assert [m["payload"] for m in page["inbox_messages"]] == ["first", "only once"]


async def test_sockets_on_websocket_and_on_polling_get_each_acknowledgement_for_their_send(
    chat_client, smtp_sink
):
    """Acknowledgements to an idle websocket are written straight to it; a socket that began
    by polling gets them by engine.io's queue. Either way, each send's answer is its own."""
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    await _send(asker, session_id, "first")
    url = str(chat_client.make_url("/"))
    sockets = []
    for person, transports in ((asker, ["websocket"]), (owner, ["polling"])):
        sio = socketio.AsyncClient(reconnection=False)
        await sio.connect(url, auth={"auth_key": person.key}, transports=transports)
        sockets.append(sio)
    bodies = [
        (sockets[n % 2], {"dest_session_id": session_id, "payload": f"{n}", "local_id": f"ack-{n}"})
        for n in range(20)
    ]
    replies = await asyncio.gather(*(sio.call("send", body) for sio, body in bodies))
    for sio in sockets:
        await sio.disconnect()
    assert [r["inbox_message"]["local_id"] for r in replies] == [b["local_id"] for _, b in bodies]
    assert [r["inbox_message"]["payload"] for r in replies] == [f"{n}" for n in range(20)]


async def test_concurrent_sends_are_stored_once_each_in_strictly_increasing_order(
    chat_client, smtp_sink
):
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    first = await asyncio.gather(*(_send(asker, session_id, f"m{n}") for n in range(10)))
    assert sum(r["new_session_created"] for r in first) == 1
    replies = first + await asyncio.gather(
        *(_send(owner if n % 2 else asker, session_id, f"m{n}") for n in range(10, 60))
    )
    stamps = sorted(r["inbox_message"]["created_at"] for r in replies)
    assert len(set(stamps)) == 60
    stored, before = [], None
    while True:
        page = await owner.call(
            "/session/messages", {"session_id": session_id, "less_than_timestamp": before}
        )
        stored = page["inbox_messages"] + stored
        if not page["has_more"]:
            break
        before = page["next_less_than_timestamp"]
    assert [m["created_at"] for m in stored] == stamps
    assert sorted(m["payload"] for m in stored) == sorted(f"m{n}" for n in range(60))


async def test_who_may_send_and_read(chat_client, smtp_sink):
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    stranger = await member(chat_client, smtp_sink, "Stranger")
    session_id = f"r_{item['_id']}_{asker.id}"
    await _send(asker, session_id, "hello")

    visitor = await chat_client.post(
        "/session/send", json={"dest_session_id": session_id, "payload": "x", "local_id": "v"}
    )
    assert visitor.status == 401
    # To those outside it, the chat is as if it did not exist.
    refused = await _send(stranger, session_id, "let me in")
    assert refused["type"] == -1
    assert refused["errors"] == {"dest_session_id": "This chat does not exist"}
    await stranger.call("/session/messages", {"session_id": session_id}, status=404)
    reading = await chat_client.post("/session/messages", json={"session_id": session_id})
    assert reading.status == 404
    # Someone else's dummy chat id cannot be turned into a real chat.
    forged = await _send(stranger, session_id.replace(asker.id, owner.id), "hi")
    assert forged["type"] == -1
    empty = await _send(asker, session_id, "   ")
    assert empty["type"] == -1


async def _group_with_members(client, sink):
    """A private group with one member of each type."""
    admin = await member(client, sink, "Admin")
    group_id = await new_group(admin)
    people = {}
    for name in ("Moderator", "Member", "Waiting", "Blocked"):
        person = await member(client, sink, name)
        await person.call("/api/group?action=join", {"group_id": group_id})
        people[name] = person
    for name in ("Moderator", "Member", "Blocked"):
        await admin.call(
            "/session/user/update",
            {"session_id": group_id, "for_user_id": people[name].id, "action": "approve"},
        )
    await admin.call(
        "/session/user/update",
        {"session_id": group_id, "for_user_id": people["Moderator"].id, "action": "make_moderator"},
    )
    await admin.call(
        "/session/user/update",
        {"session_id": group_id, "for_user_id": people["Blocked"].id, "action": "block"},
    )
    return admin, people, group_id


async def test_blocked_and_waiting_members_cannot_send_in_a_group(chat_client, smtp_sink):
    admin, people, group_id = await _group_with_members(chat_client, smtp_sink)
    assert (await _send(admin, group_id, "welcome"))["type"] == 13
    assert (await _send(people["Member"], group_id, "thanks"))["type"] == 13
    assert (await _send(people["Waiting"], group_id, "me too"))["type"] == -1
    assert (await _send(people["Blocked"], group_id, "hey"))["type"] == -1
    banner = await _send(people["Member"], group_id, "look", _type=1100)
    assert banner["type"] == -1
    assert (await _send(admin, group_id, "news", _type=1100))["type"] == 13


MODERATION_MATRIX = [
    # (actor, target, action, resulting type or None when removed, or "forbidden")
    ("Admin", "Waiting", "approve", 20),
    ("Admin", "Waiting", "reject", None),
    ("Admin", "Member", "block", 29),
    ("Admin", "Blocked", "unblock", 20),
    ("Admin", "Member", "make_moderator", 15),
    ("Admin", "Member", "approve", "forbidden"),
    ("Admin", "Blocked", "block", "forbidden"),
    ("Moderator", "Waiting", "approve", 20),
    ("Moderator", "Member", "block", 29),
    ("Moderator", "Blocked", "unblock", 20),
    ("Moderator", "Member", "make_moderator", "forbidden"),
    ("Moderator", "Admin", "block", "forbidden"),
    ("Member", "Waiting", "approve", "forbidden"),
    ("Member", "Blocked", "unblock", "forbidden"),
]


@pytest.mark.parametrize(("actor", "target", "action", "result"), MODERATION_MATRIX)
async def test_moderation_matrix(chat_client, smtp_sink, actor, target, action, result):
    admin, people, group_id = await _group_with_members(chat_client, smtp_sink)
    people["Admin"] = admin
    body = {"session_id": group_id, "for_user_id": people[target].id, "action": action}
    if result == "forbidden":
        await people[actor].call("/session/user/update", body, status=403)
        return
    reply = await people[actor].call("/session/user/update", body)
    listed = await admin.call("/session/users", {"session_id": group_id})
    types = {m["user"]["name"]: m["session_user_type"] for m in listed["session_users"]}
    if result is None:
        assert reply["session_user"] is None
        assert target not in types
    else:
        assert reply["session_user"]["session_user_type"] == result
        assert types[target] == result


async def test_a_rejected_request_to_join_leaves_the_member_count(chat_client, smtp_sink):
    admin, people, group_id = await _group_with_members(chat_client, smtp_sink)

    async def num_members() -> int:
        return (await admin.call("/api/group", {"group_id": group_id}))["group"]["data"][
            "num_members"
        ]

    before = await num_members()
    body = {"session_id": group_id, "for_user_id": people["Waiting"].id, "action": "reject"}
    replies = await asyncio.gather(
        *(
            chat_client.post("/session/user/update", json=body, headers=bearer(admin.key))
            for _ in range(3)
        )
    )
    # Concurrent rejections remove the request once, and count it once.
    assert sorted(r.status for r in replies)[0] == 200
    assert await num_members() == before - 1


async def _frames_sent_so_far_arrived(*sockets) -> None:
    """On one edge a socket's frames go out in the order they were sent, so a round trip on
    each socket comes back after whatever was sent to it before."""
    for sio in sockets:
        await sio.call("unseen", {})


async def _heard_typing(heard: dict[str, list], *sockets) -> list[tuple[str, str]]:
    """Who of `sockets` heard typing so far."""
    await _frames_sent_so_far_arrived(*sockets)
    return [(name, data["user_id"]) for name, data in heard["typing"]]


async def test_typing_reaches_only_the_tabs_showing_the_chat_while_they_may_read_it(
    chat_client, smtp_sink
):
    """Only a tab showing a chat shows who types in it, yet a city group's typing went to every
    member's socket. A tab showing the chat hears it; one showing another chat, or none, does
    not; nor one that may no longer read the chat."""
    admin, people, group_id = await _group_with_members(chat_client, smtp_sink)
    reader, typist = people["Member"], people["Moderator"]
    heard: dict[str, list] = {"typing": []}
    showing = await _socket(chat_client, reader, heard, "showing")
    elsewhere = await _socket(chat_client, reader, heard, "elsewhere")
    hidden = await _socket(chat_client, reader, heard, "hidden")
    assert await showing.call("viewing", {"session_id": group_id}) == {"ok": True}
    await elsewhere.call("viewing", {"session_id": f"r_elsewhere_{reader.id}"})
    await hidden.call("viewing", {"session_id": group_id})
    await hidden.call("viewing", {"session_id": None})
    typing = await _socket(chat_client, typist)
    assert await typing.call("typing", {"session_id": group_id}) == {"ok": True}
    readers = (showing, elsewhere, hidden)
    assert await _heard_typing(heard, *readers) == [("showing", typist.id)]

    # Blocked, the reader's tab no longer hears the chat, though it still shows it.
    body = {"session_id": group_id, "for_user_id": reader.id, "action": "block"}
    await admin.call("/session/user/update", body)
    admin_socket = await _socket(chat_client, admin)
    assert await admin_socket.call("typing", {"session_id": group_id}) == {"ok": True}
    assert await _heard_typing(heard, *readers) == [("showing", typist.id)]


async def test_a_tick_that_moves_reaches_the_tabs_showing_the_chat_and_its_sender(
    chat_client, smtp_sink
):
    """Only an open chat shows ticks: an announcement reaches the tabs showing the chat and
    the sender of the message it names, wherever they are, not every member's socket."""
    admin, people, group_id = await _group_with_members(chat_client, smtp_sink)
    sender, reader = people["Member"], people["Moderator"]
    heard: dict[str, list] = {"message_status": []}
    on_the_feed = await _socket(chat_client, sender, heard, "sender")
    showing = await _socket(chat_client, admin, heard, "showing")
    elsewhere = await _socket(chat_client, admin, heard, "elsewhere")
    assert await showing.call("viewing", {"session_id": group_id}) == {"ok": True}
    reading = await _socket(chat_client, reader)
    sent = await _send(sender, group_id, "who is coming?")
    receipt = {"session_id": group_id, "created_at": sent["inbox_message"]["created_at"]}
    assert await reading.call("delivered", receipt) == {"ok": True}
    await _until(lambda: len(heard["message_status"]) >= 2)
    await _frames_sent_so_far_arrived(on_the_feed, showing, elsewhere)
    assert sorted(n for n, _ in heard["message_status"]) == ["sender", "showing"]
    assert {d["user_id"] for _, d in heard["message_status"]} == {reader.id}


async def test_a_sender_blocked_since_hears_no_ticks_of_the_chat(chat_client, smtp_sink):
    """Ticks went to the sockets of the last message's sender whatever the sender's standing:
    one blocked after writing still heard who read the chat, and when."""
    admin, people, group_id = await _group_with_members(chat_client, smtp_sink)
    sender, reader = people["Member"], people["Moderator"]
    heard: dict[str, list] = {"message_status": []}
    sent = await _send(sender, group_id, "who is coming?")
    body = {"session_id": group_id, "for_user_id": sender.id, "action": "block"}
    await admin.call("/session/user/update", body)
    blocked = await _socket(chat_client, sender, heard, "blocked sender")
    await blocked.call("viewing", {"session_id": group_id})
    showing = await _socket(chat_client, admin, heard, "showing")
    assert await showing.call("viewing", {"session_id": group_id}) == {"ok": True}
    reading = await _socket(chat_client, reader)
    receipt = {"session_id": group_id, "created_at": sent["inbox_message"]["created_at"]}
    assert await reading.call("read", receipt) == {"ok": True}
    await _until(lambda: len(heard["message_status"]) >= 1)
    await _frames_sent_so_far_arrived(blocked, showing)
    assert [n for n, _ in heard["message_status"]] == ["showing"]


async def test_whether_a_ticks_sender_follows_is_the_edges_copy_to_say(
    chat_client, smtp_sink, another_edge
):
    """Every tick asked the store whether its message's sender still followed the chat; the
    edge's copy of their membership says (every block is announced to every edge, and the
    one above is heard): a block written behind the stores' back, which nothing announces,
    is not seen."""
    _, people, group_id = await _group_with_members(chat_client, smtp_sink)
    sender, reader = people["Member"], people["Moderator"]
    heard: dict[str, list] = {"message_status": []}
    await _socket(chat_client, sender, heard, "sender")
    sent = await _send(sender, group_id, "who is coming?")
    reading = await _socket(chat_client, reader)
    receipt = {"session_id": group_id, "created_at": sent["inbox_message"]["created_at"]}
    assert await reading.call("delivered", receipt) == {"ok": True}
    await _until(lambda: len(heard["message_status"]) >= 1)

    await another_edge.db.session_users.update_one(
        {"_id": f"{group_id}:{sender.id}"}, {"$set": {"session_user_type": USER_TYPE_BLOCKED}}
    )
    assert await reading.call("read", receipt) == {"ok": True}
    await _until(lambda: len(heard["message_status"]) >= 2)
    assert [d["status"] for _, d in heard["message_status"]] == ["delivered", "read"]


async def test_a_visitors_tab_hears_typing_from_its_join_until_it_leaves(chat_client, smtp_sink):
    """The tab may say it shows the chat before its window's join lets it read the chat."""
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    await _send(asker, session_id, "hi")
    await owner.call("/session/update", {"session_id": session_id, "is_read_allowed": True})
    visitor = await member(chat_client, smtp_sink, "Visitor")
    heard: dict[str, list] = {"typing": []}
    tab = await _socket(chat_client, visitor, heard, "visitor")
    await tab.call("viewing", {"session_id": session_id})
    asker_socket = await _socket(chat_client, asker)
    owner_socket = await _socket(chat_client, owner)
    assert await tab.call("join", {"session_id": session_id}) == {"ok": True}
    await asker_socket.call("typing", {"session_id": session_id})
    assert await _heard_typing(heard, tab) == [("visitor", asker.id)]
    assert await tab.call("leave", {"session_id": session_id}) == {"ok": True}
    await owner_socket.call("typing", {"session_id": session_id})
    assert await _heard_typing(heard, tab) == [("visitor", asker.id)]


async def test_a_tab_hears_typing_while_its_users_shard_hears_of_its_view(
    chat_client, smtp_sink, monkeypatch
):
    """A tab that says it shows a chat hears typing in it at once, however long the user's
    shard (a Ray actor, which decides on pushes) takes to hear that the chat is on screen."""
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    await _send(asker, session_id, "hi")
    told, release = asyncio.Event(), asyncio.Event()
    telling = PushService.socket_viewing

    async def slow_shard(self, sid, shown):
        told.set()
        await release.wait()
        await telling(self, sid, shown)

    monkeypatch.setattr(PushService, "socket_viewing", slow_shard)
    heard: dict[str, list] = {"typing": []}
    tab = await _socket(chat_client, owner, heard, "owner")
    viewing = asyncio.create_task(tab.call("viewing", {"session_id": session_id}))
    await told.wait()
    typist = await _socket(chat_client, asker)
    assert await typist.call("typing", {"session_id": session_id}) == {"ok": True}
    assert await _heard_typing(heard, tab) == [("owner", asker.id)]
    release.set()
    assert await viewing == {"ok": True}


async def test_a_tab_changing_the_chat_it_shows_makes_no_class_each_time(chat_client, smtp_sink):
    """python-socketio's `session` context manager is a class made at each call, which only
    the cycle collector frees: the edge's young collections found one in their garbage each
    time a tab said what it shows. Counted with the collector off, so none is freed meanwhile."""
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    await _send(asker, session_id, "hi")
    tab = await _socket(chat_client, owner)
    await tab.call("viewing", {"session_id": None})
    gc.disable()
    try:
        classes = len(object.__subclasses__())
        for shown in [session_id, None] * 10:
            assert await tab.call("viewing", {"session_id": shown}) == {"ok": True}
        made = len(object.__subclasses__()) - classes
    finally:
        gc.enable()
    assert made < 5
    # Still shown where the tab said last: it hears typing once it shows the chat again.
    heard: dict[str, list] = {"typing": []}
    shown_tab = await _socket(chat_client, owner, heard, "owner")
    await shown_tab.call("viewing", {"session_id": session_id})
    typist = await _socket(chat_client, asker)
    await typist.call("typing", {"session_id": session_id})
    assert await _heard_typing(heard, shown_tab) == [("owner", asker.id)]


async def test_mute_and_make_public_rules(chat_client, smtp_sink):
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    await _send(asker, session_id, "hi")
    muted = await asker.call(
        "/session/user/update", {"session_id": session_id, "notification_flag": 30}
    )
    assert muted["session_user"]["notification_flag"] == 30
    make_public = {"session_id": session_id, "is_read_allowed": True}
    await asker.call("/session/update", make_public, status=403)
    public = await owner.call("/session/update", make_public)
    assert public["session"]["is_read_allowed"] is True
    await owner.call("/session/update", make_public, status=400)
    readable = await chat_client.post("/session/messages", json={"session_id": session_id})
    assert readable.status == 200


async def _socket(client, person, events: dict[str, list] | None = None, name: str = ""):
    """A socket of `person`, recording `events` as (name, data) pairs."""
    handlers = {e: lambda data, e=e: events[e].append((name, data)) for e in events or {}}
    return await open_socket(client, person, handlers)


async def test_sockets_get_messages_typing_and_delivery_ticks(chat_client, smtp_sink):
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    await _send(asker, session_id, "hi")
    events: dict[str, list] = {"message": [], "message_status": [], "typing": [], "unseen": []}
    # Members' sockets follow their chats from the moment they connect: no join needed.
    sockets = {
        name: await _socket(chat_client, person, events, name)
        for name, person in (("owner", owner), ("asker", asker))
    }

    sent = await _send(asker, session_id, "are you there?")
    created_at = sent["inbox_message"]["created_at"]
    await _until(lambda: len(events["message"]) >= 2)
    assert sorted(n for n, d in events["message"] if d["payload"] == "are you there?") == [
        "asker",
        "owner",
    ]
    # One event per message to the chat's room; counts are not pushed per member.
    assert events["unseen"] == []
    me = await owner.get("/user/me")
    assert me["user"]["data"]["notifications_unseen_count"] == 2

    # Typing reaches the tabs showing the chat.
    assert await sockets["owner"].call("viewing", {"session_id": session_id}) == {"ok": True}
    await sockets["asker"].emit("typing", {"session_id": session_id})
    assert await sockets["owner"].call(
        "delivered", {"session_id": session_id, "created_at": created_at}
    ) == {"ok": True}
    await sockets["owner"].call("read", {"session_id": session_id, "created_at": created_at})
    await _until(lambda: len(events["message_status"]) >= 4 and bool(events["typing"]))
    statuses = {(n, d["status"]) for n, d in events["message_status"]}
    assert ("asker", "delivered") in statuses and ("asker", "read") in statuses
    assert events["typing"][0][1]["user_id"] == asker.id
    info = await asker.get(f"/session/im_info?session_id={session_id}&created_at={created_at}")
    assert [r["user_id"] for r in info["info"]["read"]] == [owner.id]  # announced once written
    # Reading the newest message read the chat.
    [entry] = (await owner.call(f"/api/chats/{item['_id']}", {}))["chats"]
    assert entry["session"]["unseen_count"] == 0
    stranger = await member(chat_client, smtp_sink, "Nosy")
    nosy = await _socket(chat_client, stranger)
    assert "errors" in await nosy.call("join", {"session_id": session_id})
    for sio in (*sockets.values(), nosy):
        await sio.disconnect()


async def test_a_screen_gets_exact_counts_and_muted_chats_when_it_connects(chat_client, smtp_sink):
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    for text in ("one", "two"):
        await _send(asker, session_id, text)
    sio = await _socket(chat_client, owner)
    assert await sio.call("unseen", {}) == {
        "notifications_unseen_count": 2,
        "muted_session_ids": [],
    }
    await owner.call("/session/user/update", {"session_id": session_id, "notification_flag": 30})
    await _send(asker, session_id, "three")
    # A muted chat keeps its badge but stops counting for the red dot.
    assert await sio.call("unseen", {}) == {
        "notifications_unseen_count": 0,
        "muted_session_ids": [session_id],
    }
    [entry] = (await owner.call(f"/api/chats/{item['_id']}", {}))["chats"]
    assert entry["session"]["unseen_count"] == 3
    visitor = socketio.AsyncClient(reconnection=False)
    await visitor.connect(str(chat_client.make_url("/")), transports=["websocket"])
    assert (await visitor.call("unseen", {}))["need_user"] is True
    for socket in (sio, visitor):
        await socket.disconnect()


async def test_a_mute_reaches_every_screen_of_its_member_and_no_one_else(chat_client, smtp_sink):
    """A chat muted in one tab shows muted in the member's other tabs and lists at once."""
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    await _send(asker, session_id, "hi")
    heard: dict[str, list] = {"session": []}
    tabs = [await _socket(chat_client, owner, heard, f"owner {n}") for n in (1, 2)]
    other = await _socket(chat_client, asker, heard, "asker")
    for flag, stored in ((31, 30), (5, 20)):
        heard["session"].clear()
        update = {"session_id": session_id, "notification_flag": flag}
        await owner.call("/session/user/update", update)
        await _frames_sent_so_far_arrived(*tabs, other)
        told = {"_id": session_id, "notification_flag": stored}
        assert sorted(heard["session"], key=lambda pair: pair[0]) == [
            ("owner 1", told),
            ("owner 2", told),
        ]


async def test_a_closed_window_keeps_following_the_chat(chat_client, smtp_sink):
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    await _send(asker, session_id, "hi")
    events: dict[str, list] = {"message": []}
    sio = await _socket(chat_client, owner, events)
    await sio.call("join", {"session_id": session_id})
    await sio.emit("leave", {"session_id": session_id})
    await _send(asker, session_id, "still there?")
    await _until(lambda: bool(events["message"]))
    assert [d["payload"] for _, d in events["message"]] == ["still there?"]
    await sio.disconnect()


async def test_a_new_group_member_follows_its_chat_without_its_history(chat_client, smtp_sink):
    admin = await member(chat_client, smtp_sink, "Admin")
    group_id = await new_group(admin, is_public=True)
    for n in range(3):
        await _send(admin, group_id, f"before {n}")
    newcomer = await member(chat_client, smtp_sink, "Newcomer")
    events: dict[str, list] = {"message": []}
    sio = await _socket(chat_client, newcomer, events)
    await newcomer.call("/api/group?action=join", {"group_id": group_id})
    assert (await newcomer.get("/user/me"))["user"]["data"]["notifications_unseen_count"] == 0
    await _send(admin, group_id, "welcome")
    await _until(lambda: len(events["message"]) >= 2)
    # The socket connected before the join, and was moved into the group's room by it.
    assert [d["payload"] for _, d in events["message"]] == ["Newcomer joined", "welcome"]
    assert (await newcomer.get("/user/me"))["user"]["data"]["notifications_unseen_count"] == 1
    await sio.disconnect()


async def test_blocking_stops_and_approving_starts_a_members_live_messages(chat_client, smtp_sink):
    admin, people, group_id = await _group_with_members(chat_client, smtp_sink)
    events: dict[str, list] = {"message": []}
    blocked = await _socket(chat_client, people["Member"], events, "member")
    waiting = await _socket(chat_client, people["Waiting"], events, "waiting")
    await admin.call(
        "/session/user/update",
        {"session_id": group_id, "for_user_id": people["Member"].id, "action": "block"},
    )
    await admin.call(
        "/session/user/update",
        {"session_id": group_id, "for_user_id": people["Waiting"].id, "action": "approve"},
    )
    await _send(admin, group_id, "after moderation")
    await _until(lambda: len(events["message"]) >= 2)
    await _send(admin, group_id, "and once more")
    await _until(lambda: len(events["message"]) >= 3)
    assert [(n, d["payload"]) for n, d in events["message"]] == [
        ("waiting", "Waiting was approved by Admin"),
        ("waiting", "after moderation"),
        ("waiting", "and once more"),
    ]
    for sio in (blocked, waiting):
        await sio.disconnect()


async def test_the_chat_list_pages_by_latest_activity(chat_client, smtp_sink):
    owner = await member(chat_client, smtp_sink, "Owner")
    group_id = await new_group(owner, is_public=True)
    askers = [await member(chat_client, smtp_sink, f"Asker {n}") for n in range(22)]
    item = await owner.post_item(group_id, "Lamp")
    chats = []
    for asker in askers:
        chats.append(f"r_{item['_id']}_{asker.id}")
        await _send(asker, chats[-1], "mine?")
    await _send(askers[0], chats[0], "hello again")  # the oldest chat moves to the top
    first = await owner.call("/user/chats", {})
    second = await owner.call("/user/chats", {"cursor": first["cursor"]})
    listed = [s["_id"] for s in first["sessions"] + second["sessions"]]
    assert (first["has_more"], second["has_more"]) == (True, False)
    assert listed == [chats[0], *reversed(chats[1:]), group_id]
    assert [s["unseen_count"] for s in first["sessions"][:2]] == [2, 1]
    stamps = [s["updated_at"] for s in first["sessions"] + second["sessions"]]
    assert stamps == sorted(stamps, reverse=True)


async def test_lookups_by_id_hide_what_the_caller_cannot_read(chat_client, smtp_sink):
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    await _send(asker, session_id, "hi")
    stranger = await member(chat_client, smtp_sink, "Stranger")
    body = {
        "user_ids": [owner.id],
        "session_ids": [session_id],
        "session_with_user_ids": [session_id],
        "item_ids": [item["_id"]],
    }
    mine = await asker.call("/get_by_ids", body)
    assert mine["users"][owner.id] == {"_id": owner.id, "name": "Owner", "image": ""}
    assert set(mine["sessions"]) == {session_id}
    assert len(mine["session_with_users"][session_id]["session_users"]) == 2
    assert mine["items"][item["_id"]]["title"] == "Old piano"
    theirs = await stranger.call("/get_by_ids", body)
    assert theirs["sessions"] == {} and theirs["session_with_users"] == {}
    assert "email_id" not in str(mine)
    bad = await asker.client.post("/get_by_ids", json={"user_ids": "x"}, headers=bearer(asker.key))
    assert bad.status == 400


async def test_a_chats_newest_page_comes_from_its_shards_memory_as_mongodb_has_it(
    chat_client, smtp_sink, chat_prefix, mongo_url
):
    """A chat opened reads its newest page from the shard that stores its messages, when that
    holds the chat: the same messages, in the same order, as MongoDB has them."""
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    for n in range(MESSAGES_PAGE + 5):
        await _send(owner if n % 3 else asker, session_id, f"line {n}")
    shard = _shard_of(session_id, chat_prefix)
    held = await shard.read_page.remote(
        ReadPage(session_id, None, MESSAGES_PAGE + 1), ShardMap(2, FIRST_VERSION)
    )
    client = AsyncMongoClient(mongo_url)
    try:
        stored = await MessageStore(client["agora_test"]).page(session_id, limit=MESSAGES_PAGE + 1)
    finally:
        await client.close()
    assert [m["_id"] for m in held.messages] == [m["_id"] for m in stored]
    page = await asker.call("/session/messages", {"session_id": session_id})
    assert [m["payload"] for m in page["inbox_messages"]] == [
        f"line {n}" for n in range(5, MESSAGES_PAGE + 5)
    ]
    assert page["has_more"] is True


class StoreReads(monitoring.CommandListener):
    """The reads an edge asks of the store, each as (command, collection, filter's fields)."""

    def __init__(self) -> None:
        self.reads: list[tuple[str, str, list[str]]] = []

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        if event.command_name in ("find", "aggregate"):
            fields = sorted(event.command.get("filter", {}))
            self.reads.append((event.command_name, event.command[event.command_name], fields))

    def succeeded(self, event) -> None:
        pass

    def failed(self, event) -> None:
        pass


async def test_a_chat_opened_that_no_shard_holds_reads_its_page_and_marks_in_one_command(
    client_for, smtp_sink, chat_prefix, monkeypatch
):
    """A chat opened that its shard does not hold (no send since the shard started) reads its
    newest page from the store, and its furthest marks too when the edge has no copy of them:
    one command for both, where the page and each kind of mark took one each. The marks read
    with the page are the edge's copy from then on, as any read of them."""
    edge = await client_for(session_shards=2, redis_prefix=chat_prefix)
    owner, asker, item = await _item_chat(edge, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    for n in range(3):
        await _send(asker if n % 2 == 0 else owner, session_id, f"line {n}")
    await owner.call("/session/messages", {"session_id": session_id})  # the owner read them
    await _forgotten_by_its_shard(session_id, chat_prefix)

    # Another edge, whose store client is watched: it has no copy of the chat's marks.
    watch, edge_watched = await _watched_edge(monkeypatch, client_for, chat_prefix)
    other = Member(edge_watched, asker.key, asker.user)
    watch.reads.clear()
    page = await other.call("/session/messages", {"session_id": session_id})
    assert [(m["payload"], m["flags"]["status"]) for m in page["inbox_messages"]] == [
        ("line 0", "read"),
        ("line 1", "read"),  # the asker sent one after it
        ("line 2", "read"),
    ]
    page_and_marks = [r for r in watch.reads if r[1] == "messages" or "session_id" in r[2]]
    assert page_and_marks == [("aggregate", "messages", [])]

    watch.reads.clear()
    await other.call("/session/messages", {"session_id": session_id})
    page_and_marks = [r for r in watch.reads if r[1] == "messages" or "session_id" in r[2]]
    assert page_and_marks == [("find", "messages", ["dest_session_id"])]


async def test_a_chat_opened_first_on_an_edge_reads_itself_with_its_page_and_marks(
    client_for, smtp_sink, chat_prefix, monkeypatch
):
    """An edge with no copy of a chat, opening it where no shard holds it, reads the chat in
    the same command as its newest page and marks (it read the chat first, alone): the read
    rule then decides on the chat as read, which is the edge's copy from then on. A stranger
    is refused as before, shown nothing of what was read."""
    edge = await client_for(session_shards=2, redis_prefix=chat_prefix)
    owner, asker, item = await _item_chat(edge, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    for n in range(2):
        await _send(asker if n % 2 == 0 else owner, session_id, f"line {n}")
    stranger = await member(edge, smtp_sink, "Stranger")
    await _forgotten_by_its_shard(session_id, chat_prefix)

    watch, other = await _watched_edge(monkeypatch, client_for, chat_prefix)
    await _until(lambda: other.server.app[SESSION_COPIES].listening)

    def chat_reads() -> list[tuple[str, str, list[str]]]:
        return [r for r in watch.reads if r[1] in ("sessions", "messages")]

    stranger_there = Member(other, stranger.key, stranger.user)
    watch.reads.clear()
    await stranger_there.call("/session/messages", {"session_id": session_id}, status=404)
    assert chat_reads() == [("aggregate", "messages", [])]

    watch.reads.clear()
    page = await Member(other, owner.key, owner.user).call(
        "/session/messages", {"session_id": session_id}
    )
    assert [m["payload"] for m in page["inbox_messages"]] == ["line 0", "line 1"]
    assert chat_reads() == [("find", "messages", ["dest_session_id"])]


async def test_killing_a_shard_mid_burst_loses_and_doubles_nothing(
    chat_client, smtp_sink, chat_prefix
):
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    await _send(asker, session_id, "start", local_id="start")
    shard = _shard_of(session_id, chat_prefix)
    pid_before = await shard.pid.remote()
    # The owner's screen: every acknowledged message must reach it, the kill notwithstanding.
    heard: set[str] = set()
    screen = socketio.AsyncClient(reconnection=False)
    screen.on("message", lambda message: heard.add(message["id"]))
    screen.on("messages", lambda messages: heard.update(m["id"] for m in messages))
    await screen.connect(
        str(chat_client.make_url("/")), auth={"auth_key": owner.key}, transports=["websocket"]
    )
    gate = asyncio.Semaphore(64)
    acked: dict[str, dict] = {}
    midway = asyncio.Event()

    async def send(n: int) -> None:
        async with gate:
            sender = owner if n % 2 else asker
            answer = await send_as_a_client(sender, session_id, f"burst {n}", f"burst-{n}")
            if answer["type"] == 13:
                acked[f"burst-{n}"] = answer["inbox_message"]
            if len(acked) >= 500:
                midway.set()

    async def kill_midway() -> None:
        await midway.wait()
        ray.kill(shard, no_restart=False)

    await asyncio.gather(kill_midway(), *(send(n) for n in range(2000)))
    assert await shard.pid.remote() != pid_before
    assert len(acked) == 2000

    stored = [m for m in await _all_messages(owner, session_id) if m["local_id"] != "start"]
    assert len(stored) == 2000
    assert {m["local_id"]: m["id"] for m in stored} == {k: m["id"] for k, m in acked.items()}
    stamps = [m["created_at"] for m in stored]
    assert stamps == sorted(stamps) and len(set(stamps)) == len(stamps)
    announced = {m["id"] for m in acked.values()}
    await _until(lambda: announced <= heard, seconds=20)
    await screen.disconnect()
    assert announced - heard == set()


async def test_a_client_that_lost_its_socket_catches_up_by_polling(chat_client, smtp_sink):
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    await _send(asker, session_id, "before")
    seen = {m["id"]: m for m in await _all_messages(owner, session_id)}
    latest = max(m["created_at"] for m in seen.values())
    for n in range(45):
        await _send(asker, session_id, f"while away {n}")
    while True:
        page = await owner.call(
            "/session/messages", {"session_id": session_id, "greater_than_timestamp": latest}
        )
        for message in page["inbox_messages"]:
            assert message["id"] not in seen
            seen[message["id"]] = message
        if not page["inbox_messages"]:
            break
        latest = page["inbox_messages"][-1]["created_at"]
    assert sorted(m["payload"] for m in seen.values()) == sorted(
        ["before", *(f"while away {n}" for n in range(45))]
    )


async def test_a_message_sent_through_one_edge_reaches_a_socket_on_another(
    client_for, smtp_sink, chat_prefix
):
    first = await client_for(session_shards=2, redis_prefix=chat_prefix)
    second = await client_for(session_shards=2, redis_prefix=chat_prefix)
    owner, asker, item = await _item_chat(first, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    await _send(asker, session_id, "hello")
    received = asyncio.Queue()
    sio = socketio.AsyncClient(reconnection=False)
    sio.on("message", received.put_nowait)
    await sio.connect(
        str(second.make_url("/")), auth={"auth_key": owner.key}, transports=["websocket"]
    )
    await sio.call("join", {"session_id": session_id})
    await _send(asker, session_id, "across edges")

    async def heard_across() -> dict:
        # "hello" may be heard first: a message is announced after its send is answered, so
        # a loaded machine may announce it after this socket joined.
        while (message := await received.get())["payload"] != "across edges":
            assert message["payload"] == "hello", message
        return message

    message = await asyncio.wait_for(heard_across(), timeout=10)
    assert message["dest_session_id"] == session_id
    await sio.disconnect()


async def test_sockets_moved_into_a_room_on_another_edge_hear_what_is_published_next(
    client_for, smtp_sink, chat_prefix, monkeypatch
):
    """A new chat's first message is announced right after its members' sockets, on every
    edge, were moved into its room: they must be in it, their edge subscribed to its
    channel, by then (the first messages were lost on the other edges, whose SUBSCRIBE
    came later on a busy machine)."""
    first = await client_for(session_shards=2, redis_prefix=chat_prefix)
    second = await client_for(session_shards=2, redis_prefix=chat_prefix)
    ada = await member(first, smtp_sink, "Ada")
    heard: list[dict] = []
    # The moving edge has no socket: it waits for the other edge all the same.
    await _socket(second, ada)  # another screen of hers, on the other edge
    sio = await open_socket(second, ada, {"message": heard.append})
    # The other edge's subscriptions take a while, as they did on a busy machine.
    subscriber = _manager(second)._subscriber
    subscribe = subscriber.subscribe

    async def slow_subscribe(*channels: str) -> None:
        await asyncio.sleep(0.3)
        await subscribe(*channels)

    monkeypatch.setattr(subscriber, "subscribe", slow_subscribe)
    for n in range(5):
        room = session_room(f"g_{uuid.uuid4().hex}")
        await _manager(first).move_sockets(user_room(ada.id), enter=[room])
        await _manager(first).emit("message", {"n": n}, room=room)
        await _until(lambda n=n: len(heard) > n)
    assert [m["n"] for m in heard] == list(range(5))
    assert sio.connected


async def test_chat_members_are_listed_for_participants_only(chat_client, smtp_sink):
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    await _send(asker, session_id, "hi")
    listed = await owner.call("/session/users", {"session_id": session_id})
    assert listed["session_users_count"] == 2
    assert {(m["user"]["name"], m["session_user_type"]) for m in listed["session_users"]} == {
        ("Owner", 10),
        ("Asker", 20),
    }
    stranger = await member(chat_client, smtp_sink, "Stranger")
    await stranger.call("/session/users", {"session_id": session_id}, status=404)


def _manager(client):
    return client.server.app[SOCKET_SERVER].manager


@pytest.mark.slow  # 10-30 s each: run by make test, left out of make check
async def test_an_edge_decodes_only_events_for_rooms_it_serves(
    client_for, settings_for, smtp_sink, chat_prefix
):
    first = await client_for(session_shards=2, redis_prefix=chat_prefix)
    second = await client_for(session_shards=2, redis_prefix=chat_prefix)
    owner, asker, item = await _item_chat(first, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    await _send(asker, session_id, "hello")
    stranger = await member(first, smtp_sink, "Elsewhere")
    events: dict[str, list] = {"message": [], "notice": []}
    here = await _socket(first, owner, events, "first")
    there = await _socket(second, stranger, events, "second")
    channel = _manager(first).room_channel("/", session_room(session_id))

    for n in range(5):
        await _send(asker, session_id, f"for the first edge {n}")
    await _until(lambda: len(events["message"]) >= 5)
    assert {n for n, _ in events["message"]} == {"first"}
    assert _manager(first).decoded[channel] >= 1
    # The second edge has no socket in the chat's room: it never decoded one of its events.
    assert _manager(second).decoded[channel] == 0
    served = {*_manager(second).subscribed, _manager(second).channel}
    assert set(_manager(second).decoded) <= served
    assert _manager(second).room_channel("/", user_room(stranger.id)) in served

    # Broadcasts (no room) from any publisher still reach every edge.
    publisher = RealtimeEmitter(settings_for(redis_prefix=chat_prefix))
    await publisher.manager.emit("notice", {"text": "to everyone"})
    await _until(lambda: len(events["notice"]) >= 2)
    assert sorted(n for n, _ in events["notice"]) == ["first", "second"]
    for sio in (here, there):
        await sio.disconnect()


async def test_messages_to_a_busy_room_share_frames_in_order(chat_client, smtp_sink):
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    await _send(asker, session_id, "hi")
    frames: list[tuple[str, object]] = []
    sio = socketio.AsyncClient(reconnection=False)
    for event in ("message", "messages", "typing"):
        sio.on(event, lambda data, e=event: frames.append((e, data)))
    await sio.connect(
        str(chat_client.make_url("/")), auth={"auth_key": owner.key}, transports=["websocket"]
    )
    room, manager = session_room(session_id), _manager(chat_client)
    # A window far longer than the emits below take, whatever the machine's load.
    manager.coalesce_seconds = 1.0
    for n in range(4):
        await manager.emit("message", {"n": n}, room=room)
    await manager.emit("typing", {"user_id": asker.id}, room=room)
    await manager.emit("message", {"n": 4}, room=room)
    await _until(lambda: len(_flat(frames)) >= 6)
    # Messages of the window share one frame; the typing signal still comes after them.
    assert max(len(d) for e, d in frames if e == "messages") >= 3
    assert _flat(frames) == [{"n": n} for n in range(4)] + ["typing", {"n": 4}]
    await sio.disconnect()


def _flat(frames: list[tuple[str, object]]) -> list:
    """The events in the order received, with `messages` frames spread out."""
    flat: list = []
    for event, data in frames:
        flat += data if event == "messages" else ["typing"] if event == "typing" else [data]
    return flat


async def test_joins_requests_and_approvals_show_as_system_notices_once(chat_client, smtp_sink):
    admin = await member(chat_client, smtp_sink, "Ines")
    public_id = await new_group(admin, is_public=True)
    private_id = await new_group(admin, is_public=False, is_read_allowed=True)
    ada = await member(chat_client, smtp_sink, "Ada")
    for group_id in (public_id, private_id):
        for _ in range(2):  # joining again changes nothing and posts nothing
            await ada.call("/api/group?action=join", {"group_id": group_id})
    await admin.call(
        "/session/user/update",
        {"session_id": private_id, "for_user_id": ada.id, "action": "approve"},
    )

    async def notices(group_id: str) -> list[tuple[str, str]]:
        page = await admin.call("/session/messages", {"session_id": group_id})
        return [(m["src_id"], m["payload"]) for m in page["inbox_messages"] if m["type"] == 1010]

    assert await notices(public_id) == [(ada.id, "Ada joined")]
    assert await notices(private_id) == [
        (ada.id, "Ada asked to join"),
        (admin.id, "Ada was approved by Ines"),
    ]


async def test_membership_views_count_unseen_messages_as_they_are_read(chat_client, smtp_sink):
    admin = await member(chat_client, smtp_sink, "Admin")
    group_id = await new_group(admin, is_public=True)
    reader = await member(chat_client, smtp_sink, "Reader")
    await reader.call("/api/group?action=join", {"group_id": group_id})
    for text in ("one", "two"):
        await _send(admin, group_id, text)

    async def unseen_in_views() -> tuple[int, int]:
        group = await reader.call("/api/group", {"group_id": group_id})
        members = await reader.call("/session/users", {"session_id": group_id})
        [mine] = [m for m in members["session_users"] if m["user_id"] == reader.id]
        return group["group_membership"]["unseen_count"], mine["unseen_count"]

    assert await unseen_in_views() == (2, 2)
    # Every reply that shows the user shows the live red-dot count, not a stored one.
    live = (await reader.get("/user/me"))["user"]["data"]["notifications_unseen_count"]
    assert live == 2
    profile = await reader.get("/api/user/profile")
    assert profile["user"]["data"]["notifications_unseen_count"] == live


NAIROBI = {"address": "Kenyatta Avenue, Nairobi", "latitude": -1.286, "longitude": 36.817}


async def test_a_location_message_is_stored_and_read_back_with_its_place(chat_client, smtp_sink):
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    sent = await _send(asker, session_id, "", data={"location": NAIROBI})
    assert sent["type"] == 13
    assert sent["inbox_message"]["data"] == {"location": NAIROBI}
    sio = await _socket(chat_client, owner)
    body = {"dest_session_id": session_id, "local_id": "loc-socket", "data": {"location": NAIROBI}}
    over_socket = await sio.call("send", body)
    await sio.disconnect()
    assert over_socket["type"] == 13
    page = await owner.call("/session/messages", {"session_id": session_id})
    assert [(m["src_id"], m["payload"], m["data"]) for m in page["inbox_messages"]] == [
        (asker.id, "", {"location": NAIROBI}),
        (owner.id, "", {"location": NAIROBI}),
    ]


async def test_bad_locations_are_refused_and_nothing_is_stored(chat_client, smtp_sink):
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    await _send(asker, session_id, "hi")
    bad_locations = [
        {"latitude": -1.286, "longitude": 36.817},
        {**NAIROBI, "address": "  "},
        {**NAIROBI, "latitude": 91},
        {**NAIROBI, "longitude": -181},
        {**NAIROBI, "latitude": "-1.286"},
        {**NAIROBI, "longitude": True},
        {**NAIROBI, "latitude": float("nan")},
        {**NAIROBI, "longitude": float("-inf")},
        "Nairobi",
    ]
    for location in bad_locations:
        refused = await _send(asker, session_id, "see you here", data={"location": location})
        assert refused["type"] == -1, location
        assert "location" in refused["errors"], location
    # `data` takes a location only: other keys are unknown fields, as anywhere in a body.
    unknown = await asker.call(
        "/session/send",
        {"dest_session_id": session_id, "local_id": "x1", "data": {"location": NAIROBI, "z": 1}},
        status=400,
    )
    assert unknown["errors"] == {"data.z": "Unknown field"}
    sio = await _socket(chat_client, asker)
    over_socket = await sio.call(
        "send",
        {
            "dest_session_id": session_id,
            "local_id": "x2",
            "data": {"location": {**NAIROBI, "latitude": 91}},
        },
    )
    await sio.disconnect()
    assert over_socket["type"] == -1
    page = await owner.call("/session/messages", {"session_id": session_id})
    assert [m["payload"] for m in page["inbox_messages"]] == ["hi"]


async def test_a_resend_only_mongodb_recognises_adds_no_unseen_message(
    chat_client, smtp_sink, chat_prefix
):
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    first = await _send(asker, session_id, "first", local_id="first")
    # Enough later messages that a reloaded shard no longer remembers the first one.
    for n in range(SESSION_BUFFER_MESSAGES):
        await _send(asker, session_id, f"filler {n}")
    await _forgotten_by_its_shard(session_id, chat_prefix)
    again = await _send(asker, session_id, "first", local_id="first")
    assert again["inbox_message"]["id"] == first["inbox_message"]["id"]
    # The resent message is not the chat's newest, in the list or in a page after the newest.
    newest = f"filler {SESSION_BUFFER_MESSAGES - 1}"
    assert (await _listed_last(owner, session_id))[0] == newest
    shown = (await asker.call("/session/messages", {"session_id": session_id}))["inbox_messages"]
    after = {"session_id": session_id, "greater_than_timestamp": shown[-2]["created_at"]}
    newer = (await asker.call("/session/messages", after))["inbox_messages"]
    assert [m["payload"] for m in newer] == [newest]
    await _send(asker, session_id, "after the resend")
    chats = await owner.call("/user/chats", {})
    row = next(s for s in chats["sessions"] if s["_id"] == session_id)
    assert row["unseen_count"] == SESSION_BUFFER_MESSAGES + 2


async def _forgotten_by_its_shard(session_id: str, chat_prefix: str) -> None:
    """The chat's session shard lets it go: its next reader finds no shard holding it."""
    await _shard_of(session_id, chat_prefix).forget.remote(session_id)


def _shard_of(session_id: str, chat_prefix: str):
    """The session shard actor holding the chat (the chat tests' deployment: two shards)."""
    namespace = f"agora-agora_test-{chat_prefix}"
    return ray.get_actor(f"session-shard-{shard_of(session_id, 2)}", namespace=namespace)


async def _watched_edge(monkeypatch, client_for, chat_prefix: str):
    """Another edge (no copies yet), whose store client's commands are watched."""
    watch = StoreReads()

    def watched(*args, event_listeners=(), **options) -> AsyncMongoClient:
        return AsyncMongoClient(*args, event_listeners=[*event_listeners, watch], **options)

    monkeypatch.setattr(mongo, "AsyncMongoClient", watched)
    return watch, await client_for(session_shards=2, redis_prefix=chat_prefix)


async def _ticks(person, session_id: str) -> dict[str, str]:
    """What a reload shows: each message's tick, by text."""
    page = await person.call("/session/messages", {"session_id": session_id})
    return {m["payload"]: m["flags"]["status"] for m in page["inbox_messages"]}


async def _tick_of(person, session_id: str, payload: str) -> str:
    return (await _ticks(person, session_id))[payload]


async def _info(person, session_id: str, message: dict) -> dict[str, list[str]]:
    query = f"session_id={session_id}&created_at={message['created_at']}"
    info = (await person.get(f"/session/im_info?{query}"))["info"]
    return {status: [entry["user_id"] for entry in info[status]] for status in info}


async def _listed_last(person, session_id: str) -> tuple[str, str]:
    rows = (await person.call("/user/chats", {}))["sessions"]
    [last] = [row["last_message"] for row in rows if row["_id"] == session_id]
    return last["payload"], last["flags"]["status"]


async def test_ticks_survive_a_reload_and_agree_with_the_info_view_in_an_item_chat(
    chat_client, smtp_sink
):
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    first = (await _send(asker, session_id, "first"))["inbox_message"]
    second = (await _send(asker, session_id, "second"))["inbox_message"]
    assert await _ticks(asker, session_id) == {"first": "sent", "second": "sent"}
    assert await _info(asker, session_id, first) == {"read": [], "delivered": []}

    # The owner's screen received the messages (the socket's receipt for the newest).
    screen = await _socket(chat_client, owner)
    receipt = {"session_id": session_id, "created_at": second["created_at"]}
    assert await screen.call("delivered", receipt) == {"ok": True}
    await screen.disconnect()
    delivered = {"first": "delivered", "second": "delivered"}
    assert await eventually(lambda: _ticks(asker, session_id), delivered) == delivered
    assert await _info(asker, session_id, first) == {"read": [], "delivered": [owner.id]}

    # The owner opens the chat: fetching its newest page shows (reads) every message.
    await _ticks(owner, session_id)
    assert await _ticks(asker, session_id) == {"first": "read", "second": "read"}
    info = (
        await asker.get(
            f"/session/im_info?session_id={session_id}&created_at={first['created_at']}"
        )
    )["info"]
    assert [(e["user_id"], isinstance(e["at"], int)) for e in info["read"]] == [(owner.id, True)]
    # The chat list's row shows the newest message with the same tick.
    assert await _listed_last(asker, session_id) == ("second", "read")
    await _send(asker, session_id, "third")
    assert await _listed_last(asker, session_id) == ("third", "sent")
    assert await _ticks(asker, session_id) == {"first": "read", "second": "read", "third": "sent"}


async def test_the_chat_list_delivers_the_newest_message_of_each_row_it_shows(
    chat_client, smtp_sink
):
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    first = (await _send(asker, session_id, "first"))["inbox_message"]
    await _send(asker, session_id, "second")
    # The asker's own list shows their message: that is no receipt of theirs.
    assert await _listed_last(asker, session_id) == ("second", "sent")

    # The owner comes back later and opens Chats without opening the chat (issue 29).
    events = {"message_status": []}
    screen = await _socket(chat_client, asker, events, "asker")
    await _listed_last(owner, session_id)
    # Written behind the list, as a screen's receipts are.
    delivered = {"first": "delivered", "second": "delivered"}
    assert await eventually(lambda: _ticks(asker, session_id), delivered) == delivered
    assert await _info(asker, session_id, first) == {"read": [], "delivered": [owner.id]}

    def owners_receipts():
        statuses = [data for _, data in events["message_status"] if data["user_id"] == owner.id]
        return [status["status"] for status in statuses]

    await _until(owners_receipts)
    assert owners_receipts() == ["delivered"]
    # Listing again moves nothing, so the senders hear nothing more.
    await _listed_last(owner, session_id)
    await asyncio.sleep(0.3)
    await screen.disconnect()
    assert owners_receipts() == ["delivered"]


async def test_group_ticks_follow_any_other_member_and_survive_a_reload(chat_client, smtp_sink):
    admin = await member(chat_client, smtp_sink, "Admin")
    group_id = await new_group(admin, is_public=True)
    poller, reader = (
        await member(chat_client, smtp_sink, "Poller"),
        await member(chat_client, smtp_sink, "Reader"),
    )
    for person in (poller, reader):
        await person.call("/api/group?action=join", {"group_id": group_id})
    hello = (await _send(admin, group_id, "hello"))["inbox_message"]
    assert (await _ticks(admin, group_id))["hello"] == "sent"

    # A screen without a socket polls: what it fetched after a point was received, not read.
    await poller.call(
        "/session/messages",
        {"session_id": group_id, "greater_than_timestamp": hello["created_at"] - 1},
    )
    assert (await _ticks(admin, group_id))["hello"] == "delivered"
    assert await _info(admin, group_id, hello) == {"read": [], "delivered": [poller.id]}

    screen = await _socket(chat_client, reader)
    receipt = {"session_id": group_id, "created_at": hello["created_at"]}
    assert await screen.call("read", receipt) == {"ok": True}
    await screen.disconnect()
    assert await eventually(lambda: _tick_of(admin, group_id, "hello"), "read") == "read"
    assert await _info(admin, group_id, hello) == {"read": [reader.id], "delivered": [poller.id]}
    # The reader's own message is theirs to see ticked by others, not by themselves.
    await _send(reader, group_id, "hi all")
    assert (await _ticks(reader, group_id))["hi all"] == "sent"


async def test_a_member_blocked_or_unblocked_hears_it_on_every_screen_at_once(
    chat_client, smtp_sink
):
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    await _send(asker, session_id, "hello")
    events: dict[str, list] = {"session": []}
    screens = [await _socket(chat_client, asker, events, f"screen{n}") for n in (1, 2)]
    watcher = await _socket(chat_client, owner, events, "owner")
    for action, can_send in (("block", False), ("unblock", True)):
        events["session"].clear()
        await owner.call(
            "/session/user/update",
            {"session_id": session_id, "for_user_id": asker.id, "action": action},
        )
        await _until(lambda: len(events["session"]) >= 2)
        assert sorted((n, d["_id"], d["can_send"]) for n, d in events["session"]) == [
            ("screen1", session_id, can_send),
            ("screen2", session_id, can_send),
        ]
    # An edit reaches everyone in the room, without one viewer's rights in it.
    events["session"].clear()
    await owner.call("/session/update", {"session_id": session_id, "is_read_allowed": True})
    await _until(lambda: len(events["session"]) >= 3)
    assert {n for n, _ in events["session"]} == {"screen1", "screen2", "owner"}
    assert all("can_send" not in d and "session_user_type" not in d for _, d in events["session"])
    for sio in (*screens, watcher):
        await sio.disconnect()


async def test_a_deleted_posts_chat_stays_readable_and_says_the_post_was_deleted(
    chat_client, smtp_sink
):
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    await _send(asker, session_id, "still for sale?")
    await owner.call("/api/item?action=delete", {"item_id": item["_id"]})
    for person in (owner, asker):
        chats = (await person.call("/user/chats", {}))["sessions"]
        [listed] = [s for s in chats if s["_id"] == session_id]
        assert listed["data"]["item_deleted"] is True
        found = await person.call("/get_by_ids", {"session_ids": [session_id]})
        assert found["sessions"][session_id]["data"]["item_deleted"] is True
        assert list(await _ticks(person, session_id)) == ["still for sale?"]
    # Chats about posts still shown say nothing of the kind.
    other = await owner.post_item(await new_group(owner, is_public=True), "Old chair")
    await _send(asker, f"r_{other['_id']}_{asker.id}", "and the chair?")
    listed = {s["title"]: s["data"] for s in (await asker.call("/user/chats", {}))["sessions"]}
    assert "item_deleted" not in listed["Old chair"]


async def test_a_chat_list_knows_a_post_deleted_from_the_edges_copy_of_it(
    chat_client, smtp_sink, another_edge
):
    """Every chat list asked the store whether each item chat's post was deleted; the edge's
    copy of the post says (every change to a post is announced to every edge): a deletion
    written behind the stores' back, which nothing announces, is not seen, and one made
    through the app is, at once."""
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    await _send(asker, session_id, "still for sale?")

    async def listed_as_deleted() -> bool:
        chats = (await asker.call("/user/chats", {}))["sessions"]
        [listed] = [s for s in chats if s["_id"] == session_id]
        return listed["data"].get("item_deleted", False)

    assert not await listed_as_deleted()
    for sort_order in (ITEM_HIDDEN_SORT_ORDER, 0):
        await another_edge.db.items.update_one(
            {"_id": item["_id"]}, {"$set": {"sort_order": sort_order}}
        )
        assert not await listed_as_deleted()
    await owner.call("/api/item?action=delete", {"item_id": item["_id"]})
    assert await listed_as_deleted()


async def test_a_reply_quotes_a_message_of_its_own_chat_only(chat_client, smtp_sink):
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    question = (await _send(asker, session_id, "Does it still play?"))["inbox_message"]
    answered = {"context": {"reply_to": question["created_at"]}}
    reply = await _send(owner, session_id, "Every key", data=answered)
    assert reply["type"] == 13, reply
    assert reply["inbox_message"]["data"] == answered
    # A place can answer a message too; a reply over the socket is the same.
    sio = await _socket(chat_client, asker)
    placed = await sio.call(
        "send",
        {
            "dest_session_id": session_id,
            "local_id": "where",
            "data": {"location": NAIROBI, **answered},
        },
    )
    await sio.disconnect()
    assert placed["inbox_message"]["data"] == {"location": NAIROBI, **answered}

    # Not a message of this chat, or not a message at all: refused, nothing stored.
    group_id = await new_group(owner)
    elsewhere = (await _send(owner, group_id, "In the group"))["inbox_message"]
    for reply_to in (elsewhere["created_at"], question["created_at"] + 1):
        refused = await _send(owner, session_id, "?", data={"context": {"reply_to": reply_to}})
        assert refused == {"type": -1, "errors": {"context": NOT_IN_THIS_CHAT}}, reply_to
    for context in ({"reply_to": "1"}, {"reply_to": 0}, {"quote": 1}, "x"):
        refused = await _send(owner, session_id, "?", data={"context": context})
        assert refused["type"] == -1 and "context" in refused["errors"], context
    # A stranger learns nothing of a chat hidden from them, not even which messages it holds.
    stranger = await member(chat_client, smtp_sink, "Eve")
    for reply_to in (elsewhere["created_at"], elsewhere["created_at"] + 1):
        refused = await _send(stranger, group_id, "hi", data={"context": {"reply_to": reply_to}})
        assert refused == {"type": -1, "errors": {"dest_session_id": "This chat does not exist"}}

    page = await owner.call("/session/messages", {"session_id": session_id})
    assert [(m["payload"], m["data"]) for m in page["inbox_messages"]] == [
        ("Does it still play?", {}),
        ("Every key", answered),
        ("", {"location": NAIROBI, **answered}),
    ]


async def test_group_members_reply_and_those_who_may_not_read_it_cannot(chat_client, smtp_sink):
    admin, people, group_id = await _group_with_members(chat_client, smtp_sink)
    rules = (await _send(admin, group_id, "House rules: be kind"))["inbox_message"]
    answered = {"context": {"reply_to": rules["created_at"]}}
    reply = await _send(people["Member"], group_id, "Agreed", data=answered)
    assert reply["inbox_message"]["data"] == answered
    for name in ("Waiting", "Blocked"):
        refused = await _send(people[name], group_id, "Agreed", data=answered)
        assert refused == {"type": -1, "errors": "You cannot send messages here."}, name
    page = await admin.call("/session/messages", {"session_id": group_id})
    replies = [m for m in page["inbox_messages"] if m["data"].get("context")]
    assert [(m["src_id"], m["payload"]) for m in replies] == [(people["Member"].id, "Agreed")]


async def test_who_may_write_holds_in_the_group_chat_as_soon_as_it_changes(chat_client, smtp_sink):
    admin, other = await member(chat_client, smtp_sink), await member(chat_client, smtp_sink, "Eve")
    group_id = await new_group(admin, write_permission=10)
    await other.call("/api/group?action=join", {"group_id": group_id})
    await admin.call(
        "/session/user/update",
        {"session_id": group_id, "for_user_id": other.id, "action": "approve"},
    )
    # The chat's shard holds the group from this send on.
    await _send(admin, group_id, "Welcome, Eve")
    refused = await _send(other, group_id, "Thanks!")
    assert refused["type"] == -1, refused
    await admin.call("/api/group?action=update", {"group_id": group_id, "write_permission": 20})
    sent = await _send(other, group_id, "Thanks!", local_id="thanks-again")
    assert sent["type"] == 13, sent


async def test_receipts_arriving_together_are_each_recorded_and_announced_once(
    chat_client, smtp_sink
):
    """A message to a group brings its members' receipts at once: they are recorded together,
    only those that may move a tick are announced, and a refusal in the same batch touches
    no one else's."""
    admin = await member(chat_client, smtp_sink, "Admin")
    group_id = await new_group(admin, is_public=True)
    readers = [await member(chat_client, smtp_sink, f"Reader {n}") for n in range(6)]
    stranger = await member(chat_client, smtp_sink, "Stranger")
    for person in readers:
        await person.call("/api/group?action=join", {"group_id": group_id})
    hello = (await _send(admin, group_id, "hello"))["inbox_message"]
    events = {"message_status": []}
    watching = await _socket(chat_client, admin, events, "admin")
    screens = [await _socket(chat_client, p) for p in [*readers, stranger]]
    receipt = {"session_id": group_id, "created_at": hello["created_at"]}
    *reader_screens, stranger_screen = screens
    answers = await asyncio.gather(
        *(screen.call("delivered", receipt) for screen in reader_screens),
        reader_screens[0].call("read", receipt),  # the same member twice in one batch
        stranger_screen.call("delivered", receipt),
        reader_screens[1].call("delivered", {**receipt, "created_at": 1}),  # no such message
    )
    assert answers[:-2] == [{"ok": True}] * (len(readers) + 1)
    assert answers[-2] == {"errors": NOT_IN_CHAT}
    assert "errors" in answers[-1]

    def announced():
        return [(d["user_id"], d["status"]) for _, d in events["message_status"]]

    # The admin's screen hears its message's tick move; the other receipts move no tick (two
    # other members' marks are that far), and reach no screen.
    await _until(lambda: {status for _, status in announced()} == {"delivered", "read"})
    await asyncio.sleep(0.3)
    assert len(announced()) <= 4
    assert (await _ticks(admin, group_id))["hello"] == "read"
    expected = {"read": [readers[0].id], "delivered": sorted(p.id for p in readers[1:])}

    async def info():
        found = await _info(admin, group_id, hello)
        return {**found, "delivered": sorted(found["delivered"])}

    assert await eventually(info, expected) == expected
    # The same receipts again move no mark, so nothing more is announced.
    before = announced()
    await asyncio.gather(*(screen.call("delivered", receipt) for screen in reader_screens))
    await asyncio.sleep(0.3)
    assert announced() == before
    # The next message's receipts move its tick in turn: the marks the edge keeps to decide
    # (those of the first message) leave the first receipts of the next one announced.
    again = (await _send(admin, group_id, "again"))["inbox_message"]
    next_receipt = {**receipt, "created_at": again["created_at"]}
    await asyncio.gather(*(screen.call("delivered", next_receipt) for screen in reader_screens))
    await _until(lambda: len(announced()) > len(before))
    await asyncio.sleep(0.3)
    assert {status for _, status in announced()[len(before) :]} == {"delivered"}
    assert len(announced()) - len(before) <= 2
    assert (await _ticks(admin, group_id))["again"] == "delivered"
    for screen in [watching, *screens]:
        await screen.disconnect()


@pytest.fixture
async def another_edge(settings_for, chat_prefix):
    """The stores as another edge of the chat tests' deployment holds them: its changes to
    memberships are announced, and what it writes of marks is not."""
    async with deployment_stores(settings_for(redis_prefix=chat_prefix)) as stores:
        yield stores


async def test_receipts_decided_on_the_edges_copies_follow_what_another_edge_changed(
    chat_client, smtp_sink, another_edge
):
    """The edge decides receipts on its copies of memberships: a mark another edge moved,
    an approval and a block given there meanwhile each count as stored."""
    sessions, messages = another_edge.sessions, MessageStore(another_edge.db)
    admin, people, group_id = await _group_with_members(chat_client, smtp_sink)
    reader, waiting = people["Member"], people["Waiting"]
    sent = [(await _send(admin, group_id, f"m{n}"))["inbox_message"] for n in range(4)]
    seqs = [(await messages.get(group_id, m["created_at"]))["seq"] for m in sent]
    screens = {name: await _socket(chat_client, people[name]) for name in ("Member", "Waiting")}

    async def receipt(name: str, number: int) -> dict:
        body = {"session_id": group_id, "created_at": sent[number]["created_at"]}
        return await screens[name].call("delivered", body)

    def mark_of(person):
        async def read() -> int:
            membership = await sessions.membership(group_id, person.id) or {}
            return membership.get("delivered_seq", 0)

        return read

    assert await receipt("Member", 0) == {"ok": True}
    assert await eventually(mark_of(reader), seqs[0]) == seqs[0]
    # Another edge moves the mark on: this edge's copy is behind, and its next receipt
    # still lands after it, keeping the other's time.
    assert await receipt_recorded(sessions, group_id, reader.id, "delivered", seqs[1], 1)
    assert await receipt("Member", 2) == {"ok": True}
    assert await eventually(mark_of(reader), seqs[2]) == seqs[2]
    kept = (await sessions.membership(group_id, reader.id))["delivered_mark_seqs"]
    assert kept[-2:] == [seqs[1], seqs[2]]

    # Refused while waiting for approval, then approved on another edge: accepted here.
    assert await receipt("Waiting", 0) == {"errors": NOT_IN_CHAT}
    refused = await screens["Waiting"].call("typing", {"session_id": group_id})
    assert refused == {"errors": NOT_IN_CHAT}
    await sessions.set_member(group_id, waiting.id, {"session_user_type": USER_TYPE_MEMBER})
    assert await receipt("Waiting", 1) == {"ok": True}
    typing = await screens["Waiting"].call("typing", {"session_id": group_id})
    assert "errors" not in typing
    assert await eventually(mark_of(waiting), seqs[1]) == seqs[1]

    # Blocked on another edge after this edge copied the membership: no mark moves.
    await sessions.set_member(group_id, reader.id, {"session_user_type": USER_TYPE_BLOCKED})
    await receipt("Member", 3)
    await asyncio.sleep(0.5)
    assert await mark_of(reader)() == seqs[2]
    for screen in screens.values():
        await screen.disconnect()


async def test_the_receipts_of_a_message_sent_through_the_edge_find_its_number_there(
    chat_client, smtp_sink, another_edge
):
    """The first receipt of each message read the message's place (its number) from the
    store; the edge it was sent through has it from its shard's answer. A number changed
    behind the stores' back, which nothing announces, is not seen."""
    admin, people, group_id = await _group_with_members(chat_client, smtp_sink)
    reader = people["Member"]
    sent = (await _send(admin, group_id, "numbered"))["inbox_message"]
    stored = await MessageStore(another_edge.db).get(group_id, sent["created_at"])
    await another_edge.db.messages.update_one(
        {"_id": stored["_id"]}, {"$set": {"seq": stored["seq"] + 100}}
    )
    screen = await _socket(chat_client, reader)
    receipt = {"session_id": group_id, "created_at": sent["created_at"]}
    assert await screen.call("delivered", receipt) == {"ok": True}

    async def delivered_mark() -> int:
        membership = await another_edge.sessions.membership(group_id, reader.id) or {}
        return membership.get("delivered_seq", 0)

    assert await eventually(delivered_mark, stored["seq"]) == stored["seq"]
    await screen.disconnect()


async def test_a_stopping_edge_closes_its_sockets_before_it_waits_for_its_requests(
    settings_for, smtp_sink
):
    """Its clients reconnect to another edge at once; an open socket held the stop until its
    ping timed out (45 s), the handler serving it being one of the requests waited for."""
    app = build_app(settings_for(), with_ray=False)
    closed = asyncio.Event()
    told_before_the_wait: list[bool] = []

    async def socket_closed_meanwhile(app: web.Application) -> None:
        # Shutdown hooks run in turn, then aiohttp waits for the running requests.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(closed.wait(), 10)
        told_before_the_wait.append(closed.is_set())

    app.on_shutdown.append(socket_closed_meanwhile)
    client = TestClient(TestServer(app, host="127.0.0.1"))
    await client.start_server()
    try:
        person = await member(client, smtp_sink, "Ada")
        sio = await open_socket(client, person, {"disconnect": lambda *reason: closed.set()})
        assert sio.connected
    finally:
        await client.close()
    assert told_before_the_wait == [True]
