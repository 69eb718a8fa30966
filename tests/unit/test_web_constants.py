"""The web app's copy of the spec's constants is the one their features' modules render
(agora/generate/web_constants.py)."""

import inspect
from pathlib import Path

from agora.generate import web_constants
from agora.settings import REPO_ROOT

WRITTEN = REPO_ROOT / "web" / "src" / "shared" / "generated" / "serverConstants.ts"


def test_the_web_apps_server_constants_are_up_to_date():
    assert web_constants.render() == Path(WRITTEN).read_text(), (
        "web/src/shared/generated/serverConstants.ts is stale: run "
        "`python -m agora constants > web/src/shared/generated/serverConstants.ts`"
    )


def test_every_shared_name_is_defined_by_the_feature_named_as_its_owner():
    """Each shared constant is read from the module that defines it, not from one importing it:
    its one source (a module's own names are assigned in it, so its source text names them)."""
    misplaced = [
        name
        for name, owner in web_constants.SHARED.items()
        if f"\n{name} = " not in inspect.getsource(owner)
    ]
    assert misplaced == []


def test_values_render_as_typescript_literals():
    assert web_constants.typescript_value(("a", "b")) == '["a", "b"] as const'
    assert web_constants.typescript_value({"INR": "₹"}) == '{ "INR": "₹" } as const'
    assert web_constants.typescript_value(0.5) == "0.5"
