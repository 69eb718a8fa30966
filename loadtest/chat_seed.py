"""People and memberships for the chat scenarios, written straight into MongoDB.

A thousand logins through the API would take minutes (two calls and a mail each), so one
person logs in for real and the rest are inserted in the shape that login stored for them,
with an auth key hashed as the login hashes it. Memberships copy the shape of the one the
API made when that person created a group, item chats the one a first message made. All are
checked, so they cannot drift apart.
"""

import secrets
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol

from pymongo import MongoClient

from agora.core.chat.constants import NOTIFICATION_UNMUTED, USER_TYPE_MEMBER
from agora.core.chat.counts import SENT_SEQ
from agora.core.chat.item_chats import item_chat_members, item_chat_session
from agora.core.clock import now_ms
from agora.core.routes import SHARED_ROUTES
from agora.core.signing import hash_secret
from agora.store.groups import NEW_SESSION_COUNTERS
from agora.store.mongo import new_id
from agora.store.session_copies import membership_id
from loadtest.feed import SeedError, check_shape
from loadtest.stack import Stack

INSERT_BATCH = 1_000
SEED_THREADS = 8
# Fields a chat gains from its messages (the chat's message number, how far each sender
# read), absent while it has none.
MESSAGE_COUNTS = ("message_seq", SENT_SEQ)


class Target(Protocol):
    """A deployment the seeder writes to: its API, and its store straight (a Stack or
    loadtest.people_seed.Deployment)."""

    base_url: str
    mongo_db: str

    def call(self, path: str, body: dict[str, Any], key: str | None = None) -> dict[str, Any]: ...

    def login(self, email: str, name: str) -> tuple[dict[str, Any], str]: ...

    def mongo(self) -> MongoClient: ...


@dataclass(frozen=True)
class Person:
    user_id: str
    auth_key: str


def _user(name: str, email: str, at: int) -> dict[str, Any]:
    return {
        "_id": new_id(),
        "name": name,
        "image": "",
        "email_id": email,
        "data": {"notifications_unseen_count": 0},
        "created_at": at,
        SHARED_ROUTES: 0,
    }


def _membership(session_id: str, user_id: str, user_type: int, at: int) -> dict[str, Any]:
    return {
        "_id": membership_id(session_id, user_id),
        "session_id": session_id,
        "user_id": user_id,
        "session_user_type": user_type,
        "notification_flag": NOTIFICATION_UNMUTED,
        # Where a member joining through the API starts reading: a new group has no messages.
        "read_seq": 0,
        "is_dummy": False,
        "created_at": at,
        "updated_at": at,
    }


def _without(doc: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k not in fields}


def _insert(collection, docs: list[dict[str, Any]]) -> None:
    for start in range(0, len(docs), INSERT_BATCH):
        collection.insert_many(docs[start : start + INSERT_BATCH], ordered=False)


class Seeder:
    """Holds the one real login; everyone else is checked against what it stored."""

    def __init__(self, stack: Target, tag: str) -> None:
        self.stack = stack
        self.tag = tag
        user, key = stack.login(f"{tag}-owner@bench.agora.local", f"{tag} owner")
        self.owner = Person(user["_id"], key)

    def group(self, title: str, creator: Person | None = None, public: bool = True) -> str:
        body = {"title": title, "tags": ["Chat"], "is_public": public}
        reply = self.stack.call("/api/group?action=create", body, (creator or self.owner).auth_key)
        return reply["group"]["_id"]

    def people(self, count: int) -> list[Person]:
        at = now_ms()
        made = [
            _user(f"{self.tag} {n}", f"{self.tag}-{n}@bench.agora.local", at) for n in range(count)
        ]
        keys = [secrets.token_urlsafe(32) for _ in made]
        with self.stack.mongo() as client:
            db = client[self.stack.mongo_db]
            stored = db.users.find_one({"_id": self.owner.user_id})
            stored_key = db.auth_keys.find_one({"user_id": self.owner.user_id})
            if stored is None or stored_key is None:
                raise SeedError("the user who logged in through the API is not in MongoDB")
            check_shape(stored, made[0], "users")
            key_docs = [
                {"_id": hash_secret(key), "user_id": user["_id"], "created_at": at}
                for user, key in zip(made, keys, strict=True)
            ]
            check_shape(stored_key, key_docs[0], "auth keys")
            _insert(db.users, made)
            _insert(db.auth_keys, key_docs)
        return [Person(u["_id"], k) for u, k in zip(made, keys, strict=True)]

    def join(self, group_id: str, people: list[Person], user_type: int = USER_TYPE_MEMBER) -> None:
        at = now_ms()
        docs = [_membership(group_id, p.user_id, user_type, at) for p in people]
        with self.stack.mongo() as client:
            db = client[self.stack.mongo_db]
            reference = db.session_users.find_one({"user_id": self.owner.user_id})
            if reference is None:
                raise SeedError("the API made no membership for the group's creator")
            check_shape(reference, docs[0], "memberships")
            _insert(db.session_users, docs)
            db.sessions.update_one({"_id": group_id}, {"$inc": {"data.num_members": len(docs)}})

    def item_chats(self, reference_id: str, pairs: list[tuple[dict[str, Any], str]]) -> None:
        """Item chats for (post, asker) pairs, as the asker's first message stores them.

        Checked against `reference_id`, a chat that such a first message made through the API.
        """
        at = now_ms()
        chats = [
            {**item_chat_session(item, asker, item["route_id"], at), **NEW_SESSION_COUNTERS}
            for item, asker in pairs
        ]
        members = [
            _membership(chat["_id"], user_id, user_type, at)
            for (item, asker), chat in zip(pairs, chats, strict=True)
            for user_id, user_type in item_chat_members(item, asker).items()
        ]
        with self.stack.mongo() as client:
            db = client[self.stack.mongo_db]
            _check_item_chat(db, reference_id, chats[0], members[:2])
            _insert(db.sessions, chats)
            _insert(db.session_users, members)


def _check_item_chat(db, reference_id: str, chat: dict[str, Any], members: list[dict]) -> None:
    stored = db.sessions.find_one({"_id": reference_id})
    if stored is None:
        raise SeedError("the first message through the API made no item chat")
    # The reference holds its first message, the seeded chats none: counts of messages differ.
    check_shape(_without(stored, MESSAGE_COUNTS), chat, "item chats")
    # The poster and the asker, matched by rank: a first message treats them apart.
    by_type = {
        m["session_user_type"]: m for m in db.session_users.find({"session_id": reference_id})
    }
    for seeded in members:
        reference = by_type.get(seeded["session_user_type"])
        if reference is None:
            raise SeedError("the first message through the API made no such member")
        check_shape(reference, seeded, "item chat members")


def item_chats_through_api(
    stack: Stack, seeder: Seeder, owners: list[Person], askers: list[Person]
):
    """Item chats made as the product makes them: a post each, and the asker's first
    message through the API; returns their ids."""
    market = seeder.group(f"{seeder.tag} market")

    def chat(pair: tuple[Person, Person]) -> str:
        owner, asker = pair
        item = stack.call(
            "/api/item?action=create",
            {"group_id": market, "title": "Bike for a chat", "tags": ["Chat"]},
            owner.auth_key,
        )["item"]
        session_id = f"r_{item['_id']}_{asker.user_id}"
        first = {"dest_session_id": session_id, "payload": "Still there?", "local_id": "first"}
        reply = stack.call("/session/send", first, asker.auth_key)
        if not reply.get("new_session_created"):
            raise RuntimeError(f"the first message made no chat: {reply}")
        return session_id

    with ThreadPoolExecutor(SEED_THREADS) as pool:
        return list(pool.map(chat, zip(owners, askers, strict=True)))
