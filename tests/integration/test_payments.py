"""Card payments against a real edge, the MongoDB-wire server, Redis and the real `stripe`
library talking to a local Stripe stand-in that signs its webhooks as Stripe does."""

import asyncio
import copy
import time
import uuid

import pytest
from aiohttp.test_utils import TestClient

from agora.app import build_services
from agora.core.accounts import EMAIL_FIELD, Identifier
from agora.services.accounts import Caller
from agora.store.mongo import connect_mongo, database
from agora.store.redis import connect_redis
from tests.integration.helpers import Member, bearer, member, new_group
from tests.integration.money_units import HalfWay, edge_services
from tests.stripe_standin import (
    DECLINE_MESSAGE,
    SECRET_KEY,
    WEBHOOK_SECRET,
    StripeStandin,
    sign,
)

BASE = "http://127.0.0.1:8080"
UNAVAILABLE = "Card payments are not available"
PAYMENT_SETTINGS = {"stripe_secret_key": SECRET_KEY, "stripe_webhook_secret": WEBHOOK_SECRET}


@pytest.fixture(scope="session")
async def standin():
    stripe = await StripeStandin().start()
    yield stripe
    await stripe.stop()


@pytest.fixture
async def pay_client(client_for, standin) -> TestClient:
    """An edge with card payments on; hosted pages report to its webhook."""
    client = await client_for(**PAYMENT_SETTINGS, stripe_api_base=standin.base_url)
    standin.webhook_url = webhook_url(client)
    return client


def webhook_url(client: TestClient) -> str:
    return str(client.make_url("/webhooks/stripe"))


async def deliver(standin: StripeStandin, client: TestClient, event: dict, **how) -> int:
    status, _ = await standin.deliver(event, webhook_url(client), **how)
    return status


async def balance(user: Member, currency: str) -> float:
    wallets = (await user.get("/api/user/profile"))["user_wallets"]
    return next((w["wallet_amount"] for w in wallets if w["wallet_currency"] == currency), 0)


async def wallet(user: Member, currency: str) -> dict | None:
    wallets = (await user.get("/api/user/profile"))["user_wallets"]
    return next((w for w in wallets if w["wallet_currency"] == currency), None)


async def ledger(user: Member, currency: str) -> list[dict]:
    query = f"wallet_user_id={user.id}&wallet_for=user&wallet_currency={currency}"
    return (await user.get(f"/api/wallet/ledger?{query}"))["ledger_entries"]


async def recharge(user: Member, status: int = 200, **body) -> dict:
    return await user.call("/api/recharge", body, status=status)


async def recharged(user: Member, standin: StripeStandin, amount: float, currency="USD") -> str:
    """A paid recharge whose webhook arrived: the wallet holds `amount` more."""
    checkout = (await recharge(user, amount=amount, currency=currency))["stripe_checkout_data"]
    for event in standin.complete_checkout(checkout["id"]):
        assert await deliver(standin, user.client, event) == 200
    return checkout["id"]


async def status_of(user: Member, checkout_id: str, status: int = 200) -> dict:
    return await user.get(f"/api/recharge/status?session_id={checkout_id}", status=status)


async def withdraw(user: Member, currency="USD", status: int = 200, **body) -> dict:
    body = {"wallet_for": "user", "wallet_currency": currency, **body}
    return await user.call("/api/wallet/withdraw", body, status=status)


async def connected(user: Member, standin: StripeStandin) -> str:
    """Onboards the user's connected account the way Stripe reports it: a webhook."""
    assert "redirect" in await withdraw(user)
    account_id = standin.account_links[-1]["account"]
    assert await deliver(standin, user.client, standin.complete_onboarding(account_id)) == 200
    return account_id


# Recharge ---------------------------------------------------------------------------


async def test_recharge_is_credited_once_however_often_and_in_whatever_order_delivered(
    pay_client, smtp_sink, standin
):
    ada = await member(pay_client, smtp_sink)
    data = (await recharge(ada))["stripe_checkout_data"]
    checkout = standin.objects[data["id"]]
    assert data["url"] == checkout["url"]
    assert (checkout["mode"], checkout["amount_total"], checkout["currency"]) == (
        "payment",
        1000,
        "usd",
    )
    assert checkout["metadata"] == {
        "kind": "recharge",
        "user_id": ada.id,
        "currency": "USD",
        "amount": "1000",
    }
    assert checkout["success_url"] == (
        f"{BASE}/afterpayment/stripe?session_id={{CHECKOUT_SESSION_ID}}"
    )
    assert checkout["cancel_url"] == f"{BASE}/recharge?amount=10&currency=USD"
    assert (await status_of(ada, data["id"]))["status"] == "pending"

    [completed] = standin.complete_checkout(data["id"])
    unrelated = standin.emit("payment_intent.succeeded", {"id": "pi_x", "object": "payment_intent"})
    # Not sent by Stripe for a card payment, but it names the same checkout: still one credit.
    succeeded = standin.emit("checkout.session.async_payment_succeeded", checkout)
    for event in (unrelated, succeeded, completed, unrelated, completed):
        assert await deliver(standin, pay_client, event) == 200
    statuses = await asyncio.gather(
        *(deliver(standin, pay_client, e) for e in [completed, succeeded] * 3)
    )
    assert set(statuses) == {200}

    assert await balance(ada, "USD") == 10
    entries = await ledger(ada, "USD")
    assert [(e["ref_type"], e["diff"], e["change_to"]) for e in entries] == [("recharge", 10, 10)]
    done = await status_of(ada, data["id"])
    assert (done["status"], done["wallet"]["wallet_amount"]) == ("paid", 10)


async def test_a_recharge_stopped_half_way_credits_nothing_and_is_credited_once_when_redelivered(
    settings_for, standin
):
    settings = settings_for(
        **PAYMENT_SETTINGS, stripe_api_base=standin.base_url, mongo_transactions="on"
    )
    halfway = HalfWay()
    async with edge_services(settings, halfway) as built:
        payments = built.services.payments
        try:
            ident = Identifier(EMAIL_FIELD, f"half-{uuid.uuid4().hex[:10]}@example.org")
            ada = await built.users.create(ident, "Ada")
            caller = Caller(user=ada, key_hash="")
            checkout = (await payments.recharge(caller, 10, "USD"))["stripe_checkout_data"]
            [completed] = standin.complete_checkout(checkout["id"])
            body = standin.payload(completed)
            key = f"stripe-checkout:{checkout['id']}"

            # The edge records the credit's money move, then stops before the ledger entry.
            handling = asyncio.create_task(
                payments.handle_webhook(body.encode(), sign(body, WEBHOOK_SECRET))
            )
            halfway.doom(handling, "money_moves", lambda move: move["key"] == key)
            with pytest.raises(asyncio.CancelledError):
                await handling
            assert halfway.stopped == [handling]
            assert await payments.wallets.store.move_with_key(key) is None
            assert await payments.wallets.balance_cents(ada["_id"], "USD") == 0
            assert (await payments.recharges.get(checkout["id"]))["state"] == "open"

            # Unanswered, Stripe delivers the event again: credited once, the recharge with it.
            for _ in range(2):
                reply = await payments.handle_webhook(body.encode(), sign(body, WEBHOOK_SECRET))
                assert reply == {"received": True}
            assert (await payments.wallets.store.move_with_key(key))["state"] == "done"
            assert await payments.wallets.balance_cents(ada["_id"], "USD") == 1000
            assert (await payments.recharges.get(checkout["id"]))["state"] == "credited"
        finally:
            await payments.gateway.close()


async def test_a_delayed_payment_is_credited_when_it_succeeds(pay_client, smtp_sink, standin):
    ada = await member(pay_client, smtp_sink)
    data = (await recharge(ada, amount="12.5", currency="eur"))["stripe_checkout_data"]
    [completed] = standin.complete_checkout(data["id"], paid=False)
    assert await deliver(standin, pay_client, completed) == 200
    assert await balance(ada, "EUR") == 0
    assert await deliver(standin, pay_client, standin.succeed_async_payment(data["id"])) == 200
    assert await balance(ada, "EUR") == 12.5


@pytest.mark.parametrize(
    "body, field",
    [
        ({"amount": 0}, "amount"),
        ({"amount": -5}, "amount"),
        ({"amount": "ten"}, "amount"),
        ({"amount": 10.555}, "amount"),
        ({"amount": 0.5}, "amount"),
        ({"amount": 10_001}, "amount"),
        ({"amount": 1e12}, "amount"),
        ({"amount": True}, "amount"),
        ({"amount": [10]}, "amount"),
        ({"currency": "POINTS"}, "currency"),
        ({"currency": "XYZ"}, "currency"),
        ({"currency": 5}, "currency"),
        ({"tip": 1}, "tip"),
    ],
)
async def test_recharge_refuses_bad_input(pay_client, smtp_sink, body, field):
    ada = await member(pay_client, smtp_sink)
    reply = await recharge(ada, status=400, **body)
    assert field in reply["errors"]


async def test_recharge_needs_login(pay_client):
    reply = await pay_client.post("/api/recharge", json={})
    assert reply.status == 401
    assert (await reply.json())["need_user"] is True


async def test_forged_tampered_and_stale_webhooks_change_nothing(pay_client, smtp_sink, standin):
    ada = await member(pay_client, smtp_sink)
    data = (await recharge(ada, amount=20))["stripe_checkout_data"]
    [completed] = standin.complete_checkout(data["id"])
    forged = copy.deepcopy(completed)
    forged["data"]["object"]["amount_total"] = 2_000_000
    tampered = standin.payload(completed).replace('"amount_total": 2000', '"amount_total": 2001')
    assert tampered != standin.payload(completed)
    attempts = [
        {"secret": "whsec_not_ours"},
        {"payload": tampered},
        {"timestamp": int(time.time()) - 301},
        {"timestamp": int(time.time()) - 3600},
    ]
    for how in attempts:
        assert await deliver(standin, pay_client, completed, **how) == 400, how
    assert await deliver(standin, pay_client, forged, secret="whsec_not_ours") == 400
    for headers in ({}, {"Stripe-Signature": "t=1,v1=00"}, {"Stripe-Signature": "garbage"}):
        reply = await pay_client.post("/webhooks/stripe", data=b"{not json", headers=headers)
        assert reply.status == 400
        assert "errors" in await reply.json()
    assert await balance(ada, "USD") == 0
    assert (await status_of(ada, data["id"]))["status"] == "pending"

    # The genuine delivery still counts: refusals remembered nothing.
    assert await deliver(standin, pay_client, completed) == 200
    assert await balance(ada, "USD") == 20


@pytest.mark.parametrize("depth", [1_200, 40])
async def test_a_signed_event_nested_too_deeply_is_refused(pay_client, standin, depth):
    """Stripe's events are read with the edge's depth cap too (they nest about ten levels)."""
    nested = "[" * depth + "]" * depth
    body = (
        f'{{"id": "evt_deep_{depth}", "object": "event", "type": "checkout.session.completed",'
        f' "created": 1, "data": {{"object": {{"metadata": {nested}}}}}}}'
    )
    reply = await pay_client.post(
        "/webhooks/stripe",
        data=body.encode(),
        headers={
            "Content-Type": "application/json",
            "Stripe-Signature": sign(body, WEBHOOK_SECRET),
        },
    )
    assert reply.status == 400, await reply.text()
    assert "errors" in await reply.json()


async def test_a_payment_that_does_not_match_the_recharge_is_not_credited(
    pay_client, smtp_sink, standin
):
    ada = await member(pay_client, smtp_sink)
    data = (await recharge(ada, amount=10, currency="GBP"))["stripe_checkout_data"]
    [completed] = standin.complete_checkout(data["id"])
    other_amount = copy.deepcopy(completed)
    other_amount["data"]["object"]["amount_total"] = 100_000
    other_currency = copy.deepcopy(completed)
    other_currency["data"]["object"]["currency"] = "usd"
    for event in (other_amount, other_currency):
        event["id"] = f"evt_test_{uuid.uuid4().hex}"
        assert await deliver(standin, pay_client, event) == 200
    assert await balance(ada, "GBP") == 0
    assert await balance(ada, "USD") == 0
    reply = await status_of(ada, data["id"])
    assert reply["status"] == "failed"
    assert "does not match" in reply["message"]


async def test_payment_status_shows_the_providers_message(pay_client, smtp_sink, standin):
    ada = await member(pay_client, smtp_sink)
    declined = (await recharge(ada))["stripe_checkout_data"]["id"]
    standin.decline_checkout(declined)
    reply = await status_of(ada, declined)
    assert (reply["status"], reply["message"]) == ("failed", DECLINE_MESSAGE)

    expired = (await recharge(ada))["stripe_checkout_data"]["id"]
    assert await deliver(standin, pay_client, standin.expire_checkout(expired)) == 200
    assert (await status_of(ada, expired))["status"] == "failed"

    eve = await member(pay_client, smtp_sink, "Eve")
    await status_of(eve, declined, status=404)
    await status_of(eve, "cs_test_unknown", status=404)
    assert "session_id" in (await eve.get("/api/recharge/status", status=400))["errors"]


async def test_the_hosted_checkout_page_pays_and_returns(pay_client, smtp_sink, standin):
    ada = await member(pay_client, smtp_sink)
    url = (await recharge(ada, amount=15))["stripe_checkout_data"]["url"]
    async with pay_client.session.get(url) as page:
        assert page.status == 200
        assert "Pay" in await page.text()
    form = {"cardnumber": "4000 0000 0000 0002", "expiry": "12 / 34", "cvc": "123"}
    async with pay_client.session.post(url, data=form, allow_redirects=False) as declined:
        assert declined.status == 402
        assert DECLINE_MESSAGE in await declined.text()
    form["cardnumber"] = "4242 4242 4242 4242"
    async with pay_client.session.post(url, data=form, allow_redirects=False) as paid:
        assert paid.status == 303
        checkout_id = url.rsplit("/", 1)[1]
        assert paid.headers["Location"] == f"{BASE}/afterpayment/stripe?session_id={checkout_id}"
    assert (await status_of(ada, checkout_id))["status"] == "paid"
    assert await balance(ada, "USD") == 15


# Withdrawal -------------------------------------------------------------------------


async def test_points_cannot_be_withdrawn(pay_client, smtp_sink):
    ada = await member(pay_client, smtp_sink)
    reply = await withdraw(ada, "POINTS", status=400)
    assert reply["errors"] == "You cannot withdraw points"
    assert "wallet_for" in (await withdraw(ada, wallet_for="group", status=400))["errors"]
    assert "wallet_currency" in (await withdraw(ada, "XYZ", status=400))["errors"]
    assert "request_id" in (await withdraw(ada, request_id="", status=400))["errors"]


async def test_onboarding_then_the_whole_balance_is_transferred_once(
    pay_client, smtp_sink, standin
):
    ada = await member(pay_client, smtp_sink)
    await recharged(ada, standin, 30)
    first = await withdraw(ada)
    again = await withdraw(ada)
    links = [link for link in standin.account_links if link["url"] == first["redirect"]]
    assert again["redirect"] == first["redirect"] == links[-1]["url"]
    assert {link["account"] for link in links} == {links[0]["account"]}  # one account
    # Asked for the whole balance: the set-up comes back to withdrawing it from that wallet.
    assert links[-1]["return_url"] == f"{BASE}/profile?can_withdraw=1&withdraw_currency=USD"
    assert links[-1]["refresh_url"] == f"{BASE}/profile?retry_withdraw=1&withdraw_currency=USD"
    assert links[-1]["type"] == "account_onboarding"
    usd = await wallet(ada, "USD")
    assert usd["data"]["stripe_connected_account_charge_enabled"] is False

    # Asked for an amount: the way back carries it, not to be typed again (issue 42).
    await withdraw(ada, amount="12.5")
    back = "/profile?can_withdraw=1&withdraw_currency=USD&withdraw_amount=12.5"
    assert standin.account_links[-1]["return_url"] == f"{BASE}{back}"

    account_id = links[0]["account"]
    enabled = standin.complete_onboarding(account_id)
    assert await deliver(standin, pay_client, enabled) == 200
    usd = await wallet(ada, "USD")
    assert usd["data"]["stripe_connected_account_charge_enabled"] is True
    # An older account.updated (still disabled) arriving late changes nothing.
    older = standin.emit(
        "account.updated",
        {**enabled["data"]["object"], "charges_enabled": False, "payouts_enabled": False},
        created=int(time.time()) - 60,
    )
    assert await deliver(standin, pay_client, older) == 200
    assert (await wallet(ada, "USD"))["data"]["stripe_connected_account_charge_enabled"] is True

    replies = await asyncio.gather(
        *(
            ada.client.post(
                "/api/wallet/withdraw",
                json={"wallet_for": "user", "wallet_currency": "USD", "request_id": "w-1"},
                headers=bearer(ada.key),
            )
            for _ in range(20)
        )
    )
    bodies = [await r.json() for r in replies]
    assert {r.status for r in replies} == {200}, bodies
    assert {b["wallet"]["wallet_amount"] for b in bodies} == {0}
    transfers = [t for t in standin.transfers() if t["destination"] == account_id]
    assert [(t["amount"], t["currency"]) for t in transfers] == [(3000, "usd")]
    entries = await ledger(ada, "USD")
    assert [(e["ref_type"], e["diff"], e["change_to"]) for e in entries] == [
        ("withdraw", -30, 0),
        ("recharge", 30, 30),
    ]
    assert (await withdraw(ada, request_id="w-1"))["success"] is True
    assert (await withdraw(ada, status=400))["errors"] == "Nothing to withdraw"
    assert len([t for t in standin.transfers() if t["destination"] == account_id]) == 1


async def test_simultaneous_withdrawals_pay_the_balance_once(pay_client, smtp_sink, standin):
    ada = await member(pay_client, smtp_sink)
    account_id = await connected(ada, standin)
    await recharged(ada, standin, 8, "INR")
    replies = await asyncio.gather(
        *(
            ada.client.post(
                "/api/wallet/withdraw",
                json={"wallet_for": "user", "wallet_currency": "INR"},
                headers=bearer(ada.key),
            )
            for _ in range(10)
        )
    )
    assert sorted(r.status for r in replies) == [200] + [400] * 9
    transfers = [t for t in standin.transfers() if t["destination"] == account_id]
    assert [(t["amount"], t["currency"]) for t in transfers] == [(800, "inr")]
    assert await balance(ada, "INR") == 0


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        (0, "The amount must be more than 0"),
        (-5, "The amount must be more than 0"),
        (1.234, "At most 2 decimals"),
        ("ten", "Enter the amount as a number"),
        (True, None),
    ],
)
async def test_a_withdrawal_amount_is_checked_before_anything_moves(
    pay_client, smtp_sink, amount, message
):
    ada = await member(pay_client, smtp_sink)
    # Refused before the payout account is even looked at (no onboarding redirect).
    errors = (await withdraw(ada, amount=amount, status=400))["errors"]
    assert "amount" in errors
    if message is not None:
        assert errors["amount"] == message


async def test_a_chosen_amount_is_withdrawn_once_and_the_rest_stays(pay_client, smtp_sink, standin):
    ada = await member(pay_client, smtp_sink)
    account_id = await connected(ada, standin)
    await recharged(ada, standin, 30)

    def paid() -> list[tuple[int, str]]:
        return [
            (t["amount"], t["currency"])
            for t in standin.transfers()
            if t["destination"] == account_id
        ]

    reply = await withdraw(ada, amount=12.5, request_id="part-1")
    assert reply["success"] is True
    assert reply["wallet"]["wallet_amount"] == 17.5
    assert paid() == [(1250, "usd")]

    # A double submit (the same request sent again while the first is under way) pays once.
    body = {
        "wallet_for": "user",
        "wallet_currency": "USD",
        "amount": "7.50",
        "request_id": "part-2",
    }
    replies = await asyncio.gather(
        *(
            ada.client.post("/api/wallet/withdraw", json=body, headers=bearer(ada.key))
            for _ in range(8)
        )
    )
    bodies = [await r.json() for r in replies]
    assert {r.status for r in replies} == {200}, bodies
    assert {b["wallet"]["wallet_amount"] for b in bodies} == {10}
    assert paid() == [(1250, "usd"), (750, "usd")]
    # The same request_id asking for another amount is a client's mistake, not a retry.
    reused = await withdraw(ada, amount=5, request_id="part-2", status=409)
    assert "request_id" in reused["errors"]

    # More than the wallet holds is refused, saying how much it holds; nothing moves.
    too_much = await withdraw(ada, amount=10.01, status=400)
    assert too_much["errors"] == {"amount": "You can withdraw at most $10"}
    assert await balance(ada, "USD") == 10

    assert (await withdraw(ada, amount=10))["wallet"]["wallet_amount"] == 0
    assert (await withdraw(ada, amount=1, status=400))["errors"] == "Nothing to withdraw"
    assert paid() == [(1250, "usd"), (750, "usd"), (1000, "usd")]
    entries = await ledger(ada, "USD")
    assert [(e["ref_type"], e["diff"], e["change_to"]) for e in entries] == [
        ("withdraw", -10, 0),
        ("withdraw", -7.5, 10),
        ("withdraw", -12.5, 17.5),
        ("recharge", 30, 30),
    ]


async def test_simultaneous_withdrawals_of_amounts_never_take_more_than_the_balance(
    pay_client, smtp_sink, standin
):
    ada = await member(pay_client, smtp_sink)
    account_id = await connected(ada, standin)
    await recharged(ada, standin, 8, "EUR")
    body = {"wallet_for": "user", "wallet_currency": "EUR", "amount": 5}
    replies = await asyncio.gather(
        *(
            ada.client.post("/api/wallet/withdraw", json=body, headers=bearer(ada.key))
            for _ in range(6)
        )
    )
    assert sorted(r.status for r in replies) == [200] + [400] * 5
    refusals = [(await r.json())["errors"] for r in replies if r.status == 400]
    assert {str(errors) for errors in refusals} == {str({"amount": "You can withdraw at most €3"})}
    transfers = [t for t in standin.transfers() if t["destination"] == account_id]
    assert [(t["amount"], t["currency"]) for t in transfers] == [(500, "eur")]
    assert await balance(ada, "EUR") == 3


async def test_a_refused_transfer_gives_the_money_back(pay_client, smtp_sink, standin):
    ada = await member(pay_client, smtp_sink)
    account_id = await connected(ada, standin)
    await recharged(ada, standin, 25, "CAD")
    standin.available["cad"] = 100
    try:
        reply = await withdraw(ada, "CAD", status=502)
    finally:
        del standin.available["cad"]
    assert reply["errors"].startswith("You have insufficient available funds")
    assert await balance(ada, "CAD") == 25
    entries = await ledger(ada, "CAD")
    assert [(e["ref_type"], e["diff"], e["change_to"]) for e in entries] == [
        ("reversal", 25, 25),
        ("withdraw", -25, 0),
        ("recharge", 25, 25),
    ]
    assert not [t for t in standin.transfers() if t["destination"] == account_id]

    assert (await withdraw(ada, "CAD"))["wallet"]["wallet_amount"] == 0
    transfers = [t for t in standin.transfers() if t["destination"] == account_id]
    assert [(t["amount"], t["currency"]) for t in transfers] == [(2500, "cad")]


# Group subscription -------------------------------------------------------------------


async def group_status(client_for, user: Member, group_id: str) -> int:
    """Read through another edge: each edge may keep a group's document for a second."""
    other = await client_for()
    reply = await other.post("/api/group", json={"group_id": group_id}, headers=bearer(user.key))
    assert reply.status == 200
    return (await reply.json())["group"]["data"]["subscription_status"]


async def manage(user: Member, group_id: str, status: int = 200) -> dict:
    body = {"group_id": group_id}
    return await user.call("/api/group?action=manage_subscription", body, status=status)


async def test_group_subscription_follows_its_events_in_any_order(
    pay_client, client_for, smtp_sink, standin
):
    admin = await member(pay_client, smtp_sink, "Ada")
    other = await member(pay_client, smtp_sink, "Bob")
    # Created first, so a write aimed at the wrong group would likely land on it.
    bystander = await new_group(admin)
    group_id = await new_group(admin, is_public=True)
    await other.call("/api/group?action=join", {"group_id": group_id})
    await manage(other, group_id, status=403)
    await manage(admin, "no-such-group", status=404)
    assert "group_id" in (await manage(admin, "", status=400))["errors"]

    url = (await manage(admin, group_id))["redirect_url"]
    checkout = next(o for o in standin.objects.values() if o.get("url") == url)
    assert checkout["mode"] == "subscription"
    assert checkout["metadata"]["group_id"] == group_id
    events = standin.complete_checkout(checkout["id"])
    assert [e["type"] for e in events] == [
        "customer.created",
        "customer.subscription.created",
        "checkout.session.completed",
    ]
    # The checkout's event first: it names the customer, whom a new checkout would reuse.
    assert await deliver(standin, pay_client, events[-1]) == 200
    retry = (await manage(admin, group_id))["redirect_url"]
    assert (
        next(o for o in standin.objects.values() if o.get("url") == retry)["customer"]
        == (checkout["customer"])
    )
    for event in reversed(events):
        assert await deliver(standin, pay_client, event) == 200
    assert await group_status(client_for, admin, group_id) == 1
    assert await group_status(client_for, admin, bystander) == 0

    subscription_id = checkout["subscription"]
    started = events[1]["created"]
    late = standin.update_subscription(subscription_id, "incomplete", created=started - 60)
    standin.objects[subscription_id]["status"] = "active"
    assert await deliver(standin, pay_client, late) == 200
    assert await group_status(client_for, admin, group_id) == 1

    portal = (await manage(admin, group_id))["redirect_url"]
    assert portal.startswith(f"{standin.base_url}/portal/")
    # Deleted in the same second as it was created: the deletion still wins.
    deleted = standin.cancel_subscription(subscription_id, created=started)
    renewed = standin.update_subscription(subscription_id, "active", created=started)
    for event in (deleted, renewed, late):
        assert await deliver(standin, pay_client, event) == 200
    assert await group_status(client_for, admin, group_id) == 0

    again = (await manage(admin, group_id))["redirect_url"]
    second = next(o for o in standin.objects.values() if o.get("url") == again)
    assert second["mode"] == "subscription"
    assert second["customer"] == checkout["customer"]


# Without Stripe -------------------------------------------------------------------------


async def test_without_a_stripe_key_card_calls_say_so_and_the_rest_works(
    client, smtp_sink, standin
):
    ada = await member(client, smtp_sink)
    assert (await recharge(ada, status=503))["errors"] == UNAVAILABLE
    # A bad amount or currency is the caller's mistake whatever the server lacks: a 400.
    refused = await recharge(ada, amount=-10, currency="USD", status=400)
    assert set(refused["errors"]) == {"amount"}
    refused = await recharge(ada, amount=10, currency="XXX", status=400)
    assert set(refused["errors"]) == {"currency"}
    assert (await withdraw(ada, status=503))["errors"] == UNAVAILABLE
    assert (await withdraw(ada, "POINTS", status=400))["errors"] == "You cannot withdraw points"
    group_id = await new_group(ada)
    assert (await manage(ada, group_id, status=503))["errors"] == UNAVAILABLE
    event = standin.emit("checkout.session.completed", {"id": "cs_x", "object": "x"})
    status, reply = await standin.deliver(event, webhook_url(client))
    assert (status, reply["errors"]) == (503, UNAVAILABLE)
    assert await balance(ada, "POINTS") > 0
    assert await ledger(ada, "USD") == []


async def test_a_payout_an_edge_died_before_is_paid_by_the_sweep(
    pay_client, smtp_sink, standin, settings_for
):
    ada = await member(pay_client, smtp_sink)
    account_id = await connected(ada, standin)
    await recharged(ada, standin, 30, "EUR")
    # Another edge of the deployment debits a withdrawal, then dies before paying it out.
    settings = settings_for(**PAYMENT_SETTINGS, stripe_api_base=standin.base_url)
    mongo, redis = connect_mongo(settings), connect_redis(settings)
    edges = [build_services(settings, database(mongo, settings), redis).services for _ in "ab"]
    dead, sweeper = edges
    try:
        move = await dead.wallets.begin_withdrawal(
            key=f"withdraw:{ada.id}:EUR:lost", user_id=ada.id, currency="EUR"
        )
        assert move is not None and move["state"] == "paying"
        assert await balance(ada, "EUR") == 0
        assert not [t for t in standin.transfers() if t["destination"] == account_id]

        assert await sweeper.payments.resume_stalled_payouts(older_than_ms=0) == 1
        assert await sweeper.payments.resume_stalled_payouts(older_than_ms=0) == 0
    finally:
        for edge in edges:
            await edge.payments.gateway.close()
        await redis.aclose()
        await mongo.close()
    transfers = [t for t in standin.transfers() if t["destination"] == account_id]
    assert [(t["amount"], t["currency"]) for t in transfers] == [(3000, "eur")]
    assert [(e["ref_type"], e["diff"]) for e in await ledger(ada, "EUR")] == [
        ("withdraw", -30),
        ("recharge", 30),
    ]
