"""Store queries spelled for nx-27017 give what MongoDB's own spelling would."""

import asyncio
import logging
import uuid
from datetime import datetime

import pytest
from pymongo import AsyncMongoClient, monitoring
from redis.asyncio import Redis

from agora.core.chat.constants import SESSION_KIND_GROUP, USER_TYPE_MEMBER
from agora.core.errors import NotFound
from agora.services.chat.access import ChatAccess
from agora.services.chat.chat_list import UnseenCounts
from agora.store.items import ItemStore
from agora.store.marks_copies import MarksCopies
from agora.store.mongo import CommandWatch, ensure_indexes
from agora.store.reads_together import Read, find_in, read_together
from agora.store.redis import Keys
from agora.store.session_copies import MEMBERSHIP_COPIED, session_copies
from agora.store.sessions import ReceiptMark, SessionStore
from tests.integration.helpers import receipt_recorded


class Commands(monitoring.CommandListener):
    def __init__(self) -> None:
        self.finds: list[dict] = []
        self.names: list[str] = []
        self.pipelines: list[list[dict]] = []

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        self.names.append(event.command_name)
        if event.command_name == "find":
            self.finds.append(event.command.get("filter", {}))
        if event.command_name == "aggregate":
            self.pipelines.append(event.command["pipeline"])

    def equalities(self, field: str) -> list:
        """The values of `field` each aggregate's `$match` stages asked, union branches too."""

        def matched(stages: list[dict]) -> list:
            found = []
            for stage in stages:
                if "$match" in stage and field in stage["$match"]:
                    found.append(stage["$match"][field])
                if "$unionWith" in stage:
                    found += matched(stage["$unionWith"]["pipeline"])
            return found

        return [value for pipeline in self.pipelines for value in matched(pipeline)]

    def succeeded(self, event) -> None:
        pass

    def failed(self, event) -> None:
        pass


@pytest.fixture
async def watched(mongo_url):
    commands = Commands()
    client = AsyncMongoClient(mongo_url, event_listeners=[commands])
    collection = client["agora_test"][f"find_in_{uuid.uuid4().hex[:8]}"]
    await collection.insert_many(
        [{"_id": f"m{n}", "user_id": f"u{n % 3}", "n": n} for n in range(9)]
    )
    commands.finds.clear()
    commands.names.clear()
    yield collection, commands
    await collection.drop()
    await client.close()


async def test_no_values_find_nothing_without_asking_the_server(watched):
    collection, commands = watched
    assert await find_in(collection, "user_id", []) == []
    assert await find_in(collection, "_id", iter(())) == []
    assert commands.finds == []


async def test_another_field_is_asked_once_per_distinct_value_by_equality(watched):
    collection, commands = watched
    found = await find_in(collection, "user_id", ["u1", "u2", "u1", "nobody"], {"n": 1})
    assert sorted(d["n"] for d in found) == [1, 2, 4, 5, 7, 8]
    assert all(set(d) == {"_id", "n"} for d in found)
    # The equalities share one command (each from the field's index; a `$in` would read every
    # document on nx-27017).
    assert commands.names == ["aggregate"]
    assert sorted(commands.equalities("user_id")) == ["nobody", "u1", "u2"]
    commands.names.clear()
    assert sorted(d["n"] for d in await find_in(collection, "user_id", ["u0"])) == [0, 3, 6]
    assert commands.names == ["find"] and commands.finds == [{"user_id": "u0"}]


async def test_the_equalities_of_many_values_share_a_command_twenty_at_a_time(watched):
    """The red dots of a big group's pushed members: a command each took the store's turn
    120 times; fifty a command made nx-27017 answer each in Python (`BRANCHES_PER_UNION`)."""
    collection, commands = watched
    await collection.insert_many([{"_id": f"p{n}", "user_id": f"v{n}"} for n in range(119)])
    commands.names.clear()
    wanted = [f"v{n}" for n in range(119)] + ["nobody"]
    found = await find_in(collection, "user_id", wanted)
    assert sorted(d["_id"] for d in found) == sorted(f"p{n}" for n in range(119))
    assert commands.names == ["aggregate"] * 6
    assert sorted(commands.equalities("user_id")) == sorted(wanted)


async def test_ids_are_asked_in_one_query(watched):
    collection, commands = watched
    found = await find_in(collection, "_id", ["m3", "m0", "m3", "missing"])
    assert sorted(d["_id"] for d in found) == ["m0", "m3"]
    assert commands.finds == [{"_id": {"$in": ["m3", "m0", "missing"]}}]


async def test_many_ids_are_asked_a_hundred_at_a_time(watched):
    collection, commands = watched
    await collection.insert_many([{"_id": f"x{n}", "user_id": "many"} for n in range(250)])
    commands.finds.clear()
    wanted = [f"x{n}" for n in range(250)] + ["m1"]
    found = await find_in(collection, "_id", wanted)
    assert sorted(d["_id"] for d in found) == sorted(wanted)
    asked = [f["_id"]["$in"] for f in commands.finds]
    assert sorted(map(len, asked)) == [51, 100, 100]
    assert sorted(i for ids in asked for i in ids) == sorted(wanted)


async def test_hundreds_of_documents_matching_are_read_in_one_command(watched, redis_url):
    """A big group's memberships, for a push decision (`find_in`) or its shard's load of it
    (`SessionStore.member_types`), came 101 to a command."""
    collection, commands = watched
    await collection.insert_many([{"_id": f"y{n}", "user_id": "crowd"} for n in range(500)])
    commands.names.clear()
    assert len(await find_in(collection, "user_id", ["crowd"])) == 500
    assert commands.names == ["find"]

    redis, keys = Redis.from_url(redis_url), Keys(f"batches-{uuid.uuid4().hex[:8]}:")
    sessions = SessionStore(
        collection.database, session_copies(redis, keys), MarksCopies(redis, keys)
    )
    group = f"group-{uuid.uuid4().hex[:8]}"
    members = [
        {"_id": f"{group}:u{n}", "session_id": group, "user_id": f"u{n}"} for n in range(500)
    ]
    try:
        await sessions.members.insert_many([{**m, "session_user_type": 20} for m in members])
        commands.names.clear()
        assert len(await sessions.member_types(group)) == 500
        assert commands.names == ["find"]
    finally:
        await sessions.members.delete_many({"session_id": group})
        await redis.aclose()


async def test_reads_together_find_what_each_finds_alone_in_one_command(watched):
    """Independent reads of one database answered by one aggregate: each read's documents as
    its own `find` gives them (sorted either way and limited, projected, none matching, of
    every kind of value, more than a thousand), named by the read."""
    collection, commands = watched
    crowd = collection.database[f"crowd_{uuid.uuid4().hex[:8]}"]
    varied = {
        "_id": "varied",
        "at": datetime(2026, 12, 7),  # the client is not tz_aware
        "flags": [True, False, None],
        "marks": [{"seq": 3, "at": 1}],
        "nested": {"a": {"b": [1.5, 2**40]}},
        "text": "with \"quotes\", 'apostrophes' and ünïcode",
        "empty": {},
    }
    await crowd.insert_many([varied, *({"_id": f"c{n}", "k": "crowd"} for n in range(1500))])
    reads = {
        "furthest": Read(collection, {"n": {"$gt": 2}}, {"n": 1}, sort=("n", -1), limit=2),
        "earliest": Read(collection, {"user_id": "u1"}, sort=("n", 1), limit=2),
        "projected": Read(collection, {"user_id": "u2"}, {"user_id": 1}),
        "nothing": Read(collection, {"user_id": "nobody"}),
        "crowd": Read(crowd, {"k": "crowd"}),
        "varied": Read(crowd, {"_id": "varied"}),
    }
    try:
        alone = {name: await read.find() for name, read in reads.items()}
        commands.names.clear()
        together = await read_together(reads)
        # A thousand documents a batch: the 1,500 of the crowd take one getMore more.
        assert commands.names == ["aggregate", "getMore"]
        assert together == alone
        assert together["furthest"] == [{"_id": "m8", "n": 8}, {"_id": "m7", "n": 7}]
        assert [d["n"] for d in together["earliest"]] == [1, 4]
        assert together["nothing"] == [] and len(together["crowd"]) == 1500
        assert together["varied"] == [varied]
    finally:
        await crowd.drop()


async def test_keys_read_together_are_each_an_equality_branch(watched):
    """nx-27017 answers a `$in` on `_id` inside a union by reading every document (a person's
    chats among 1,300: 132 ms, the store held meanwhile): the keys of such a read are each a
    branch of their own, whether the read comes first or after another."""
    collection, commands = watched
    crowd = collection.database[f"crowd_{uuid.uuid4().hex[:8]}"]
    await crowd.insert_many([{"_id": f"c{n}", "n": n} for n in range(30)])
    keyed, other = Read(crowd, {"_id": {"$in": ["c5", "c3", "gone"]}}), Read(crowd, {"_id": "c9"})
    try:
        for reads in ({"keyed": keyed, "other": other}, {"other": other, "keyed": keyed}):
            commands.pipelines.clear()
            together = await read_together(reads)
            assert sorted(together["keyed"], key=lambda d: d["n"]) == await keyed.find()
            assert together["other"] == [{"_id": "c9", "n": 9}]
            assert len(commands.pipelines) == 1
            assert sorted(commands.equalities("_id")) == ["c3", "c5", "c9", "gone"]
    finally:
        await crowd.drop()


async def test_a_membership_marked_twice_at_once_is_not_read_again(watched, redis_url):
    """A screen's `delivered` and `read` of the same message arrive together: the second
    mark is decided on the membership as the first wrote it, the second marks of all such
    memberships in one more write, where each read its membership again and was written
    alone."""
    collection, commands = watched
    redis, keys = (
        Redis.from_url(redis_url, decode_responses=True),
        Keys(f"marks-{uuid.uuid4().hex[:8]}:"),
    )
    sessions = SessionStore(
        collection.database, session_copies(redis, keys), MarksCopies(redis, keys)
    )
    chat, people = f"chat-{uuid.uuid4().hex[:8]}", ("ann", "bob")
    try:
        for user_id in people:
            await sessions.add_member(chat, user_id, USER_TYPE_MEMBER)
        found = await sessions.memberships([(chat, user_id) for user_id in people])
        marks = [
            ReceiptMark(chat, user_id, status, 3)
            for user_id in people
            for status in ("delivered", "read")
        ]
        commands.names.clear()
        assert await sessions.record_receipts(marks, found, at=1) == [True] * 4
        assert commands.names == ["update", "update"]
        stored = await sessions.members.find({"session_id": chat}).to_list()
        assert {
            (m["delivered_seq"], m["read_seq"], *(len(m[times]) for times in MEMBERSHIP_COPIED))
            for m in stored
        } == {(3, 3, 1, 1, 1, 1)}
    finally:
        await sessions.members.delete_many({"session_id": chat})
        await redis.aclose()


async def test_a_chats_marks_of_both_kinds_are_read_in_one_command(watched, redis_url):
    """The furthest marks (a page's ticks) and the marks covering a message (its delivery
    details) read each kind of mark, the two kinds in one command where each took its own."""
    collection, commands = watched
    redis = Redis.from_url(redis_url, decode_responses=True)
    keys = Keys(f"kinds-{uuid.uuid4().hex[:8]}:")

    def store() -> SessionStore:
        return SessionStore(
            collection.database, session_copies(redis, keys), MarksCopies(redis, keys)
        )

    writer, reader = store(), store()
    chat, people = f"chat-{uuid.uuid4().hex[:8]}", ("ann", "bob", "cat", "dan")
    try:
        for user_id in people:
            await writer.add_member(chat, user_id, USER_TYPE_MEMBER)
        for user_id, status, seq in (
            ("ann", "read", 5),
            ("bob", "delivered", 9),
            ("cat", "delivered", 4),
            ("dan", "read", 2),
        ):
            assert await receipt_recorded(writer, chat, user_id, status, seq, at=1)
        commands.names.clear()
        furthest = await reader.furthest_marks(chat)
        assert commands.names == ["aggregate"]
        assert {m["user_id"]: (m.get("delivered_seq"), m.get("read_seq")) for m in furthest} == {
            "ann": (5, 5),
            "bob": (9, 0),
            "dan": (2, 2),
        }  # cat's delivered mark is third
        commands.names.clear()
        covering = await reader.marks_covering({"_id": chat, "kind": SESSION_KIND_GROUP}, 5)
        assert commands.names == ["aggregate"]
        assert sorted(m["user_id"] for m in covering) == ["ann", "bob"]
    finally:
        await collection.database["session_users"].delete_many({"session_id": chat})
        await redis.aclose()


async def test_a_push_decisions_memberships_and_chats_are_read_in_one_command(watched, redis_url):
    """Deciding on a batch of pushes read a big chat's memberships by chat, then the members a
    small chat's shard named, then the chats: three commands where no copy held them. Now
    one, finding what each read finds alone."""
    collection, commands = watched
    redis = Redis.from_url(redis_url, decode_responses=True)
    keys = Keys(f"pushes-{uuid.uuid4().hex[:8]}:")
    sessions = SessionStore(
        collection.database, session_copies(redis, keys), MarksCopies(redis, keys)
    )
    run = uuid.uuid4().hex[:8]
    group, chat = f"group-{run}", f"chat-{run}"
    named = [(chat, f"ann-{run}"), (chat, f"bob-{run}")]
    try:
        for session_id, title in ((group, "City"), (chat, "Piano")):
            await sessions.sessions.insert_one(
                {"_id": session_id, "title": title, "message_seq": 4}
            )
        for n in range(3):
            await sessions.add_member(group, f"member{n}-{run}", USER_TYPE_MEMBER)
        for session_id, user_id in named:
            await sessions.add_member(session_id, user_id, USER_TYPE_MEMBER)
        await sessions.advance_reading(chat, named[0][1], 3)

        commands.names.clear()
        alone = (
            await sessions.push_memberships([group]),
            await sessions.memberships_lately(named),
            await sessions.chats([group, chat]),
        )
        assert len(commands.names) == 3
        commands.names.clear()
        together = await sessions.push_reads([group, chat], [group], named)
        assert commands.names == ["aggregate"]
        by_chat, memberships, chats = together
        assert (by_chat, memberships) == alone[:2]
        assert sorted(chats, key=str) == sorted(alone[2], key=str)
        assert len(by_chat[group]) == 3 and memberships[named[0]]["read_seq"] == 3
        assert sorted(c["title"] for c in chats) == ["City", "Piano"]
        assert all("message_seq" not in c for c in chats)
    finally:
        await sessions.members.delete_many({"session_id": {"$in": [group, chat]}})
        await sessions.sessions.delete_many({"_id": {"$in": [group, chat]}})
        await redis.aclose()


async def test_a_share_route_is_read_from_the_store_once_per_process(watched, redis_url):
    """Each opening of a post's page read its link's route (`find routes` by `_id`), and the
    feed's pages send many people through the same links. A route never changes once
    stored: it is read once, and one this process stored is not read at all."""
    collection, commands = watched
    redis = Redis.from_url(redis_url)
    items = ItemStore(collection.database, redis, Keys(f"routes-{uuid.uuid4().hex[:8]}:"))
    item, root = await items.create({"title": "Lamp"}, user_id="ann", group_id="g", created_at=1)
    try:
        commands.finds.clear()
        assert await items.route(root["_id"]) == root
        assert await items.route(root["_id"]) == root
        assert commands.finds == [{"_id": root["_id"]}]

        shared, stored_now = await items.share_route(root, "bob", 2)
        assert stored_now
        commands.finds.clear()
        assert await items.route(shared["_id"]) == shared
        assert commands.finds == []
    finally:
        await items.items.delete_one({"_id": item["_id"]})
        await items.routes.delete_many({"item_id": item["_id"]})
        await redis.aclose()


async def test_a_posts_share_count_is_never_below_its_routes_shared(watched, redis_url):
    """A reader of a post takes its share count as the most routes it has past the poster's
    (`core.routes.own_chain_told`): the count moves before a route is stored, and back when
    the person had one already (a share racing their other)."""
    collection, commands = watched
    redis = Redis.from_url(redis_url)
    items = ItemStore(collection.database, redis, Keys(f"routes-{uuid.uuid4().hex[:8]}:"))
    await ensure_indexes(collection.database, [items])  # one route per post and person
    item, root = await items.create({"title": "Lamp"}, user_id="ann", group_id="g", created_at=1)
    try:
        commands.names.clear()
        shared, stored_now = await items.share_route(root, "bob", 2)
        assert stored_now
        assert commands.names == ["update", "insert"]
        again, stored_now = await items.share_route(root, "bob", 3)
        assert (again, stored_now) == (shared, False)
        assert (await items.items.find_one({"_id": item["_id"]}))["share_count"] == 1
    finally:
        await items.items.delete_one({"_id": item["_id"]})
        await items.routes.delete_many({"item_id": item["_id"]})
        await redis.aclose()


@pytest.fixture
async def census_undone():
    """The census has each task of the loop remember who started it: not after its test."""
    yield
    asyncio.get_running_loop().set_task_factory(None)


async def test_the_command_census_counts_each_shape_and_the_slow_log_names_it(
    mongo_url, caplog, census_undone
):
    """What an operator reads to see what the store is asked (AGORA_MONGO_COMMAND_CENSUS_SECONDS,
    AGORA_MONGO_SLOW_COMMAND_MS): shapes with their fields, never the values."""
    watch = CommandWatch(slow_ms=0, census_seconds=3600)
    client = AsyncMongoClient(mongo_url, event_listeners=[watch])
    collection = client["agora_test"][f"census_{uuid.uuid4().hex[:8]}"]
    others = client["agora_test"][f"census_others_{uuid.uuid4().hex[:8]}"]
    try:
        await collection.insert_one({"_id": "secret-id", "n": 1})
        for _ in range(3):
            await collection.find_one({"_id": "secret-id"})
        await others.insert_one({})  # nx-27017 fails a union with a collection it lacks
        await read_together({"one": Read(collection, {"n": 1}), "other": Read(others, {})})
        watch.census_seconds = 1e-9  # the next command ends the period
        with caplog.at_level(logging.INFO, logger="agora.mongo.census"):
            await collection.find_one({"n": 1})
        line = next(r.getMessage() for r in caplog.records if r.name == "agora.mongo.census")
        assert f"find {collection.name} filter ['_id']" in line
        # Reads together: the collections of the union's branches.
        assert (
            f"aggregate {collection.name} pipeline ['$match', '$addFields', "
            f"'$unionWith {others.name}']"
        ) in line
        assert f"insert {collection.name}" in line
        assert "secret-id" not in line
        # Who asked is named only when asked for: no line of callers, and the loop's tasks
        # left as they were (a frame walk per task cost 6 % of an edge at 500 people).
        assert not [r for r in caplog.records if " from: " in r.getMessage()]
        assert asyncio.get_running_loop().get_task_factory() is None
        counted = {
            part.split("/s ")[1]: float(part.split("/s ")[0])
            for part in line.split("; ")[1].split(" | ")
        }
        by_id = counted[f"find {collection.name} filter ['_id']"]
        # Rates to a tenth per second: the period is a few milliseconds long.
        assert by_id == pytest.approx(3 * counted[f"insert {collection.name}"], rel=0.01)
        # Nothing slower than 0 ms is looked for when the slow log is off.
        assert not [r for r in caplog.records if r.name == "agora.mongo.slow"]
        caplog.clear()
        watch.slow_us = 0
        with caplog.at_level(logging.WARNING, logger="agora.mongo.slow"):
            await collection.find_one({"n": 1})
        assert any(f"find {collection.name} filter ['n']" in r.getMessage() for r in caplog.records)
    finally:
        await collection.drop()
        await others.drop()
        await client.close()


async def test_the_census_names_who_asked_each_shape_through_the_tasks_the_store_starts(
    mongo_url, redis_url, caplog, census_undone
):
    """A shape's count says nothing of which call to cut: the census also counts each shape
    by the function of agora outside the store that asked, found from the command's stack
    or, for the queries the store runs as tasks of their own (`find_in`), from who started
    the task."""
    watch = CommandWatch(slow_ms=0, census_seconds=3600, callers=True)
    client = AsyncMongoClient(mongo_url, event_listeners=[watch])
    redis, keys = Redis.from_url(redis_url), Keys(f"census-{uuid.uuid4().hex[:8]}:")
    db = client[f"agora_census_{uuid.uuid4().hex[:8]}"]
    sessions = SessionStore(db, session_copies(redis, keys), MarksCopies(redis, keys))
    try:
        await sessions.members.insert_one({"_id": "c1:u1", "session_id": "c1", "user_id": "u1"})
        with pytest.raises(NotFound):  # asks the store from the task it runs in
            await ChatAccess(sessions=sessions, posts=None).readable(None, "absent")
        # The memberships, then their chats: each a query in a task `find_in` starts.
        await UnseenCounts(sessions=sessions).notifications_unseen("u1")
        await db["elsewhere"].find_one({})  # from nothing of agora's
        watch.census_seconds = 1e-9  # the next command ends the period
        with caplog.at_level(logging.INFO, logger="agora.mongo.census"):
            await db["elsewhere"].find_one({})
        callers = {
            shape: line.split(" from: ")[1]
            for r in caplog.records
            if r.name == "agora.mongo.census" and " from: " in (line := r.getMessage())
            for shape in [line.split(" from: ")[0].split("/s ", 1)[1]]
        }
        access, unseen = "ChatAccess.readable", "UnseenCounts.notifications_unseen"
        assert callers["find sessions filter ['_id']"].count("agora.services.chat") == 2
        assert f"agora.services.chat.access.{access}" in callers["find sessions filter ['_id']"]
        assert f"agora.services.chat.chat_list.{unseen}" in callers["find sessions filter ['_id']"]
        assert callers["find session_users filter ['user_id']"].endswith(
            f"/s agora.services.chat.chat_list.{unseen}"
        )
        assert callers["find elsewhere filter []"].endswith("/s unknown")
    finally:
        await client.drop_database(db.name)
        await client.close()
        await redis.aclose()
