"""Per-edge copies: one load per document, reloads off the read path, no stale write-back,
nothing held past its age or beyond the bound, field names held once."""

import asyncio
import gc
import weakref
from types import SimpleNamespace

import bson
import pytest

from agora.store import local_copies
from agora.store.local_copies import LocalCopies


class Loader:
    """Counts loads; each load waits until the test lets it finish with the current value."""

    def __init__(self, value):
        self.value = value
        self.calls = 0
        self.gate = asyncio.Event()
        self.gate.set()

    async def started(self, calls: int = 1) -> None:
        for _ in range(10):
            if self.calls >= calls:
                return
            await asyncio.sleep(0)
        raise AssertionError(f"expected {calls} loads, saw {self.calls}")

    async def __call__(self):
        self.calls += 1
        seen = self.value
        await self.gate.wait()
        return seen


async def test_readers_of_a_missing_copy_share_one_load():
    copies = LocalCopies("doc", fresh_for=60, refresh_after=60)
    load = Loader({"v": 1})
    load.gate.clear()
    readers = [asyncio.ensure_future(copies.get("k", load)) for _ in range(5)]
    await load.started()
    load.gate.set()
    assert await asyncio.gather(*readers) == [{"v": 1}] * 5
    assert load.calls == 1
    assert await copies.get("k", load) == {"v": 1}
    assert load.calls == 1


async def test_an_old_copy_is_served_while_one_reload_runs_behind_it():
    copies = LocalCopies("doc", fresh_for=60, refresh_after=0)
    load = Loader(1)
    assert await copies.get("k", load) == 1
    load.value = 2
    load.gate.clear()
    # Past refresh_after: answered from the copy at once, one reload started.
    assert await copies.get("k", load) == 1
    await load.started(2)
    assert await copies.get("k", load) == 1
    assert load.calls == 2
    load.gate.set()
    for _ in range(10):  # the reload finishes within a few turns of the loop
        await asyncio.sleep(0)
    assert await copies.get("k", load) == 2
    assert load.calls == 2


async def test_an_expired_copy_is_loaded_again_before_answering():
    copies = LocalCopies("doc", fresh_for=0, refresh_after=0)
    load = Loader(1)
    assert await copies.get("k", load) == 1
    load.value = 2
    assert await copies.get("k", load) == 2
    assert load.calls == 2


async def test_a_load_overtaken_by_a_change_is_not_kept():
    copies = LocalCopies("doc", fresh_for=60, refresh_after=60)
    load = Loader("before")
    load.gate.clear()
    early = asyncio.ensure_future(copies.get("k", load))
    await load.started()
    load.value = "after"
    copies.drop("k")  # the document changed while the load above was reading it
    load.gate.set()
    assert await early == "before"
    assert await copies.get("k", load) == "after"
    assert load.calls == 2


async def test_a_copy_put_by_a_write_wins_over_a_load_under_way():
    copies = LocalCopies("doc", fresh_for=60, refresh_after=60)
    load = Loader("stale")
    load.gate.clear()
    early = asyncio.ensure_future(copies.get("k", load))
    await load.started()
    copies.put("k", "written")
    load.gate.set()
    await early
    assert await copies.get("k", load) == "written"
    assert load.calls == 1


@pytest.mark.parametrize(("keep_missing", "loads"), [(True, 1), (False, 2)])
async def test_missing_documents_are_remembered_only_when_asked(keep_missing, loads):
    copies = LocalCopies("doc", fresh_for=60, refresh_after=60, keep_missing=keep_missing)
    load = Loader(None)
    assert await copies.get("k", load) is None
    assert await copies.get("k", load) is None
    assert load.calls == loads


async def test_a_failed_load_reaches_its_readers_and_is_not_kept():
    copies = LocalCopies("doc", fresh_for=60, refresh_after=60)

    async def broken():
        raise RuntimeError("database away")

    with pytest.raises(RuntimeError):
        await copies.get("k", broken)
    assert await copies.get("k", Loader(3)) == 3


class _Document:
    """A loaded value whose release a test can see (a weak reference to it goes)."""


@pytest.fixture
def clock(monkeypatch):
    """The copies' clock, moved by the test: `clock.now` seconds."""
    clock = SimpleNamespace(now=1000.0)
    monkeypatch.setattr(local_copies, "time", SimpleNamespace(monotonic=lambda: clock.now))
    return clock


async def test_a_copy_past_its_age_is_let_go_once_another_is_stored(clock):
    copies = LocalCopies("doc", fresh_for=60, refresh_after=60)

    async def load() -> _Document:
        return _Document()

    old = weakref.ref(await copies.get("old", load))
    clock.now += 30
    young = weakref.ref(await copies.get("young", load))
    clock.now += 30
    await copies.get("new", load)
    gc.collect()  # what the finished loads' futures held goes with them
    assert old() is None
    assert young() is not None and copies.peek("young") is young()


async def test_past_its_bound_a_map_lets_its_oldest_copy_go_not_every_copy():
    copies = LocalCopies("doc", fresh_for=60, refresh_after=60, max_copies=2)
    loads = {"a": Loader("A"), "b": Loader("B"), "c": Loader("C")}
    for key in ("a", "b", "c"):
        await copies.get(key, loads[key])
    assert [await copies.get(key, loads[key]) for key in ("b", "c")] == ["B", "C"]
    assert (loads["b"].calls, loads["c"].calls) == (1, 1)
    assert copies.peek("a") is None


async def test_a_copy_is_the_document_read_with_its_field_names_held_once():
    """Each document decoded from BSON has strings of its own for its field names; the
    copies of thousands of memberships hold each name once, within lists of marks too."""
    stored = {
        "session_user_type": 1,
        "read_seq": 4,
        "read_marks": [{"seq": 3, "at": 11}, {"seq": 4, "at": 12}],
    }
    copies = LocalCopies("doc", fresh_for=60, refresh_after=60)
    first = await copies.get("m1", Loader(bson.decode(bson.encode(stored))))
    second = await copies.get("m2", Loader(bson.decode(bson.encode(stored))))
    assert first == second == stored
    assert list(first) == list(stored)
    assert len({id(name) for doc in (first, second) for name in doc}) == len(stored)
    marks = [*first["read_marks"], *second["read_marks"]]
    assert len({id(name) for mark in marks for name in mark}) == len(marks[0])
    assert copies.peek("m1") is first
