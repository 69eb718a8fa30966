"""Failures that mean a backing service cannot be reached right now, not that a call is wrong:
the edge answers them with 503 so that clients retry, instead of a 500 or a hang."""

from pymongo.errors import ConnectionFailure
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

# ConnectionFailure covers PyMongo's AutoReconnect, NetworkTimeout and
# ServerSelectionTimeoutError. A shard's failure reaches the edge wrapped by Ray in an error
# that is also an instance of the original class, so it is caught here too.
UNREACHABLE = (ConnectionFailure, RedisConnectionError, RedisTimeoutError)
