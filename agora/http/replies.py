"""JSON replies, and the mapping of domain failures to HTTP statuses."""

import logging
from typing import Any

from aiohttp import web

from agora.core import json_text
from agora.core.errors import OUTAGE_RETRY_SECONDS, UNAVAILABLE_MESSAGE, AgoraError
from agora.store.outages import UNREACHABLE

log = logging.getLogger("agora.http")

UNEXPECTED_FAILURE = "Something went wrong on our side, please try again"


def ok(body: dict[str, Any], status: int = 200) -> web.Response:
    return _json(body, status)


def failure(status: int, errors: Any, **extra: Any) -> web.Response:
    return _json({"errors": errors, **extra}, status)


def _json(body: dict[str, Any], status: int) -> web.Response:
    return web.Response(
        body=json_text.dumps(body), status=status, content_type="application/json", charset="utf-8"
    )


def from_error(error: AgoraError) -> web.Response:
    response = failure(error.status, error.errors, **error.extra)
    # Rate limits and brief outages say when to try again.
    if retry_after := getattr(error, "retry_after_seconds", None):
        response.headers["Retry-After"] = str(retry_after)
    return response


@web.middleware
async def errors_middleware(request: web.Request, handler) -> web.StreamResponse:
    """Every failure leaves as `{"errors": ...}` with a fitting status; never a bare 500 page."""
    try:
        return await handler(request)
    except AgoraError as error:
        return from_error(error)
    except UNREACHABLE as exc:
        log.warning(
            "a backing service is unreachable on %s %s: %r", request.method, request.path, exc
        )
        response = failure(503, UNAVAILABLE_MESSAGE)
        response.headers["Retry-After"] = str(OUTAGE_RETRY_SECONDS)
        return response
    except web.HTTPRequestEntityTooLarge:
        return failure(413, "The request body is too large")
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        return failure(exc.status, exc.reason)
    except Exception:
        log.exception("unhandled error on %s %s", request.method, request.path)
        return failure(500, UNEXPECTED_FAILURE)
