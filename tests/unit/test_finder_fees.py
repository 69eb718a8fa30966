import pytest
from hypothesis import given
from hypothesis import strategies as st

from agora.core.errors import InvalidInput
from agora.core.finder_fees import (
    FeePart,
    fee_percent,
    own_link_part,
    pool_cents,
    share_earnings,
    split,
    worked_example,
)
from agora.core.money import CURRENCY_MINOR_UNIT_CENTS
from agora.core.routes import chain, own_chain_told
from agora.store.items import extended_route


def chain_of(sharers: int) -> list[str]:
    return ["poster", *(f"s{n}" for n in range(1, sharers + 1))]


def parts(offer_cents, percent, chain, currency="USD", asker="asker"):
    return [
        (p.user_id, p.cents) for p in split(offer_cents, percent, currency, chain, "poster", asker)
    ]


def test_pool_is_rounded_down_to_the_minor_unit():
    assert pool_cents(999, 10, "USD") == 99
    assert pool_cents(1000, 10, "POINTS") == 100


def test_pool_rounds_to_a_coarser_minor_unit(monkeypatch):
    monkeypatch.setitem(CURRENCY_MINOR_UNIT_CENTS, "WHOLE", 100)
    assert pool_cents(1999, 10, "WHOLE") == 100
    # Every part is whole units too; the farthest takes the rest.
    assert parts(3000, 10, chain_of(2), currency="WHOLE") == [("s2", 100), ("s1", 200)]


def test_no_sharers_no_fees():
    assert parts(1000, 10, chain_of(0)) == []


def test_lone_sharer_gets_the_whole_pool():
    assert parts(1000, 10, chain_of(1)) == [("s1", 100)]


def test_halves_nearest_first_and_the_farthest_takes_the_rest():
    # Pool 101: 50, then 25 of the 51 left, then 13, then the 13 left.
    assert parts(1010, 10, chain_of(4)) == [("s4", 50), ("s3", 25), ("s2", 13), ("s1", 13)]


def test_five_sharers_add_up_to_the_pool_exactly():
    paid = parts(1000, 10, chain_of(5))
    assert [u for u, _ in paid] == ["s5", "s4", "s3", "s2", "s1"]
    assert sum(c for _, c in paid) == 100


def test_only_the_five_nearest_of_eight_are_paid_and_the_total_does_not_grow():
    paid = parts(1000, 10, chain_of(8))
    assert [u for u, _ in paid] == ["s8", "s7", "s6", "s5", "s4"]
    assert sum(c for _, c in paid) == 100 == sum(c for _, c in parts(1000, 10, chain_of(2)))


def test_someone_twice_on_the_chain_is_paid_once_at_the_nearest_place():
    paid = parts(1000, 10, ["poster", "a", "b", "a", "c"])
    assert paid == [("c", 50), ("a", 25), ("b", 25)]


def test_poster_and_asker_on_the_chain_are_not_paid():
    paid = parts(1000, 10, ["poster", "a", "asker", "poster", "b"])
    assert paid == [("b", 50), ("a", 50)]


def test_one_minor_unit_goes_to_the_farthest_and_zero_parts_are_left_out():
    assert parts(10, 10, chain_of(3)) == [("s1", 1)]
    assert parts(1, 50, chain_of(3)) == []


def test_zero_percent_pays_nothing():
    assert split(1000, 0, "USD", chain_of(3), "poster", "asker") == []


def test_parts_are_fee_parts():
    assert split(200, 50, "POINTS", chain_of(1), "poster", "asker") == [FeePart("s1", 100)]


@pytest.mark.parametrize("raw", [-1, 51, "ten", 10.5, True, None])
def test_fee_percent_outside_0_to_50_is_refused_on_its_field(raw):
    with pytest.raises(InvalidInput) as refused:
        fee_percent(raw)
    assert "finder_fee_percent" in refused.value.errors


@pytest.mark.parametrize("raw", [0, 10, 50, "25"])
def test_fee_percent_in_range(raw):
    assert fee_percent(raw) == int(raw)


def test_the_worked_example_the_web_shows_is_what_split_pays():
    # With two sharers the first takes all the nearest leaves: the same half (issue 29).
    assert worked_example() == {
        "offer": 100,
        "currency": "POINTS",
        "percent": 10,
        "pool": 10,
        "chains": [[10], [5, 5], [2.5, 2.5, 5]],
    }


def test_own_link_part_is_what_split_pays_the_link_owner_when_someone_new_comes_through_it():
    # Issue 42: through a second-level link a reader's own link earns half the pool, not all.
    assert own_link_part(5000, 10, "POINTS", ["poster", "ann", "sara"]) == 250
    assert own_link_part(5000, 10, "POINTS", ["poster", "sara"]) == 500
    for sharers in range(1, 9):
        chain = chain_of(sharers)
        paid = dict(parts(5000, 10, chain, currency="POINTS", asker="newcomer"))
        assert own_link_part(5000, 10, "POINTS", chain) == paid[chain[-1]]


def test_the_posters_own_link_earns_no_fee():
    assert own_link_part(5000, 10, "POINTS", ["poster"]) == 0


def test_share_earnings_names_the_fee_the_reward_and_the_currency():
    item = {"offer_amount": "50", "offer_currency": "POINTS", "finder_fee_percent": 10}
    assert share_earnings(item, ["poster", "ann", "sara"]) == {
        "amount": 2.5,
        "currency": "POINTS",
        "offer_amount": 50,
    }


@pytest.mark.parametrize(
    "item",
    [
        {"offer_description": "A cake", "finder_fee_percent": 0},
        {"offer_amount": "50", "offer_currency": "POINTS", "finder_fee_percent": 0},
        {
            "offer_amount": "50",
            "offer_currency": "POINTS",
            "finder_fee_percent": 10,
            "closed_at": 1,
        },
        {"offer_amount": "0.01", "offer_currency": "USD", "finder_fee_percent": 10},
    ],
)
def test_share_earnings_is_none_when_the_link_earns_nothing(item):
    assert share_earnings(item, ["poster", "sara"]) is None


@given(
    st.lists(st.integers(min_value=0, max_value=40), max_size=8),
    st.integers(0, 2),
    st.sampled_from([None, 0, 1]),
)
def test_a_readers_own_chain_told_without_the_routes_is_the_one_they_have(
    parents, uncounted, counted_over
):
    """A post's routes as shares make them (one per person, each continuing another), its
    share count and each person's count of routes shared at least the routes shared (or
    the person's not counted): whatever a link, the post and the reader's count tell of
    their own chain is the chain of their route, or of the link continued when they have
    none; and they tell it to a reader on the link's chain, to one counted at none, and to
    any reader when the post has no routes but that chain's."""
    routes = [{"_id": "r0", "item_id": "p", "user_id": "u0", "prev_user_ids": []}]
    for n, parent in enumerate(parents, start=1):
        routes.append(extended_route(routes[parent % len(routes)], f"u{n}", n))
    item = {"_id": "p", "share_count": len(routes) - 1 + uncounted}
    for route in routes:
        for viewer in [f"u{n}" for n in range(len(routes) + 1)]:
            own = next((chain(r) for r in routes if r["user_id"] == viewer), None)
            has_shared = any(r["user_id"] == viewer for r in routes[1:])
            shared = None if counted_over is None else int(has_shared) + counted_over
            told = own_chain_told(item, route, viewer, shared)
            assert told in (None, own or [*chain(route), viewer])
            if (
                viewer in chain(route)
                or shared == 0
                or item["share_count"] == len(chain(route)) - 1
            ):
                assert told is not None
