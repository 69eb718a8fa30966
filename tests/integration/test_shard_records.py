"""A session shard's records of how far each chat's messages were announced, in process with
the real stores (nx-27017, Redis), the store's commands watched."""

import asyncio
import uuid

from pymongo import AsyncMongoClient, monitoring

from agora.actors.protocol import Stored, StoreMessage
from agora.actors.sessions import SessionShardLogic
from agora.actors.wiring import ChatShardStores, StoreFactory
from agora.composition.base import chat_kinds
from agora.core.chat.constants import USER_TYPE_MEMBER
from agora.realtime.emitter import RealtimeEmitter
from agora.store.messages import MessageStore
from agora.store.mongo import database

CHATS = 3
TEXT_MESSAGE = 1003


class AnnouncementRecords(monitoring.CommandListener):
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

    def succeeded(self, event) -> None:
        pass

    def failed(self, event) -> None:
        pass


async def test_chats_announced_apart_are_recorded_in_one_command(settings_for, mongo_url):
    """Chats whose sends came a moment apart, with no send after them, have their
    announcements recorded together by the shard's next record: one command for them all
    (each paid one of its own, a second write per message of a quiet chat)."""
    settings = settings_for()
    records = AnnouncementRecords()
    mongo = AsyncMongoClient(mongo_url, event_listeners=[records])
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
