"""Wallets, the ledger and offers against real edges, Ray, the MongoDB-wire server and Redis."""

import asyncio
import uuid
from typing import Any

import pytest

from agora.app import Built
from agora.core.accounts import EMAIL_FIELD, Identifier
from agora.core.clock import now_ms
from agora.core.finder_fees import FeePart
from agora.core.money import HOW_POINTS_COME, MOVE_RECOVERY_AFTER_MS, Posting, move_terms, wallet_id
from agora.services.offers import OfferTerms, offer_postings
from agora.store.mongo import connect_mongo, database, ensure_indexes, new_id
from agora.store.wallets import WalletStore
from tests.integration.helpers import Member, member, new_group
from tests.integration.money_units import HalfWay, edge_services

pytestmark = pytest.mark.usefixtures("ray_cluster")

STARTER_AND_FIRST_DAY = 101


async def _points(user: Member) -> float:
    wallets = (await user.get("/api/user/profile"))["user_wallets"]
    return next(w["wallet_amount"] for w in wallets if w["wallet_currency"] == "POINTS")


async def _ledger(user: Member, currency: str = "POINTS", before: int | None = None) -> dict:
    query = f"wallet_user_id={user.id}&wallet_for=user&wallet_currency={currency}"
    if before is not None:
        query += f"&before={before}"
    return await user.get(f"/api/wallet/ledger?{query}")


async def _item_chat(client, sink, **offer) -> tuple[Member, Member, str]:
    """An owner, a member who asked about the owner's post, and their chat's id."""
    owner = await member(client, sink, "Olga")
    asker = await member(client, sink, "Arun")
    group_id = await new_group(owner, is_public=True)
    item = await owner.post_item(group_id, "Lost cat, reward", **offer)
    chat_id = f"r_{item['_id']}_{asker.id}"
    await asker.call(
        "/session/send",
        {"dest_session_id": chat_id, "payload": "I found her", "local_id": uuid.uuid4().hex},
    )
    return owner, asker, chat_id


async def _offer(owner: Member, chat_id: str, status: int = 200, **body) -> dict:
    return await owner.call("/api/giveoffer", {"cs_id": chat_id, **body}, status=status)


@pytest.fixture
async def wallet_store(settings_for):
    settings = settings_for()
    mongo = connect_mongo(settings)
    db = database(mongo, settings)
    store = WalletStore(db)
    await ensure_indexes(db, [store])
    yield store
    await mongo.close()


async def test_a_new_member_gets_starter_points_and_one_point_a_day_once(
    client_for, chat_prefix, smtp_sink
):
    edges = [await client_for(session_shards=2, redis_prefix=chat_prefix) for _ in range(2)]
    user = await member(edges[0], smtp_sink)
    on_other_edge = Member(edges[1], user.key, user.user)
    # Coming back many times at once, through two edges, credits today's point once.
    await asyncio.gather(
        *(u.get(path) for u in (user, on_other_edge) for path in ("/user/me",) * 10),
        *(u.get("/api/user/profile") for u in (user, on_other_edge) for _ in range(5)),
    )
    assert await _points(user) == STARTER_AND_FIRST_DAY
    entries = (await _ledger(user))["ledger_entries"]
    assert [(e["ref_type"], e["diff"], e["change_to"]) for e in entries] == [
        ("daily", 1, 101),
        ("welcome", 100, 100),
    ]


async def test_an_offer_moves_points_from_owner_to_participant_with_a_notice(
    chat_client, smtp_sink
):
    owner, asker, chat_id = await _item_chat(
        chat_client, smtp_sink, offer_amount="12.5", offer_currency="POINTS", finder_fee_percent=0
    )
    await asyncio.gather(_points(owner), _points(asker))
    reply = await _offer(owner, chat_id, request_id="first")
    assert reply["success"] is True
    # The post held the 12.50 from the start; the offer is paid from that hold.
    assert reply["wallet"]["wallet_amount"] == 88.5
    assert (reply["paid_from_held"], reply["paid_from_available"]) == (12.5, 0)
    assert await _points(asker) == 113.5
    [given] = [e for e in (await _ledger(asker))["ledger_entries"] if e["ref_type"] == "offer"]
    assert (given["diff"], given["change_to"], given["ref_id"]) == (12.5, 113.5, reply["move_id"])
    [paid] = [e for e in (await _ledger(owner))["ledger_entries"] if e["ref_type"] == "offer"]
    assert (paid["diff"], paid["change_to"], paid["held_diff"]) == (0, 88.5, -12.5)

    messages = (await asker.call("/session/messages", {"session_id": chat_id}))["inbox_messages"]
    notice = messages[-1]
    assert notice["type"] == 1010
    assert notice["payload"] == "Olga gave an offer of 🪙 12.50 to Arun"


async def test_fifty_simultaneous_offers_against_a_balance_for_ten(chat_client, smtp_sink):
    owner, first, chat_id = await _item_chat(
        chat_client, smtp_sink, offer_amount=10, offer_currency="POINTS"
    )
    # 11 held (10 and the fee pool), 90 available: 10 offers of 10 between them.
    assert await _points(owner) == STARTER_AND_FIRST_DAY - 11
    replies = await asyncio.gather(
        *(
            owner.client.post(
                "/api/giveoffer",
                json={"cs_id": chat_id, "request_id": f"offer-{n}"},
                headers={"Authorization": f"Bearer {owner.key}"},
            )
            for n in range(50)
        )
    )
    statuses = sorted(reply.status for reply in replies)
    assert statuses == [200] * 10 + [402] * 40
    refused = [await r.json() for r in replies if r.status == 402]
    assert all("need_recharge" in body["errors"] for body in refused)
    assert await _points(owner) == 1
    assert await _points(first) == STARTER_AND_FIRST_DAY + 100

    for user in (owner, first):
        entries = (await _ledger(user))["ledger_entries"]
        assert all(e["change_to"] >= 0 for e in entries)
        assert sum(e["diff"] for e in entries) == await _points(user)


async def test_a_retried_offer_is_applied_once(chat_client, smtp_sink):
    owner, asker, chat_id = await _item_chat(
        chat_client, smtp_sink, offer_amount=3, offer_currency="POINTS"
    )
    await _points(asker)
    with_key = await asyncio.gather(*(_offer(owner, chat_id, request_id="r1") for _ in range(20)))
    assert len({r["move_id"] for r in with_key}) == 1
    # Without a request_id each call is an offer of its own, the same amount or not.
    without_key = [await _offer(owner, chat_id, offer_amount=4) for _ in range(2)]
    assert len({r["move_id"] for r in without_key}) == 2
    assert await _points(asker) == STARTER_AND_FIRST_DAY + 3 + 4 + 4
    assert await _points(owner) == STARTER_AND_FIRST_DAY - 11
    messages = (await asker.call("/session/messages", {"session_id": chat_id}))["inbox_messages"]
    assert [m["type"] for m in messages].count(1010) == 3


async def test_a_request_id_reused_for_another_offer_is_refused(chat_client, smtp_sink):
    owner, asker, chat_id = await _item_chat(
        chat_client, smtp_sink, offer_amount=3, offer_currency="POINTS"
    )
    first = await _offer(owner, chat_id, request_id="r1")
    assert (await _offer(owner, chat_id, request_id="r1"))["move_id"] == first["move_id"]
    reply = await _offer(owner, chat_id, status=409, request_id="r1", offer_amount=5)
    assert reply["errors"] == {
        "request_id": "This request_id was already used for a different request"
    }
    assert await _points(asker) == STARTER_AND_FIRST_DAY + 3
    # The post holds 3 and 0.30 of fee pool; the offer was paid from it, the pool stays.
    assert await _points(owner) == 97.7


async def test_a_short_balance_in_a_card_currency_asks_for_a_recharge(chat_client, smtp_sink):
    owner, _, chat_id = await _item_chat(chat_client, smtp_sink)
    # The post describes its reward: an offer in its currency (points) needs no hold.
    reply = await _offer(owner, chat_id, status=402, offer_amount=500)
    assert reply["errors"] == {
        "need_recharge": f"You need 399 more points to give this offer. {HOW_POINTS_COME}"
    }
    group_id = await new_group(owner, is_public=True)
    # A reward in dollars is held from a wallet that has none: 25.50 and 2.55 of fee pool.
    reply = await owner.call(
        "/api/item?action=create",
        {"group_id": group_id, "title": "Bike", "offer_amount": "25.5", "offer_currency": "USD"},
        status=402,
    )
    assert reply["errors"] == {
        "offer_amount": "Holding this reward needs $28.05 and your wallet has $0 available",
        "need_stripe_recharge": {"amount": 29, "currency": "USD"},
    }
    titles = [i["title"] for i in (await owner.call("/api/user/items"))["items"]]
    assert titles == ["Lost cat, reward"]  # the refused post was not stored


async def test_only_the_owner_gives_offers_in_real_chats_with_valid_amounts(chat_client, smtp_sink):
    owner, asker, chat_id = await _item_chat(chat_client, smtp_sink)
    stranger = await member(chat_client, smtp_sink, "Sam")
    await _offer(asker, chat_id, status=403, offer_amount=1)
    await _offer(stranger, chat_id, status=404, offer_amount=1)  # not theirs to know of
    await _offer(owner, "r_nope_nobody", status=404, offer_amount=1)
    await _offer(owner, f"r_x{chat_id[2:]}", status=404, offer_amount=1)
    assert (await _offer(owner, chat_id, status=400))["errors"] == {
        "offer_amount": "Enter offer amount"
    }
    for bad in ("-1", "0", "abc", "1.001", True, [1]):
        reply = await _offer(owner, chat_id, status=400, offer_amount=bad)
        assert "offer_amount" in reply["errors"]
    await _offer(owner, chat_id, status=400, offer_amount=1, request_id="x" * 65)
    await _offer(owner, chat_id, status=400, offer_amount=1, extra=1)
    assert await _points(owner) == STARTER_AND_FIRST_DAY


async def test_ledger_pages_with_before_and_stays_private(chat_client, smtp_sink):
    owner, asker, chat_id = await _item_chat(chat_client, smtp_sink)
    await _points(owner)
    for n in range(33):
        await _offer(owner, chat_id, offer_amount="0.5", request_id=f"p{n}")
    first = await _ledger(owner)
    assert first["has_more"] is True
    second = await _ledger(owner, before=first["next_before"])
    assert second["has_more"] is False
    seqs = [e["seq"] for e in first["ledger_entries"] + second["ledger_entries"]]
    assert seqs == list(range(35, 0, -1))
    await asker.get(
        f"/api/wallet/ledger?wallet_user_id={owner.id}&wallet_for=user&wallet_currency=POINTS",
        status=403,
    )
    await owner.get("/api/wallet/ledger?wallet_for=user&wallet_currency=POINTS", status=400)
    await owner.get(
        f"/api/wallet/ledger?wallet_user_id={owner.id}&wallet_for=user"
        "&wallet_currency=POINTS&before=-3",
        status=400,
    )


async def test_a_move_an_edge_died_in_is_finished_once_by_the_sweep(settings_for):
    # Where each write of a move stands alone (no transactions), the sweep finishes it.
    async with edge_services(settings_for(mongo_transactions="off")) as built:
        wallets = built.services.wallets
        payer, payee = f"u{uuid.uuid4().hex[:8]}", f"u{uuid.uuid4().hex[:8]}"
        await wallets.grant_points(payer)
        debit = Posting(wallet_id(payer, "POINTS"), payer, "POINTS", -2500, "to payee")
        credit = Posting(wallet_id(payee, "POINTS"), payee, "POINTS", 2500, "from payer")
        # The edge recorded the move and took the debit, then died before the credit.
        started = now_ms() - MOVE_RECOVERY_AFTER_MS - 1
        terms = move_terms(f"crash-{uuid.uuid4().hex}", "offer", [debit, credit], {})
        move = await wallets.store.start_move(terms, started)
        await wallets.store.append(
            debit, ref_type="offer", ref_id=move["_id"], now=now_ms(), maybe_applied=False
        )

        assert await wallets.recover() >= 1
        assert await wallets.recover() >= 0  # a second sweep changes nothing
        assert (await wallets.store.get_move(move["_id"]))["state"] == "done"
        assert await wallets.balance_cents(payer, "POINTS") == 10100 - 2500
        assert await wallets.balance_cents(payee, "POINTS") == 2500
        assert await wallets.audit([debit.wallet_id, credit.wallet_id]) == []


# Units of work: a money move in a transaction (nx-27017 runs them one at a time from this
# process; store/unit_of_work.py), stopped half-way as an edge dying there would stop it.

IN_TRANSACTIONS = {"mongo_transactions": "on"}
OFFER_CENTS, FEE_CENTS = 1000, 50  # a reward of 10 points and 2 finder's fees of 0.50
REWARD = {"title": "Lost cat", "offer_amount": "10", "offer_currency": "POINTS"}


async def _people(built: Built, count: int) -> list[str]:
    """New members with their starter and first day's points."""
    ids = []
    for n in range(count):
        ident = Identifier(EMAIL_FIELD, f"units-{uuid.uuid4().hex[:10]}@example.org")
        person = await built.users.create(ident, f"Person {n}")
        await built.services.wallets.grant_points(person["_id"])
        ids.append(person["_id"])
    return ids


async def _post_holding_its_reward(built: Built, owner: str) -> dict[str, Any]:
    """A post of `owner` holding 10 points and a 10 % fee pool (11 points)."""
    fields = {**REWARD, "finder_fee_percent": 10}
    items = built.services.rewards.items
    item, _ = await items.create(fields, user_id=owner, group_id="units", created_at=now_ms())
    await built.services.rewards.hold(item, fields, first=True)
    return item


def _offer_legs(
    item: dict, owner: str, asker: str, sharers: list[str], title: str
) -> list[Posting]:
    """The postings of an offer of 10 points on `item` to `asker`, with a fee to each sharer;
    `title` (the asker's name) tells its debit from others'."""
    terms = OfferTerms(
        item=item,
        owner={"_id": owner, "name": "owner"},
        participant={"_id": asker, "name": title},
        cents=OFFER_CENTS,
        currency="POINTS",
        fees=[FeePart(sharer, FEE_CENTS) for sharer in sharers],
        names={},
    )
    return offer_postings(terms)


def _is_debit_of(postings: list[Posting]):
    debit = postings[0]
    return lambda entry: (entry["wallet_id"], entry["title"]) == (debit.wallet_id, debit.title)


async def _stored(built: Built, wallet_ids: list[str], item_id: str) -> dict[str, Any]:
    """What the wallets, their ledgers and the post's copy of its hold say now."""
    store = built.services.wallets.store
    wallets = {w: await store.get(w) for w in wallet_ids}
    ledger = await store.ledger.count_documents({"wallet_id": {"$in": wallet_ids}})
    post = await built.services.rewards.items.items.find_one({"_id": item_id})
    return {
        "wallets": {
            w: (d["balance"], d["held"], d["seq"]) if d else None for w, d in wallets.items()
        },
        "entries": ledger,
        "post": (post.get("reward_ledger"), post.get("holding")),
    }


async def test_an_offer_stopped_half_way_moves_nothing_and_its_retry_pays_once(settings_for):
    halfway = HalfWay()
    async with edge_services(settings_for(**IN_TRANSACTIONS), halfway) as built:
        wallets = built.services.wallets
        owner, asker, *sharers = await _people(built, 4)
        item = await _post_holding_its_reward(built, owner)
        postings = _offer_legs(item, owner, asker, sharers, "offer stopped half-way")
        wallet_ids = [p.wallet_id for p in postings]
        before = await _stored(built, wallet_ids, item["_id"])

        def give():
            return wallets.transfer(
                key="offer:half-way",
                ref_type="offer",
                postings=postings,
                details={"item_id": item["_id"]},
            )

        # The edge debits the owner (drawing on the post's hold), then stops before the credits.
        stopped = asyncio.create_task(give())
        halfway.doom(stopped, "ledger_entries", _is_debit_of(postings))
        with pytest.raises(asyncio.CancelledError):
            await stopped
        assert halfway.stopped == [stopped]
        assert await _stored(built, wallet_ids, item["_id"]) == before
        assert await wallets.store.move_with_key("offer:half-way") is None
        assert await wallets.audit(wallet_ids) == []

        # The client asks again with the same key: paid once, however often.
        moves = [await give() for _ in range(2)]
        assert [m["state"] for m in moves] == ["done", "done"]
        assert moves[0]["_id"] == moves[1]["_id"]
        paid = OFFER_CENTS + FEE_CENTS * len(sharers)
        owner_wallet = await wallets.store.get(wallet_ids[0])
        # The whole offer came from the post's hold: the owner's balance fell, its held went.
        assert (owner_wallet["balance"], owner_wallet["held"]) == (10100 - paid, 0)
        legs = [OFFER_CENTS, FEE_CENTS, FEE_CENTS]
        for user_id, cents in zip([asker, *sharers], legs, strict=True):
            assert await wallets.balance_cents(user_id, "POINTS") == 10100 + cents
        post = await built.services.rewards.items.items.find_one({"_id": item["_id"]})
        assert post["reward_ledger"]["POINTS"]["hold"]["held"] == 0
        assert await wallets.audit(wallet_ids) == []


async def test_offers_at_once_from_one_wallet_some_stopped_half_way_never_overdraw_and_add_up(
    settings_for,
):
    halfway = HalfWay()
    async with edge_services(settings_for(**IN_TRANSACTIONS), halfway) as built:
        wallets = built.services.wallets
        owner, *others = await _people(built, 5)
        item = await _post_holding_its_reward(built, owner)
        everyone = [wallet_id(p, "POINTS") for p in (owner, *others)]
        # 101 points pay 9 offers of 11 (the first from the post's hold): 24 are asked at once,
        # every third stopped half-way once its debit is stored.
        offers = [
            _offer_legs(item, owner, others[n % 2], others[2:], f"offer {n}") for n in range(24)
        ]
        tasks = [
            asyncio.create_task(
                wallets.transfer(key=f"offer:{n}", ref_type="offer", postings=postings, details={})
            )
            for n, postings in enumerate(offers)
        ]
        for task, postings in list(zip(tasks, offers, strict=True))[::3]:
            halfway.doom(task, "ledger_entries", _is_debit_of(postings))
        results = await asyncio.gather(*tasks, return_exceptions=True)

        states = [r if isinstance(r, asyncio.CancelledError) else r["state"] for r in results]
        stopped = [t for t, r in zip(tasks, results, strict=True) if isinstance(r, BaseException)]
        assert stopped and stopped == halfway.stopped
        assert states.count("done") == 9
        assert states.count("refused") + states.count("done") + len(stopped) == 24
        # Nothing moved for a stopped offer; every other moved all of its legs or none.
        for n, result in enumerate(results):
            move = await wallets.store.move_with_key(f"offer:{n}")
            if isinstance(result, BaseException):
                assert move is None
            else:
                assert move["state"] == result["state"]
        paid = OFFER_CENTS + 2 * FEE_CENTS
        balances = [(await wallets.store.get(w))["balance"] for w in everyone]
        assert balances[0] == 10100 - 9 * paid >= 0
        assert sum(balances[1:3]) == 2 * 10100 + 9 * OFFER_CENTS
        assert balances[3:] == [10100 + 9 * FEE_CENTS] * 2
        assert sum(balances) == 5 * 10100  # no money made or lost
        assert await wallets.audit(everyone) == []


async def test_a_lagging_wallet_document_is_rolled_forward_from_the_ledger(wallet_store):
    owner = f"u{uuid.uuid4().hex[:8]}"
    wid = wallet_id(owner, "EUR")
    await wallet_store.open(wid, owner, "EUR", "user", now_ms())
    # Another edge appended and died before advancing the wallet document.
    await wallet_store.ledger.insert_one(
        {
            "_id": f"{wid}:1",
            "wallet_id": wid,
            "seq": 1,
            "diff": 700,
            "change_to": 700,
            "ref_type": "recharge",
            "ref_id": new_id(),
            "title": "Recharge",
            "created_at": now_ms(),
        }
    )
    fresh = WalletStore(wallet_store.wallets.database)
    assert (await fresh.get(wid))["balance"] == 700
    spent = await fresh.append(
        Posting(wid, owner, "EUR", -300, "spent"),
        ref_type="offer",
        ref_id="m1",
        now=now_ms(),
        maybe_applied=False,
    )
    assert spent.entry["change_to"] == 400
    assert await fresh.audit([wid]) == []


async def test_an_offer_below_the_minimum_is_refused_and_nothing_moves(chat_client, smtp_sink):
    owner, asker, chat_id = await _item_chat(chat_client, smtp_sink)
    refused = await _offer(owner, chat_id, status=400, offer_amount=0.2, request_id="tiny")
    assert refused["errors"] == {"offer_amount": "The smallest offer is 0.5"}
    assert (await _points(owner), await _points(asker)) == (STARTER_AND_FIRST_DAY,) * 2
    await _offer(owner, chat_id, offer_amount=0.5, request_id="smallest")
    assert await _points(asker) == STARTER_AND_FIRST_DAY + 0.5


async def test_a_given_offer_shows_in_the_chat_after_a_reload(chat_client, smtp_sink):
    owner, asker, chat_id = await _item_chat(chat_client, smtp_sink)
    given = await _offer(owner, chat_id, offer_amount=7, request_id="first")
    for person in (owner, asker):
        found = await person.call("/get_by_ids", {"session_ids": [chat_id]})
        last = found["sessions"][chat_id]["data"]["last_offer"]
        assert (last["amount"], last["currency"]) == (7, "POINTS")
        assert last == given["last_offer"] and isinstance(last["at"], int)
    listed = {s["_id"]: s for s in (await owner.call("/user/chats", {}))["sessions"]}
    assert listed[chat_id]["data"]["last_offer"]["move_id"] == given["move_id"]
    # A second offer is a new payment of its own, and becomes the one shown.
    again = await _offer(owner, chat_id, offer_amount=7, request_id="second")
    assert again["move_id"] != given["move_id"]
    assert await _points(asker) == STARTER_AND_FIRST_DAY + 14
    found = await owner.call("/get_by_ids", {"session_ids": [chat_id]})
    assert found["sessions"][chat_id]["data"]["last_offer"]["move_id"] == again["move_id"]
