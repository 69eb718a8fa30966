"""Failures that mean a backing service cannot be reached right now, not that a call is wrong:
the edge answers them with 503 so that clients retry, instead of a 500 or a hang."""

from botocore.exceptions import ConnectionError as S3ConnectionError
from botocore.exceptions import HTTPClientError as S3HttpError
from pymongo.errors import ConnectionFailure
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

# ConnectionFailure covers PyMongo's AutoReconnect, NetworkTimeout and
# ServerSelectionTimeoutError. A shard's failure reaches the edge wrapped by Ray in an error
# that is also an instance of the original class, so it is caught here too. botocore's
# ConnectionError and HTTPClientError cover an S3 upload store that cannot be reached or
# does not answer in time.
UNREACHABLE = (
    ConnectionFailure,
    RedisConnectionError,
    RedisTimeoutError,
    S3ConnectionError,
    S3HttpError,
)
