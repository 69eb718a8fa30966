"""The "takes" cells of docs/architecture.md's tables of the chat's parts and collaborators,
made from the code: a row whose first cell names a class of `agora/services/chat/` lists, in
its last cell, that class's constructor parameters, in order. `python -m agora takes` writes
them into the doc, and a unit test fails while the doc's cells differ.
"""

import importlib
import inspect
import pkgutil
import re

from agora.services import chat

# A table row: | `ClassName` | `module.py` | what it does | takes |
ROW = re.compile(
    r"^\| `(?P<name>\w+)` \| `(?P<module>\w+)\.py` \|(?P<middle>.*)\| (?P<takes>[^|]*) \|$"
)


def takes(cls: type) -> str:
    """The constructor's parameters, as the doc's cell names them."""
    return ", ".join(f"`{name}`" for name in inspect.signature(cls).parameters)


def written(doc: str) -> str:
    """The doc with every chat part's takes cell made from its class."""
    return "\n".join(_row(line) for line in doc.split("\n"))


def _row(line: str) -> str:
    match = ROW.match(line)
    if match is None:
        return line
    cls = _chat_classes().get((match["module"], match["name"]))
    if cls is None:
        return line
    return f"| `{match['name']}` | `{match['module']}.py` |{match['middle']}| {takes(cls)} |"


def _chat_classes() -> dict[tuple[str, str], type]:
    """The classes each module of `agora/services/chat/` defines, by (module, class)."""
    found = {}
    for info in pkgutil.iter_modules(chat.__path__):
        module = importlib.import_module(f"{chat.__name__}.{info.name}")
        for name, value in vars(module).items():
            if inspect.isclass(value) and value.__module__ == module.__name__:
                found[(info.name, name)] = value
    return found
