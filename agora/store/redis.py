"""Redis connection; every key carries the configured prefix."""

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.driver_info import DriverInfo
from redis.exceptions import ConnectionError as RedisConnectionError

from agora.settings import Settings

# What each connection tells the server of its client (CLIENT SETINFO): built once, as
# redis-py otherwise reads its version from the installed package's metadata for every
# connection it opens (about 1 ms of CPU each; an edge opens several as it starts).
DRIVER_INFO = DriverInfo()


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
        driver_info=DRIVER_INFO,
        # A pooled connection that a Redis restart broke fails its next command: that one
        # command is sent once more on a new connection rather than answered 503 (a Redis
        # still away refuses the new one at once). Not on a timeout: the command may have run.
        retry=Retry(NoBackoff(), 1, supported_errors=(RedisConnectionError,)),
    )
    return Redis.from_pool(pool)


class Keys:
    """Builds prefixed key names so that deployments sharing a Redis never collide."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def __call__(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)
