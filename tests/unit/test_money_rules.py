from decimal import Decimal

import pytest

from agora.core.errors import InvalidInput
from agora.core.money import (
    cents_number,
    format_amount,
    format_examples,
    format_number,
    parse_amount,
    points_day,
    recharge_amount,
    shortfall_cents,
    to_cents,
    wallets_in_order,
)

DAY_MS = 24 * 3600 * 1000


@pytest.mark.parametrize(
    ("raw", "cents"),
    [("12.5", 1250), (12.5, 1250), (3, 300), ("0.01", 1), ("1000000000", 100_000_000_000)],
)
def test_amounts_become_exact_cents(raw, cents):
    assert to_cents(parse_amount(raw, "amount")) == cents


@pytest.mark.parametrize("raw", ["0", "-1", "abc", "1.001", "NaN", "Infinity", "1000000000.01"])
def test_bad_amounts_are_refused_on_their_field(raw):
    with pytest.raises(InvalidInput) as refused:
        parse_amount(raw, "offer_amount")
    assert list(refused.value.errors) == ["offer_amount"]


def test_no_amount_is_none():
    assert parse_amount(None, "a") is None
    assert parse_amount("", "a") is None


def test_binary_floats_do_not_leak_into_cents():
    # 0.1 + 0.2 is 0.30000000000000004 as a float; the text of the number is what counts.
    assert to_cents(parse_amount(0.1, "a") + parse_amount(0.2, "a")) == 30
    assert parse_amount(0.29, "a") == Decimal("0.29")


def test_cents_show_as_numbers_with_two_decimals_at_most():
    assert (cents_number(1250), cents_number(300), cents_number(-5)) == (12.5, 3, -0.05)


def test_texts_write_amounts_as_the_web_app_does():
    # Whole amounts without decimals, any other with two (issue 29: never "12.5").
    assert format_amount(1250, "POINTS") == "🪙 12.50"
    assert format_amount(300, "USD") == "$3"
    assert format_amount(320, "CAD") == "CAD 3.20"
    assert format_amount(-225, "GBP") == "-£2.25"
    assert format_amount(120000, "KES") == "KSh 1,200"
    assert (format_number(250), format_number(123456789)) == ("2.50", "1,234,567.89")
    # The web app's currency.test.ts holds formatMoney to these.
    assert [text for _, _, text in format_examples()][:5] == [
        "$12",
        "€3.50",
        "KSh 1,200",
        "🪙 40",
        "🪙 2.50",
    ]


def test_daily_points_start_on_2024_01_01_utc():
    first = 1704067200000  # 2024-01-01T00:00:00Z
    assert points_day(first - 1) is None
    assert points_day(first) == "2024-01-01"
    assert points_day(first + DAY_MS - 1) == "2024-01-01"
    assert points_day(first + DAY_MS) == "2024-01-02"


def test_a_recharge_asks_for_the_shortfall_in_whole_units_and_a_minimum():
    assert recharge_amount(shortfall_cents(1000, 2550, 100)) == 16
    assert recharge_amount(shortfall_cents(0, 20, 100)) == 1


def test_points_come_first_then_currencies_alphabetically():
    wallets = [{"currency": c} for c in ("USD", "EUR", "POINTS", "CAD")]
    assert [w["currency"] for w in wallets_in_order(wallets)] == ["POINTS", "CAD", "EUR", "USD"]
