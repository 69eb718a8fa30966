"""The table of in-process domain events in docs/architecture.md, made from the code:
`python -m agora events` prints it, and a unit test fails while the doc's copy differs.

Each event of `services.events.Event` is listed with its fields, where it is published (the
functions under `agora/` that build it) and who hears it: each `events.subscribe(...)` of
the composition root's `subscribe`, in order, named by the method it calls (its class found
through `subscribe`'s annotations) with the comment written above it.
"""

import ast
import dataclasses
import inspect
import re
import typing
from collections.abc import Iterator
from pathlib import Path

from agora import app
from agora.services import events

PACKAGE = Path(app.__file__).parent
BEGIN = "<!-- events table: made by `python -m agora events`; edit the code, not this table -->"
END = "<!-- end of the events table -->"


@dataclasses.dataclass(frozen=True)
class Subscription:
    event: str
    handler: str  # `Class.method` (`module path`)
    why: str


def render() -> str:
    """The markdown table, between its markers."""
    heard = _subscriptions()
    published = _publishers()
    rows = [
        "| event | fields | published by | heard by |",
        "|---|---|---|---|",
    ]
    for event in typing.get_args(events.Event):
        name = event.__name__
        hearers = [f"{s.handler}: {s.why}" for s in heard if s.event == name]
        cells = [
            f"`{name}`: {_first_sentence(event.__doc__ or '')}",
            ", ".join(_field(f) for f in dataclasses.fields(event)),
            "; ".join(published.get(name, [])) or "nobody",
            "<br>".join(hearers) or "nobody",
        ]
        # A pipe in a cell (`str | None`) would end it.
        rows.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join([BEGIN, *rows, END]) + "\n"


def _first_sentence(text: str) -> str:
    return " ".join(text.split()).split(". ")[0].rstrip(".") + "."


def _field(field: dataclasses.Field) -> str:
    kind = field.type if isinstance(field.type, str) else _type_name(field.type)
    return f"`{field.name}: {kind}`"


def _type_name(kind: object) -> str:
    if isinstance(kind, type) and not typing.get_args(kind):
        return kind.__name__
    # `dict[str, typing.Any]`, `tuple[agora.services.events.FinderFee, ...]`: without modules.
    return re.sub(r"\b(?:[a-z_]+\.)+(?=[A-Za-z_])", "", str(kind))


def _subscriptions() -> list[Subscription]:
    """The composition root's `events.subscribe(Event, handler)` calls, in order."""
    source = inspect.getsource(app.subscribe)
    lines = source.splitlines()
    hints = typing.get_type_hints(app.subscribe)
    calls = [
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and _dotted(node.func) == ["events", "subscribe"]
    ]
    found = []
    for call in sorted(calls, key=lambda call: call.lineno):
        event, handler = call.args
        path = _dotted(handler.body.func if isinstance(handler, ast.Lambda) else handler)
        why = _comment_above(lines, call.lineno - 1)
        found.append(Subscription(ast.unparse(event), _handler(hints, path), why))
    return found


def _dotted(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Attribute):
        return [*_dotted(node.value), node.attr]
    return [node.id] if isinstance(node, ast.Name) else []


def _handler(hints: dict[str, typing.Any], path: list[str]) -> str:
    """`feed.post_added` -> `FeedService.post_added` (`services/feed.py`), following the
    types of `subscribe`'s parameters and of their fields."""
    owner = hints[path[0]]
    for attribute in path[1:-1]:
        owner = typing.get_type_hints(owner)[attribute]
    method = getattr(owner, path[-1])
    module = Path(inspect.getfile(method)).relative_to(PACKAGE).as_posix()
    return f"`{method.__qualname__}` (`{module}`)"


def _comment_above(lines: list[str], index: int) -> str:
    """The comment lines right above line `index` (0-based), joined."""
    comment: list[str] = []
    while index > 0 and lines[index - 1].strip().startswith("#"):
        index -= 1
        comment.insert(0, lines[index].strip().removeprefix("#").strip())
    if not comment:
        raise ValueError(f"say why above `{lines[index].strip()}` in app.subscribe")
    return " ".join(comment)


def _publishers() -> dict[str, list[str]]:
    """Event name -> the functions under `agora/` that publish one (`events.publish(...)`)."""
    names = {event.__name__ for event in typing.get_args(events.Event)}
    modules = {
        path.relative_to(PACKAGE).as_posix(): ast.parse(path.read_text())
        for path in sorted(PACKAGE.rglob("*.py"))
    }
    # Functions that build an event for their caller to publish (`def paid(...) -> OfferPaid`).
    builders = {
        node.name: node.returns.id
        for tree in modules.values()
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and isinstance(node.returns, ast.Name)
        and node.returns.id in names
    }
    found: dict[str, list[str]] = {}
    for module, tree in modules.items():
        for scope, function in _functions(tree, []):
            for event in _published_in(function, names, builders):
                place = f"`{'.'.join(scope)}` (`{module}`)"
                if place not in found.setdefault(event, []):
                    found[event].append(place)
    return found


def _functions(node: ast.AST, scope: list[str]) -> Iterator[tuple[list[str], ast.AST]]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            if not isinstance(child, ast.ClassDef):
                yield [*scope, child.name], child
            yield from _functions(child, [*scope, child.name])


def _published_in(function: ast.AST, names: set[str], builders: dict[str, str]) -> Iterator[str]:
    """The events a function publishes: built in the call, kept in a name before it, or
    made by a function that returns one."""
    built = {
        target.id: node.value.func.id
        for node in ast.walk(function)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
        if getattr(node.value.func, "id", None) in names
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    for node in ast.walk(function):
        if not (isinstance(node, ast.Call) and _dotted(node.func)[-2:] == ["events", "publish"]):
            continue
        published = node.args[0]
        if isinstance(published, ast.Name) and published.id in built:
            yield built[published.id]
        elif isinstance(published, ast.Call):
            called = _dotted(published.func)[-1:]
            if called and called[0] in names:
                yield called[0]
            elif called and called[0] in builders:
                yield builders[called[0]]
