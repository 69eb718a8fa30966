"""How a ledger entry moves a post's held reward, and what readers are told (issue 32)."""

from hypothesis import given
from hypothesis import strategies as st

from agora.core.money import DRAW, RELEASE, TARGET, HoldChange, ItemHold, next_hold
from agora.core.reviews import offer_sides, other_side, summary
from agora.core.rewards import hold_target, reward_fields

ITEM = "item-1"


def apply(hold: ItemHold, kind: str, cents: int = 0, diff: int = 0) -> tuple[int, ItemHold]:
    return next_hold(hold, HoldChange(ITEM, kind, cents), diff)


def test_a_target_holds_or_gives_back_the_difference_never_more_than_is_held():
    held_diff, hold = apply(ItemHold(), TARGET, 110)
    assert (held_diff, hold) == (110, ItemHold(target=110, held=110))
    # An offer of 100 drew on it: lowering the reward gives back at most the 10 left.
    _, drawn = apply(hold, DRAW, 100, diff=-100)
    assert (drawn.held, drawn.paid, drawn.paid_count) == (10, 100, 1)
    held_diff, lowered = apply(drawn, TARGET, 55)
    assert (held_diff, lowered.held, lowered.target) == (-10, 0, 55)
    held_diff, raised = apply(lowered, TARGET, 110)
    assert (held_diff, raised.held) == (55, 55)
    # The same target again moves nothing: an edit retried holds once.
    assert apply(raised, TARGET, 110)[0] == 0


def test_an_offer_draws_at_most_what_is_held_and_a_release_ends_the_hold():
    _, hold = apply(ItemHold(), TARGET, 30)
    held_diff, after = apply(hold, DRAW, 40, diff=-44)
    assert (held_diff, after.held, after.paid) == (-30, 0, 40)
    held_diff, released = apply(ItemHold(target=30, held=12), RELEASE)
    assert (held_diff, released.held, released.ended) == (-12, 0, True)
    # An edit arriving after the release holds nothing more.
    assert apply(released, TARGET, 500) == (0, ItemHold(target=500, held=0, ended=True))


def test_a_target_of_an_older_revision_of_the_reward_moves_nothing():
    """Edits at once (issue 41): whatever order their entries land in, the latest revision
    of the post's reward is what the wallet holds."""
    _, latest = next_hold(ItemHold(), HoldChange(ITEM, TARGET, 200, rev=3), 0)
    assert latest == ItemHold(target=200, held=200, rev=3)
    assert next_hold(latest, HoldChange(ITEM, TARGET, 0, rev=2), 0) == (0, latest)
    # The same revision again (an overtaken edit putting back what it moved) does apply.
    assert next_hold(latest, HoldChange(ITEM, TARGET, 50, rev=3), 0)[0] == -150
    # A draw or a release keeps the revision.
    _, drawn = apply(latest, DRAW, 20, diff=-20)
    assert drawn.rev == 3 and apply(drawn, RELEASE)[1].rev == 3


@given(
    st.lists(
        st.tuples(st.sampled_from((TARGET, DRAW, RELEASE)), st.integers(0, 10_000)), max_size=30
    )
)
def test_held_never_goes_below_zero_and_the_changes_add_up(changes):
    hold, total = ItemHold(), 0
    for kind, cents in changes:
        held_diff, hold = apply(hold, kind, cents, diff=-cents)
        total += held_diff
        assert hold.held >= 0 and total == hold.held


def test_the_hold_is_the_reward_and_its_largest_fee_pool():
    assert hold_target(1001, 25, "USD") == 1001 + 250
    assert hold_target(None, 25, "USD") == hold_target(500, 10, None) == 0
    fields = reward_fields(
        {"offer_amount": "10.01", "offer_currency": "USD", "finder_fee_percent": 25}
    )
    assert (fields["reward_status"], fields["reward_hold"], fields["reward_pool"]) == (
        "not_held",  # posted before holds: no copy of one
        12.51,
        2.5,
    )
    copy = {"USD": {"seq": 3, "hold": ItemHold(target=1251, held=700).fields()}}
    held = {"offer_amount": "10.01", "offer_currency": "USD", "reward_ledger": copy}
    assert (reward_fields(held)["reward_status"], reward_fields(held)["reward_held"]) == ("held", 7)
    closed = {**held, "closed_at": 5}
    assert (reward_fields(closed)["reward_status"], reward_fields(closed)["reward_held"]) == (
        "released",
        0,
    )


def test_only_the_two_sides_of_a_finished_offer_review_each_other():
    move = {
        "ref_type": "offer",
        "state": "done",
        "user_id": "poster",
        "postings": [{"user_id": "poster"}, {"user_id": "helper"}, {"user_id": "sharer"}],
    }
    sides = offer_sides(move)
    assert [other_side(sides, u) for u in ("poster", "helper", "sharer")] == [
        "helper",
        "poster",
        None,
    ]
    assert offer_sides({**move, "state": "refused"}) is None
    assert offer_sides({**move, "ref_type": "withdraw"}) is None
    assert summary([]) == {"count": 0, "average": None}
    assert summary([5, 4, 4]) == {"count": 3, "average": 4.3}
