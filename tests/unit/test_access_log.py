"""The edge's access log writes failures and slow requests by default, every request on ask."""

import logging

import aiohttp
from aiohttp import web
from aiohttp.test_utils import make_mocked_request
from aiohttp.web_log import AccessLogger

from agora.http.access_log import access_logger_class
from agora.settings import Settings

SECRET = "s" * 32


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


async def _logged_paths(settings: Settings, paths: list[str]) -> list[str]:
    """Serves `paths` through aiohttp with the edge's access logger; the lines it wrote."""

    async def fast(_: web.Request) -> web.Response:
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_get("/fast", fast)
    logger = logging.getLogger(f"test.access.{id(settings)}")
    logger.setLevel(logging.INFO)
    lines = Lines()
    logger.addHandler(lines)
    runner = web.AppRunner(app, access_log=logger, access_log_class=access_logger_class(settings))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    try:
        async with aiohttp.ClientSession() as client:
            for path in paths:
                async with client.get(f"http://127.0.0.1:{port}{path}") as response:
                    await response.read()
    finally:
        await runner.cleanup()
    return lines.lines


def test_by_default_only_failures_and_slow_requests_are_logged():
    """Told the time aiohttp measured (a request's own time on a busy machine is anything)."""
    logger = logging.getLogger("test.access.failures")
    logger.setLevel(logging.INFO)
    lines = Lines()
    logger.addHandler(lines)
    settings = Settings(secret_key=SECRET, slow_request_seconds=0.5)
    access_log = access_logger_class(settings)(logger, AccessLogger.LOG_FORMAT)
    for path, status, seconds in [
        ("/fast", 200, 0.001),
        ("/missing", 404, 0.001),
        ("/slow", 200, 0.5),
        ("/almost-slow", 200, 0.499),
    ]:
        access_log.log(make_mocked_request("GET", path), web.Response(status=status), seconds)
    assert len(lines.lines) == 2
    assert '"GET /missing HTTP/1.1" 404' in lines.lines[0]
    assert '"GET /slow HTTP/1.1" 200' in lines.lines[1]


async def test_the_edge_logs_a_failure_it_answered():
    lines = await _logged_paths(Settings(secret_key=SECRET), ["/missing"])
    assert len(lines) == 1
    assert '"GET /missing HTTP/1.1" 404' in lines[0]


async def test_every_request_is_logged_when_asked():
    settings = Settings(secret_key=SECRET, access_log="all")
    lines = await _logged_paths(settings, ["/fast", "/missing", "/fast"])
    assert [line.split('"')[1] for line in lines] == [
        "GET /fast HTTP/1.1",
        "GET /missing HTTP/1.1",
        "GET /fast HTTP/1.1",
    ]
