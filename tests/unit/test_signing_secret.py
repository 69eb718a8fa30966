"""An edge never signs with a secret others may know; `make run` keeps one of its own."""

import os
import stat
import subprocess
import sys

import pytest

from agora.app import build_app
from agora.embedded import kept_secret_key
from agora.settings import MissingSecret, Settings

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.mark.parametrize("secret", ["", "dev-only-secret-change-me", "short"])
def test_an_edge_refuses_to_start_without_a_secret_of_its_own(secret):
    with pytest.raises(MissingSecret, match="AGORA_SECRET_KEY"):
        build_app(Settings(secret_key=secret), with_ray=False)


def test_serve_without_a_secret_exits_with_a_clear_message(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGORA_")}
    env["AGORA_VAR_DIR"] = str(tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "agora", "serve"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode != 0
    assert "AGORA_SECRET_KEY must be set" in result.stderr


def test_make_run_makes_a_private_random_secret_once_and_keeps_it(tmp_path):
    path = tmp_path / "var" / "secret_key"
    first = kept_secret_key(path)
    assert len(first) >= 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert kept_secret_key(path) == first
    assert kept_secret_key(tmp_path / "other" / "secret_key") != first
