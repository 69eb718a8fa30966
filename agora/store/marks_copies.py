"""This process's copies of each chat's furthest marks: the ticks every page of a chat shows,
read once per change of a mark, not once per page, and carried forward by the writes that
move them rather than read again.

Exact, not merely recent: every write that moves a member's mark (a receipt, a sender's
read mark or a chat's senders' numbers, a member removed) gives the chat a new version in
Redis after writing, and a copy is served only at the chat's version as just read (so a copy
read while a mark moved is at worst newer than its version, never older). A version is a
random token, never a number that could come round again once its key expired: a quiet
chat's version is made anew by its next reader, which then reads the marks.

A write that says which marks it moved (`marks_moved`; all but a member's removal) makes
its version a step from the one before: the new token, the token it replaced and the moves,
swapped in at once by a script that answers the version before. A copy at the token
replaced is carried forward by the moves (`core.chat.furthest`: marks only move forward) to
the new one: the writer's own copy at once, any other process's when it next reads the
version. Two writes since a copy, or a removal, and it is read again.

Each page costs one Redis round trip for the version instead of two MongoDB queries (the
receipt marks were 45/s each at 1,500 people, the second largest shape of the census).
"""

import asyncio
import secrets
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Self

from cachetools import LRUCache
from redis.asyncio import Redis

from agora.core import json_text
from agora.core.chat.furthest import MarkMoved, furthest_after, senders_after
from agora.store.redis import Keys

# A chat's version outlives its last change by this long; then its next reader makes one.
VERSION_SECONDS = 24 * 3600
# Chats whose marks this process keeps (those read lately); the oldest read goes first.
MARKS_COPIES = 20_000
# The parts of a chat's marks copy: its furthest members' marks, and for chats that keep them
# its senders' own (`sent_seq`).
FURTHEST, SENDERS = "furthest", "senders"

# Each chat's version (KEYS) becomes a step from the one before it: ARGV[1] the seconds a
# version lasts, then per chat its new token and its moves. Answers the versions before.
_STEP = """
local before = {}
for i, key in ipairs(KEYS) do
  local was = redis.call('GET', key)
  local replaced = ''
  if was then replaced = string.match(was, '^%S*') end
  redis.call('SET', key, ARGV[2 * i] .. ' ' .. replaced .. ' ' .. ARGV[2 * i + 1], 'EX', ARGV[1])
  before[i] = was
end
return before
"""

Marks = list[dict[str, Any]]
Parts = dict[str, Any]


def _token() -> str:
    return secrets.token_hex(8)


@dataclass(frozen=True)
class _Version:
    """A chat's version as stored: its token and, when a write made it a step, the token it
    replaced and the marks that write moved."""

    token: str
    replaced: str | None
    moves: list[MarkMoved]

    @classmethod
    def parsed(cls, stored: str) -> Self:
        token, *step = stored.split(" ", 2)
        if not step:
            return cls(token, None, [])
        replaced, moves = step
        return cls(token, replaced, [MarkMoved.decoded(m) for m in json_text.loads(moves)])


def _carried(parts: Parts, moves: list[MarkMoved]) -> Parts:
    """The parts of a copy after `moves`; the furthest marks left out when the moves cannot
    tell them (they are read again)."""
    after: Parts = {}
    if FURTHEST in parts and (furthest := furthest_after(parts[FURTHEST], moves)) is not None:
        after[FURTHEST] = furthest
    if SENDERS in parts:
        after[SENDERS] = senders_after(parts[SENDERS], moves)
    return after


class MarksCopies:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys
        self._step = redis.register_script(_STEP)
        # Per chat: the version its parts are at (a token), and the parts by name.
        self._copies: LRUCache[str, tuple[str, Parts]] = LRUCache(maxsize=MARKS_COPIES)

    def _version(self, session_id: str) -> str:
        return self.keys("marksv", session_id)

    async def get(
        self, session_id: str, loads: Mapping[str, Callable[[], Awaitable[Any]]]
    ) -> dict[str, Any]:
        """The parts of the chat's marks `loads` names (the furthest members' marks, its
        senders' own), as each load reads them, from the copy when it is at the chat's
        version or one step behind it; the parts missing from it are read at once."""
        version = _Version.parsed(await self._current(session_id))
        parts = self._parts_at(session_id, version)
        missing = [name for name in loads if name not in parts]
        if missing:
            loaded = await asyncio.gather(*(loads[name]() for name in missing))
            parts.update(zip(missing, loaded, strict=True))
        self._copies[session_id] = (version.token, parts)
        return {name: parts[name] for name in loads}

    def _parts_at(self, session_id: str, version: _Version) -> Parts:
        """The copy's parts at `version`: as kept, or carried by the version's moves from the
        token it replaced; none when the copy is at neither."""
        copy = self._copies.get(session_id)
        if copy is None:
            return {}
        kept_at, parts = copy
        if kept_at == version.token:
            return dict(parts)
        if kept_at == version.replaced:
            return _carried(parts, version.moves)
        return {}

    async def _current(self, session_id: str) -> str:
        """The chat's version, made now if it has none (SET NX: readers at once agree)."""
        key = self._version(session_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(key, _token(), nx=True, ex=VERSION_SECONDS)
            pipe.get(key)
            _, version = await pipe.execute()
        return version

    async def marks_moved(self, moves: Mapping[str, list[MarkMoved]]) -> None:
        """These chats' marks moved so (call after writing them): each chat's version steps
        forward with its moves, and this process's copy at the version before goes with it."""
        chats = [(session_id, chat_moves) for session_id, chat_moves in moves.items() if chat_moves]
        if not chats:
            return
        tokens = [_token() for _ in chats]
        steps = [
            part
            for (_, chat_moves), token in zip(chats, tokens, strict=True)
            for part in (token, json_text.dumps_text([m.encoded() for m in chat_moves]))
        ]
        before = await self._step(
            keys=[self._version(session_id) for session_id, _ in chats],
            args=[VERSION_SECONDS, *steps],
        )
        for (session_id, chat_moves), token, was in zip(chats, tokens, before, strict=True):
            parts = self._parts_at(session_id, _Version.parsed(was)) if was else {}
            if parts:
                self._copies[session_id] = (token, _carried(parts, chat_moves))

    async def moved(self, session_ids: Iterable[str]) -> None:
        """Marks of these chats moved in a way no moves tell (a member removed, whose mark may
        have been among the furthest; call after writing): every copy of them goes."""
        wanted = set(session_ids)
        if not wanted:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for session_id in wanted:
                pipe.set(self._version(session_id), _token(), ex=VERSION_SECONDS)
            await pipe.execute()
