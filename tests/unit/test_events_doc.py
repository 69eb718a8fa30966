"""docs/architecture.md's table of domain events is the one the code makes: the event
classes, who publishes them and the composition root's subscriptions
(`agora/generate/events_table.py`)."""

from agora.generate import events_table
from agora.settings import REPO_ROOT

DOC = REPO_ROOT / "docs" / "architecture.md"


def test_the_docs_events_table_is_the_codes():
    doc = DOC.read_text()
    start = doc.index(events_table.BEGIN)
    end = doc.index(events_table.END) + len(events_table.END)
    assert doc[start:end] + "\n" == events_table.render(), (
        "docs/architecture.md's events table is stale: paste `python -m agora events` over it"
    )


def test_every_event_is_published_and_heard():
    assert "nobody" not in events_table.render()
