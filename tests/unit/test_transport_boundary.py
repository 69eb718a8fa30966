"""Only the transport (`agora/realtime/transport/`) touches python-socketio and engine.io:
outside it no module imports them, subclasses what the transport exports (each a library
class), or reads or sets a private name of theirs on another object. import-linter checks the
imports of packages; this reads every module's source, whatever its package."""

import ast
import pathlib

import engineio
import socketio

AGORA = pathlib.Path(__file__).resolve().parents[2] / "agora"
TRANSPORT = AGORA / "realtime" / "transport"
LIBRARIES = ("socketio", "engineio")
TRANSPORT_MODULE = "agora.realtime.transport"
OWN_OBJECT = ("self", "cls")


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _defines_private(node: ast.AST) -> bool:
    definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
    return isinstance(node, definition) and _private(node.name)


def library_private_names() -> frozenset[str]:
    """Every private name the libraries define or use on an object (methods, attributes such
    as `_async`, `_sock`, `_binary_packet`)."""
    names = set()
    for library in (socketio, engineio):
        for source in pathlib.Path(library.__file__).parent.rglob("*.py"):
            for node in ast.walk(ast.parse(source.read_text())):
                if isinstance(node, ast.Attribute) and _private(node.attr):
                    names.add(node.attr)
                elif _defines_private(node):
                    names.add(node.name)
    return frozenset(names)


def _from_library(module: str | None) -> bool:
    return module is not None and module.split(".")[0] in LIBRARIES


def _from_transport(module: str | None) -> bool:
    return module is not None and (
        module == TRANSPORT_MODULE or module.startswith(TRANSPORT_MODULE + ".")
    )


def _root_name(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute | ast.Call | ast.Subscript):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def boundary_breaks(source: str, private_names: frozenset[str]) -> list[str]:
    """What a module outside the transport does that only the transport may do."""
    tree = ast.parse(source)
    breaks = []
    transport_names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _from_library(alias.name):
                    breaks.append(f"line {node.lineno}: imports {alias.name}")
                if _from_transport(alias.name):
                    transport_names.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            if _from_library(node.module):
                breaks.append(f"line {node.lineno}: imports from {node.module}")
            if _from_transport(node.module) or (
                node.module == "agora.realtime" and any(a.name == "transport" for a in node.names)
            ):
                transport_names.update(alias.asname or alias.name for alias in node.names)
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for base in node.bases:
                if _root_name(base) in transport_names:
                    breaks.append(
                        f"line {node.lineno}: {node.name} subclasses {ast.unparse(base)}, "
                        "a library class: overrides belong in the transport"
                    )
        elif isinstance(node, ast.Attribute) and node.attr in private_names:
            own = isinstance(node.value, ast.Name) and node.value.id in OWN_OBJECT
            if not own:
                breaks.append(f"line {node.lineno}: uses {ast.unparse(node)}, a library's private")
    return breaks


def test_only_the_transport_touches_socketio_and_engineio():
    private_names = library_private_names()
    breaks = {
        str(path.relative_to(AGORA.parent)): found
        for path in sorted(AGORA.rglob("*.py"))
        if TRANSPORT not in path.parents
        for found in [boundary_breaks(path.read_text(), private_names)]
        if found
    }
    assert not breaks, f"move these into agora/realtime/transport/: {breaks}"


def test_the_scan_finds_each_kind_of_break():
    """The rules above still catch what they are for (a scan that finds nothing passes)."""
    private_names = library_private_names()
    assert {"_async", "_send_packet", "_handle_emit", "_publish", "_sock"} <= private_names
    samples = {
        "import socketio": "imports socketio",
        "from engineio.async_drivers import aiohttp": "imports from engineio.async_drivers",
        "from socketio import packet": "imports from socketio",
        "def f(sio):\n    sio.eio._async = {}": "uses sio.eio._async",
        "async def f(m):\n    await m._publish({})": "uses m._publish",
        "from agora.realtime.transport import CheckedSocketServer\n"
        "class S(CheckedSocketServer):\n    pass": "S subclasses CheckedSocketServer",
        "from agora.realtime import transport\n"
        "class M(transport.RoomChannelManager):\n    pass": "M subclasses transport.Room",
    }
    for source, expected in samples.items():
        found = boundary_breaks(source, private_names)
        assert any(expected in line for line in found), (source, found)
    # An object's own private names are its own, whatever the libraries call theirs.
    assert boundary_breaks("class Q:\n    def f(self):\n        self._send()", private_names) == []
