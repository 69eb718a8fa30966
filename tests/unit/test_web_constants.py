"""The web app's copy of the spec's constants is the one agora/core/constants.py renders."""

from pathlib import Path

from agora import web_constants
from agora.core import constants
from agora.settings import REPO_ROOT

WRITTEN = REPO_ROOT / "web" / "src" / "shared" / "generated" / "serverConstants.ts"


def test_the_web_apps_server_constants_are_up_to_date():
    assert web_constants.render() == Path(WRITTEN).read_text(), (
        "web/src/shared/generated/serverConstants.ts is stale: run "
        "`python -m agora constants > web/src/shared/generated/serverConstants.ts`"
    )


def test_every_shared_name_is_a_constant_of_the_spec():
    assert [name for name in web_constants.SHARED if not hasattr(constants, name)] == []


def test_values_render_as_typescript_literals():
    assert web_constants.typescript_value(("a", "b")) == '["a", "b"] as const'
    assert web_constants.typescript_value({"INR": "₹"}) == '{ "INR": "₹" } as const'
    assert web_constants.typescript_value(0.5) == "0.5"
