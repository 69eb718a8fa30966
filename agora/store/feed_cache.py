"""Feed pages cached in Redis: warm heads kept current by writers, other pages by version.

Heads: for the plain feed and each tag filter read lately (at most HEADS_MAX per group), the
newest posts, a page and one more. They live in one hash per group and are valid at the
group's `head` version. The feed service, told of a new post, merges it into every head and
moves the version in one compare-and-set (`replace_heads`), so readers of a first page find
it ready and never wait for MongoDB after a post; edits, hides and group changes drop the
heads (`changed`). A head is added by the reader that missed it (`keep_head`), only if no write came
in since that reader read the version, so a head never lacks a post that was written before it.

Pages: everything else (searches, cursor pages, heads not kept) is cached under versions:
`head` (moved by every write) for first pages, `content` (edits, hides, group changes) for
cursor pages, as a new post can only change first pages (it is newer than any cursor).

Key names carry the group in braces, so a group's keys share one Redis Cluster slot, as the
scripts below need.
"""

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis

from agora.core import json_text
from agora.store.redis import Keys

PAGE_TTL_SECONDS = 300
HEAD_TTL_SECONDS = 600
HEADS_MAX = 24
# Field of the heads hash holding SINCE (below); filter keys are JSON and never start with "~".
SINCE_FIELD = "~since"

# Adds one head if the version is still the one its reader saw and there is room.
# KEYS: heads hash, head version. ARGV: version, filter key, posts, since, ttl, max heads.
_KEEP_HEAD = """
if (redis.call('GET', KEYS[2]) or '0') ~= ARGV[1] then return 0 end
if redis.call('HEXISTS', KEYS[1], ARGV[2]) == 0
    and redis.call('HLEN', KEYS[1]) > tonumber(ARGV[6]) then return 0 end
redis.call('HSETNX', KEYS[1], '~since', ARGV[4])
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""

# Replaces all heads and moves the version, if the version is still the one the writer read;
# heads added meanwhile go, as the writer did not merge its post into them.
# KEYS: heads hash, head version. ARGV: version, since, ttl, then filter key, posts pairs.
_REPLACE_HEADS = """
if (redis.call('GET', KEYS[2]) or '0') ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
if #ARGV > 3 then
    redis.call('HSET', KEYS[1], '~since', ARGV[2], unpack(ARGV, 4))
    redis.call('EXPIRE', KEYS[1], ARGV[3])
end
redis.call('INCR', KEYS[2])
return 1
"""


@dataclass(frozen=True)
class Heads:
    """A group's heads at `version`. Each holds every post of its filter made before `since`
    (epoch ms, the clock of the edge that read them) among its newest ones."""

    version: str
    since: int | None
    posts: dict[str, list[dict[str, Any]]]


def _encode(value: Any) -> str:
    return json_text.dumps_text(value)


class FeedCache:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys
        self._keep_head = redis.register_script(_KEEP_HEAD)
        self._replace_heads = redis.register_script(_REPLACE_HEADS)
        # Readers missing the same page on this edge wait for one computation, not a stampede.
        self._computing: dict[str, asyncio.Future] = {}

    def _group(self, group_id: str, name: str) -> str:
        return self.keys(name, "{" + group_id + "}")

    def _head_version(self, group_id: str) -> str:
        return self._group(group_id, "feedv") + ":head"

    def _content_version(self, group_id: str) -> str:
        return self._group(group_id, "feedv") + ":content"

    def _heads(self, group_id: str) -> str:
        return self._group(group_id, "feedh")

    # Writes ------------------------------------------------------------------------------

    async def changed(self, group_id: str) -> None:
        """A post was edited or hidden, or the group changed: any page may differ now."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.incr(self._content_version(group_id))
            pipe.incr(self._head_version(group_id))
            pipe.delete(self._heads(group_id))
            await pipe.execute()

    async def forget_heads(self, group_id: str) -> None:
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.incr(self._head_version(group_id))
            pipe.delete(self._heads(group_id))
            await pipe.execute()

    # Heads -------------------------------------------------------------------------------

    async def head(self, group_id: str, filter_key: str) -> tuple[str | None, str]:
        """The head of one filter if it is kept (its posts' JSON text), and the version (for
        `keep_head`)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hget(self._heads(group_id), filter_key)
            pipe.get(self._head_version(group_id))
            raw, version = await pipe.execute()
        return raw, version or "0"

    async def keep_head(
        self, group_id: str, filter_key: str, version: str, posts: list[dict], since: int
    ) -> bool:
        """Keeps a head read from MongoDB, started at `since`, after reading `version`."""
        kept = await self._keep_head(
            keys=[self._heads(group_id), self._head_version(group_id)],
            args=[version, filter_key, _encode(posts), since, HEAD_TTL_SECONDS, HEADS_MAX],
        )
        return bool(kept)

    async def heads(self, group_id: str) -> Heads:
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hgetall(self._heads(group_id))
            pipe.get(self._head_version(group_id))
            found, version = await pipe.execute()
        since = found.pop(SINCE_FIELD, None)
        posts = {key: json_text.loads(raw) for key, raw in found.items()}
        return Heads(version or "0", int(since) if since else None, posts)

    async def replace_heads(
        self, group_id: str, version: str, posts: dict[str, list[dict]], since: int
    ) -> bool:
        """Stores the heads and moves the version; False when another write came first."""
        pairs = [part for key, head in posts.items() for part in (key, _encode(head))]
        replaced = await self._replace_heads(
            keys=[self._heads(group_id), self._head_version(group_id)],
            args=[version, since, HEAD_TTL_SECONDS, *pairs],
        )
        return bool(replaced)

    # Pages -------------------------------------------------------------------------------

    async def page(
        self,
        group_id: str,
        query: str,
        first_page: bool,
        compute: Callable[[], Awaitable[Any]],
    ) -> str:
        """The page's JSON text: as cached, else `compute`d (once on this edge) and cached."""
        head, content = await self.redis.mget(
            self._head_version(group_id), self._content_version(group_id)
        )
        version = f"{content or 0}.{head or 0}" if first_page else f"{content or 0}"
        key = self._group(group_id, "feedp") + f":{version}:{query}"
        raw = await self.redis.get(key)
        if raw is not None:
            return raw

        async def compute_and_store() -> str:
            page = _encode(await compute())
            await self.redis.set(key, page, ex=PAGE_TTL_SECONDS)
            return page

        return await self._once(key, compute_and_store)

    async def _once(self, key: str, compute: Callable[[], Awaitable[str]]) -> str:
        waiting = self._computing.get(key)
        if waiting is not None:
            return await asyncio.shield(waiting)
        future = asyncio.get_running_loop().create_future()
        self._computing[key] = future
        try:
            result = await compute()
            future.set_result(result)
            return result
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # seen here, even when no other reader was waiting
            raise
        finally:
            del self._computing[key]
