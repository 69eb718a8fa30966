"""Serving a stand-in for an outside service on the loopback interface."""

from aiohttp import web


async def serve_locally(app: web.Application, port: int = 0) -> tuple[web.AppRunner, str]:
    """Serves `app` on 127.0.0.1 (on a free port unless `port` is given); its runner, to
    clean up when done, and the origin it answers on."""
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", port)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    return runner, f"http://127.0.0.1:{port}"
