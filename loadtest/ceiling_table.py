"""The `ceiling` scenario's rows of the closing table, from its figures, apart from its I/O.

Agora climbs first; each floor climbs after it from the step Agora held (`floor_steps`), so
every floor's first step has as many people as Agora's held step: the per-person figures are
read there, where each side carried the same people. The goals (issue 45): people held at
least the floor's, at most 1.2 store commands per HTTP call and 60 kB per present person at
Agora's ceiling. The rest is printed beside them with its ratio and no goal.
"""

from dataclasses import dataclass

from loadtest.ramp import StepFigures
from loadtest.report import TargetRow

MS_PER_MINUTE = 60_000
TARGET_FLOOR_SHARE = 1.0  # people held, of each floor's
TARGET_COMMANDS_PER_CALL = 1.2
TARGET_KB_PER_PERSON = 60.0


@dataclass(frozen=True)
class StepCost:
    """What one step cost the server that carried it."""

    people: int
    server_cores: float
    generator_cores: float  # locust and its Node crowd, apart from the server
    server_rss: int  # bytes, at the end of the step
    idle_rss: int  # bytes, before the server's first step
    store_commands_per_s: float | None  # None: not counted
    http_calls_per_s: float
    load_before: float  # the machine's 1-minute load before the step

    @property
    def cpu_ms_per_person_minute(self) -> float:
        return self.server_cores * MS_PER_MINUTE / self.people

    @property
    def kb_per_person(self) -> float:
        return (self.server_rss - self.idle_rss) / self.people / 1e3

    @property
    def commands_per_call(self) -> float | None:
        if self.store_commands_per_s is None or not self.http_calls_per_s:
            return None
        return self.store_commands_per_s / self.http_calls_per_s


@dataclass(frozen=True)
class Climbed:
    """One server's ramp: the last step it held, and what each step it took cost."""

    name: str
    held: StepFigures | None
    costs: dict[int, StepCost]  # by present people

    @property
    def people_held(self) -> int:
        return self.held.people if self.held else 0


def compared_people(agora: Climbed, first_step: int) -> int:
    """Where the per-person figures are read: Agora's held step, its first when none held."""
    return agora.held.people if agora.held else first_step


def closing_rows(agora: Climbed, floors: list[Climbed], first_step: int) -> list[TargetRow]:
    people = compared_people(agora, first_step)
    mine = agora.costs.get(people)
    rows = [
        TargetRow(
            f"4. people held / {floor.name}",
            agora.people_held,
            floor.name,
            floor.people_held,
            TARGET_FLOOR_SHARE,
            "present people, every action's p99 <= 250 ms",
            (_load(agora, agora.people_held), _load(floor, floor.people_held)),
        )
        for floor in floors
    ]
    if mine is None:
        return rows
    commands = mine.commands_per_call
    if commands is not None:
        rows.append(
            _limit("4. store commands per HTTP call", commands, TARGET_COMMANDS_PER_CALL, mine)
        )
    rows.append(_limit("4. kB per present person", mine.kb_per_person, TARGET_KB_PER_PERSON, mine))
    if (added := kb_per_added_person(agora.costs, people)) is not None:
        rows.append(
            TargetRow(
                "   kB per added person",
                added,
                "limit",
                TARGET_KB_PER_PERSON,
                None,
                "RSS grown from the step below the ceiling to it, per person added",
                (mine.load_before, mine.load_before),
            )
        )
    for floor in floors:
        theirs = floor.costs.get(people)
        if theirs is not None:
            rows += _beside(mine, floor.name, theirs)
    return rows


def kb_per_added_person(costs: dict[int, StepCost], people: int) -> float | None:
    """What each person added between the step below `people` and it costs: the figure over
    the idle server also carries what the first people warm (copies, pools, imports), so it
    falls as steps grow; the step between two held loads carries only people."""
    below = [step for step in costs if step < people]
    if people not in costs or not below:
        return None
    lower, upper = costs[max(below)], costs[people]
    return (upper.server_rss - lower.server_rss) / (upper.people - lower.people) / 1e3


def _limit(target: str, figure: float, limit: float, mine: StepCost) -> TargetRow:
    return TargetRow(
        target,
        figure,
        "limit",
        limit,
        1.0,
        f"at Agora's ceiling, {mine.people:,} people",
        (mine.load_before, mine.load_before),
        at_most=True,
    )


def _beside(mine: StepCost, floor: str, theirs: StepCost) -> list[TargetRow]:
    """Agora's figures against a floor's at the same people, with no goal of their own."""
    loads = (mine.load_before, theirs.load_before)
    at = f"both at {mine.people:,} people"
    figures = [
        ("CPU ms per person-minute", mine.cpu_ms_per_person_minute,
         theirs.cpu_ms_per_person_minute, f"the server's processes, {at}"),
        ("kB per present person", mine.kb_per_person, theirs.kb_per_person,
         f"RSS over the idle server's, {at}"),
        ("idle server memory", mine.idle_rss / 1e6, theirs.idle_rss / 1e6,
         "MB of RSS before the first step"),
        ("generator cores", mine.generator_cores, theirs.generator_cores,
         f"locust and its Node crowd, apart, {at}"),
    ]  # fmt: skip
    commands, their_commands = mine.commands_per_call, theirs.commands_per_call
    if commands is not None and their_commands is not None:
        figures.insert(
            1, ("store commands per call", commands, their_commands, f"every process, {at}")
        )
    return [
        TargetRow(f"   {what} / {floor}", figure, floor, baseline, None, unit, loads)
        for what, figure, baseline, unit in figures
    ]


def _load(climbed: Climbed, people: int) -> float:
    cost = climbed.costs.get(people)
    return cost.load_before if cost else 0.0
