"""Finder's fees through real share links opened by real signed-in members (issue 12)."""

import asyncio
import uuid

import pytest
from pymongo import AsyncMongoClient, monitoring

from agora.core.money import HOW_POINTS_COME
from agora.store import mongo
from tests.integration.helpers import Member, member, new_group
from tests.integration.test_payments import (  # noqa: F401 (fixture)
    PAYMENT_SETTINGS,
    balance,
    ledger,
    recharged,
    standin,
    webhook_url,
)

pytestmark = pytest.mark.usefixtures("ray_cluster")


async def share(sharer: Member, route_id: str) -> str:
    """The sharer opens the link they were sent and presses Share."""
    await sharer.get(f"/api/r/{route_id}")
    return (await sharer.get(f"/api/r/{route_id}?action=share"))["route_id"]


async def start_chat(asker: Member, item_id: str, route_id: str) -> str:
    """The asker opens the link, presses Chat and writes: the chat begins."""
    await asker.get(f"/api/r/{route_id}")
    chats = await asker.call(f"/api/chats/{item_id}", {"route_id": route_id})
    chat_id = chats["chats"][0]["session"]["_id"]
    body = {"dest_session_id": chat_id, "payload": "I can help", "local_id": uuid.uuid4().hex}
    await asker.call("/session/send", body)
    return chat_id


async def ledger_sums_match(users: list[Member], currency: str) -> None:
    for user in users:
        entries = await ledger(user, currency)
        assert all(e["change_to"] >= 0 for e in entries)
        assert round(sum(e["diff"] for e in entries), 2) == await balance(user, currency)


async def chain_to_asker(client, sink, currency="POINTS", fund=None, **post):
    """poster -> Ann -> Ben -> asker, each through the link before them; `fund(poster)`
    brings the money the post's reward holds, when points do not."""
    poster, ann, ben, asker = [
        await member(client, sink, name) for name in ("Poster", "Ann", "Ben", "Asker")
    ]
    for user in (poster, ann, ben, asker):
        await balance(user, "POINTS")  # starter points, before the fees arrive
    if fund is not None:
        await fund(poster)
    group_id = await new_group(poster, is_public=True)
    item = await poster.post_item(
        group_id, "Walk my dog", offer_currency=currency, finder_fee_percent=25, **post
    )
    ann_route = await share(ann, item["route_id"])
    ben_route = await share(ben, ann_route)
    chat_id = await start_chat(asker, item["_id"], ben_route)
    return poster, ann, ben, asker, item, chat_id, ben_route


async def test_an_offer_pays_the_asker_and_both_sharers_exactly(chat_client, smtp_sink):
    poster, ann, ben, asker, item, chat_id, ben_route = await chain_to_asker(
        chat_client, smtp_sink, offer_amount=16
    )
    split = await poster.call("/api/giveoffer/split", {"cs_id": chat_id})
    assert split == {
        "offer_amount": 16,
        "participant_name": "Asker",
        "currency": "POINTS",
        "finder_fees": [
            {"user_id": ben.id, "name": "Ben", "amount": 2},
            {"user_id": ann.id, "name": "Ann", "amount": 2},
        ],
        "total": 20,
        # The post holds 16 + 25%: the offer and its fees come from the hold.
        "from_held": 20,
        "from_available": 0,
    }
    given = await poster.call("/api/giveoffer", {"cs_id": chat_id, "request_id": "walk-1"})
    assert given["finder_fees"] == split["finder_fees"]
    assert given["wallet"]["wallet_amount"] == 101 - 20
    assert [await balance(u, "POINTS") for u in (poster, asker, ann, ben)] == [81, 117, 103, 103]
    [fee] = [e for e in await ledger(ann, "POINTS") if e["ref_type"] == "offer"]
    assert (fee["title"], fee["diff"]) == ("Finder's fee for sharing 'Walk my dog'", 2)
    await ledger_sums_match([poster, asker, ann, ben], "POINTS")

    earned = (await ben.get("/api/finder_fees"))["finder_fees"]
    assert [(e["title"], e["amount"], e["route_id"]) for e in earned] == [
        ("Walk my dog", 2, item["route_id"])
    ]
    assert (await asker.get("/api/finder_fees"))["finder_fees"] == []
    shown = (await asker.get(f"/api/r/{ben_route}"))["item"]
    assert (shown["finder_fee_percent"], shown["share_count"]) == (25, 2)

    messages = (await asker.call("/session/messages", {"session_id": chat_id}))["inbox_messages"]
    assert messages[-1]["payload"] == (
        "Poster gave an offer of 🪙 16 to Asker (finder's fees: Ben 🪙 2, Ann 🪙 2)"
    )


async def test_each_reader_is_told_what_their_own_link_earns_and_the_offer_pays_it(
    chat_client, smtp_sink
):
    # Issue 42: Ben, who came by Ann's link, was promised the whole pool (4); by the rule
    # that pays, his link earns him half of it, as Ann before him keeps her part.
    poster, ann, ben, asker, item, chat_id, ben_route = await chain_to_asker(
        chat_client, smtp_sink, offer_amount=16
    )

    async def promised(reader: Member, route_id: str) -> dict | None:
        return (await reader.get(f"/api/r/{route_id}"))["share_earnings"]

    pool = {"amount": 4, "currency": "POINTS", "offer_amount": 16}
    half = {**pool, "amount": 2}
    ann_route = (await ann.get(f"/api/r/{item['route_id']}?action=share"))["route_id"]
    assert await promised(ann, item["route_id"]) == pool  # her own link: the first after the poster
    assert await promised(ann, ben_route) == pool  # a later link: she still shares her own
    assert await promised(ben, ann_route) == half
    assert await promised(asker, ben_route) == half  # were the asker to share it on
    assert await promised(poster, ben_route) is None
    assert (await chat_client.get(f"/api/r/{ben_route}")).status == 200
    assert (await (await chat_client.get(f"/api/r/{ben_route}")).json())["share_earnings"] is None

    given = await poster.call("/api/giveoffer", {"cs_id": chat_id, "request_id": "promise"})
    assert [(f["name"], f["amount"]) for f in given["finder_fees"]] == [("Ben", 2), ("Ann", 2)]
    await poster.call("/api/item?action=close", {"item_id": item["_id"]})
    assert await promised(ben, ann_route) is None  # closed: no helper comes through it any more


async def test_the_same_request_retried_concurrently_pays_once(chat_client, smtp_sink):
    poster, ann, ben, asker, _, chat_id, _ = await chain_to_asker(
        chat_client, smtp_sink, offer_amount=16
    )
    body = {"cs_id": chat_id, "request_id": "once"}
    replies = await asyncio.gather(*(poster.call("/api/giveoffer", body) for _ in range(10)))
    assert len({r["move_id"] for r in replies}) == 1
    assert [await balance(u, "POINTS") for u in (poster, asker, ann, ben)] == [81, 117, 103, 103]
    await ledger_sums_match([poster, asker, ann, ben], "POINTS")


async def test_thirty_offers_against_a_balance_for_ten_with_fees(chat_client, smtp_sink):
    # Each offer costs 8 + 2 in fees; 101 points cover 10 of them.
    poster, ann, ben, asker, _, chat_id, _ = await chain_to_asker(
        chat_client, smtp_sink, offer_amount=8
    )
    headers = {"Authorization": f"Bearer {poster.key}"}
    replies = await asyncio.gather(
        *(
            poster.client.post(
                "/api/giveoffer", json={"cs_id": chat_id, "request_id": f"o{n}"}, headers=headers
            )
            for n in range(30)
        )
    )
    assert sorted(r.status for r in replies) == [200] * 10 + [402] * 20
    refused = [await r.json() for r in replies if r.status == 402]
    # The message counts the fees: 1 point left, 10 needed.
    assert refused[0]["errors"] == {
        "need_recharge": f"You need 9 more points to give this offer. {HOW_POINTS_COME}"
    }
    assert [await balance(u, "POINTS") for u in (poster, asker, ann, ben)] == [1, 181, 111, 111]
    await ledger_sums_match([poster, asker, ann, ben], "POINTS")


async def test_a_sharer_after_the_chat_began_is_not_paid(chat_client, smtp_sink):
    poster, _, _, asker, item, chat_id, ben_route = await chain_to_asker(
        chat_client, smtp_sink, offer_amount=16
    )
    late = await member(chat_client, smtp_sink, "Late")
    late_route = await share(late, ben_route)
    # The asker comes back through the later link: the chat keeps the route it began with.
    chats = await asker.call(f"/api/chats/{item['_id']}", {"route_id": late_route})
    assert chats["chats"][0]["session"]["data"]["route_id"] == ben_route
    given = await poster.call("/api/giveoffer", {"cs_id": chat_id, "request_id": "x"})
    assert [f["name"] for f in given["finder_fees"]] == ["Ben", "Ann"]
    assert (await late.get("/api/finder_fees"))["finder_fees"] == []
    assert await balance(late, "POINTS") == 101


async def test_a_describe_reward_and_bad_percentages(chat_client, smtp_sink):
    poster = await member(chat_client, smtp_sink, "Poster")
    group_id = await new_group(poster, is_public=True)
    for bad in (-1, 51, "ten", 12.5):
        reply = await poster.call(
            "/api/item?action=create",
            {"group_id": group_id, "title": "Dog", "offer_amount": 5, "finder_fee_percent": bad},
            status=400,
        )
        assert "finder_fee_percent" in reply["errors"], reply
    described = await poster.post_item(group_id, "Dog", offer_description="A cake")
    assert described["finder_fee_percent"] == 0
    default = await poster.post_item(group_id, "Dog", offer_amount=5, offer_currency="POINTS")
    assert default["finder_fee_percent"] == 10


async def test_fees_in_a_card_currency_and_a_short_balance_counts_them(
    client_for,
    chat_prefix,
    smtp_sink,
    standin,  # noqa: F811
):
    client = await client_for(
        **PAYMENT_SETTINGS,
        stripe_api_base=standin.base_url,
        session_shards=2,
        redis_prefix=chat_prefix,
    )
    standin.webhook_url = webhook_url(client)

    async def fund(poster: Member) -> None:
        await recharged(poster, standin, 13)

    # The post holds 10.01 + 25% rounded down to the cent (2.50): 12.51 of the 13.
    poster, ann, ben, asker, _, chat_id, _ = await chain_to_asker(
        client, smtp_sink, currency="USD", offer_amount="10.01", fund=fund
    )
    assert await balance(poster, "USD") == 0.49
    # 20 + 5 of fees: 12.51 from the hold, 12.49 of the 0.49 available: 12 short.
    short = await poster.call("/api/giveoffer", {"cs_id": chat_id, "offer_amount": 20}, status=402)
    assert short["errors"] == {"need_stripe_recharge": {"amount": 12, "currency": "USD"}}
    given = await poster.call("/api/giveoffer", {"cs_id": chat_id, "request_id": "usd"})
    assert [f["amount"] for f in given["finder_fees"]] == [1.25, 1.25]
    assert (given["paid_from_held"], given["paid_from_available"]) == (12.51, 0)
    assert [await balance(u, "USD") for u in (poster, asker, ann, ben)] == [0.49, 10.01, 1.25, 1.25]
    await ledger_sums_match([poster, asker, ann, ben], "USD")


async def test_a_chat_refuses_a_route_of_another_post(chat_client, smtp_sink):
    poster, ann, asker = [await member(chat_client, smtp_sink, n) for n in ("P", "Ann", "Ask")]
    group_id = await new_group(poster, is_public=True)
    item = await poster.post_item(
        group_id, "Walk my dog", offer_amount=16, offer_currency="POINTS", finder_fee_percent=25
    )
    other = await poster.post_item(group_id, "Feed my cat", offer_description="A cake")
    foreign_route = await share(ann, other["route_id"])
    for route_id in (foreign_route, "no-such-route"):
        refused = await asker.call(f"/api/chats/{item['_id']}", {"route_id": route_id}, status=400)
        assert list(refused["errors"]) == ["route_id"]
    # Nothing was remembered: the chat begins on the post's own route, no one earns a fee.
    chat_id = await start_chat(asker, item["_id"], item["route_id"])
    split = await poster.call("/api/giveoffer/split", {"cs_id": chat_id})
    assert split["finder_fees"] == []


class OwnRouteReads(monitoring.CommandListener):
    """How many times an edge read a person's own route of a post (`ItemStore.route_of`),
    and its writes of users and routes in order."""

    def __init__(self) -> None:
        self.count = 0
        self.writes: list[tuple[str, str]] = []

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        command, name = event.command, event.command_name
        if name == "find" and command["find"] == "routes":
            self.count += "user_id" in command.get("filter", {})
        if name in ("update", "insert") and command[name] in ("users", "routes"):
            self.writes.append((name, command[name]))

    def succeeded(self, event) -> None:
        pass

    def failed(self, event) -> None:
        pass


async def test_a_readers_own_link_is_read_only_when_the_post_and_their_link_cannot_tell_it(
    client_for, chat_prefix, smtp_sink, monkeypatch
):
    """Each opening of a post read the reader's own route, to tell what their link earns
    (1.8 a second at 300 people). A reader on the chain of the link they opened has its part
    up to them as theirs; one off it has none when they never shared a post (their count,
    moved before a route is stored), or when the post was shared no more times than that
    chain tells (its share count): only a reader who may have shared the post elsewhere is
    read."""
    watch = OwnRouteReads()

    def watched(*args, event_listeners=(), **options) -> AsyncMongoClient:
        return AsyncMongoClient(*args, event_listeners=[*event_listeners, watch], **options)

    monkeypatch.setattr(mongo, "AsyncMongoClient", watched)
    client = await client_for(session_shards=2, redis_prefix=chat_prefix)
    poster, ann, ben = [await member(client, smtp_sink, name) for name in ("Poster", "Ann", "Ben")]
    await balance(poster, "POINTS")  # starter points, which the reward holds
    group_id = await new_group(poster, is_public=True)
    item = await poster.post_item(
        group_id, "Walk my dog", offer_amount=16, offer_currency="POINTS", finder_fee_percent=25
    )
    pool = {"amount": 4, "currency": "POINTS", "offer_amount": 16}
    half = {**pool, "amount": 2}
    reads = []

    async def promised(reader: Member, route_id: str) -> dict | None:
        before = watch.count
        earnings = (await reader.get(f"/api/r/{route_id}"))["share_earnings"]
        reads.append(watch.count - before)
        return earnings

    assert await promised(ann, item["route_id"]) == pool  # never shared: nobody has a link
    watch.writes.clear()
    ann_route = (await ann.get(f"/api/r/{item['route_id']}?action=share"))["route_id"]
    assert watch.writes == [("update", "users"), ("insert", "routes")]  # counted, then stored
    assert await promised(ben, ann_route) == half  # shared once, on the chain he came by
    assert await promised(ben, item["route_id"]) == pool  # Ben never shared anything
    assert await promised(ann, item["route_id"]) == pool  # Ann shared, and so did the post
    assert await promised(ann, ann_route) == pool  # on the chain: hers is its part
    assert await promised(poster, ann_route) is None
    assert reads == [0, 0, 0, 1, 0, 0]
