"""The ledger under held rewards (issue 32), as a property: random sequences of posts, edits,
offers (several at once, through two edges' services), closes, deletes and expiries over
many wallets, with the sums checked after every step.

The services are the real ones (`app.build_services`: stores on the MongoDB-wire server and
Redis, the chat's shards on the shared Ray); each example has people, posts and chats of its
own. After each step: every wallet's chain adds up and holds nothing below zero, what the
posts hold is what the wallets hold (`WalletService.audit`), each person's money (available
and held) is what came in plus what offers brought less what they paid, the money of all
adds up to what came in, posts show what the ledger holds for them, and nothing is held for
a post that is closed.
"""

import asyncio
import uuid
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agora.app import build_services
from agora.core.accounts import EMAIL_FIELD, Identifier
from agora.core.chat.item_chats import item_chat_members, item_chat_session
from agora.core.clock import now_ms
from agora.core.errors import Conflict, InvalidInput, NotFound, PaymentRequired
from agora.core.items import item_view
from agora.core.money import to_cents, wallet_id
from agora.services.accounts import Caller
from agora.services.groups import GroupChanges
from agora.services.items import ItemInput
from agora.store.marks_copies import MarksCopies
from agora.store.mongo import connect_mongo, database, ensure_indexes
from agora.store.redis import Keys, connect_redis
from agora.store.session_copies import session_copies
from agora.store.sessions import SessionStore

pytestmark = pytest.mark.usefixtures("ray_cluster")

PEOPLE = 4
CURRENCIES = ("POINTS", "EUR")
EUROS_EACH = 40
# The refusals an operation may meet: money short, a post closed, or deleted, or (an edit)
# overtaken by a later edit of the same post.
EXPECTED_REFUSALS = (PaymentRequired, InvalidInput, NotFound, Conflict)

amount = st.one_of(st.none(), st.integers(1, 60))
percent = st.sampled_from((0, 10, 25, 50))
post_op = st.tuples(
    st.just("post"), st.integers(0, PEOPLE - 1), amount, st.sampled_from(CURRENCIES), percent
)
edit_op = st.tuples(
    st.just("edit"), st.integers(0, 20), amount, st.sampled_from(CURRENCIES), percent
)
offer_op = st.tuples(
    st.just("offer"),
    st.integers(0, 20),
    st.integers(1, PEOPLE - 1),
    st.one_of(st.none(), st.integers(1, 40)),
)
end_op = st.tuples(st.sampled_from(("close", "delete", "expire")), st.integers(0, 20))
# One step: one to three operations at once, spread over the two edges.
step = st.lists(
    st.one_of(post_op, post_op, edit_op, offer_op, offer_op, offer_op, end_op),
    min_size=1,
    max_size=3,
)


@dataclass
class Market:
    """The example's people, group and posts, and what the test expects of each wallet."""

    edges: list[Any]
    sessions: SessionStore
    people: list[dict[str, Any]] = field(default_factory=list)
    group_id: str = ""
    posts: list[dict[str, Any]] = field(default_factory=list)
    expected: dict[str, int] = field(default_factory=dict)  # wallet id -> cents (held too)

    def caller(self, n: int) -> Caller:
        return Caller(user=self.people[n], key_hash="")

    def wallet_ids(self) -> list[str]:
        return [wallet_id(p["_id"], c) for p in self.people for c in CURRENCIES]


@pytest.fixture
async def edges(settings_for, chat_prefix):
    """Two edges' worth of services over one database (each its own wallet heads and turns)."""
    config = settings_for(session_shards=2, redis_prefix=chat_prefix)
    built, clients = [], []
    for _ in range(2):
        mongo, redis = connect_mongo(config), connect_redis(config)
        clients.append((mongo, redis))
        built.append(build_services(config, database(mongo, config), redis))
    db = database(clients[0][0], config)
    await ensure_indexes(db, built[0].indexed)
    redis, keys = clients[0][1], Keys(config.redis_prefix)
    sessions = SessionStore(db, session_copies(redis, keys), MarksCopies(redis, keys))
    yield built, sessions
    for mongo, redis in clients:
        await mongo.close()
        await redis.aclose()


async def _market(built, sessions) -> Market:
    market = Market([b.services for b in built], sessions)
    services = market.edges[0]
    for n in range(PEOPLE):
        ident = Identifier(EMAIL_FIELD, f"ledger-{uuid.uuid4().hex[:10]}@example.org")
        person = await built[0].users.create(ident, f"Person {n}")
        market.people.append(person)
        await services.wallets.grant_points(person["_id"])
        await services.wallets.credit_external(
            key=f"test-euros:{person['_id']}",
            user_id=person["_id"],
            currency="EUR",
            amount_cents=EUROS_EACH * 100,
            ref_type="recharge",
            ref_id=person["_id"],
            title="Recharge",
        )
        for currency in CURRENCIES:
            wid = wallet_id(person["_id"], currency)
            market.expected[wid] = (await services.wallets.store.get(wid))["balance"]
    created = await services.groups.create(
        market.caller(0), f"Ledger {uuid.uuid4().hex[:6]}", "", GroupChanges(is_public=True)
    )
    market.group_id = created["group"]["_id"]
    return market


def _reward(amount: int | None, currency: str, percent: int) -> dict[str, Any]:
    if amount is None:
        return {"offer_description": "A cake", "finder_fee_percent": percent}
    return {"offer_amount": amount, "offer_currency": currency, "finder_fee_percent": percent}


async def _run(market: Market, op: tuple, edge: Any) -> None:
    kind = op[0]
    if kind == "post":
        _, poster, amount, currency, percent = op
        data = ItemInput(title=f"Post {len(market.posts)}", **_reward(amount, currency, percent))
        item = (await edge.items.create(market.caller(poster), market.group_id, data))["item"]
        market.posts.append({"item": item, "poster": poster})
        return
    if not market.posts:
        return
    post = market.posts[op[1] % len(market.posts)]
    item_id, poster = post["item"]["_id"], post["poster"]
    if kind == "edit":
        _, _, amount, currency, percent = op
        data = ItemInput(title=post["item"]["title"], **_reward(amount, currency, percent))
        await edge.items.update(market.caller(poster), item_id, data)
    elif kind == "offer":
        await _offer(market, post, (poster + op[2]) % PEOPLE, op[3], edge)
    elif kind == "close":
        await edge.items.close(market.caller(poster), item_id)
    elif kind == "delete":
        await edge.items.delete(market.caller(poster), item_id)
    else:
        await edge.items.items.items.update_one({"_id": item_id}, {"$set": {"expires_at": 0}})
        await edge.items.expire_due()


async def _offer(market: Market, post: dict, asker: int, amount: int | None, edge: Any) -> None:
    """The asker's chat about the post (as their first message makes it), then the offer."""
    item = post["item"]
    asker_id = market.people[asker]["_id"]
    chat = item_chat_session(item, asker_id, None, now_ms())
    await market.sessions.create_once(chat, item_chat_members(item, asker_id))
    given = await edge.offers.give(
        market.caller(post["poster"]), chat["_id"], amount, uuid.uuid4().hex
    )
    # No route: no finder's fees. What left the poster's wallet is what the asker got.
    paid = to_cents_of(given["paid_from_held"]) + to_cents_of(given["paid_from_available"])
    currency = given["last_offer"]["currency"]
    assert paid == to_cents_of(given["last_offer"]["amount"])
    market.expected[wallet_id(market.people[post["poster"]]["_id"], currency)] -= paid
    market.expected[wallet_id(asker_id, currency)] += paid


def to_cents_of(number: int | float) -> int:
    return to_cents(Decimal(str(number)))


async def _check(market: Market) -> None:
    wallets = market.edges[0].wallets
    ids = market.wallet_ids()
    assert await wallets.audit(ids) == []
    stored = {wid: await wallets.store.get(wid) for wid in ids}
    assert {wid: w["balance"] for wid, w in stored.items()} == market.expected
    items = market.edges[0].items.items
    for post in market.posts:
        doc = await items.items.find_one({"_id": post["item"]["_id"]})
        poster_id = market.people[post["poster"]]["_id"]
        holds = [await wallets.item_hold(poster_id, c, doc["_id"]) for c in CURRENCIES]
        held = [hold.held for hold in holds if hold is not None]
        if doc.get("closed_at"):
            assert sum(held) == 0, doc
        view = item_view(doc, logged_in=True)
        if view["reward_status"] == "held":
            assert to_cents_of(view["reward_held"]) == sum(held), (view, holds)


@settings(
    max_examples=16,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
@given(steps=st.lists(step, min_size=4, max_size=9))
async def test_every_step_keeps_the_sums(edges, steps):
    built, sessions = edges
    market = await _market(built, sessions)
    for number, operations in enumerate(steps):
        outcomes = await asyncio.gather(
            *(_run(market, op, market.edges[(number + n) % 2]) for n, op in enumerate(operations)),
            return_exceptions=True,
        )
        for outcome in outcomes:
            if isinstance(outcome, BaseException) and not isinstance(outcome, EXPECTED_REFUSALS):
                raise outcome
        await _check(market)


# Edits at once of a post whose reward is in words only, each into another currency (issue
# 41, item 10): rounds of them, with the post back to words only in between.
RACED_CURRENCIES = ("POINTS", "EUR", "USD")
RACE_ROUNDS = 4


async def test_edits_at_once_into_other_currencies_hold_in_one_currency_at_a_time(edges):
    built, sessions = edges
    market = await _market(built, sessions)
    services, poster = market.edges[0], market.caller(0)
    poster_id = market.people[0]["_id"]
    await services.wallets.credit_external(
        key=f"test-dollars:{poster_id}",
        user_id=poster_id,
        currency="USD",
        amount_cents=EUROS_EACH * 100,
        ref_type="recharge",
        ref_id=poster_id,
        title="Recharge",
    )
    wallets = [wallet_id(poster_id, currency) for currency in RACED_CURRENCIES]
    money = {wid: (await services.wallets.store.get(wid))["balance"] for wid in wallets}
    words = ItemInput(title="Garden", offer_description="Lunch and thanks")
    item_id = (await services.items.create(poster, market.group_id, words))["item"]["_id"]

    async def edits_at_once(rewards: list[ItemInput]) -> None:
        outcomes = await asyncio.gather(
            *(
                market.edges[n % 2].items.update(poster, item_id, data)
                for n, data in enumerate(rewards)
            ),
            return_exceptions=True,
        )
        for outcome in outcomes:
            if isinstance(outcome, BaseException) and not isinstance(outcome, EXPECTED_REFUSALS):
                raise outcome

    async def held_by_currency() -> dict[str, int]:
        holds = {
            c: await services.wallets.item_hold(poster_id, c, item_id) for c in RACED_CURRENCIES
        }
        return {c: hold.held for c, hold in holds.items() if hold is not None and hold.held}

    for round_number in range(RACE_ROUNDS):
        turn = RACED_CURRENCIES[round_number:] + RACED_CURRENCIES[:round_number]
        await edits_at_once(
            [
                ItemInput(title="Garden", offer_amount=10 + n, offer_currency=currency)
                for n, currency in enumerate(turn)
            ]
        )
        item = await services.items.items.items.find_one({"_id": item_id})
        shown = item_view(item, logged_in=True)
        # At most one currency holds: the one the post shows, as much as it shows.
        assert await held_by_currency() == (
            {shown["offer_currency"]: to_cents_of(shown["reward_hold"])}
            if shown["offer_amount"]
            else {}
        ), (round_number, shown)
        await edits_at_once([words, words])
        assert await held_by_currency() == {}, round_number
        assert await services.wallets.audit(wallets) == []
        stored = {wid: (await services.wallets.store.get(wid))["balance"] for wid in wallets}
        assert stored == money
