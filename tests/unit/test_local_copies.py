"""Per-edge copies: one load per document, reloads off the read path, no stale write-back."""

import asyncio

import pytest

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
