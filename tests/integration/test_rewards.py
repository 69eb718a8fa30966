"""Held rewards and reviews through the API (issue 32): a reward is held when posted, moved
by edits, paid from first, given back on close, delete and expiry; the two sides of a paid
offer review each other, and a group's moderators hide a reported review."""

import uuid

import pytest
import socketio
from pymongo import AsyncMongoClient

from agora.app import ITEMS
from agora.core.clock import DAY_MS
from agora.core.items import POST_EXPIRY_DAYS_DEFAULT
from agora.core.money import HOW_POINTS_COME
from tests.integration.helpers import (
    Member,
    eventually,
    member,
    new_group,
    send_text,
    visitor_call,
)

pytestmark = pytest.mark.usefixtures("ray_cluster")

STARTER = 101  # starter points and today's point


async def wallet(user: Member, currency: str = "POINTS") -> dict:
    wallets = (await user.get("/api/user/profile"))["user_wallets"]
    return next(w for w in wallets if w["wallet_currency"] == currency)


async def ledger(user: Member, currency: str = "POINTS") -> list[dict]:
    query = f"wallet_user_id={user.id}&wallet_for=user&wallet_currency={currency}"
    return (await user.get(f"/api/wallet/ledger?{query}"))["ledger_entries"]


async def item_of(user: Member, item_id: str) -> dict:
    return (await user.call("/api/item", {"item_id": item_id}))["item"]


async def edit(user: Member, item: dict, status: int = 200, **fields) -> dict:
    body = {"item_id": item["_id"], "title": item["title"], **fields}
    return await user.call("/api/item?action=update", body, status=status)


async def chat_with(asker: Member, item: dict) -> str:
    chat_id = f"r_{item['_id']}_{asker.id}"
    await send_text(asker, chat_id, "I can help")
    return chat_id


async def test_a_reward_is_held_when_posted_and_shown_on_post_wallet_and_profiles(
    client, smtp_sink
):
    poster = await member(client, smtp_sink, "Poster")
    group_id = await new_group(poster, is_public=True)
    item = await poster.post_item(group_id, "Bike", offer_amount=40, offer_currency="POINTS")
    assert {k: item[k] for k in ("reward_status", "reward_held", "reward_pool", "reward_hold")} == {
        "reward_status": "held",
        "reward_held": 44,
        "reward_pool": 4,
        "reward_hold": 44,
    }
    assert (item["reward_paid"], item["reward_paid_count"], item["closed_at"]) == (0, 0, None)
    assert item["expires_at"] == item["created_at"] + POST_EXPIRY_DAYS_DEFAULT * DAY_MS
    points = await wallet(poster)
    assert (points["wallet_amount"], points["held_amount"]) == (STARTER - 44, 44)
    [held, *_] = await ledger(poster)
    assert {
        k: held[k] for k in ("ref_type", "title", "diff", "change_to", "held_diff", "held_to")
    } == {
        "ref_type": "reward_hold",
        "title": "Reward held for 'Bike'",
        "diff": -44,
        "change_to": STARTER - 44,
        "held_diff": 44,
        "held_to": 44,
    }
    assert held["item_id"] == item["_id"]
    profile = await poster.get("/api/user/profile")
    assert profile["rewards"] == {"held": [{"currency": "POINTS", "amount": 44}], "paid": []}
    assert profile["reviews_summary"] == {"count": 0, "average": None}
    public = await client.get(f"/api/users/{poster.id}/profile")
    assert (await public.json())["rewards"] == profile["rewards"]

    described = await poster.post_item(group_id, "Help", offer_description="30% revenue share")
    nothing = await poster.post_item(group_id, "Chat")
    assert [(p["reward_status"], p["reward_held"]) for p in (described, nothing)] == [
        ("not_held", 0),
        ("none", 0),
    ]
    feed = await client.post("/api/feed", json={"group_id": group_id})
    shown = {i["_id"]: i for i in (await feed.json())["items"]}
    assert shown[item["_id"]]["reward_status"] == "held"


async def test_a_reward_above_what_is_available_is_refused_and_nothing_is_stored(client, smtp_sink):
    poster = await member(client, smtp_sink, "Poster")
    group_id = await new_group(poster, is_public=True)
    body = {"offer_amount": 100, "offer_currency": "POINTS", "finder_fee_percent": 10}
    preview = await poster.call("/api/reward/hold_preview", body)
    assert preview == {
        "currency": "POINTS",
        "reward": 100,
        "pool": 10,
        "hold": 110,
        "held_now": 0,
        "change": 110,
        "available": STARTER,
        "enough": False,
        "need_recharge": f"You need 9 more points to hold this reward. {HOW_POINTS_COME}",
    }
    refused = await poster.call(
        "/api/item?action=create", {"group_id": group_id, "title": "Cat", **body}, status=402
    )
    assert refused["errors"] == {
        "offer_amount": "Holding this reward needs 🪙 110 and your wallet has 🪙 101 available",
        "need_recharge": f"You need 9 more points to hold this reward. {HOW_POINTS_COME}",
    }
    assert (await poster.call("/api/user/items"))["items"] == []
    assert [e["ref_type"] for e in await ledger(poster)] == ["daily", "welcome"]
    await poster.call("/api/reward/hold_preview", {"offer_currency": "BTC"}, status=400)
    assert (await client.post("/api/reward/hold_preview", json=body)).status == 401


async def test_edits_hold_or_give_back_the_difference_and_keep_the_currency(client, smtp_sink):
    poster = await member(client, smtp_sink, "Poster")
    group_id = await new_group(poster, is_public=True)
    item = await poster.post_item(group_id, "Sofa", offer_amount=20, offer_currency="POINTS")
    raised = (await edit(poster, item, offer_amount=30, offer_currency="POINTS"))["item"]
    assert (raised["reward_held"], (await wallet(poster))["wallet_amount"]) == (33, STARTER - 33)
    lowered = (await edit(poster, item, offer_amount=10, offer_currency="POINTS"))["item"]
    assert (lowered["reward_held"], (await wallet(poster))["held_amount"]) == (11, 11)
    entries = await ledger(poster)
    assert [(e["title"], e["diff"], e["held_diff"]) for e in entries[:2]] == [
        ("Reward lowered for 'Sofa'", 22, -22),
        ("Reward held for 'Sofa'", -11, 11),
    ]
    preview = await poster.call(
        "/api/reward/hold_preview",
        {"item_id": item["_id"], "offer_amount": 200, "offer_currency": "POINTS"},
    )
    assert (preview["held_now"], preview["change"], preview["enough"]) == (11, 209, False)
    short = await edit(poster, item, status=402, offer_amount=200, offer_currency="POINTS")
    assert "need_recharge" in short["errors"]
    assert (await item_of(poster, item["_id"]))["offer_amount"] == 10
    moved = await edit(poster, item, status=400, offer_amount=10, offer_currency="EUR")
    assert moved["errors"] == {
        "offer_currency": "A held reward keeps its currency: close the post and post again to "
        "change it"
    }
    described = (await edit(poster, item, offer_description="A cake"))["item"]
    assert (described["reward_status"], described["reward_held"]) == ("not_held", 0)
    points = await wallet(poster)
    assert (points["wallet_amount"], points["held_amount"]) == (STARTER, 0)


async def test_offers_are_paid_from_the_hold_first_then_from_what_is_available(
    chat_client, smtp_sink
):
    poster, asker = [await member(chat_client, smtp_sink, n) for n in ("Poster", "Asker")]
    group_id = await new_group(poster, is_public=True)
    item = await poster.post_item(
        group_id, "Lamp", offer_amount=10, offer_currency="POINTS", finder_fee_percent=0
    )
    chat_id = await chat_with(asker, item)
    first = await poster.call("/api/giveoffer", {"cs_id": chat_id, "offer_amount": 6})
    assert (first["paid_from_held"], first["paid_from_available"]) == (6, 0)
    split = await poster.call("/api/giveoffer/split", {"cs_id": chat_id, "offer_amount": 10})
    assert (split["from_held"], split["from_available"]) == (4, 6)
    second = await poster.call("/api/giveoffer", {"cs_id": chat_id, "offer_amount": 10})
    assert (second["paid_from_held"], second["paid_from_available"]) == (4, 6)
    assert (second["wallet"]["wallet_amount"], second["wallet"]["held_amount"]) == (85, 0)
    shown = await item_of(asker, item["_id"])
    assert (shown["reward_held"], shown["reward_paid"], shown["reward_paid_count"]) == (0, 16, 2)
    profile = await poster.get("/api/user/profile")
    assert profile["rewards"] == {
        "held": [],
        "paid": [{"currency": "POINTS", "amount": 16, "count": 2}],
    }
    assert (await wallet(asker))["wallet_amount"] == STARTER + 16


async def test_closing_gives_back_what_is_left_once_and_tells_the_poster(chat_client, smtp_sink):
    poster, asker = [await member(chat_client, smtp_sink, n) for n in ("Poster", "Asker")]
    group_id = await new_group(poster, is_public=True)
    item = await poster.post_item(group_id, "Desk", offer_amount=10, offer_currency="POINTS")
    chat_id = await chat_with(asker, item)
    await poster.call("/api/giveoffer", {"cs_id": chat_id, "offer_amount": 5})
    heard: dict[str, list] = {"reward_released": [], "wallet": [], "item": []}
    sio = socketio.AsyncClient(reconnection=False)
    for event, found in heard.items():
        sio.on(event, lambda data, found=found: found.append(data))
    await sio.connect(
        str(chat_client.make_url("/")), auth={"auth_key": poster.key}, transports=["websocket"]
    )
    try:
        closed = (await poster.call("/api/item?action=close", {"item_id": item["_id"]}))["item"]
        assert (closed["closed_reason"], closed["reward_status"]) == ("closed", "released")
        assert isinstance(closed["closed_at"], int) and closed["reward_held"] == 0
        released = {
            "item_id": item["_id"],
            "title": "Desk",
            "amount": 6,
            "currency": "POINTS",
            "reason": "closed",
        }
        assert await eventually(lambda: _first(heard["reward_released"]), released) == released
        assert (
            await eventually(
                lambda: _first([w["wallet"]["held_amount"] for w in heard["wallet"][-1:]]), 0
            )
            == 0
        )
        assert (
            await eventually(
                lambda: _first([i["item"]["reward_status"] for i in heard["item"][-1:]]), "released"
            )
            == "released"
        )
    finally:
        await sio.disconnect()
    again = (await poster.call("/api/item?action=close", {"item_id": item["_id"]}))["item"]
    assert again["closed_at"] == closed["closed_at"]
    entries = await ledger(poster)
    assert [(e["ref_type"], e["title"], e["diff"], e["held_diff"]) for e in entries[:1]] == [
        ("reward_release", "Reward released: 'Desk' closed", 6, -6)
    ]
    assert [e["ref_type"] for e in entries].count("reward_release") == 1
    points = await wallet(poster)
    assert (points["wallet_amount"], points["held_amount"]) == (STARTER - 5, 0)
    refused = await edit(poster, item, status=400, offer_amount=3, offer_currency="POINTS")
    assert refused["errors"] == {"item_id": "This post is closed"}
    # Chats go on: an offer on a closed post comes from what is available.
    late = await poster.call("/api/giveoffer", {"cs_id": chat_id, "offer_amount": 1})
    assert (late["paid_from_held"], late["paid_from_available"]) == (0, 1)
    # More than is available: the refusal says why the hold paid nothing (issue 42, it only
    # said 'You need 9 more points', as if they could be bought).
    short = await poster.call(
        "/api/giveoffer", {"cs_id": chat_id, "offer_amount": STARTER + 4}, status=402
    )
    assert short["errors"] == {
        "need_recharge": "This post is closed, so nothing is held for its reward any more: "
        "offers on it come from your available points. You need 10 more points to give this "
        f"offer. {HOW_POINTS_COME}"
    }


async def _first(found: list):
    return found[0] if found else None


async def test_deleting_and_expiring_give_the_hold_back_once(client_for, smtp_sink, mongo_url):
    prefix = f"test:{uuid.uuid4().hex[:12]}:"  # edges hear each other's changed posts
    edges = [await client_for(redis_prefix=prefix) for _ in range(2)]
    poster = await member(edges[0], smtp_sink, "Poster")
    group_id = await new_group(poster, is_public=True)
    deleted = await poster.post_item(group_id, "Chair", offer_amount=10, offer_currency="POINTS")
    expiring = await poster.post_item(group_id, "Rug", offer_amount=5, offer_currency="POINTS")
    gone = (await poster.call("/api/item?action=delete", {"item_id": deleted["_id"]}))["item"]
    assert (gone["sort_order"], gone["closed_reason"]) == (-1, "deleted")
    mongo = AsyncMongoClient(mongo_url)
    await mongo["agora_test"]["items"].update_one(
        {"_id": expiring["_id"]}, {"$set": {"expires_at": 1}}
    )
    await mongo.close()
    # Both edges sweep at once: the post closes once and gives its hold back once.
    for edge in edges:
        assert await edge.app[ITEMS].expire_due() >= 0
    expired = await item_of(poster, expiring["_id"])
    assert (expired["closed_reason"], expired["reward_status"]) == ("expired", "released")
    releases = [e["title"] for e in await ledger(poster) if e["ref_type"] == "reward_release"]
    assert releases == ["Reward released: 'Rug' expired", "Reward released: 'Chair' deleted"]
    points = await wallet(poster)
    assert (points["wallet_amount"], points["held_amount"]) == (STARTER, 0)


async def test_each_side_reviews_the_other_once_and_moderators_hide_a_reported_review(
    chat_client, smtp_sink, mongo_url
):
    admin, poster, asker, stranger = [
        await member(chat_client, smtp_sink, n) for n in ("Admin", "Poster", "Asker", "Sam")
    ]
    group_id = await new_group(admin, is_public=True)
    item = await poster.post_item(group_id, "Fix my tap", offer_amount=8, offer_currency="POINTS")
    chat_id = await chat_with(asker, item)
    move_id = (await poster.call("/api/giveoffer", {"cs_id": chat_id}))["move_id"]

    before = await asker.call("/api/reviews/offer", {"move_id": move_id})
    assert (before["subject"]["_id"], before["can_review"], before["review"]) == (
        poster.id,
        True,
        None,
    )
    for bad, field in ((0, "rating"), (6, "rating"), ("5", "rating")):
        body = {"move_id": move_id, "rating": bad, "text": "x"}
        reply = await asker.call("/api/review?action=create", body, status=400)
        assert list(reply["errors"]) == [field], reply
    too_long = {"move_id": move_id, "rating": 5, "text": "x" * 501}
    assert "text" in (await asker.call("/api/review?action=create", too_long, status=400))["errors"]
    body = {"move_id": move_id, "rating": 5, "text": "Paid at once"}
    review = (await asker.call("/api/review?action=create", body))["review"]
    assert (review["subject_id"], review["author"]["name"], review["rating"]) == (
        poster.id,
        "Asker",
        5,
    )
    assert review["editable_until"] == review["created_at"] + 7 * DAY_MS
    again = await asker.call("/api/review?action=create", body, status=409)
    assert again["errors"] == {"move_id": "You already reviewed this offer"}
    missing = await stranger.call("/api/review?action=create", body, status=404)
    assert missing["errors"] == {"move_id": "This offer does not exist"}
    await poster.call(
        "/api/review?action=create", {"move_id": move_id, "rating": 4, "text": "Quick"}
    )
    both = await asker.call("/api/reviews/offer", {"move_id": move_id})
    assert (both["can_review"], both["review"]["_id"], both["their_review"]["rating"]) == (
        False,
        review["_id"],
        4,
    )
    # A second offer in the same chat is listed for review beside the first, reviewed one.
    second = (await poster.call("/api/giveoffer", {"cs_id": chat_id}))["move_id"]
    offers = (await asker.call("/api/reviews/chat", {"cs_id": chat_id}))["offers"]
    assert [(o["move_id"], o["amount"], o["currency"], o["reviewed"]) for o in offers] == [
        (move_id, 8, "POINTS", True),
        (second, 8, "POINTS", False),
    ]
    await stranger.call("/api/reviews/chat", {"cs_id": chat_id}, status=404)

    changed = {"review_id": review["_id"], "rating": 3, "text": "Paid, a day late"}
    assert (await asker.call("/api/review?action=update", changed))["review"]["rating"] == 3
    await poster.call("/api/review?action=update", changed, status=403)
    mongo = AsyncMongoClient(mongo_url)
    await mongo["agora_test"]["reviews"].update_one(
        {"_id": review["_id"]}, {"$inc": {"created_at": -8 * DAY_MS}}
    )
    await mongo.close()
    late = await asker.call("/api/review?action=update", changed, status=400)
    assert late["errors"] == {"review_id": "A review can be changed for 7 days after it is written"}

    listed = await chat_client.post("/api/reviews", json={"user_id": poster.id})
    listed = await listed.json()
    assert (listed["count"], listed["average"], len(listed["reviews"])) == (1, 3.0, 1)
    assert (await poster.get("/api/user/profile"))["reviews_summary"] == {
        "count": 1,
        "average": 3.0,
    }

    own = await asker.call("/api/review?action=report", {"review_id": review["_id"]}, status=400)
    assert own["errors"] == {"review_id": "You cannot report your own review"}
    report = {"review_id": review["_id"], "reason": "Not true"}
    for _ in range(2):
        assert (await stranger.call("/api/review?action=report", report))["success"] is True
    await poster.call("/api/reviews/reported", {"group_id": group_id}, status=403)
    reported = await admin.call("/api/reviews/reported", {"group_id": group_id})
    assert reported["not_hidden_count"] == 1
    reported = reported["reviews"]
    assert [(r["_id"], r["reports_count"]) for r in reported] == [(review["_id"], 1)]
    assert reported[0]["reports"][0]["reason"] == "Not true"
    hide = {"review_id": review["_id"], "hidden": True}
    refused = await poster.call("/api/review?action=hide", hide, status=403)
    assert refused["errors"] == {"review_id": "Only the group's moderators can hide a review"}
    assert (await admin.call("/api/review?action=hide", hide))["review"]["hidden"] is True
    after = await admin.call("/api/reviews/reported", {"group_id": group_id})
    assert (after["not_hidden_count"], len(after["reviews"])) == (0, 1)
    hidden = await (await chat_client.post("/api/reviews", json={"user_id": poster.id})).json()
    assert (hidden["count"], hidden["average"], hidden["reviews"]) == (0, None, [])
    assert (await stranger.get(f"/api/users/{poster.id}/profile"))["reviews_summary"] == {
        "count": 0,
        "average": None,
    }
    assert (await poster.call("/api/reviews/offer", {"move_id": move_id}))["their_review"] is None
    await stranger.call("/api/reviews/offer", {"move_id": move_id}, status=404)
    await stranger.get(f"/api/users/{uuid.uuid4().hex[:24]}/profile", status=404)


async def test_a_private_groups_rewards_and_reviews_show_in_full_only_to_who_may_read_it(
    chat_client, smtp_sink
):
    """Issue 41, items 2 and 3: what anyone may read of a person (their profile, their
    reviews) counts a private group's rewards only for those who may read the group, and
    names its posts and tells its reviews' text only to them."""
    admin, poster, helper, stranger = [
        await member(chat_client, smtp_sink, n) for n in ("Admin", "Poster", "Helper", "Sam")
    ]
    private = await new_group(admin)
    for person in (poster, helper):
        await person.call("/api/group?action=join", {"group_id": private})
        approve = {"session_id": private, "for_user_id": person.id, "action": "approve"}
        await admin.call("/session/user/update", approve)
    secret = await poster.post_item(
        private, "Boiler", offer_amount=7, offer_currency="POINTS", finder_fee_percent=20
    )
    chat_id = await chat_with(helper, secret)
    move_id = (await poster.call("/api/giveoffer", {"cs_id": chat_id, "offer_amount": 3}))[
        "move_id"
    ]
    text = "Fixed the boiler in the co-op's cellar"
    await helper.call("/api/review?action=create", {"move_id": move_id, "rating": 4, "text": text})
    public = await new_group(admin, is_public=True)
    await poster.post_item(public, "Shelf", offer_amount=5, offer_currency="POINTS")

    everything = {
        "held": [{"currency": "POINTS", "amount": 10.9}],  # 8.4 - 3 + 5.5
        "paid": [{"currency": "POINTS", "amount": 3, "count": 1}],
    }
    public_only = {"held": [{"currency": "POINTS", "amount": 5.5}], "paid": []}
    assert (await poster.get("/api/user/profile"))["rewards"] == everything

    async def profile(viewer: Member | None) -> dict:
        path = f"/api/users/{poster.id}/profile"
        if viewer is None:
            return (await (await chat_client.get(path)).json())["rewards"]
        return (await viewer.get(path))["rewards"]

    async def reviews(viewer: Member | None) -> dict:
        body = {"user_id": poster.id}
        if viewer is None:
            return await visitor_call(chat_client, "/api/reviews", body)
        return await viewer.call("/api/reviews", body)

    for viewer in (None, stranger):
        assert await profile(viewer) == public_only
        listed = await reviews(viewer)
        assert (listed["count"], listed["average"]) == (1, 4.0)
        [shown] = listed["reviews"]
        assert {k: shown[k] for k in ("item_id", "group_id", "text", "private", "rating")} == {
            "item_id": None,
            "group_id": None,
            "text": None,
            "private": True,
            "rating": 4,
        }
        assert shown["author"]["name"] == "Helper"
    # The group's members (the helper, the admin), and the person reviewed, read it all.
    for viewer in (helper, admin, poster):
        assert await profile(viewer) == everything
        shown = (await reviews(viewer))["reviews"][0]
        assert (shown["item_id"], shown["group_id"], shown["text"], shown["private"]) == (
            secret["_id"],
            private,
            text,
            False,
        )


async def test_a_review_is_hidden_by_another_moderator_never_by_the_one_it_is_about(
    chat_client, smtp_sink, mongo_url
):
    """Issue 41, item 4: a group's admin reviewed with one star hid that review and their
    rating rose. Nobody moderates a review of themselves; another of the group's moderators
    does, and who hid it (or showed it again) last, and when, is kept."""
    admin, helper, moderator = [
        await member(chat_client, smtp_sink, n) for n in ("Admin", "Helper", "Mo")
    ]
    group_id = await new_group(admin, is_public=True)
    await moderator.call("/api/group?action=join", {"group_id": group_id})
    promote = {"session_id": group_id, "for_user_id": moderator.id, "action": "make_moderator"}
    await admin.call("/session/user/update", promote)
    kept = await admin.post_item(
        group_id, "Paint the hall", offer_amount=8, offer_currency="POINTS"
    )
    move_id = (await admin.call("/api/giveoffer", {"cs_id": await chat_with(helper, kept)}))[
        "move_id"
    ]
    body = {"move_id": move_id, "rating": 1, "text": "Paid a week late"}
    review = (await helper.call("/api/review?action=create", body))["review"]
    await moderator.call("/api/review?action=report", {"review_id": review["_id"]})

    hide = {"review_id": review["_id"], "hidden": True}
    refused = await admin.call("/api/review?action=hide", hide, status=403)
    assert refused["errors"] == {
        "review_id": "Another of the group's moderators decides on a review of you"
    }
    listed = await visitor_call(chat_client, "/api/reviews", {"user_id": admin.id})
    assert (listed["count"], listed["average"]) == (1, 1.0)

    hidden = (await moderator.call("/api/review?action=hide", hide))["review"]
    assert hidden["hidden"] is True
    assert hidden["hidden_by"] == {"_id": moderator.id, "name": "Mo", "image": ""}
    mongo = AsyncMongoClient(mongo_url)
    stored = await mongo["agora_test"]["reviews"].find_one({"_id": review["_id"]})
    await mongo.close()
    assert (stored["hidden_by"], stored["hidden_at"]) == (moderator.id, hidden["hidden_at"])
    reported = await admin.call("/api/reviews/reported", {"group_id": group_id})
    assert reported["reviews"][0]["hidden_by"]["_id"] == moderator.id
    # Nor does the one it is about show it again.
    show = {"review_id": review["_id"], "hidden": False}
    await admin.call("/api/review?action=hide", show, status=403)
    assert (await moderator.call("/api/review?action=hide", show))["review"]["hidden"] is False
