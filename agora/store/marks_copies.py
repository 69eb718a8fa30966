"""This process's copies of each chat's furthest marks: the ticks every page of a chat shows,
read once per change of a mark, not once per page.

Exact, not merely recent: every write that moves a member's mark (a receipt, a sender's
read mark or a chat's senders' numbers, a member removed) gives the chat a new version in
Redis after writing, and a copy is served only while the chat's version is still the one
read before the copy was (so a copy read while a mark moved is at worst newer than its
version, never older). A version is a random token, never a number that could come round
again once its key expired: a quiet chat's version is made anew by its next reader, which
then reads the marks.

Each page costs one Redis round trip for the version instead of two MongoDB queries (the
receipt marks were 45/s each at 1,500 people, the second largest shape of the census).
"""

import asyncio
import secrets
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from cachetools import LRUCache
from redis.asyncio import Redis

from agora.store.redis import Keys

# A chat's version outlives its last change by this long; then its next reader makes one.
VERSION_SECONDS = 24 * 3600
# Chats whose marks this process keeps (those read lately); the oldest read goes first.
MARKS_COPIES = 20_000

Marks = list[dict[str, Any]]


def _token() -> str:
    return secrets.token_hex(8)


class MarksCopies:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys
        # Per chat: the version its parts were read under, and the parts by name.
        self._copies: LRUCache[str, tuple[str, dict[str, Any]]] = LRUCache(maxsize=MARKS_COPIES)

    def _version(self, session_id: str) -> str:
        return self.keys("marksv", session_id)

    async def get(
        self, session_id: str, loads: Mapping[str, Callable[[], Awaitable[Any]]]
    ) -> dict[str, Any]:
        """The parts of the chat's marks `loads` names (the furthest members' marks, its
        senders' own), as each load reads them, from the copy when no mark moved since it
        was read; the parts missing from it are read at once."""
        version = await self._current(session_id)
        copy = self._copies.get(session_id)
        parts = dict(copy[1]) if copy is not None and copy[0] == version else {}
        missing = [name for name in loads if name not in parts]
        if missing:
            loaded = await asyncio.gather(*(loads[name]() for name in missing))
            parts.update(zip(missing, loaded, strict=True))
        self._copies[session_id] = (version, parts)
        return {name: parts[name] for name in loads}

    async def _current(self, session_id: str) -> str:
        """The chat's version, made now if it has none (SET NX: readers at once agree)."""
        key = self._version(session_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(key, _token(), nx=True, ex=VERSION_SECONDS)
            pipe.get(key)
            _, version = await pipe.execute()
        return version

    async def moved(self, session_ids: Iterable[str]) -> None:
        """Marks of these chats moved (call after writing them): every copy of them goes."""
        wanted = set(session_ids)
        if not wanted:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for session_id in wanted:
                pipe.set(self._version(session_id), _token(), ex=VERSION_SECONDS)
            await pipe.execute()
