"""An edge's receipts, written in as few store commands as their rules allow: through the real
stores (nx-27017, Redis) in process, the commands on memberships watched."""

import asyncio
import uuid
from types import SimpleNamespace

import pytest
from pymongo import AsyncMongoClient, monitoring

from agora.core.chat.constants import USER_TYPE_MEMBER
from agora.core.chat.receipts import delivery
from agora.realtime.emitter import RealtimeEmitter
from agora.services.chat import ticks as ticks_module
from agora.services.chat.access import ChatAccess
from agora.services.chat.ticks import Ticks
from agora.store.marks_copies import MarksCopies
from agora.store.mongo import connect_mongo, database, ensure_indexes
from agora.store.redis import Keys, connect_redis
from agora.store.session_copies import session_copies
from agora.store.sessions import SessionStore
from tests.integration.helpers import eventually, heard, hearing

LAST = {"created_at": 1}  # the newest message a receipt covers (its sender is not asked)


class MembershipCommands(monitoring.CommandListener):
    """The statements of each update of memberships, and how many reads asked for some by id."""

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        self.updates: list[int] = []
        self.reads_by_id = 0

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        command = event.command
        if event.command_name == "update" and command.get("update") == "session_users":
            self.updates.append(len(command["updates"]))
        elif event.command_name == "find" and command.get("find") == "session_users":
            self.reads_by_id += "_id" in command.get("filter", {})

    def succeeded(self, event) -> None:
        pass

    def failed(self, event) -> None:
        pass


@pytest.fixture
async def edge(settings_for):
    """An edge's chat store (its copies served: it hears announcements) and its ticks, on a
    client whose commands are watched; and another client's view of the database."""
    settings = settings_for()
    commands = MembershipCommands()
    mongo = AsyncMongoClient(settings.mongo_url, event_listeners=[commands])
    unwatched, redis = connect_mongo(settings), connect_redis(settings)
    keys = Keys(settings.redis_prefix)
    copies = session_copies(redis, keys)
    sessions = SessionStore(database(mongo, settings), copies, MarksCopies(redis, keys))
    access = ChatAccess(sessions=sessions, posts=None)
    async with hearing(copies.changes, copies.announce) as heard:
        yield SimpleNamespace(
            sessions=sessions,
            ticks=Ticks(sessions=sessions, emitter=RealtimeEmitter(settings), access=access),
            commands=commands,
            db=database(unwatched, settings),
            heard=heard,
        )
    await redis.aclose()
    await unwatched.close()
    await mongo.close()


async def _chat_of(edge, *people: str) -> tuple[str, dict[str, dict]]:
    """A new chat of `people`, and their memberships as the edge's copies have them (what a
    receipt's check reads), copied once the edge heard of the new memberships."""
    chat = f"chat-{uuid.uuid4().hex[:8]}"
    for user_id in people:
        await edge.sessions.add_member(chat, user_id, USER_TYPE_MEMBER)
        await heard(edge.heard, f"{chat}:{user_id}")
    found = await edge.sessions.memberships_lately([(chat, user_id) for user_id in people])
    return chat, {user_id: membership for (_, user_id), membership in found.items()}


async def _mark(edge, chat: str, user_id: str, mark: str) -> int:
    stored = await edge.db.session_users.find_one({"_id": f"{chat}:{user_id}"})
    return stored.get(mark, 0)


async def test_receipts_checked_while_the_batch_before_was_written_find_its_marks(edge):
    """Receipts checked while the batch before them was written are written in the next
    batch, with the memberships as their check read them: each compare-and-set on a member
    the batch before had marked missed, and cost a read and another write. The edge's copy,
    which that batch moved, is what they are decided on now."""
    chat, found = await _chat_of(edge, "ann", "bob")
    edge.commands.clear()
    edge.ticks.receipt_behind(found["ann"], "delivered", 1, LAST)
    assert await eventually(lambda: _mark(edge, chat, "ann", "delivered_seq"), 1) == 1
    # Checked on the membership as the first receipt's check found it.
    edge.ticks.receipt_behind(found["ann"], "delivered", 2, LAST)
    assert await eventually(lambda: _mark(edge, chat, "ann", "delivered_seq"), 2) == 2
    assert edge.commands.updates == [1, 1]
    assert edge.commands.reads_by_id == 0
    stored = await edge.db.session_users.find_one({"_id": f"{chat}:ann"})
    assert stored["delivered_mark_seqs"] == [1, 2]


async def test_a_receipt_waited_for_takes_the_receipts_waiting_along(edge, monkeypatch):
    """A page's receipt (`Ticks.receipt`, which the page waits for) was a write of its own
    beside the receipts waiting to be written behind: it goes at once, however long they
    would wait, and takes them along, one command for all."""
    monkeypatch.setattr(ticks_module, "MARKS_WRITE_LINGER_SECONDS", 3600)
    ticks = Ticks(sessions=edge.sessions, emitter=edge.ticks.emitter, access=edge.ticks.access)
    chat, found = await _chat_of(edge, "ann", "bob")
    edge.commands.clear()
    ticks.receipt_behind(found["ann"], "delivered", 1, LAST)
    await asyncio.wait_for(ticks.receipt(found["bob"], "read", 1, LAST), timeout=30)
    assert edge.commands.updates == [2]
    assert await _mark(edge, chat, "ann", "delivered_seq") == 1
    assert await _mark(edge, chat, "bob", "read_seq") == 1


async def test_a_members_receipts_waiting_behind_go_as_one_statement_of_the_furthest(
    edge, monkeypatch
):
    """Receipts written behind came faster than their writes at 1,000 people, and a member
    had several waiting (one per message to a city group): the later takes the earlier's
    place in the queue, one statement for the member's furthest mark; an older receipt
    arriving after it changes nothing."""
    monkeypatch.setattr(ticks_module, "MARKS_WRITE_LINGER_SECONDS", 3600)
    ticks = Ticks(sessions=edge.sessions, emitter=edge.ticks.emitter, access=edge.ticks.access)
    chat, found = await _chat_of(edge, "ann", "bob")
    edge.commands.clear()
    for seq in (1, 3, 2):
        ticks.receipt_behind(found["ann"], "delivered", seq, LAST)
    await asyncio.wait_for(ticks.receipt(found["bob"], "read", 3, LAST), timeout=30)
    assert edge.commands.updates == [2]
    stored = await edge.db.session_users.find_one({"_id": f"{chat}:ann"})
    assert stored["delivered_seq"] == 3 and stored["delivered_mark_seqs"] == [3]
    # Once written, the member's next receipt is a statement of the next batch.
    ticks.receipt_behind(found["ann"], "delivered", 4, LAST)
    await asyncio.wait_for(ticks.receipt(found["bob"], "read", 4, LAST), timeout=30)
    assert edge.commands.updates == [2, 2]
    assert await _mark(edge, chat, "ann", "delivered_seq") == 4


async def test_a_receipt_waited_for_is_answered_once_written_while_its_tick_is_announced(
    edge, monkeypatch
):
    """A page waits for its reader's mark (the chat list after it shows the chat read), not
    for the senders' screens to hear of the tick it moved: at 1,000 people an opening waited
    for the announcements too, up to 380 ms."""
    ticks = Ticks(sessions=edge.sessions, emitter=edge.ticks.emitter, access=edge.ticks.access)
    chat, found = await _chat_of(edge, "ann", "bob")
    announcing, release = asyncio.Event(), asyncio.Event()

    async def announce_slowly(*args, **kwargs) -> None:
        announcing.set()
        await release.wait()

    monkeypatch.setattr(ticks.emitter, "to_viewers_and_user", announce_slowly)
    await asyncio.wait_for(ticks.receipt(found["bob"], "read", 1, LAST), timeout=30)
    assert await _mark(edge, chat, "bob", "read_seq") == 1
    await asyncio.wait_for(announcing.wait(), timeout=30)
    release.set()


async def test_receipt_times_stored_in_the_earlier_shape_are_rewritten_once_at_a_start(
    settings_for,
):
    """Memberships stored when receipt times were lists of {seq, at} still tell the info view
    when their receipts came, once an edge started: rewritten in the shape read now."""
    settings = settings_for(mongo_db=f"agora_test_{uuid.uuid4().hex[:8]}")
    mongo, redis = connect_mongo(settings), connect_redis(settings)
    db, keys = database(mongo, settings), Keys(settings.redis_prefix)
    sessions = SessionStore(db, session_copies(redis, keys), MarksCopies(redis, keys))
    earlier = {
        "_id": "chat:bob",
        "session_id": "chat",
        "user_id": "bob",
        "session_user_type": USER_TYPE_MEMBER,
        "read_seq": 2,
        "delivered_seq": 3,
        "read_marks": [{"seq": 1, "at": 10}, {"seq": 2, "at": 20}],
        "delivered_marks": [{"seq": 3, "at": 15}],
    }
    try:
        await db.session_users.insert_one(earlier)
        await ensure_indexes(db, [sessions])
        stored = await db.session_users.find_one({"_id": "chat:bob"}, {"_id": 0})
        assert stored == {
            "session_id": "chat",
            "user_id": "bob",
            "session_user_type": USER_TYPE_MEMBER,
            "read_seq": 2,
            "delivered_seq": 3,
            "read_mark_seqs": [1, 2],
            "read_mark_ats": [10, 20],
            "delivered_mark_seqs": [3],
            "delivered_mark_ats": [15],
        }
        message = {"seq": 2, "src_id": "ann"}
        assert delivery(message, [stored]).read == (("bob", 20),)
        # Done once: a later start reads nothing of the memberships again.
        await db.session_users.insert_one({**earlier, "_id": "chat:cat", "user_id": "cat"})
        await ensure_indexes(db, [sessions])
        assert "read_marks" in await db.session_users.find_one({"_id": "chat:cat"})
    finally:
        await mongo.drop_database(settings.mongo_db)
        await redis.aclose()
        await mongo.close()
