"""One-time codes in Redis: hashed, expiring, with a bounded number of wrong tries."""

from enum import Enum

from redis.asyncio import Redis

from agora.store.redis import Keys

# Check and count in one atomic step, so parallel guesses cannot exceed the try limit. A right
# code is used up unless ARGV[3] is 'keep' (it was right, but the step needs one more field).
_VERIFY = """
local h = redis.call('HGET', KEYS[1], 'h')
if not h then return {-1, 0} end
local tries = tonumber(redis.call('HGET', KEYS[1], 'tries') or '0')
local limit = tonumber(ARGV[2])
if tries >= limit then return {-2, 0} end
if h == ARGV[1] then
  if ARGV[3] ~= 'keep' then redis.call('DEL', KEYS[1]) end
  return {1, 0}
end
tries = redis.call('HINCRBY', KEYS[1], 'tries', 1)
return {0, limit - tries}
"""


class OtpCheck(Enum):
    OK = 1
    WRONG = 0
    MISSING = -1
    LOCKED = -2


class OtpStore:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys
        self._verify = redis.register_script(_VERIFY)

    def _key(self, purpose: str, subject: str) -> str:
        return self.keys("otp", purpose, subject)

    async def put(self, purpose: str, subject: str, code_hash: str, ttl_seconds: int) -> None:
        """A new code replaces the previous one and its count of wrong tries."""
        key = self._key(purpose, subject)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(key)
            pipe.hset(key, mapping={"h": code_hash, "tries": 0})
            pipe.expire(key, ttl_seconds)
            await pipe.execute()

    async def check(
        self, purpose: str, subject: str, code_hash: str, max_tries: int, keep: bool = False
    ) -> tuple[OtpCheck, int]:
        """The outcome and, for a wrong code, how many tries are left; a right code is used up
        unless `keep`."""
        status, remaining = await self._verify(
            keys=[self._key(purpose, subject)],
            args=[code_hash, max_tries, "keep" if keep else "use"],
        )
        return OtpCheck(int(status)), int(remaining)
