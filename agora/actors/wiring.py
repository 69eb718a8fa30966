"""Store factories of the composition root, for processes it does not build itself.

A shard (a Ray actor, another process: chat sessions, users) cannot be handed live
connections: the edge's composition root (`agora/app.py`) hands it this picklable factory
instead, and the shard builds its stores with it the way the edge builds its own. A chat
shard also gets the edge's message kinds (`core.message_kinds`), which pickle as they are.
"""

from dataclasses import dataclass

from pymongo import AsyncMongoClient
from pymongo.asynchronous.database import AsyncDatabase

from agora.core.message_kinds import ChatKinds
from agora.realtime.emitter import RealtimeEmitter
from agora.settings import Settings
from agora.store.marks_copies import MarksCopies
from agora.store.messages import MessageStore
from agora.store.mongo import connect_mongo, database
from agora.store.push_subscriptions import PushSubscriptionStore
from agora.store.redis import Keys, connect_redis
from agora.store.session_copies import session_copies
from agora.store.sessions import SessionStore
from agora.store.shard_maps import ShardMapStore
from agora.store.vapid_keys import VapidKeyStore


@dataclass(frozen=True)
class ChatShardStores:
    mongo: AsyncMongoClient
    sessions: SessionStore
    messages: MessageStore
    # Write-only: a shard announces messages to the sessions' rooms on every edge.
    emitter: RealtimeEmitter
    # Who may post which kind, and how a message is viewed.
    kinds: ChatKinds
    # The pool's map: which sessions the shard owns.
    shard_maps: ShardMapStore


@dataclass(frozen=True)
class UserShardStores:
    mongo: AsyncMongoClient
    sessions: SessionStore
    subscriptions: PushSubscriptionStore
    vapid: VapidKeyStore


@dataclass(frozen=True)
class StoreFactory:
    settings: Settings
    chat_kinds: ChatKinds

    def chat_shard_stores(self) -> ChatShardStores:
        mongo = connect_mongo(self.settings)
        db = database(mongo, self.settings)
        return ChatShardStores(
            mongo,
            self.sessions(db),
            MessageStore(db),
            RealtimeEmitter(self.settings),
            self.chat_kinds,
            self.shard_maps(db),
        )

    def sessions(self, db: AsyncDatabase) -> SessionStore:
        """The chat store as the edge builds it. A shard hears no announcements, so it reads
        every membership from MongoDB; its copies' Redis connects only if it ever writes one
        (a reader's mark moved gives the chat's marks a new version there)."""
        redis, keys = connect_redis(self.settings), Keys(self.settings.redis_prefix)
        return SessionStore(db, session_copies(redis, keys), MarksCopies(redis, keys))

    def shard_maps(self, db: AsyncDatabase) -> ShardMapStore:
        """The deployment's shard maps (named by its Redis prefix, as its Ray namespace)."""
        return ShardMapStore(db, self.settings.redis_prefix)

    def user_shard_stores(self) -> UserShardStores:
        mongo = connect_mongo(self.settings)
        db = database(mongo, self.settings)
        return UserShardStores(
            mongo, self.sessions(db), PushSubscriptionStore(db), VapidKeyStore(db)
        )
