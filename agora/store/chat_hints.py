"""Short-lived facts about chats that exist only as dummies on a screen so far."""

from redis.asyncio import Redis

from agora.store.redis import Keys

HINT_TTL_SECONDS = 7 * 24 * 3600


class ChatHints:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys

    async def remember_route(self, session_id: str, route_id: str) -> None:
        """The share route a person came through, credited when their chat becomes real."""
        await self.redis.set(self.keys("chat-route", session_id), route_id, ex=HINT_TTL_SECONDS)

    async def route(self, session_id: str) -> str | None:
        return await self.redis.get(self.keys("chat-route", session_id))

    async def allow_typing(self, session_id: str, user_id: str, seconds: int) -> bool:
        """At most one typing signal per person and chat in `seconds`."""
        key = self.keys("typing", session_id, user_id)
        return bool(await self.redis.set(key, "1", ex=seconds, nx=True))
