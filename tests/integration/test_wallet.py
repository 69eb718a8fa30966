"""Wallets, the ledger and offers against real edges, Ray, the MongoDB-wire server and Redis."""

import asyncio
import uuid

import pytest

from agora.core.clock import now_ms
from agora.core.constants import MOVE_RECOVERY_AFTER_MS
from agora.core.money import HOW_POINTS_COME, Posting, move_terms, wallet_id
from agora.realtime.emitter import RealtimeEmitter
from agora.services.events import Events
from agora.services.wallet import WalletService
from agora.store.mongo import connect_mongo, database, new_id
from agora.store.wallets import WalletStore
from tests.integration.helpers import Member, member, new_group

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
    store = WalletStore(database(mongo, settings))
    await store.ensure_indexes()
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


async def test_a_move_an_edge_died_in_is_finished_once_by_the_sweep(wallet_store, settings_for):
    wallets = WalletService(wallet_store, RealtimeEmitter(settings_for()), Events())
    payer, payee = f"u{uuid.uuid4().hex[:8]}", f"u{uuid.uuid4().hex[:8]}"
    await wallets.grant_points(payer)
    debit = Posting(wallet_id(payer, "POINTS"), payer, "POINTS", -2500, "to payee")
    credit = Posting(wallet_id(payee, "POINTS"), payee, "POINTS", 2500, "from payer")
    # The edge recorded the move and took the debit, then died before the credit.
    started = now_ms() - MOVE_RECOVERY_AFTER_MS - 1
    terms = move_terms("crash-1", "offer", [debit, credit], {})
    move, _ = await wallet_store.start_move(terms, started)
    await wallet_store.append(
        debit, ref_type="offer", ref_id=move["_id"], now=now_ms(), maybe_applied=False
    )

    assert await wallets.recover() >= 1
    assert await wallets.recover() >= 0  # a second sweep changes nothing
    assert (await wallet_store.get_move(move["_id"]))["state"] == "done"
    assert await wallets.balance_cents(payer, "POINTS") == 10100 - 2500
    assert await wallets.balance_cents(payee, "POINTS") == 2500
    assert await wallets.audit([wallet_id(payer, "POINTS"), wallet_id(payee, "POINTS")]) == []


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
