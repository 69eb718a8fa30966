"""An edge serving on a real port from a thread of its own, for clients that block (the
schemathesis fuzz drives it with `requests`); it uses the test process's Ray."""

import asyncio
import threading
from collections.abc import Awaitable
from typing import TypeVar

import requests
from aiohttp import web

from agora.app import build_app
from agora.settings import Settings
from tests.mail import SmtpSink
from tests.services import late_bound_port

START_SECONDS = 60
Result = TypeVar("Result")


class ThreadedEdge:
    """Its loop runs from construction; `serve` starts the edge on it, `close` stops both.
    `run` runs a coroutine on that loop (to start stand-ins whose servers live there too)."""

    def __init__(self) -> None:
        self.port = late_bound_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.runner: web.AppRunner | None = None

    def run(self, coroutine: Awaitable[Result]) -> Result:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(START_SECONDS)

    def serve(self, settings: Settings) -> None:
        async def start() -> None:
            self.runner = web.AppRunner(build_app(settings, with_ray=False))
            await self.runner.setup()
            await web.TCPSite(self.runner, "127.0.0.1", self.port).start()

        self.run(start())

    def close(self) -> None:
        if self.runner is not None:
            self.run(self.runner.cleanup())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)

    def login(self, sink: SmtpSink, email: str) -> str:
        """Signs in through both login steps; returns the bearer key."""
        url = f"{self.base_url}/api/user/login"
        requests.post(url, json={"email_id": email}, timeout=30).raise_for_status()
        body = {"email_id": email, "name": "Fuzz", "otp": sink.last_code(email)}
        reply = requests.post(url, json=body, timeout=30)
        reply.raise_for_status()
        return reply.json()["allspark_auth_key"]
