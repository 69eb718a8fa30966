"""Redis connection; every key carries the configured prefix."""

from redis.asyncio import Redis

from agora.settings import Settings


def connect_redis(settings: Settings) -> Redis:
    return Redis.from_url(
        settings.redis_url,
        decode_responses=True,
        health_check_interval=30,
        socket_connect_timeout=settings.redis_timeout_seconds,
        socket_timeout=settings.redis_timeout_seconds,
    )


class Keys:
    """Builds prefixed key names so that deployments sharing a Redis never collide."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def __call__(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)
