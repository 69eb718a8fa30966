"""The `cluster` bench's pure parts: the sides compared take each rate in turn, and each
process role's cost per unit is set side by side, so that the figures say where a second
node's cost goes."""

from loadtest.cluster import cost_lines
from loadtest.crowd import Received, Sends
from loadtest.fanout import Figures, climb
from loadtest.measure import Usage, Window


class Stepping:
    def __init__(self, name: str, taken: list, last: float | None = None) -> None:
        self.name, self.taken, self.last = name, taken, last
        self.done = False

    def step(self, rate: float) -> None:
        self.taken.append((self.name, rate))
        self.done = rate == self.last


def test_each_rate_goes_to_every_side_still_climbing_and_the_first_turns():
    taken = []
    climb([Stepping("one", taken, last=2), Stepping("two", taken)], [1, 2, 3, 4])
    assert taken == [("one", 1), ("two", 1), ("two", 2), ("one", 2), ("two", 3), ("two", 4)]


def figures(cores: dict[str, float], acked: int, seconds: float = 10.0) -> Figures:
    roles = {role: Usage(used, 0, 1) for role, used in cores.items()}
    sends = Sends(acked=[(f"k{n}", "chat", 5.0) for n in range(acked)])
    window = Window(seconds, roles, sum(cores.values()), 2)
    return Figures(100, seconds, sends, Received(), 0, window, ())


def per_message(f: Figures) -> float:
    return len(f.sends.acked)


def test_each_role_costs_on_both_sides_and_the_second_nodes_own_roles_are_added():
    one = figures({"edge": 0.5, "HAProxy": 0.0, "rest of Ray": 0.1, "load generator": 0.3}, 1000)
    cluster = figures(
        {
            "edge": 0.52,
            "HAProxy": 0.1,
            "rest of Ray": 0.1,
            "rest of Ray node 2": 0.05,
            "load generator": 0.4,
        },
        1000,
    )
    lines = cost_lines(one, cluster, per_message, "acknowledged message")
    rows = {}
    for line in lines[2:-1]:
        role, *figures_of_role = line.rsplit(maxsplit=3)
        rows[role.strip()] = figures_of_role
    assert rows == {
        "edge": ["5.000", "5.200", "+0.200"],
        "HAProxy": ["0.000", "1.000", "+1.000"],
        "rest of Ray": ["1.000", "1.000", "+0.000"],
        "rest of Ray node 2": ["0.000", "0.500", "+0.500"],
        "all": ["6.000", "7.700", "+1.700"],
    }
    # The load generator is not the server's cost.
    assert not any("load generator" in line for line in lines)
    assert lines[-1].endswith("mostly to: HAProxy +1.000, rest of Ray node 2 +0.500, edge +0.200")
