"""The people of docs/load-model.md, seeded into a deployment for loadtest/people.py.

    python -m loadtest.people_seed --host http://127.0.0.1:8080 --people 1000 \\
        [--mongo-url mongodb://127.0.0.1:27017/?directConnection=true] [--mongo-db agora] \\
        [--out var/loadtest-people.json]

As the other seeders do (loadtest/chat_seed.py): one person logs in through the product's
own two-step login (the code is asked for on the terminal; `make run` prints it in its
console), creates the city groups and is the reference for everyone else, who is written
straight into the store in the shape that login stored, with auth keys hashed as the login
hashes them. Every tenth person posts one item through the API in their city group; one
asker's first message makes an item chat through the API, and the other item chats are
written in its shape. The file written lists each person's key, city and chats.
"""

import argparse
import json
import math
import os
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pymongo import MongoClient

from agora.settings import REPO_ROOT
from loadtest.chat_seed import SEED_THREADS, Person, Seeder, Target
from loadtest.feed_words import ADJECTIVES, DISTRICTS, NOUNS
from loadtest.people_model import Model, model_from_env
from loadtest.stack import api_call, api_get

DEFAULT_OUT = REPO_ROOT / "var" / "loadtest-people.json"
SELLER_EVERY = 10  # one person in ten has an item on sale
CITY_TAG = "Chat"  # the tag Seeder.group gives a city group; a post carries its group's tags


@dataclass(frozen=True)
class Seeded:
    """One person as loadtest/people.py plays them."""

    user_id: str
    auth_key: str
    city_id: str
    item_chats: list[str]
    away: bool


@dataclass
class Deployment:
    """Any running deployment whose API and store this machine reaches."""

    base_url: str
    mongo_url: str
    mongo_db: str
    code_for: Callable[[str], str]  # the login code sent to an e-mail address

    def call(self, path: str, body: dict[str, Any], key: str | None = None) -> dict[str, Any]:
        return api_call(self.base_url, path, body, key)

    def login(self, email: str, name: str) -> tuple[dict[str, Any], str]:
        self.call("/api/user/login", {"email_id": email})
        code = self.code_for(email)
        reply = self.call("/api/user/login", {"email_id": email, "name": name, "otp": code})
        return reply["user"], reply["allspark_auth_key"]

    def mongo(self) -> MongoClient:
        return MongoClient(self.mongo_url, tz_aware=True)


def _title(rng: random.Random) -> str:
    return f"{rng.choice(ADJECTIVES)} {rng.choice(NOUNS)} in {rng.choice(DISTRICTS)}".capitalize()


def _post(target: Target, seller: Person, city: str, title: str) -> str:
    body = {"group_id": city, "title": title, "tags": [CITY_TAG]}
    return target.call("/api/item?action=create", body, seller.auth_key)["item"]["_id"]


def _first_message(target: Target, item_id: str, asker: Person) -> str:
    """An item chat made as the product makes it: the asker's first message."""
    session_id = f"r_{item_id}_{asker.user_id}"
    body = {"dest_session_id": session_id, "payload": "Still there?", "local_id": "first"}
    if not target.call("/session/send", body, asker.auth_key).get("new_session_created"):
        raise RuntimeError("the first message through the API made no item chat")
    return session_id


def _open_app(target: Target, person: Person) -> None:
    """What the app asks first whenever it opens (`GET /user/me`), here before any step as a
    present person's tab opened earlier in the evening: it gives the points a member's login
    and their first visit of the day give (seeded people never logged in through the product),
    so that a step's profile opens are a returning member's, not a first one's."""
    api_get(target.base_url, "/user/me", person.auth_key)


def seed(target: Target, model: Model, count: int, tag: str) -> list[Seeded]:
    rng = random.Random(tag)
    seeder = Seeder(target, tag)
    cities = [seeder.group(f"{tag} city {n}") for n in range(math.ceil(count / model.city_members))]
    people = seeder.people(count)
    city_of = [cities[n // model.city_members] for n in range(count)]
    for n, city in enumerate(cities):
        seeder.join(city, people[n * model.city_members : (n + 1) * model.city_members])
    sellers = list(range(0, count, SELLER_EVERY))
    with ThreadPoolExecutor(SEED_THREADS) as pool:
        item_ids = list(
            pool.map(lambda n: _post(target, people[n], city_of[n], _title(rng)), sellers)
        )
    with target.mongo() as client:
        found = client[target.mongo_db].items.find({"_id": {"$in": item_ids}})
        items = {item["_id"]: item for item in found}
    seller_of = {item_id: n for n, item_id in zip(sellers, item_ids, strict=True)}
    chats: list[list[str]] = [[] for _ in range(count)]
    pairs = []
    for n in range(count):
        # Items on sale in the person's city, not their own.
        offered = [i for i, s in seller_of.items() if city_of[s] == city_of[n] and s != n]
        for item_id in rng.sample(offered, min(model.item_chats, len(offered))):
            pairs.append((items[item_id], people[n]))
            chat = f"r_{item_id}_{people[n].user_id}"
            chats[n].append(chat)
            chats[seller_of[item_id]].append(chat)
    if pairs:
        (item, asker), *rest = pairs
        reference = _first_message(target, item["_id"], asker)
        if rest:
            seeder.item_chats(reference, [(i, a.user_id) for i, a in rest])
    away = set(rng.sample(range(count), round(count * model.away_share)))
    with ThreadPoolExecutor(SEED_THREADS) as pool:
        list(
            pool.map(
                lambda p: _open_app(target, p), (p for n, p in enumerate(people) if n not in away)
            )
        )
    return [
        Seeded(p.user_id, p.auth_key, city_of[n], chats[n], n in away) for n, p in enumerate(people)
    ]


def write(people: list[Seeded], out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps([asdict(p) for p in people]))


def read(path: Path) -> list[Seeded]:
    return [Seeded(**p) for p in json.loads(path.read_text())]


def _ask_code(email: str) -> str:
    return input(f"the login code sent to {email} (make run prints it in its console): ").strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m loadtest.people_seed", description=__doc__)
    parser.add_argument("--host", required=True, help="the deployment's URL")
    parser.add_argument("--people", type=int, required=True)
    parser.add_argument("--mongo-url", default="mongodb://127.0.0.1:27017/?directConnection=true")
    parser.add_argument("--mongo-db", default="agora")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    started = time.monotonic()
    target = Deployment(args.host.rstrip("/"), args.mongo_url, args.mongo_db, _ask_code)
    model = model_from_env(dict(os.environ))
    people = seed(target, model, args.people, f"people{int(time.time())}")
    write(people, args.out)
    print(f"seeded {len(people)} people in {time.monotonic() - started:.0f} s: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
