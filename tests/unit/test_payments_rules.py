import time

import pytest
import stripe

from agora.core.errors import InvalidInput
from agora.core.payments import (
    card_currency,
    checkout_mismatch,
    event_marker,
    fetched_marker,
    payouts_ready,
    recharge_cents,
    recharge_query,
    subscription_status,
    withdrawal_currency,
    withdrawal_query,
)
from tests.stripe_standin import decode_form, sign


def test_recharge_amounts_are_exact_cents_within_bounds():
    assert recharge_cents(None) == 1000
    assert recharge_cents("12.5") == 1250
    for bad in ("0.99", "10000.01", "1.005", "abc", "-3", "NaN", "Infinity"):
        with pytest.raises(InvalidInput) as refused:
            recharge_cents(bad)
        assert "amount" in refused.value.errors


def test_card_currencies_and_withdrawals():
    assert card_currency(None, "currency") == "USD"
    assert card_currency("cad", "currency") == "CAD"
    with pytest.raises(InvalidInput):
        card_currency("POINTS", "currency")
    with pytest.raises(InvalidInput) as points:
        withdrawal_currency("user", "points")
    assert points.value.errors == "You cannot withdraw points"
    with pytest.raises(InvalidInput):
        withdrawal_currency("group", "USD")
    assert recharge_query(1050, "EUR") == "amount=10.5&currency=EUR"
    assert withdrawal_query("EUR", 500) == "withdraw_currency=EUR&withdraw_amount=5"
    assert withdrawal_query("USD", None) == "withdraw_currency=USD"


def test_a_checkout_must_match_its_recharge():
    recharge = {"amount_cents": 1000, "currency": "USD"}
    assert checkout_mismatch(recharge, {"amount_total": 1000, "currency": "usd"}) is None
    assert checkout_mismatch(recharge, {"amount_total": 999, "currency": "usd"})
    assert checkout_mismatch(recharge, {"amount_total": 1000, "currency": "eur"})
    assert checkout_mismatch(recharge, {})


def test_event_markers_order_by_second_and_deletions_win_their_second():
    assert event_marker(100) < event_marker(100, final=True) < event_marker(101)
    assert event_marker(99, final=True) < fetched_marker(100) < event_marker(100)
    assert subscription_status("active", False) == subscription_status("trialing", False) == 1
    assert subscription_status("active", True) == subscription_status("past_due", False) == 0


def test_payout_flags_read_integers_too():
    assert payouts_ready({"charges_enabled": 1, "payouts_enabled": 1})
    assert not payouts_ready({"charges_enabled": 1, "payouts_enabled": 0})
    assert not payouts_ready(None)


def test_the_standin_signs_as_stripe_verifies():
    payload = '{\n  "id": "evt_1",\n  "object": "event"\n}'
    header = sign(payload, "whsec_x")
    assert stripe.WebhookSignature.verify_header(payload, header, "whsec_x", 300)
    with pytest.raises(stripe.SignatureVerificationError):
        stripe.WebhookSignature.verify_header(payload + " ", header, "whsec_x", 300)
    stale = sign(payload, "whsec_x", int(time.time()) - 301)
    with pytest.raises(stripe.SignatureVerificationError):
        stripe.WebhookSignature.verify_header(payload, stale, "whsec_x", 300)


def test_the_standin_reads_stripes_form_encoding():
    pairs = [
        ("line_items[0][price_data][currency]", "usd"),
        ("line_items[0][quantity]", "1"),
        ("expand[0]", "payment_intent"),
        ("metadata[user_id]", "u1"),
    ]
    assert decode_form(pairs) == {
        "line_items": [{"price_data": {"currency": "usd"}, "quantity": "1"}],
        "expand": ["payment_intent"],
        "metadata": {"user_id": "u1"},
    }
