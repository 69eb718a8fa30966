"""Sends that a careless or hostile client makes: numbers out of range, a message that cannot
be stored among others' messages, a local id reused in another chat, `payload1` as text."""

import asyncio
import json
import uuid
from collections import defaultdict

import pytest
import ray
import socketio
from pymongo import AsyncMongoClient
from pymongo.errors import DuplicateKeyError

from agora.actors.protocol import Refused, SendBatch, Stored, StoreMessage
from agora.core.shard_map import FIRST_VERSION, ShardMap, shard_of
from agora.store.messages import MessageStore
from agora.store.mongo import ensure_indexes
from tests.integration.helpers import member, new_group
from tests.integration.test_uploads import png_bytes, put, upload_link

pytestmark = pytest.mark.usefixtures("ray_cluster")


async def _send(
    user, session_id: str, text: str, local_id: str | None = None, status: int = 200, **extra
):
    body = {"dest_session_id": session_id, "payload": text, "local_id": local_id, **extra}
    body["local_id"] = local_id or uuid.uuid4().hex
    return await user.call("/session/send", body, status=status)


async def _socket_call(client, person, event: str, body: dict) -> dict:
    sio = socketio.AsyncClient(reconnection=False)
    await sio.connect(
        str(client.make_url("/")), auth={"auth_key": person.key}, transports=["websocket"]
    )
    try:
        return await sio.call(event, body, timeout=10)
    finally:
        await sio.disconnect()


async def _until(condition, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)


async def _chats(client, sink, count: int):
    """`count` item chats between one owner and one asker, each with a first message."""
    owner = await member(client, sink, "Owner")
    asker = await member(client, sink, "Asker")
    group_id = await new_group(owner, is_public=True)
    chat_ids = []
    for n in range(count):
        item = await owner.post_item(group_id, f"Thing {n}")
        chat_ids.append(f"r_{item['_id']}_{asker.id}")
        assert (await _send(asker, chat_ids[-1], "first"))["type"] == 13
    return owner, asker, chat_ids


async def _payloads(user, session_id: str) -> list[str]:
    """The chat's messages as `user` reads them (which moves their own unseen count)."""
    page = await user.call("/session/messages", {"session_id": session_id})
    return [m["payload"] for m in page["inbox_messages"]]


async def _unseen(owner, session_id: str) -> int:
    chats = await owner.call("/user/chats", {})
    return next(s["unseen_count"] for s in chats["sessions"] if s["_id"] == session_id)


@pytest.mark.parametrize(
    "numbers",
    [
        {"created_at": 10**20},
        {"created_at": -(10**20)},
        {"created_at": 1e20},
        {"created_at": 12},
        {"_type": 10**20},
        {"_type": -(10**20)},
    ],
)
async def test_numbers_out_of_range_are_refused_at_the_edge(chat_client, smtp_sink, numbers):
    owner, asker, [chat_id] = await _chats(chat_client, smtp_sink, 1)
    refused = await _send(asker, chat_id, "poison", status=400, **numbers)
    assert set(refused["errors"]) == set(numbers)
    body = {"dest_session_id": chat_id, "payload": "poison", "local_id": "s", **numbers}
    over_socket = await _socket_call(chat_client, asker, "send", body)
    assert over_socket["type"] == -1
    assert set(over_socket["errors"]) == set(numbers)
    assert await _payloads(asker, chat_id) == ["first"]
    assert await _unseen(owner, chat_id) == 1


async def test_a_real_clock_is_kept_as_the_senders_time(chat_client, smtp_sink):
    _, asker, [chat_id] = await _chats(chat_client, smtp_sink, 1)
    sent = await _send(asker, chat_id, "now", created_at=1_700_000_000_000)
    assert sent["type"] == 13


async def test_a_message_that_cannot_be_stored_fails_alone_in_its_shards_batch(
    chat_client, smtp_sink, chat_prefix
):
    owner, asker, chat_ids = await _chats(chat_client, smtp_sink, 6)
    by_shard = defaultdict(list)
    for chat_id in chat_ids:
        by_shard[shard_of(chat_id, 2)].append(chat_id)
    index, (poisoned_chat, *others) = max(by_shard.items(), key=lambda pair: len(pair[1]))
    assert others, "two chats on one shard"

    def request(chat_id: str, text: str, client_created_at: int | None = None) -> StoreMessage:
        return StoreMessage(
            session_id=chat_id,
            src_id=asker.id,
            local_id=uuid.uuid4().hex,
            type=1003,
            payload=text,
            client_created_at=client_created_at,
        )

    # Straight to the shard, past the edge's checks: a number BSON cannot hold (its integers
    # end at 2**63 - 1), between good messages of the same chat and beside other chats'
    # messages in the same batch.
    batch = SendBatch(
        [
            request(poisoned_chat, "before"),
            request(poisoned_chat, "poison", client_created_at=2**63),
            request(poisoned_chat, "after"),
            *(request(chat_id, "elsewhere") for chat_id in others),
        ]
    )
    namespace = f"agora-agora_test-{chat_prefix}"
    shard = ray.get_actor(f"session-shard-{index}", namespace=namespace)
    # Placed as the edges place it: the chat tests' pool of two, never grown.
    replies = (await shard.send_batch.remote(batch, ShardMap(2, FIRST_VERSION))).outcomes

    assert [type(r) for r in replies] == [Stored, Refused, Stored, *([Stored] * len(others))]
    assert replies[1] == Refused("This message cannot be stored")
    assert await _payloads(asker, poisoned_chat) == ["first", "before", "after"]
    for chat_id in others:
        assert await _payloads(asker, chat_id) == ["first", "elsewhere"]
        assert await _unseen(owner, chat_id) == 2
    # No number was used up: every unseen message is a message, now and after the next one.
    assert await _unseen(owner, poisoned_chat) == 3
    await _send(asker, poisoned_chat, "next")
    assert await _unseen(owner, poisoned_chat) == 4


async def test_a_local_id_is_the_senders_within_one_chat(chat_client, smtp_sink, chat_prefix):
    _owner, asker, (first_chat, second_chat) = await _chats(chat_client, smtp_sink, 2)
    first = await _send(asker, first_chat, "in the first chat", local_id="same")
    second = await _send(asker, second_chat, "in the second chat", local_id="same")
    assert second["type"] == 13
    assert second["inbox_message"]["id"] != first["inbox_message"]["id"]
    assert second["inbox_message"]["dest_session_id"] == second_chat
    assert await _payloads(asker, second_chat) == ["first", "in the second chat"]
    # A resend is still one message, whether the shard remembers it or only MongoDB does.
    again = await _send(asker, second_chat, "in the second chat", local_id="same")
    assert again["inbox_message"]["id"] == second["inbox_message"]["id"]
    namespace = f"agora-agora_test-{chat_prefix}"
    for chat_id in (first_chat, second_chat):
        shard = ray.get_actor(f"session-shard-{shard_of(chat_id, 2)}", namespace=namespace)
        await shard.forget.remote(chat_id)
    for chat_id, sent in ((first_chat, first), (second_chat, second)):
        again = await _send(asker, chat_id, "again", local_id="same")
        assert again["inbox_message"]["id"] == sent["inbox_message"]["id"]
    assert await _payloads(asker, first_chat) == ["first", "in the first chat"]
    assert await _payloads(asker, second_chat) == ["first", "in the second chat"]


def _scratch_messages(mongo_url):
    client = AsyncMongoClient(mongo_url)
    return client, client[f"agora_migrate_{uuid.uuid4().hex[:8]}"]


@pytest.mark.parametrize(
    "earlier",
    [
        [("src_id", 1), ("local_id", 1)],
        [("src_id", 1), ("dest_session_id", 1), ("local_id", 1)],
    ],
    ids=["sender-wide", "sender-first"],
)
async def test_earlier_resend_indexes_are_replaced_at_startup(mongo_url, earlier):
    client, db = _scratch_messages(mongo_url)
    messages = db["messages"]
    # A database as an earlier version left it: its indexes, recorded as created.
    await messages.insert_one(
        {"_id": "old", "src_id": "u", "dest_session_id": "a", "local_id": "x"}
    )
    records = []
    for keys, options in (
        ([("src_id", 1)], {}),
        (earlier, {"unique": True, "partialFilterExpression": {"local_id": {"$type": "string"}}}),
    ):
        name = "_".join(f"{field}_{kind}" for field, kind in keys)
        await messages.create_index(keys, name=name, **options)
        records.append(f"messages.{name}")
        await db["schema_indexes"].insert_one({"_id": records[-1]})
    store = MessageStore(db)
    await ensure_indexes(db, [store])
    await ensure_indexes(db, [store])  # every edge's start does it again

    # No index is led by the sender any more: each one costs every insert.
    leading = [
        next(iter(index["key"]))[0] for index in (await messages.index_information()).values()
    ]
    assert "src_id" not in leading
    # Their records go with them: an index of those keys would be created again if asked for.
    assert await db["schema_indexes"].find({"_id": {"$in": records}}).to_list() == []
    await messages.insert_one(
        {"_id": "other", "src_id": "u", "dest_session_id": "b", "local_id": "x"}
    )
    with pytest.raises(DuplicateKeyError):
        await messages.insert_one(
            {"_id": "again", "src_id": "u", "dest_session_id": "b", "local_id": "x"}
        )
    await client.drop_database(db.name)
    await client.close()


async def test_messages_only_mongodb_remembers_are_found_by_their_keys(mongo_url):
    client, db = _scratch_messages(mongo_url)
    store = MessageStore(db)
    await ensure_indexes(db, [store])
    stored = [
        ("alice", "chat-a", "1"),
        ("alice", "chat-a", "2"),
        ("bob", "chat-a", "1"),  # another sender's same local id
        ("alice", "chat-b", "1"),  # the same local id in another chat
    ]
    await db["messages"].insert_many(
        [
            {"_id": f"m{n}", "src_id": src, "dest_session_id": chat, "local_id": local}
            for n, (src, chat, local) in enumerate(stored)
        ]
    )

    asked = [("alice", "chat-a", "1"), ("alice", "chat-b", "1"), ("alice", "chat-a", "9")]
    found = await store.resent(asked)
    assert sorted(found, key=lambda m: m["_id"]) == [
        {"_id": "m0", "src_id": "alice", "dest_session_id": "chat-a", "local_id": "1"},
        {"_id": "m3", "src_id": "alice", "dest_session_id": "chat-b", "local_id": "1"},
    ]
    await client.drop_database(db.name)
    await client.close()


async def test_a_message_is_stored_without_the_fields_its_send_left_empty(
    chat_client, smtp_sink, mongo_url
):
    _owner, asker, [chat_id] = await _chats(chat_client, smtp_sink, 1)
    plain = (await _send(asker, chat_id, "plain"))["inbox_message"]
    dated = (await _send(asker, chat_id, "dated", created_at=1_700_000_000_000))["inbox_message"]
    client = AsyncMongoClient(mongo_url)
    messages = client["agora_test"]["messages"]
    stored_plain = await messages.find_one({"_id": plain["id"]})
    stored_dated = await messages.find_one({"_id": dated["id"]})
    await client.close()

    # Every stored field costs each insert: the empty ones read back as empty all the same.
    assert set(stored_plain) == {
        "_id", "dest_session_id", "src_id", "local_id", "created_at", "seq", "type", "payload"
    }  # fmt: skip
    assert stored_dated["client_created_at"] == 1_700_000_000_000
    for view in (plain, _listed(await _page(asker, chat_id), plain["id"])):
        assert (view["payload1"], view["data"], view["flags"]) == ([], {}, {"status": "sent"})


async def _page(person, chat_id: str) -> list[dict]:
    return (await person.call("/session/messages", {"session_id": chat_id}))["inbox_messages"]


def _listed(page: list[dict], message_id: str) -> dict:
    return next(m for m in page if m["id"] == message_id)


async def test_payload1_may_be_a_json_string_holding_the_list(chat_client, smtp_sink):
    _owner, asker, [chat_id] = await _chats(chat_client, smtp_sink, 1)
    link = await upload_link(chat_client, asker.key, "image/png")
    assert (await put(chat_client, link, png_bytes())).status == 200
    url = link["file_url"]

    as_text = await _send(asker, chat_id, "none", payload1="[]")
    assert (as_text["type"], as_text["inbox_message"]["payload1"]) == (13, [])
    with_file = await _send(asker, chat_id, "", payload1=f'["{url}"]')
    assert [f["url"] for f in with_file["inbox_message"]["payload1"]] == [url]
    body = {"dest_session_id": chat_id, "payload": "", "local_id": "s", "payload1": f'["{url}"]'}
    over_socket = await _socket_call(chat_client, asker, "send", body)
    assert [f["url"] for f in over_socket["inbox_message"]["payload1"]] == [url]

    # Checked alike in both forms.
    for bad, field, status in (
        # Refused sends (type -1) and malformed lists (400), the same for both forms.
        ('["/uploads/nope.png"]', "files", 200),
        (f'["{url}", "{url}", "{url}", "{url}"]', "payload1", 200),
        ("[1]", "payload1.0", 400),
        ("not json", "payload1", 400),
        ('{"a": 1}', "payload1", 400),
    ):
        refused = await _send(asker, chat_id, "x", payload1=bad, status=status)
        assert field in refused["errors"], (bad, refused)
        if bad.startswith("["):
            as_list = await _send(asker, chat_id, "x", payload1=json.loads(bad), status=status)
            assert refused["errors"] == as_list["errors"]
    assert await _payloads(asker, chat_id) == ["first", "none", "", ""]


async def test_a_message_stored_but_never_announced_is_announced_when_loaded_or_sent_again(
    chat_client, smtp_sink, chat_prefix, mongo_url
):
    owner, asker, [chat_id] = await _chats(chat_client, smtp_sink, 1)
    heard: list[str] = []
    screen = socketio.AsyncClient(reconnection=False)
    screen.on("message", lambda message: heard.append(message["local_id"]))
    screen.on("messages", lambda messages: heard.extend(m["local_id"] for m in messages))
    await screen.connect(
        str(chat_client.make_url("/")), auth={"auth_key": owner.key}, transports=["websocket"]
    )
    # What a shard leaves that stored, counted and acknowledged a message and died before
    # announcing it: the message and its number, nothing recorded as announced.
    client = AsyncMongoClient(mongo_url)
    db = client["agora_test"]
    session = await db["sessions"].find_one({"_id": chat_id})
    seq = session["message_seq"] + 1
    lost = {
        "_id": uuid.uuid4().hex[:24],
        "dest_session_id": chat_id,
        "src_id": asker.id,
        "local_id": "lost",
        "created_at": 4_000_000_000_000,
        "seq": seq,
        "type": 1003,
        "payload": "stored, never announced",
        "payload1": [],
        "data": {},
        "flags": {"status": "sent"},
        "info": {},
    }
    await db["messages"].insert_one(lost)
    await db["sessions"].update_one({"_id": chat_id}, {"$max": {"message_seq": seq}})
    await client.close()
    namespace = f"agora-agora_test-{chat_prefix}"
    shard = ray.get_actor(f"session-shard-{shard_of(chat_id, 2)}", namespace=namespace)
    await shard.forget.remote(chat_id)  # as a restarted shard, which remembers nothing

    again = await _send(asker, chat_id, "stored, never announced", local_id="lost")
    assert again["inbox_message"]["id"] == lost["_id"]
    await _until(lambda: "lost" in heard)
    await screen.disconnect()
    assert heard.count("lost") == 1


async def test_the_session_records_how_far_its_messages_were_announced(
    chat_client, smtp_sink, mongo_url
):
    """Announcements are recorded with the session's next count, or soon after the last
    batch: a shard reloading the session announces again only what was not recorded."""
    owner, asker, [chat_id] = await _chats(chat_client, smtp_sink, 1)
    await asyncio.gather(
        *(_send(p, chat_id, f"burst {n}") for n in range(6) for p in (owner, asker))
    )
    client = AsyncMongoClient(mongo_url)
    sessions = client["agora_test"]["sessions"]

    async def counters() -> tuple[int, int]:
        session = await sessions.find_one({"_id": chat_id})
        return session["message_seq"], session.get("announced_seq", 0)

    for _ in range(100):
        message_seq, announced = await counters()
        if announced == message_seq:
            break
        await asyncio.sleep(0.05)
    await client.close()
    assert (message_seq, announced) == (13, 13)
