"""`make run`'s Ray head is started again when Ray's own start deadline is missed (a busy
machine), and not when the head failed otherwise. Ray cannot be made to miss its deadline on
purpose, so a stand-in `ray` executable plays the two outcomes Ray's CLI has: the missed start
(its message, then exit) and a head that wrote its address and runs."""

import stat
import sys
from pathlib import Path

import pytest

from agora.actors.sessions import SessionShard
from agora.actors.users import UserShard
from agora.launch import embedded
from agora.settings import Settings

STAND_IN = """#!{python}
import pathlib, sys, time
starts = pathlib.Path({starts!r})
starts.write_text(starts.read_text() + "x" if starts.exists() else "x")
if len(starts.read_text()) <= {misses}:
    print("{message}", flush=True)
    sys.exit(1)
temp_dir = next(a.split("=", 1)[1] for a in sys.argv if a.startswith("--temp-dir="))
(pathlib.Path(temp_dir) / "ray_current_cluster").write_text("127.0.0.1:6379")
time.sleep(600)
"""


def stand_in_ray(tmp_path: Path, misses: int, message: str) -> tuple[Path, Path]:
    starts = tmp_path / "starts"
    script = tmp_path / "ray"
    script.write_text(
        STAND_IN.format(python=sys.executable, starts=str(starts), misses=misses, message=message)
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return script, starts


def test_a_missed_start_deadline_is_tried_again(tmp_path, monkeypatch):
    script, starts = stand_in_ray(tmp_path, misses=2, message=embedded.RAY_START_MISSED)
    monkeypatch.setattr(embedded, "_executable", lambda name: str(script))
    head = embedded.start_ray_head(Settings(), tmp_path / "ray.log")
    try:
        assert head.address == "127.0.0.1:6379"
        assert starts.read_text() == "xxx"
    finally:
        embedded.stop_ray_node(head)
    assert head.poll() is not None


def test_a_head_that_fails_otherwise_is_not_tried_again(tmp_path, monkeypatch):
    script, starts = stand_in_ray(tmp_path, misses=1, message="address already in use")
    monkeypatch.setattr(embedded, "_executable", lambda name: str(script))
    with pytest.raises(embedded.ServiceError):
        embedded.start_ray_head(Settings(), tmp_path / "ray.log")
    assert starts.read_text() == "x"


def test_the_attempts_end(tmp_path, monkeypatch):
    misses = embedded.RAY_START_ATTEMPTS
    script, starts = stand_in_ray(tmp_path, misses=misses, message=embedded.RAY_START_MISSED)
    monkeypatch.setattr(embedded, "_executable", lambda name: str(script))
    with pytest.raises(embedded.ServiceError):
        embedded.start_ray_head(Settings(), tmp_path / "ray.log")
    assert starts.read_text() == "x" * misses


def test_a_nodes_workers_import_the_shards_modules_before_they_are_given_one():
    # A module renamed away from the list fails nowhere else: Ray only logs a module it
    # cannot import, and the shard restarted after a node's loss imports it then (issue 31's
    # 5 s recovery).
    preloaded = embedded.ray_node_env()["RAY_preload_python_modules"].split(",")
    assert sorted(preloaded) == sorted({SessionShard.__module__, UserShard.__module__})
