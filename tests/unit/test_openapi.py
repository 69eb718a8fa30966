"""The OpenAPI document in docs/ is the one the routes declare."""

from pathlib import Path

from agora.app import build_app
from agora.http.openapi import OPENAPI_DOCUMENT, render
from agora.settings import REPO_ROOT, Settings

WRITTEN = REPO_ROOT / "docs" / "openapi.json"


def test_docs_openapi_json_is_up_to_date():
    # Built, never started: nothing is connected to.
    app = build_app(Settings(), with_ray=False)
    assert render(app[OPENAPI_DOCUMENT]) == Path(WRITTEN).read_text(), (
        "docs/openapi.json is stale: run `python -m agora openapi > docs/openapi.json`"
    )
