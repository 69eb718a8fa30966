"""docs/architecture.md cannot drift from the code: the chat's takes cells are its
constructors' parameters (`agora/generate/takes_table.py`), and every repository path it and
docs/operations.md name exists."""

import re

import pytest

from agora.generate import takes_table
from agora.services.chat.sending import Sending
from agora.settings import REPO_ROOT

ARCHITECTURE = REPO_ROOT / "docs" / "architecture.md"
# Where a path the docs name is found: from the repository, or inside the package, the web
# app's sources or the tests (as the docs' tables write them, by layer).
ROOTS = [
    REPO_ROOT,
    REPO_ROOT / "agora",
    REPO_ROOT / "web",
    REPO_ROOT / "web" / "src",
    REPO_ROOT / "tests",
]
# `dir/name.ext` or `dir/` in backquotes: a path, not a route (`/api/...`) nor a URL.
PATH = re.compile(
    r"`((?:[\w.-]+/)+(?:[\w.-]+\.(?:py|ts|tsx|mjs|cjs|md|json|toml|cfg|yml|js|txt|css|html|sh))?)`"
)


def test_the_takes_cells_are_the_constructors_parameters():
    doc = ARCHITECTURE.read_text()
    assert takes_table.written(doc) == doc, (
        "docs/architecture.md's takes cells are stale: run `python -m agora takes`"
    )


def test_a_takes_cell_that_differs_from_its_constructor_is_rewritten():
    row = "| `Sending` | `sending.py` | sends | `shards`, `gone` |"
    assert (
        takes_table.written(row)
        == f"| `Sending` | `sending.py` | sends | {takes_table.takes(Sending)} |"
    )


def named_paths(doc: str) -> list[str]:
    return sorted({p for p in PATH.findall(doc) if not p.startswith(("/", "http"))})


def missing_paths(doc: str) -> list[str]:
    """The paths the doc names that are nowhere: a path is looked for from the repository's
    roots, and from each directory the doc names (a table's row names `web/src/shared/`, then
    its parts as `ui/`). What `make run` writes (`var/`) is no part of the repository."""
    named = [p for p in named_paths(doc) if not p.startswith("var/")]
    found = [root / p for p in named for root in ROOTS if (root / p).is_dir()]
    roots = [*ROOTS, *found]
    return [p for p in named if not any((root / p).exists() for root in roots)]


@pytest.mark.parametrize("doc", ["architecture.md", "operations.md"])
def test_every_path_the_doc_names_exists(doc: str):
    assert missing_paths((REPO_ROOT / "docs" / doc).read_text()) == []


def test_a_path_named_nowhere_is_missing():
    assert missing_paths("`agora/core/`, `core/chat.py`, `chat/access.py`, `var/log/`") == [
        "core/chat.py"
    ]


def test_a_path_is_told_from_a_route():
    assert named_paths("`store/sessions.py`, `features/chat/`, `/api/feed`, `a.b`") == [
        "features/chat/",
        "store/sessions.py",
    ]
