"""Short-lived copies of documents kept in one edge's memory.

Hot reads (a feed page needs its group, the reader's membership and their auth key) would
otherwise each cost a MongoDB round trip, and on a busy database server a quick lookup waits
behind whatever slow query runs before it. A copy is served for at most `fresh_for` seconds;
once it is `refresh_after` seconds old the next read starts one background reload and is
still answered from the copy, so a steadily read document is never waited for. Readers of a
missing or expired copy share one load.

A load that was under way when the document was changed (`drop` or `put`) is not kept: it
may have read the document before the change.

A copy is held no longer than it may be served: each copy stored takes the expired ones
with it, and past `max_copies` the oldest stored go. Documents are kept with their field
names shared (`with_shared_names`).
"""

import asyncio
import logging
import sys
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Iterable
from typing import Any, Generic, TypeVar

log = logging.getLogger("agora.store")

Value = TypeVar("Value")
Key = TypeVar("Key", bound=Hashable)


def with_shared_names(value: Any) -> Any:
    """The value with every field name of its documents (dicts, within lists too) interned.

    A document decoded from BSON has a string of its own for each field name: a membership's
    eleven names were 40 % of its copy's bytes, held again by each of the thousands of copies
    an edge keeps. Interned, each name is held once; the documents are equal to what was read
    and their fields in the same order."""
    if type(value) is dict:
        return {sys.intern(name): with_shared_names(field) for name, field in value.items()}
    if type(value) is list:
        return [with_shared_names(item) for item in value]
    return value


class LocalCopies(Generic[Value]):
    def __init__(
        self,
        what: str,
        *,
        fresh_for: float,
        refresh_after: float,
        max_copies: int = 10_000,
        keep_missing: bool = True,
    ) -> None:
        self.what = what
        self.fresh_for = fresh_for
        self.refresh_after = refresh_after
        self.max_copies = max_copies
        # False: an absent document (None) is asked for again on each read.
        self.keep_missing = keep_missing
        # (when loaded, value) in the order stored: the oldest first, so the expired are found
        # at the front.
        self._copies: OrderedDict[Hashable, tuple[float, Value | None]] = OrderedDict()
        self._loading: dict[Hashable, asyncio.Future] = {}
        self._refreshes: set[asyncio.Task] = set()

    async def get(self, key: Hashable, load: Callable[[], Awaitable[Value | None]]) -> Value | None:
        copy = self._copies.get(key)
        if copy is not None:
            age = time.monotonic() - copy[0]
            if age < self.fresh_for:
                if age >= self.refresh_after and key not in self._loading:
                    self._refresh_later(key, load)
                return copy[1]
        loading = self._loading.get(key)
        if loading is None:
            loading = self._start_load(key, load)
        return await asyncio.shield(loading)

    def peek(self, key: Hashable) -> Value | None:
        """The copy while it is fresh, without loading anything (None: no fresh copy)."""
        copy = self._copies.get(key)
        if copy is None or time.monotonic() - copy[0] >= self.fresh_for:
            return None
        return copy[1]

    def peek_many(self, keys: Iterable[Key]) -> tuple[dict[Key, Value], list[Key]]:
        """`peek` for many: the fresh copies by key, and the keys without one, in order."""
        fresh: dict[Key, Value] = {}
        missing: list[Key] = []
        for key in keys:
            copy = self.peek(key)
            if copy is None:
                missing.append(key)
            else:
                fresh[key] = copy
        return fresh, missing

    async def reload(
        self, key: Hashable, load: Callable[[], Awaitable[Value | None]]
    ) -> Value | None:
        """The value as stored now, for a decision no copy may make; kept as the copy."""
        value = with_shared_names(await load())
        self.put(key, value)
        return value

    def put(self, key: Hashable, value: Value | None) -> None:
        """A copy known to be current, e.g. the document a write just returned."""
        self._loading.pop(key, None)
        self._store(key, value)

    def drop(self, key: Hashable) -> None:
        self._loading.pop(key, None)
        self._copies.pop(key, None)

    def clear(self) -> None:
        self._loading.clear()
        self._copies.clear()

    def _start_load(
        self, key: Hashable, load: Callable[[], Awaitable[Value | None]]
    ) -> asyncio.Future:
        task = asyncio.ensure_future(self._load(key, load))
        # Marks a failure as seen even if every reader waiting for it was cancelled.
        task.add_done_callback(lambda done: done.cancelled() or done.exception())
        self._loading[key] = task
        return task

    async def _load(self, key: Hashable, load: Callable[[], Awaitable[Value | None]]):
        started = time.monotonic()
        try:
            value = with_shared_names(await load())
        finally:
            mine = self._loading.get(key) is asyncio.current_task()
            if mine:
                del self._loading[key]
        # Kept only when no change came in meanwhile (drop/put took this load off the list).
        if mine and (value is not None or self.keep_missing):
            self._store(key, value, started)
        return value

    def _refresh_later(self, key: Hashable, load: Callable[[], Awaitable[Value | None]]) -> None:
        task = self._start_load(key, load)
        self._refreshes.add(task)
        task.add_done_callback(self._refreshed)

    def _refreshed(self, task: asyncio.Task) -> None:
        self._refreshes.discard(task)
        if not task.cancelled() and task.exception() is not None:
            # The copy stays until it expires; the next read after that loads and sees the error.
            log.warning("reloading a %s failed: %r", self.what, task.exception())

    def _store(self, key: Hashable, value: Value | None, at: float | None = None) -> None:
        now = time.monotonic()
        self._copies.pop(key, None)
        self._copies[key] = (now if at is None else at, value)
        self._sweep(now)

    def _sweep(self, now: float) -> None:
        """Drops the copies no read may be served any more, and the oldest beyond
        `max_copies`. Stored in order, the expired are at the front (a load's copy dates from
        when it began, so one may wait behind a younger one for as long as a load takes)."""
        while self._copies:
            loaded_at, _ = next(iter(self._copies.values()))
            if now - loaded_at < self.fresh_for and len(self._copies) <= self.max_copies:
                return
            self._copies.popitem(last=False)
