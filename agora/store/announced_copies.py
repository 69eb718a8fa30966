"""Per-edge copies of documents whose every change is announced to all edges.

An edge keeps the documents it read lately (the auth key and the user behind each signed-in
call) so that a hot lookup costs no MongoDB round trip. That is safe only while the edge hears
the announcements: copies are served while a subscription to the channel is confirmed, a
change drops the copy on every edge as its message arrives (the changing edge drops its own
first), and losing the subscription forgets every copy. A document read or written while a
change was heard is not kept: it may be from before the change.

So a copy is exact, not merely recent, and is not read again while it is used: a steadily
read document read again every 45 s cost a store command per signed-in person that often
(users by `_id`, 36/s at 1,500 people). Writes made behind the stores' back (a migration, a
hand edit), which nothing announces, show once the age bound passes.
"""

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from typing import Generic, TypeVar

from redis.asyncio import Redis
from redis.exceptions import RedisError

from agora.store.local_copies import LocalCopies, with_shared_names

log = logging.getLogger("agora.store")

# The age bound: a safety net for writes nothing announces, not what keeps a copy true.
ANNOUNCED_COPY_SECONDS = 300.0
# How long a listener may take to notice `stop` (an edge shutting down waits for it).
POLL_SECONDS = 0.1
RESUBSCRIBE_SECONDS = 1.0

Value = TypeVar("Value")


class AnnouncedCopies(Generic[Value]):
    def __init__(
        self,
        what: str,
        redis: Redis,
        channel: str,
        *,
        keep_missing: bool,
        max_copies: int = 10_000,
    ) -> None:
        self.what = what
        self.redis = redis
        self.channel = channel
        self._copies: LocalCopies[Value] = LocalCopies(
            what,
            fresh_for=ANNOUNCED_COPY_SECONDS,
            # No background reload: nothing but an announcement makes a copy wrong.
            refresh_after=ANNOUNCED_COPY_SECONDS,
            keep_missing=keep_missing,
            max_copies=max_copies,
        )
        self._subscriptions = 0  # confirmed subscriptions to the channel
        self._changes = 0  # changes heard or made here, so that a load can tell it raced one

    async def get(self, key: str, load: Callable[[], Awaitable[Value | None]]) -> Value | None:
        if not self._subscriptions:
            # Nobody listens: another edge's change could go unheard.
            return await load()
        return await self._copies.get(key, load)

    @property
    def listening(self) -> bool:
        """Whether copies are served: a subscription to the channel is confirmed."""
        return self._subscriptions > 0

    async def reload(self, key: str, load: Callable[[], Awaitable[Value | None]]) -> Value | None:
        """The document as stored now, for a decision no copy may make; it becomes the copy
        unless a change was heard while it was read."""
        since = self.since()
        return self.kept({key: await load()}, since)[key]

    async def get_many(
        self,
        keys: Iterable[str],
        load: Callable[[list[str]], Awaitable[dict[str, Value]]],
        *,
        fresh: bool = False,
    ) -> dict[str, Value]:
        """`get` for many keys: those without a copy (all of them if `fresh`) in one `load`
        (which gives the documents it found, by key). What it read becomes the copies, a
        key it did not find included, unless a change was heard while it read: one of them
        may be from before it."""
        wanted = list(dict.fromkeys(keys))
        if not self._subscriptions:
            return await load(wanted) if wanted else {}
        found, missing = ({}, wanted) if fresh else self._copies.peek_many(wanted)
        if missing:
            since = self.since()
            loaded = await load(missing)
            kept = self.kept({key: loaded.get(key) for key in missing}, since)
            found.update((key, value) for key, value in kept.items() if value is not None)
        return found

    def since(self) -> int:
        """Where the changes heard stand: what is read after it is kept (`kept`) only if none
        is heard before it is read."""
        return self._changes

    def held(self, key: str) -> Value | None:
        """The copy, without reading anything: None when there is none, or none is served."""
        return self._copies.peek(key) if self._subscriptions else None

    def replace(self, key: str, before: Value, after: Value) -> None:
        """A write decided on the copy `before` made it `after` (a field no announcement
        covers, such as a read mark): kept only while the copy is still `before`, so that a
        change heard since (which dropped it) is not undone."""
        if self._copies.peek(key) is before:
            self._copies.put(key, after)

    def kept(self, values: dict[str, Value | None], since: int) -> dict[str, Value | None]:
        """Documents read (None: not found) after `since`, with their names shared: the copies
        from now on, unless a change was heard since (one of them may be from before it)."""
        shared = {key: with_shared_names(value) for key, value in values.items()}
        if self._subscriptions and self._changes == since:
            for key, value in shared.items():
                if value is not None or self._copies.keep_missing:
                    self._copies.put(key, value)
                else:
                    self._copies.drop(key)
        return shared

    async def announce(self, key: str) -> None:
        """The document changed (call after writing it): every edge's copy goes."""
        self._heard(key)
        await self.redis.publish(self.channel, key)

    def announced_elsewhere(self, key: str) -> None:
        """Another process (a shard) changed the document and announced it, and its answer
        may have come here before its announcement: the copy goes now."""
        self._heard(key)

    def _heard(self, key: str) -> None:
        """The document under `key` changed: its copy goes, and loads under way are not kept."""
        self._changes += 1
        self._copies.drop(key)

    def _forget(self) -> None:
        """Announcements may go unheard from now on: every copy goes."""
        self._copies.clear()

    async def changes(self, stop: asyncio.Event) -> AsyncIterator[str]:
        """Keys announced on any edge, as they come, until `stop` is set.

        A lost connection is re-established after RESUBSCRIBE_SECONDS; announcements sent
        meanwhile are not heard, which is why the copies go with the subscription.
        """
        while not stop.is_set():
            try:
                # Closed with this generator, so its subscription ends with it.
                async with contextlib.aclosing(self._subscribed(stop)) as heard:
                    async for key in heard:
                        yield key
            except (RedisError, OSError) as exc:
                log.warning("%s channel lost, subscribing again: %r", self.what, exc)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), RESUBSCRIBE_SECONDS)

    async def _subscribed(self, stop: asyncio.Event) -> AsyncIterator[str]:
        """Polled with a timeout rather than cancelled mid-read: cancelling a pub/sub read can
        leave its connection locked, and closing it then waits forever.
        """
        pubsub = self.redis.pubsub()
        confirmed = False
        try:
            await pubsub.subscribe(self.channel)
            while not stop.is_set():
                message = await pubsub.get_message(timeout=POLL_SECONDS)
                if message is None:
                    continue
                if message["type"] == "subscribe" and not confirmed:
                    # Changes are heard from here on, so copies can be trusted.
                    confirmed = True
                    self._subscriptions += 1
                elif message["type"] == "message":
                    self._heard(message["data"])
                    yield message["data"]
        finally:
            if confirmed:
                self._subscriptions -= 1
                if not self._subscriptions:
                    self._forget()
            await pubsub.aclose()
