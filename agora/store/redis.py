"""Redis connection; every key carries the configured prefix."""

from redis.asyncio import BlockingConnectionPool, Redis

from agora.settings import Settings


def connect_redis(settings: Settings) -> Redis:
    # redis-py's default pool refuses a command at once when its connections are all in use,
    # so a burst of requests answered 503; this one makes the command wait for a connection.
    pool = BlockingConnectionPool.from_url(
        settings.redis_url,
        max_connections=settings.redis_max_connections,
        timeout=settings.redis_timeout_seconds,
        decode_responses=True,
        health_check_interval=30,
        socket_connect_timeout=settings.redis_timeout_seconds,
        socket_timeout=settings.redis_timeout_seconds,
    )
    return Redis.from_pool(pool)


class Keys:
    """Builds prefixed key names so that deployments sharing a Redis never collide."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def __call__(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)
