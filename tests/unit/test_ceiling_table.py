"""The ceiling's closing table: its figures per person and its ratios to the floors."""

from dataclasses import replace

import pytest

from loadtest.ceiling_table import Climbed, StepCost, closing_rows
from loadtest.locust_run import SOCKET_CALLS, CallStats, StepResult
from loadtest.measure import Window
from loadtest.ramp import StepFigures
from loadtest.report import TargetRow, target_table

COST = StepCost(
    people=1000,
    server_cores=0.6,
    generator_cores=0.2,
    server_rss=3_100_000_000,
    idle_rss=3_000_000_000,
    store_commands_per_s=300.0,
    http_calls_per_s=100.0,
    load_before=1.5,
)


def climbed(name: str, held: int | None, *costs: StepCost) -> Climbed:
    return Climbed(
        name,
        StepFigures(held, []) if held else None,
        {cost.people: cost for cost in costs},
    )


def rows_by_target(rows: list[TargetRow]) -> dict[str, TargetRow]:
    return {row.target.strip(): row for row in rows}


def test_a_steps_cost_per_person_is_its_cores_and_memory_over_its_people():
    assert COST.cpu_ms_per_person_minute == pytest.approx(36.0)
    assert COST.kb_per_person == pytest.approx(100.0)
    assert COST.commands_per_call == pytest.approx(3.0)
    assert replace(COST, store_commands_per_s=None).commands_per_call is None
    assert replace(COST, http_calls_per_s=0.0).commands_per_call is None


def test_people_held_are_compared_with_each_floor():
    floor = replace(COST, server_cores=0.2, idle_rss=100_000_000, server_rss=150_000_000)
    rows = rows_by_target(
        closing_rows(
            climbed("Agora", 1000, COST),
            [climbed("floor", 3000, floor), climbed("stock floor", 1000, floor)],
            100,
        )
    )
    assert rows["4. people held / floor"].ratio == pytest.approx(1 / 3)
    assert rows["4. people held / floor"].met is False
    assert rows["4. people held / stock floor"].ratio == pytest.approx(1.0)
    assert rows["4. people held / stock floor"].met is True


def test_agoras_commands_and_memory_per_person_are_held_to_their_limits():
    rows = rows_by_target(closing_rows(climbed("Agora", 1000, COST), [], 100))
    commands, memory = rows["4. store commands per HTTP call"], rows["4. kB per present person"]
    assert (commands.agora, commands.baseline, commands.met) == (3.0, 1.2, False)
    assert (memory.agora, memory.baseline, memory.met) == (pytest.approx(100.0), 60.0, False)
    lean = replace(COST, store_commands_per_s=110.0, server_rss=3_050_000_000)
    rows = rows_by_target(closing_rows(climbed("Agora", 1000, lean), [], 100))
    assert rows["4. store commands per HTTP call"].met is True
    assert rows["4. kB per present person"].met is True


def test_the_floors_figures_beside_agoras_are_read_at_agoras_held_step_with_no_goal():
    floor_at_agoras = replace(
        COST, server_cores=0.2, store_commands_per_s=100.0, idle_rss=100_000_000,
        server_rss=150_000_000, generator_cores=0.25,
    )  # fmt: skip
    floor_beyond = replace(floor_at_agoras, people=3000, server_cores=0.9)
    floor = climbed("floor", 3000, floor_at_agoras, floor_beyond)
    rows = rows_by_target(closing_rows(climbed("Agora", 1000, COST), [floor], 100))
    cpu = rows["CPU ms per person-minute / floor"]
    assert (cpu.agora, cpu.baseline) == (pytest.approx(36.0), pytest.approx(12.0))
    assert cpu.ratio == pytest.approx(3.0)
    assert rows["store commands per call / floor"].ratio == pytest.approx(3.0)
    assert rows["kB per present person / floor"].baseline == pytest.approx(50.0)
    assert rows["idle server memory / floor"].ratio == pytest.approx(30.0)
    assert rows["generator cores / floor"].baseline == 0.25
    beside = [row for row in rows.values() if not row.target.startswith("4.")]
    assert beside and all(row.wanted_ratio is None and row.met is None for row in beside)


def test_with_no_step_held_the_per_person_figures_come_from_the_first_step():
    first = replace(COST, people=100)
    rows = rows_by_target(
        closing_rows(climbed("Agora", None, first), [climbed("floor", 200, first)], 100)
    )
    assert rows["4. people held / floor"].agora == 0
    assert rows["4. people held / floor"].met is False
    assert rows["CPU ms per person-minute / floor"].agora == pytest.approx(360.0)


def test_the_table_prints_a_row_without_a_goal_without_a_verdict():
    rows = closing_rows(climbed("Agora", 1000, COST), [climbed("floor", 3000, COST)], 100)
    lines = target_table(rows)
    held = next(line for line in lines if "people held / floor" in line)
    beside = next(line for line in lines if "idle server memory / floor" in line)
    assert "NOT MET" in held and "0.33" in held
    assert "met" not in beside.split("(")[0] and "1.00" in beside


def test_http_calls_a_second_leave_the_socket_events_out():
    def call(kind: str, rps: float) -> CallStats:
        return CallStats(kind, f"{kind} call", 10, 0, rps, 1.0, 2.0, 1.5)

    calls = [call("POST", 40.0), call("GET", 10.0), call(SOCKET_CALLS, 500.0)]
    result = StepResult(calls, call("", 550.0), Window(10.0, {}, 0.5, 2))
    assert result.http_calls_per_s == 50.0


def test_a_person_added_costs_what_the_rss_grew_between_the_two_steps_below_the_ceiling():
    lower = replace(COST, people=500, server_rss=3_060_000_000)
    rows = rows_by_target(closing_rows(climbed("Agora", 1000, lower, COST), [], 500))

    # 40 MB more for 500 more people: 80 kB each, where over the idle server it is 100.
    assert rows["kB per added person"].agora == pytest.approx(80.0)
    assert rows["4. kB per present person"].agora == pytest.approx(100.0)


def test_with_no_step_below_the_ceiling_no_person_is_counted_as_added():
    rows = rows_by_target(closing_rows(climbed("Agora", 1000, COST), [], 1000))

    assert "kB per added person" not in rows
