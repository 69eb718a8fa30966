"""A session shard's load of a chat, its sends' writes and its records of how far each chat's
messages were announced, in process with the real stores (nx-27017, Redis), the store's
commands watched."""

import asyncio
import uuid
from collections.abc import Callable

from pymongo import AsyncMongoClient, monitoring

from agora.actors.protocol import NoSuchChat, Page, ReadPage, Stored, StoreMessage
from agora.actors.sessions import SessionShardLogic
from agora.actors.wiring import ChatShardStores, StoreFactory
from agora.composition.base import chat_kinds
from agora.core.chat.constants import USER_TYPE_MEMBER
from agora.realtime.emitter import RealtimeEmitter
from agora.settings import Settings
from agora.store.messages import MessageStore
from agora.store.mongo import database, ensure_indexes

CHATS = 3
TEXT_MESSAGE = 1003


class StartedCommands(monitoring.CommandListener):
    """A listener of the commands started; how they ended does not matter here."""

    def succeeded(self, event) -> None:
        pass

    def failed(self, event) -> None:
        pass


class AnnouncementRecords(StartedCommands):
    """Per update command on `sessions`: how many of its updates record announcements alone."""

    def __init__(self) -> None:
        self.commands: list[int] = []

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        if event.command_name == "update" and event.command.get("update") == "sessions":
            records = [
                u
                for u in event.command["updates"]
                if set(u["u"].get("$max", {})) == {"announced_seq"}
            ]
            if records:
                self.commands.append(len(records))


async def _shard_stores(settings: Settings, mongo: AsyncMongoClient) -> ChatShardStores:
    """A shard's stores as it builds them, on `mongo` (whose commands the test watches), with
    their collections made as each edge's start makes them (a shard starts after)."""
    factory = StoreFactory(settings=settings, chat_kinds=chat_kinds())
    db = database(mongo, settings)
    stores = ChatShardStores(
        mongo,
        factory.sessions(db),
        MessageStore(db),
        RealtimeEmitter(settings),
        factory.chat_kinds,
        factory.shard_maps(db),
    )
    await ensure_indexes(db, [stores.sessions, stores.messages])
    return stores


class Reads(StartedCommands):
    """The store's reads, each as (command, collection)."""

    def __init__(self) -> None:
        self.commands: list[tuple[str, str]] = []

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        if event.command_name in ("find", "aggregate", "getMore"):
            self.commands.append((event.command_name, event.command[event.command_name]))


async def test_a_chats_load_reads_the_chat_its_newest_messages_and_members_in_one_command(
    settings_for, mongo_url
):
    """A chat's first send since its shard started loads the chat, its newest messages and
    its members' types: one store command for the three, which took one each."""
    settings = settings_for()
    reads = Reads()
    mongo = AsyncMongoClient(mongo_url, event_listeners=[reads])
    stores, db = await _shard_stores(settings, mongo), database(mongo, settings)
    chat_id = f"chat-{uuid.uuid4().hex[:8]}"
    members = {"ann": USER_TYPE_MEMBER, "bob": USER_TYPE_MEMBER}
    try:
        await stores.sessions.create_once(
            {"_id": chat_id, "write_permission": USER_TYPE_MEMBER}, members
        )
        # Stored, counted and announced by a shard before this one started.
        before = _stored(chat_id, "before", ["ann", "ann", "ann"])
        await db.messages.insert_many(before)
        await db.sessions.update_one(
            {"_id": chat_id}, {"$set": {"message_seq": 3, "announced_seq": 3}}
        )
        shard = SessionShardLogic(stores, owns=lambda _: True)
        reads.commands.clear()
        [stored, stranger] = await shard.send_batch(
            [
                StoreMessage(chat_id, "bob", uuid.uuid4().hex, TEXT_MESSAGE, "after"),
                StoreMessage(chat_id, "cat", uuid.uuid4().hex, TEXT_MESSAGE, "not a member"),
            ]
        )
        assert reads.commands == [("aggregate", "sessions")]
        # The members as loaded: told of the message, and a stranger is not one.
        assert isinstance(stored, Stored) and sorted(stored.members) == ["ann", "bob"]
        assert isinstance(stranger, NoSuchChat)
        page = shard.read_page(ReadPage(chat_id, None, 10))
        assert isinstance(page, Page)
        assert [(m["seq"], m["payload"]) for m in page.messages] == [
            (1, "before 1"),
            (2, "before 2"),
            (3, "before 3"),
            (4, "after"),
        ]
    finally:
        await db.sessions.delete_many({"_id": chat_id})
        await db.session_users.delete_many({"session_id": chat_id})
        await db.messages.delete_many({"dest_session_id": chat_id})
        await mongo.close()


async def test_chats_announced_apart_are_recorded_in_one_command(settings_for, mongo_url):
    """Chats whose sends came a moment apart, with no send after them, have their
    announcements recorded together by the shard's next record: one command for them all
    (each paid one of its own, a second write per message of a quiet chat)."""
    settings = settings_for()
    records = AnnouncementRecords()
    mongo = AsyncMongoClient(mongo_url, event_listeners=[records])
    stores, db = await _shard_stores(settings, mongo), database(mongo, settings)
    shard = SessionShardLogic(stores, owns=lambda _: True)
    chats = [f"chat-{uuid.uuid4().hex[:8]}" for _ in range(CHATS)]
    try:
        for chat_id in chats:
            await stores.sessions.create_once(
                {"_id": chat_id, "write_permission": USER_TYPE_MEMBER}, {"ann": USER_TYPE_MEMBER}
            )
        for chat_id in chats:
            [outcome] = await shard.send_batch(
                [StoreMessage(chat_id, "ann", uuid.uuid4().hex, TEXT_MESSAGE, "hello")]
            )
            assert isinstance(outcome, Stored)
            await asyncio.sleep(0.2)  # the next chat's send comes a moment later

        for _ in range(100):
            stored = await db.sessions.find({"_id": {"$in": chats}}).to_list()
            if all(s.get("announced_seq") == s["message_seq"] for s in stored):
                break
            await asyncio.sleep(0.05)
        assert [(s["message_seq"], s.get("announced_seq")) for s in stored] == [(1, 1)] * CHATS
        assert records.commands == [CHATS]
    finally:
        await db.sessions.delete_many({"_id": {"$in": chats}})
        await db.session_users.delete_many({"session_id": {"$in": chats}})
        await db.messages.delete_many({"dest_session_id": {"$in": chats}})
        await mongo.close()


class SendWrites(StartedCommands):
    """A send's writes, each as (command, collection, statements), leaving out the records of
    announcements alone; `on_start` hears each as it starts (while it is in flight)."""

    def __init__(self) -> None:
        self.commands: list[tuple[str, str, int]] = []
        self.on_start: Callable[[str], None] = lambda _: None

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        name, command = event.command_name, event.command
        if name == "insert" and command["insert"] == "messages":
            self.commands.append(("insert", "messages", len(command["documents"])))
        elif name == "update" and command["update"] == "sessions":
            counts = [u for u in command["updates"] if "message_seq" in u["u"].get("$max", {})]
            if not counts:
                return
            self.commands.append(("update", "sessions", len(counts)))
        else:
            return
        self.on_start(self.commands[-1][1])


async def test_sends_of_chats_arriving_during_a_sends_writes_share_the_next_ones(
    settings_for, mongo_url
):
    """A burst across chats: the second chat's send comes while the first's message is being
    stored, the third's while the first's count is being written. Both wait for the first's
    writes and go together, a message each in one insert and both counts in one update:
    four commands for three sends (the second's insert went while the first's count was being
    written, and the third's apart again: six)."""
    settings = settings_for()
    writes = SendWrites()
    mongo = AsyncMongoClient(mongo_url, event_listeners=[writes])
    stores, db = await _shard_stores(settings, mongo), database(mongo, settings)
    shard = SessionShardLogic(stores, owns=lambda _: True)
    chats = [f"chat-{uuid.uuid4().hex[:8]}" for _ in range(CHATS)]

    def send(chat_id: str) -> asyncio.Future:
        message = StoreMessage(chat_id, "ann", uuid.uuid4().hex, TEXT_MESSAGE, "hello")
        return asyncio.ensure_future(shard.send_batch([message]))

    try:
        for chat_id in chats:
            await stores.sessions.create_once(
                {"_id": chat_id, "write_permission": USER_TYPE_MEMBER}, {"ann": USER_TYPE_MEMBER}
            )
            await send(chat_id)  # loaded, so the burst's sends read nothing
        writes.commands.clear()
        # The first chat's insert started, the second chat sends; its count, the third.
        cues = dict(zip(["messages", "sessions"], chats[1:], strict=True))
        sent: list[asyncio.Future] = []

        def next_send(collection: str) -> None:
            if (chat_id := cues.pop(collection, None)) is not None:
                sent.append(send(chat_id))

        writes.on_start = next_send
        first = await send(chats[0])
        outcomes = [first, *await asyncio.gather(*sent)]
        writes.on_start = lambda _: None

        assert all(isinstance(o, Stored) for [o] in outcomes)
        assert writes.commands == [
            ("insert", "messages", 1),
            ("update", "sessions", 1),
            ("insert", "messages", 2),
            ("update", "sessions", 2),
        ]
        stored = await db.sessions.find({"_id": {"$in": chats}}).to_list()
        assert sorted(s["message_seq"] for s in stored) == [2] * CHATS
    finally:
        await db.sessions.delete_many({"_id": {"$in": chats}})
        await db.session_users.delete_many({"session_id": {"$in": chats}})
        await db.messages.delete_many({"dest_session_id": {"$in": chats}})
        await mongo.close()


async def test_messages_a_shard_stored_and_died_before_counting_are_counted_on_load(
    settings_for, mongo_url
):
    """A shard stored two messages and died before their count: the next shard to load the
    chat (for a resend of the second, answered as stored before) counts them, each sender's
    mark with them. The resend was acknowledged and the chat's count stayed behind until
    its next new message, with the first sender's mark never written."""
    settings = settings_for()
    mongo = AsyncMongoClient(mongo_url)
    stores, db = await _shard_stores(settings, mongo), database(mongo, settings)
    chat_id = f"chat-{uuid.uuid4().hex[:8]}"
    members = {"ann": USER_TYPE_MEMBER, "bob": USER_TYPE_MEMBER}
    try:
        await stores.sessions.create_once(
            {"_id": chat_id, "write_permission": USER_TYPE_MEMBER}, members
        )
        stored = _stored(chat_id, "uncounted", ["ann", "bob"])
        await db.messages.insert_many(stored)
        shard = SessionShardLogic(stores, owns=lambda _: True)

        [again] = await shard.send_batch(
            [StoreMessage(chat_id, "bob", "uncounted-2", TEXT_MESSAGE, "uncounted 2")]
        )

        assert isinstance(again, Stored) and not again.stored_now
        chat = await db.sessions.find_one({"_id": chat_id})
        assert (chat["message_seq"], chat["updated_at"]) == (2, 1002)
        assert chat["sent_seq"] == {"ann": 1, "bob": 2}
    finally:
        await db.sessions.delete_many({"_id": chat_id})
        await db.session_users.delete_many({"session_id": chat_id})
        await db.messages.delete_many({"dest_session_id": chat_id})
        await mongo.close()


def _stored(chat_id: str, label: str, senders: list[str]) -> list[dict]:
    """Messages as a shard before this one stored them, numbered from 1, one per sender."""
    return [
        {
            "_id": f"{chat_id}-{n}",
            "dest_session_id": chat_id,
            "src_id": sender,
            "local_id": f"{label}-{n}",
            "created_at": 1000 + n,
            "seq": n,
            "type": TEXT_MESSAGE,
            "payload": f"{label} {n}",
        }
        for n, sender in enumerate(senders, 1)
    ]
