"""The edge's access log: by default only the requests an operator looks for.

A line per request cost about a tenth of the edge's CPU under a send load (aiohttp formats
each line, then the logging handler writes it); failures and slow requests are the lines
read when something goes wrong, and they keep aiohttp's format.

aiohttp's server log: a request that never parsed is the client's mistake, not a failure.
"""

import logging
from typing import Any

from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.log import server_logger
from aiohttp.web_log import AccessLogger
from aiohttp.web_request import BaseRequest
from aiohttp.web_response import StreamResponse

from agora.settings import Settings

FIRST_FAILURE_STATUS = 400
FIRST_SERVER_STATUS = 500
# Of a refused request's text in the log line (aiohttp quotes up to 100 bytes of a long line).
LOGGED_REASON_CHARS = 200


def access_logger_class(settings: Settings) -> type[AccessLogger]:
    """aiohttp makes the logger itself, from its class."""
    if settings.access_log == "all":
        return AccessLogger
    slow_seconds = settings.slow_request_seconds

    class FailuresAccessLogger(AccessLogger):
        """Logs requests answered with a failure status, or slower than `slow_seconds`."""

        def log(self, request: BaseRequest, response: StreamResponse, time: float) -> None:
            if response.status >= FIRST_FAILURE_STATUS or time >= slow_seconds:
                super().log(request, response, time)

    return FailuresAccessLogger


class ServerLog(logging.LoggerAdapter):
    """aiohttp's server logger, as the edge's request handler uses it (`handler_args`): a
    request aiohttp could not parse (a request line or a header over 8 KB, a header that is
    not HTTP) is answered 400 by aiohttp and logged here as one line, not as an error with a
    traceback; every other failure is logged as aiohttp logs it."""

    def log(self, level: int, msg: object, *args: Any, **kwargs: Any) -> None:
        refused = kwargs.get("exc_info")
        if isinstance(refused, HttpProcessingError) and _clients_mistake(refused.code):
            reason = refused.message[:LOGGED_REASON_CHARS]
            self.logger.info("%s: refused (%d): %s", str(msg) % args, refused.code, reason)
            return
        super().log(level, msg, *args, **kwargs)


def _clients_mistake(status: int) -> bool:
    return FIRST_FAILURE_STATUS <= status < FIRST_SERVER_STATUS


def server_log() -> ServerLog:
    return ServerLog(server_logger)
