"""An edge never signs with a secret others may know; `make run` keeps one of its own."""

import os
import stat
import sys

import pytest

from agora.__main__ import main
from agora.app import build_app
from agora.launch.embedded import kept_secret_key
from agora.settings import MissingSecret, Settings


@pytest.mark.parametrize("secret", ["", "dev-only-secret-change-me", "short"])
def test_an_edge_refuses_to_start_without_a_secret_of_its_own(secret):
    with pytest.raises(MissingSecret, match="AGORA_SECRET_KEY"):
        build_app(Settings(secret_key=secret), with_ray=False)


def test_serve_without_a_secret_exits_with_a_clear_message(tmp_path, monkeypatch, capsys):
    """`python -m agora serve`'s own code, in this process: as a program of its own it took
    3 core-seconds to import what the test process has already imported."""
    for name in [name for name in os.environ if name.startswith("AGORA_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("AGORA_VAR_DIR", str(tmp_path))
    monkeypatch.setattr(sys, "argv", ["agora", "serve"])
    with pytest.raises(SystemExit) as exited:
        main()
    # EX_CONFIG: the supervisor of `make run` does not start it again.
    assert exited.value.code == os.EX_CONFIG
    assert "AGORA_SECRET_KEY must be set" in capsys.readouterr().err


def test_make_run_makes_a_private_random_secret_once_and_keeps_it(tmp_path):
    path = tmp_path / "var" / "secret_key"
    first = kept_secret_key(path)
    assert len(first) >= 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert kept_secret_key(path) == first
    assert kept_secret_key(tmp_path / "other" / "secret_key") != first
