"""The edge's access log: by default only the requests an operator looks for.

A line per request cost about a tenth of the edge's CPU under a send load (aiohttp formats
each line, then the logging handler writes it); failures and slow requests are the lines
read when something goes wrong, and they keep aiohttp's format.
"""

from aiohttp.web_log import AccessLogger
from aiohttp.web_request import BaseRequest
from aiohttp.web_response import StreamResponse

from agora.settings import Settings

FIRST_FAILURE_STATUS = 400


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
