"""An edge's copies of auth keys, users, groups and memberships: used only while it hears
changes, dropped by them; and a chat's furthest marks, read again once a mark moved."""

import asyncio
import random
import time
import uuid
from collections.abc import Awaitable, Callable
from types import SimpleNamespace

import pytest

from agora.core.accounts import Identifier
from agora.core.chat.constants import USER_TYPE_MEMBER
from agora.store import local_copies
from agora.store.announced_copies import ANNOUNCED_COPY_SECONDS, AnnouncedCopies
from agora.store.auth_keys import AuthKeyStore
from agora.store.groups import GroupStore
from agora.store.items import ItemStore
from agora.store.marks_copies import MarksCopies
from agora.store.mongo import connect_mongo, database
from agora.store.reads_together import Read
from agora.store.redis import Keys, connect_redis
from agora.store.session_copies import session_copies
from agora.store.sessions import ReceiptMark, SessionStore
from agora.store.users import UserStore
from tests.integration.helpers import Member, member, new_group, receipt_recorded
from tests.integration.helpers import heard as _heard
from tests.integration.helpers import hearing as _hearing


@pytest.fixture
async def edges(settings_for):
    """Two edges' key stores on one database and Redis prefix, and the database."""
    settings = settings_for()
    mongo = connect_mongo(settings)
    redis = connect_redis(settings)
    db = database(mongo, settings)
    keys = Keys(settings.redis_prefix)
    yield AuthKeyStore(db, redis, keys), AuthKeyStore(db, redis, keys), db
    await redis.aclose()
    await mongo.close()


async def test_keys_are_kept_only_while_revocations_are_heard_and_a_revocation_drops_them(edges):
    edge, other, db = edges
    await edge.add("hash-1", "user-1")
    assert await edge.user_id_for("hash-1") == "user-1"
    await db.auth_keys.delete_one({"_id": "hash-1"})
    # Nobody listens for revocations yet, so nothing was kept.
    assert await edge.user_id_for("hash-1") is None

    async with _hearing(edge.revocations, other.revoke) as heard:
        await edge.add("hash-2", "user-2")
        assert await edge.user_id_for("hash-2") == "user-2"
        await db.auth_keys.delete_one({"_id": "hash-2"})
        assert await edge.user_id_for("hash-2") == "user-2"  # the edge's copy
        await other.revoke("hash-2")  # a logout on another edge
        await _heard(heard, "hash-2")
        assert await edge.user_id_for("hash-2") is None

    await edge.add("hash-3", "user-3")
    assert await edge.user_id_for("hash-3") == "user-3"
    await db.auth_keys.delete_one({"_id": "hash-3"})
    # The subscription ended, and with it every copy.
    assert await edge.user_id_for("hash-3") is None


@pytest.fixture
async def user_edges(settings_for):
    """Two edges' user stores on one database and Redis prefix."""
    settings = settings_for()
    mongo = connect_mongo(settings)
    redis = connect_redis(settings)
    db = database(mongo, settings)
    keys = Keys(settings.redis_prefix)
    yield UserStore(db, redis, keys), UserStore(db, redis, keys)
    await redis.aclose()
    await mongo.close()


async def test_users_are_kept_only_while_changes_are_heard_and_a_change_drops_them(user_edges):
    edge, other = user_edges
    user = await other.create(Identifier("email_id", "copies@example.com"), "Before")
    # Written behind the stores' back: only a copy would still say "Before".
    behind = {"$set": {"name": "Behind"}}
    await edge.users.update_one({"_id": user["_id"]}, behind)
    assert (await edge.get(user["_id"]))["name"] == "Behind"  # not listening: read each time

    async def names() -> list[str]:  # a page's senders, as many at once
        return [found["name"] for found in await edge.by_ids([user["_id"], "nobody"])]

    assert await names() == ["Behind"]

    async with _hearing(edge.changes, other.changed) as heard:
        assert (await edge.get(user["_id"]))["name"] == "Behind"
        await edge.users.update_one({"_id": user["_id"]}, {"$set": {"name": "Unannounced"}})
        assert (await edge.get(user["_id"]))["name"] == "Behind"  # the edge's copy
        assert await names() == ["Behind"]
        await other.update_fields(user["_id"], {"name": "After"})  # a change on another edge
        await _heard(heard, user["_id"])
        assert await names() == ["After"]
        assert (await edge.get(user["_id"]))["name"] == "After"

    await edge.users.update_one({"_id": user["_id"]}, {"$set": {"name": "Later"}})
    # The subscription ended, and with it every copy.
    assert (await edge.get(user["_id"]))["name"] == "Later"
    assert await names() == ["Later"]


class _CountedReads:
    """A collection whose `find_one` calls are counted (as a read starts, before any await)."""

    def __init__(self, collection) -> None:
        self.collection = collection
        self.reads = 0

    def find_one(self, *args, **kwargs):
        self.reads += 1
        return self.collection.find_one(*args, **kwargs)


async def test_a_copy_is_not_read_again_while_nothing_is_announced(user_edges, monkeypatch):
    """A copy is exact while changes are heard, so a user read all the time costs no store
    command however long it is used (until the age bound, a safety net)."""
    edge, other = user_edges
    user = await other.create(Identifier("email_id", "steady@example.com"), "Kept")
    later = time.monotonic() + ANNOUNCED_COPY_SECONDS / 2
    async with _hearing(edge.changes, other.changed) as heard:
        assert (await edge.get(user["_id"]))["name"] == "Kept"
        counted = _CountedReads(edge.users)
        monkeypatch.setattr(edge, "users", counted)
        monkeypatch.setattr(local_copies, "time", SimpleNamespace(monotonic=lambda: later))
        assert (await edge.get(user["_id"]))["name"] == "Kept"
        await asyncio.sleep(0)  # a reload in the background would have started its read
        assert counted.reads == 0
        await other.update_fields(user["_id"], {"name": "Announced"})
        await _heard(heard, user["_id"])
        assert (await edge.get(user["_id"]))["name"] == "Announced"
        assert counted.reads == 1


async def test_a_post_edited_or_deleted_on_one_edge_shows_on_another_at_once(client_for, smtp_sink):
    prefix = f"copies-{uuid.uuid4().hex[:8]}"  # one deployment: the edges share Redis
    first = await client_for(redis_prefix=prefix)
    second = await client_for(redis_prefix=prefix)
    owner = await member(first, smtp_sink, "Owner")
    group_id = await new_group(owner, is_public=True)
    item = await owner.post_item(group_id, "Old piano")
    elsewhere = Member(second, owner.key, owner.user)

    async def seen_elsewhere(status: int = 200) -> dict:
        return await elsewhere.call("/api/item", {"item_id": item["_id"]}, status=status)

    assert (await seen_elsewhere())["item"]["title"] == "Old piano"  # now copied there
    edit = {"item_id": item["_id"], "title": "Grand piano", "group_id": group_id}
    await owner.call("/api/item?action=update", {**edit, "description": "Tuned."})
    for _ in range(100):
        if (await seen_elsewhere())["item"]["title"] == "Grand piano":
            break
        await asyncio.sleep(0.05)
    assert (await seen_elsewhere())["item"]["title"] == "Grand piano"
    await owner.call("/api/item?action=delete", {"item_id": item["_id"]})
    for _ in range(100):
        reply = await elsewhere.client.post("/api/item", json={"item_id": item["_id"]})
        if reply.status != 200:
            break
        await asyncio.sleep(0.05)
    assert reply.status == 404


@pytest.fixture
async def session_edges(settings_for):
    """Two edges' copies of groups and memberships on one Redis prefix."""
    settings = settings_for()
    redis = connect_redis(settings)
    keys = Keys(settings.redis_prefix)
    yield session_copies(redis, keys), session_copies(redis, keys)
    await redis.aclose()


def _stored(value: dict) -> Callable[[], Awaitable[dict]]:
    async def load() -> dict:
        return value

    return load


async def test_a_membership_read_or_written_while_a_change_was_heard_is_not_kept(session_edges):
    """What a read or a receipt's write brings back is kept only if no change came meanwhile:
    it may be from before the change, and would stay until the age bound."""
    edge, other = session_edges
    async with _hearing(edge.changes, other.announce) as heard:
        # A read under way when another edge blocks the member.
        gate = asyncio.Event()

        async def slow_read() -> dict:
            await gate.wait()
            return {"session_user_type": 20}

        reading = asyncio.create_task(edge.reload("g:reader", slow_read))
        await other.announce("g:reader")
        await _heard(heard, "g:reader")
        gate.set()
        assert await reading == {"session_user_type": 20}
        blocked = await edge.get("g:reader", _stored({"session_user_type": 29}))
        assert blocked == {"session_user_type": 29}

        # A receipt decided on the copy, written after a block dropped it.
        kept = await edge.get("g:marked", _stored({"session_user_type": 20}))
        await other.announce("g:marked")
        await _heard(heard, "g:marked")
        edge.replace("g:marked", kept, {**kept, "read_seq": 3})
        now = await edge.get("g:marked", _stored({"session_user_type": 29}))
        assert now == {"session_user_type": 29}
        # With nothing heard meanwhile, the written membership is the copy.
        edge.replace("g:marked", now, {**now, "read_seq": 4})
        assert await edge.get("g:marked", _stored({})) == {"session_user_type": 29, "read_seq": 4}


@pytest.fixture
async def chat_stores(settings_for):
    """Two processes' chat stores (an edge's and another edge's or a shard's) on one
    deployment, and the database."""
    settings = settings_for()
    mongo, redis = connect_mongo(settings), connect_redis(settings)
    db, keys = database(mongo, settings), Keys(settings.redis_prefix)

    def store() -> SessionStore:
        return SessionStore(db, session_copies(redis, keys), MarksCopies(redis, keys))

    yield store(), store(), db
    await redis.aclose()
    await mongo.close()


def _marks(found: list[dict]) -> dict[str, tuple[int, int]]:
    return {m["user_id"]: (m.get("delivered_seq", 0), m.get("read_seq", 0)) for m in found}


async def test_a_chats_marks_are_read_once_per_change_and_every_change_shows_at_once(chat_stores):
    """A page's ticks come from the process's copy of the chat's furthest marks while none
    moved, and any mark moved anywhere (a receipt, a sender's read mark, a member removed)
    shows on the next page."""
    edge, other, db = chat_stores
    chat = f"chat-{uuid.uuid4().hex[:8]}"
    for user_id in ("ann", "bob"):
        await other.add_member(chat, user_id, USER_TYPE_MEMBER)
    assert await edge.furthest_marks(chat) == []

    assert await receipt_recorded(other, chat, "ann", "delivered", 3, at=1)
    assert _marks(await edge.furthest_marks(chat)) == {"ann": (3, 0)}

    # Written behind the stores' back: the copy answers, the store is not asked.
    await db.session_users.update_one({"_id": f"{chat}:bob"}, {"$set": {"read_seq": 9}})
    assert _marks(await edge.furthest_marks(chat)) == {"ann": (3, 0)}

    await other.advance_reading(chat, "bob", 10)  # a shard's: bob sent message 10
    assert _marks(await edge.furthest_marks(chat)) == {"ann": (3, 0), "bob": (0, 10)}

    await other.remove_member(chat, "bob")
    assert _marks(await edge.furthest_marks(chat)) == {"ann": (3, 0)}


async def test_a_chats_marks_are_carried_across_a_write_not_read_again(chat_stores):
    """A receipt moves the copy of the process that wrote it, and the copy of another
    process that held the chat's marks from just before it: neither reads them again (a
    change behind the stores' back stays unseen). Two writes since a copy, and it is read."""
    edge, other, db = chat_stores
    chat = f"chat-{uuid.uuid4().hex[:8]}"
    for user_id in ("ann", "bob", "cat"):
        await other.add_member(chat, user_id, USER_TYPE_MEMBER)
    assert await receipt_recorded(edge, chat, "ann", "delivered", 3, at=1)
    assert _marks(await edge.furthest_marks(chat)) == {"ann": (3, 0)}
    await db.session_users.update_one(
        {"_id": f"{chat}:cat"}, {"$set": {"read_seq": 50, "delivered_seq": 50}}
    )

    assert await receipt_recorded(edge, chat, "bob", "read", 5, at=2)
    assert _marks(await edge.furthest_marks(chat)) == {"ann": (3, 0), "bob": (5, 5)}

    assert await receipt_recorded(other, chat, "ann", "read", 4, at=3)
    assert _marks(await edge.furthest_marks(chat)) == {"ann": (4, 4), "bob": (5, 5)}

    await other.advance_reading(chat, "bob", 6)  # a shard's: bob sent messages 6 and 7
    await other.advance_reading(chat, "bob", 7)
    assert _marks(await edge.furthest_marks(chat)) == {"bob": (5, 7), "cat": (50, 50)}


async def test_a_removed_members_marks_leave_every_copy(chat_stores):
    """A member's removal is no move of marks: every copy is read again without theirs. A
    reader's mark written for them afterwards (a shard that sent their message before it
    heard) finds no membership and shows in no copy."""
    edge, other, _ = chat_stores
    chat = f"chat-{uuid.uuid4().hex[:8]}"
    for user_id in ("ann", "bob", "cat"):
        await other.add_member(chat, user_id, USER_TYPE_MEMBER)
    for user_id, seq in (("ann", 5), ("bob", 9), ("cat", 4)):
        assert await receipt_recorded(edge, chat, user_id, "read", seq, at=1)
    assert _marks(await edge.furthest_marks(chat)) == {"ann": (5, 5), "bob": (9, 9)}

    await other.remove_member(chat, "bob")
    assert _marks(await edge.furthest_marks(chat)) == {"ann": (5, 5), "cat": (4, 4)}

    await other.advance_reading(chat, "bob", 3)  # behind the two furthest: carried
    assert _marks(await edge.furthest_marks(chat)) == {"ann": (5, 5), "cat": (4, 4)}
    await other.advance_reading(chat, "bob", 10)  # past them: read again
    assert _marks(await edge.furthest_marks(chat)) == {"ann": (5, 5), "cat": (4, 4)}
    assert _marks(await other.furthest_marks(chat)) == {"ann": (5, 5), "cat": (4, 4)}


async def test_marks_read_in_one_command_with_another_read_are_kept_as_any_read(chat_stores):
    """The furthest marks read in the same command as another read (a chat's newest page) are
    the process's copy as a read of them alone would be: served while no mark moves (a
    change behind the stores' back stays unseen), carried by the next write; the other read
    goes alone while the copy serves."""
    edge, other, db = chat_stores
    chat = f"chat-{uuid.uuid4().hex[:8]}"
    for user_id in ("ann", "bob"):
        await other.add_member(chat, user_id, USER_TYPE_MEMBER)
    assert await receipt_recorded(other, chat, "ann", "delivered", 3, at=1)
    members = Read(db.session_users, {"session_id": chat}, {"user_id": 1}, sort=("user_id", 1))

    marks, found = await edge.furthest_marks_and(chat, members)
    assert _marks(marks) == {"ann": (3, 0)}
    assert [m["user_id"] for m in found] == ["ann", "bob"]

    await db.session_users.update_one({"_id": f"{chat}:bob"}, {"$set": {"read_seq": 9}})
    await other.add_member(chat, "cat", USER_TYPE_MEMBER)
    marks, found = await edge.furthest_marks_and(chat, members)
    assert _marks(marks) == {"ann": (3, 0)}
    assert [m["user_id"] for m in found] == ["ann", "bob", "cat"]

    assert await receipt_recorded(other, chat, "cat", "read", 4, at=2)
    assert _marks(await edge.furthest_marks(chat)) == {"ann": (3, 0), "cat": (4, 4)}


def _ticks(marks: list[dict], users: tuple[str, ...]) -> dict[tuple[str, str], int]:
    """What decides every tick (`core.chat.receipts.delivery`): per sender and kind of mark,
    the furthest mark of another member."""
    return {
        (sender, field): max((m.get(field, 0) for m in marks if m["user_id"] != sender), default=0)
        for sender in users
        for field in ("delivered_seq", "read_seq")
    }


async def test_marks_written_at_once_through_two_processes_tick_as_stored(chat_stores):
    """Receipts (one by one and grouped) and readers' marks written through two processes
    at once, each reading the chat's marks between its writes: each copy ticks every
    message as the stored marks do."""
    edge, other, db = chat_stores
    chat = f"chat-{uuid.uuid4().hex[:8]}"
    users = ("ann", "bob", "cat", "dan", "eve")
    for user_id in users:
        await other.add_member(chat, user_id, USER_TYPE_MEMBER)

    async def writes(store: SessionStore, seed: int) -> None:
        chosen = random.Random(seed)
        for _ in range(40):
            user_id, seq = chosen.choice(users), chosen.randint(1, 60)
            status = chosen.choice(["delivered", "read", "reading", "grouped"])
            if status == "reading":
                await store.advance_reading(chat, user_id, seq)
            elif status == "grouped":
                pairs = [(chat, u) for u in chosen.sample(users, 2)]
                found = await store.memberships_lately(pairs)
                marks = [ReceiptMark(chat, u, "read", seq) for _, u in pairs]
                await store.record_receipts(marks, found, at=1)
            else:
                await receipt_recorded(store, chat, user_id, status, seq, at=1)
            await store.furthest_marks(chat)

    await asyncio.gather(writes(edge, 1), writes(other, 2))

    stored = await db.session_users.find({"session_id": chat}).to_list()
    for store in (edge, other):
        assert _ticks(await store.furthest_marks(chat), users) == _ticks(stored, users)


async def test_a_persons_chats_read_for_their_list_are_the_edges_copies_of_them(settings_for):
    """The chat list reads every chat of its person whole (counters and all): those are this
    edge's copies of the chats from then on, so the chats opened from the list read nothing,
    and what is announced of them shows at once."""
    settings = settings_for()
    mongo, redis = connect_mongo(settings), connect_redis(settings)
    db, keys = database(mongo, settings), Keys(settings.redis_prefix)
    copies, others = session_copies(redis, keys), session_copies(redis, keys)
    edge = SessionStore(db, copies, MarksCopies(redis, keys))
    other = SessionStore(db, others, MarksCopies(redis, keys))
    chat_id = f"chat-{uuid.uuid4().hex[:8]}"
    # A person of this test's own: tests beside it (the database is shared) make chats of theirs.
    person = f"ann-{uuid.uuid4().hex[:8]}"
    try:
        async with _hearing(copies.changes, others.announce) as heard:
            await other.create_once({"_id": chat_id, "title": "Listed"}, {person: USER_TYPE_MEMBER})
            [(listed, _)], whole = await edge.followed_whole(person, up_to=20)
            assert whole and listed["title"] == "Listed"
            # Written behind the stores' back: the copy answers, the store is not asked.
            await db.sessions.update_one({"_id": chat_id}, {"$set": {"title": "Unannounced"}})
            assert (await edge.chat(chat_id))["title"] == "Listed"
            await other.update(chat_id, {"title": "Announced"})
            await _heard(heard, chat_id)
            assert (await edge.chat(chat_id))["title"] == "Announced"
    finally:
        await redis.aclose()
        await mongo.close()


async def test_memberships_kept_hold_their_field_names_once_and_follow_their_receipts(
    settings_for,
):
    """An edge keeps thousands of memberships: each field name is held once for all of them
    (a document read from the store has strings of its own), none of its receipts' times
    (up to 80 numbers a membership, ~9 kB of a copy in a busy chat: the store keeps them,
    and the message info view reads them there), and a receipt decided on a copy still
    leaves what it wrote as the copy."""
    settings = settings_for()
    mongo, redis = connect_mongo(settings), connect_redis(settings)
    db, keys = database(mongo, settings), Keys(settings.redis_prefix)
    copies, others = session_copies(redis, keys), session_copies(redis, keys)
    edge = SessionStore(db, copies, MarksCopies(redis, keys))
    chat = f"chat-{uuid.uuid4().hex[:8]}"
    pairs = [(chat, "ann"), (chat, "bob")]
    for _, user_id in pairs:
        await edge.add_member(chat, user_id, USER_TYPE_MEMBER)
    try:
        async with _hearing(copies.changes, others.announce):
            for seq, (_, user_id) in enumerate(pairs, 2):
                assert await receipt_recorded(edge, chat, user_id, "delivered", seq, at=seq)
            ann, bob = (await edge.memberships(pairs)).values()
            assert len({id(name) for doc in (ann, bob) for name in doc}) == len(ann)
            assert await receipt_recorded(edge, chat, "bob", "delivered", 4, at=4)
            # Written behind the stores' back: the copies answer, as the receipts left them.
            await db.session_users.update_many({"session_id": chat}, {"$set": {"delivered_seq": 0}})
            kept = await edge.memberships_lately(pairs)
            assert [kept[pair]["delivered_seq"] for pair in pairs] == [2, 4]
            read_again = await GroupStore(db, copies).membership(chat, "bob", fresh=True)
            for copy in (*kept.values(), read_again):
                assert [name for name, value in copy.items() if isinstance(value, list)] == []
            stored = await db.session_users.find_one({"_id": f"{chat}:bob"})
            assert (stored["delivered_mark_seqs"], stored["delivered_mark_ats"]) == ([3, 4], [3, 4])
    finally:
        await redis.aclose()
        await mongo.close()


@pytest.fixture
async def post_edges(settings_for):
    """Two edges' post stores on one database and Redis prefix, a probe announcing on their
    channel, the database, and an owner whose posts (and routes) go with the test."""
    settings = settings_for()
    mongo, redis = connect_mongo(settings), connect_redis(settings)
    db, keys = database(mongo, settings), Keys(settings.redis_prefix)
    owner = f"owner-{uuid.uuid4().hex[:8]}"
    yield SimpleNamespace(
        edge=ItemStore(db, redis, keys),
        other=ItemStore(db, redis, keys),
        probe=AnnouncedCopies("post", redis, keys("posts-changed"), keep_missing=False),
        db=db,
        owner=owner,
    )
    await db.items.delete_many({"user_id": owner})
    await db.routes.delete_many({"user_id": owner})
    await redis.aclose()
    await mongo.close()


async def test_posts_asked_whether_deleted_are_the_edges_copies_of_them(post_edges):
    """Every chat call about posts (a page, the list, a lookup) asks whether they were
    deleted: it read the posts from the store each time, and now takes the edge's copies,
    which every change to a post keeps (it is announced)."""
    edge, other, db, owner = post_edges.edge, post_edges.other, post_edges.db, post_edges.owner
    item, _ = await other.create({"title": "Lamp"}, user_id=owner, group_id="g", created_at=1)
    async with _hearing(edge.changes, post_edges.probe.announce) as heard:
        [read] = await edge.get_many([item["_id"]])
        assert read["title"] == "Lamp"
        # Written behind the stores' back: the copy answers, the store is not asked.
        await db.items.update_one({"_id": item["_id"]}, {"$set": {"title": "Unannounced"}})
        [copy] = await edge.get_many([item["_id"], "no-such-post"])
        assert copy["title"] == "Lamp"
        await other.hide(item["_id"], owner, now=2)
        await _heard(heard, item["_id"])
        [hidden] = await edge.get_many([item["_id"]])
        assert hidden["title"] == "Unannounced" and hidden["sort_order"] != 0


async def test_a_claimed_reward_revision_shows_on_every_edges_copy_of_the_post(post_edges):
    """An edit's claim of the post's next reward revision is a write of the post like any
    other: the claiming edge's copy goes before the claim returns, and every other edge's
    as it hears the announcement (an edit overtaken by a later one writes nothing more)."""
    edge, other, owner = post_edges.edge, post_edges.other, post_edges.owner
    item, _ = await other.create({"title": "Lamp"}, user_id=owner, group_id="g", created_at=1)
    async with _hearing(edge.changes, post_edges.probe.announce) as heard:
        assert "reward_rev" not in await edge.get(item["_id"])  # now the edge's copy
        assert (await edge.claim_reward_revision(item["_id"], owner))["reward_rev"] == 1
        assert (await edge.get(item["_id"]))["reward_rev"] == 1
        await _heard(heard, item["_id"])  # its own announcement
        assert (await other.claim_reward_revision(item["_id"], owner))["reward_rev"] == 2
        await _heard(heard, item["_id"])
        assert (await edge.get(item["_id"]))["reward_rev"] == 2
