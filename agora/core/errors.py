"""Domain failures. The HTTP edge maps each to a status and an `errors` reply."""

from typing import Any

ErrorDetail = str | list[str] | dict[str, Any]


class AgoraError(Exception):
    status = 400

    def __init__(self, errors: ErrorDetail, **extra: Any) -> None:
        super().__init__(errors)
        self.errors = errors
        self.extra = extra


class InvalidInput(AgoraError):
    status = 400


class NeedLogin(AgoraError):
    status = 401

    def __init__(self, errors: ErrorDetail = "Please login to continue") -> None:
        super().__init__(errors, need_user=True)


class PaymentRequired(AgoraError):
    status = 402


class Forbidden(AgoraError):
    status = 403


class NotFound(AgoraError):
    status = 404


class Conflict(AgoraError):
    status = 409


class PayloadTooLarge(AgoraError):
    status = 413


class RateLimited(AgoraError):
    status = 429

    def __init__(self, retry_after_seconds: int, errors: ErrorDetail | None = None) -> None:
        super().__init__(errors or "Too many attempts, please try again later")
        self.retry_after_seconds = max(1, int(retry_after_seconds))


class Unavailable(AgoraError):
    status = 503


UNAVAILABLE_MESSAGE = "The service is briefly unavailable, please try again"
# What a client is told to wait before it tries again after an outage.
OUTAGE_RETRY_SECONDS = 1


class BrieflyUnavailable(Unavailable):
    """A backing service failed or did not answer in time: the same call may well succeed in
    a moment (answered with Retry-After)."""

    retry_after_seconds = OUTAGE_RETRY_SECONDS

    def __init__(self, errors: ErrorDetail = UNAVAILABLE_MESSAGE) -> None:
        super().__init__(errors)
