"""The ceiling bench's pure parts: the user model's rate table and which ramp step held."""

import re
from pathlib import Path

import pytest

from loadtest.ceiling import FLOORS, floor_steps
from loadtest.locust_run import p99_ms
from loadtest.naive_people import SOCKET_SERVERS
from loadtest.people_model import ACTIONS, HTTP, SOCKET, Model, RateError, parse_rates
from loadtest.ramp import ActionFigures, StepFigures, last_held, misses


def step(people: int, *actions: tuple[str, int, int, float]) -> StepFigures:
    return StepFigures(
        people, [ActionFigures(name, n, failed, p99 / 5, p99) for name, n, failed, p99 in actions]
    )


def test_rates_are_parsed_by_name_or_short_name():
    assert parse_rates("chat_send=2, feed: page=4,typing=0") == {
        "chat: send": 2.0,
        "feed: page": 4.0,
        "typing": 0.0,
    }
    assert parse_rates("") == {}


@pytest.mark.parametrize(
    "text", ["send=1", "chat_send", "chat_send=fast", "chat_send=-1", "chat_send=nan", "x=inf"]
)
def test_bad_rates_are_refused(text):
    with pytest.raises(RateError):
        parse_rates(text)


def test_overrides_keep_the_other_defaults_and_split_by_channel():
    model = Model().with_rates("chat_send=3,tab_reconnect=1")
    assert model.rates["chat: send"] == 3.0
    assert model.rates["feed: page"] == next(
        a.per_minute for a in ACTIONS if a.name == "feed: page"
    )
    assert set(model.http_rates()) == {a.name for a in ACTIONS if a.channel == HTTP}
    assert model.socket_rates()["tab: reconnect"] == 1.0
    assert set(model.socket_rates()) == {a.name for a in ACTIONS if a.channel == SOCKET}


def test_a_step_holds_within_p99_and_error_limits():
    assert misses(step(100, ("feed: page", 1000, 1, 250.0), ("typing", 1000, 0, 40.0))) == []


def test_a_slow_action_or_too_many_errors_misses():
    slow = step(100, ("feed: page", 1000, 0, 251.0), ("typing", 1000, 0, 40.0))
    assert misses(slow) == ["feed: page p99 251 ms"]
    failing = step(100, ("feed: page", 1000, 3, 100.0))
    assert misses(failing) == ["errors 0.30 % of 1,000 calls"]
    assert misses(step(100)) == ["no action was measured"]


def test_a_p99_leaves_out_the_slowest_percent_and_at_least_one_call():
    # Fourteen picture fetches, one slow: locust's p99 is that one; the step's is the next.
    assert p99_ms({40: 10, 120: 3, 270: 1}) == 120.0
    assert p99_ms({40: 10, 120: 2, 270: 2}) == 270.0
    # 250 calls: the two slowest are left out, the third is the p99.
    assert p99_ms({50: 247, 200: 1, 900: 1, 1000: 1}) == 200.0
    assert p99_ms({50: 246, 200: 1, 900: 2, 1000: 1}) == 900.0
    assert p99_ms({80: 1}) is None
    assert p99_ms({}) is None


def test_the_last_step_before_the_first_miss_held():
    steps = [
        step(100, ("chat: send", 500, 0, 80.0)),
        step(200, ("chat: send", 900, 0, 120.0)),
        step(500, ("chat: send", 2000, 0, 400.0)),
        step(1000, ("chat: send", 4000, 0, 90.0)),  # after a miss: not counted
    ]
    assert last_held(steps).people == 200
    assert last_held(steps[2:]) is None
    assert last_held([]) is None


def _number(text: str, name: str) -> int:
    found = re.search(rf"const {name} = ([\d_]+);", text)
    assert found, f"{name} is not a plain number any more"
    return int(found.group(1).replace("_", ""))


def test_the_crowds_receipts_wait_as_the_web_apps_do():
    """The model's screens send receipts when the app's screens do: a different window
    would bring a big group's receipts in a burst the app does not make, or spare one it does."""
    root = Path(__file__).parents[2]
    app = (root / "web/src/features/chat/constants.ts").read_text()
    crowd = (root / "loadtest/node/behave.mjs").read_text()
    assert _number(crowd, "RECEIPT_WINDOW_MS") == _number(app, "DELIVERED_RECEIPT_MS")
    assert _number(crowd, "RECEIPT_SPREAD_MS") == _number(app, "DELIVERED_RECEIPT_SPREAD_MS")


def test_the_floors_ramp_starts_where_agoras_held_last():
    steps = (100, 200, 500, 1000)
    assert floor_steps(steps, step(200, ("chat: send", 500, 0, 80.0))) == (200, 500, 1000)
    assert floor_steps(steps, None) == steps


def test_each_floor_runs_the_naive_server_on_a_socket_server_of_its_own():
    sockets = [floor.sockets for floor in FLOORS]
    assert sockets == ["transport", "stock"]
    assert set(sockets) <= set(SOCKET_SERVERS)
