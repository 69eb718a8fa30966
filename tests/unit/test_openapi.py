"""The OpenAPI document in docs/ is the one the routes declare."""

from pathlib import Path

from agora.app import api_document
from agora.http.openapi import render
from agora.settings import REPO_ROOT, Settings

WRITTEN = REPO_ROOT / "docs" / "openapi.json"


def test_docs_openapi_json_is_up_to_date():
    assert render(api_document(Settings())) == Path(WRITTEN).read_text(), (
        "docs/openapi.json is stale: run `python -m agora openapi > docs/openapi.json`"
    )
