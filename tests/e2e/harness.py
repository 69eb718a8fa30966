"""Runs a command (the browser suite) against a real edge with real services around it.

Starts a fresh MongoDB-wire server, uses (or starts) Redis, starts an SMTP sink with a small
HTTP view of its mailbox and the Stripe stand-in (its hosted pages pay, and report to the
edge's webhook), starts the edge as `python -m agora serve`, then runs the command with
AGORA_E2E_BASE_URL, AGORA_E2E_MAIL_URL, AGORA_E2E_STRIPE_URL and AGORA_E2E_WHATSAPP_URL (the
WhatsApp Graph API stand-in's control API) set, and stops everything afterwards: when the
command ends, and as well when the harness is interrupted (Ctrl-C, SIGINT) or terminated
(SIGTERM): each stop waits for its process, so none is left a zombie.
"""

import asyncio
import contextlib
import os
import secrets
import signal
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.error import URLError
from urllib.request import urlopen

from aiohttp import web

from agora.settings import REPO_ROOT
from tests.mail import SmtpSink
from tests.processes import kill_session
from tests.services import late_bound_port, mongo_wire_server, redis_server
from tests.stripe_standin import SECRET_KEY, WEBHOOK_SECRET, StripeStandin
from tests.whatsapp_standin import WhatsAppStandin

EDGE_START_SECONDS = 120


def mailbox_app(sink: SmtpSink) -> web.Application:
    async def messages(request: web.Request) -> web.Response:
        found = sink.to(request.query.get("to", ""))
        return web.json_response(
            {
                "messages": [
                    {"to": m["To"], "subject": m["Subject"], "body": m.get_content()} for m in found
                ]
            }
        )

    app = web.Application()
    app.router.add_get("/messages", messages)
    return app


def wait_for_edge(url: str, edge, log_path: Path, seconds: float = EDGE_START_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if edge.poll() is not None:
            sys.stderr.write(log_path.read_text())
            raise SystemExit("the edge exited while starting")
        try:
            with urlopen(f"{url}/user/me", timeout=2):
                return
        except (URLError, OSError):
            time.sleep(0.3)
    raise SystemExit(f"the edge did not answer within {seconds:.0f} s")


async def run(command: list[str], work: Path, mongo_url: str, redis_url: str) -> int:
    with SmtpSink() as sink:
        runner = web.AppRunner(mailbox_app(sink))
        await runner.setup()
        mail_port = late_bound_port()
        await web.TCPSite(runner, "127.0.0.1", mail_port).start()
        port = late_bound_port()
        base_url = f"http://127.0.0.1:{port}"
        stripe = await StripeStandin(webhook_url=f"{base_url}/webhooks/stripe").start()
        whatsapp = await WhatsAppStandin().start()
        env = {
            **os.environ,
            "AGORA_PORT": str(port),
            "AGORA_PUBLIC_BASE_URL": base_url,
            "AGORA_MONGO_URL": mongo_url,
            "AGORA_MONGO_DB": "agora_e2e",
            "AGORA_REDIS_URL": redis_url,
            "AGORA_REDIS_PREFIX": f"e2e:{uuid.uuid4().hex[:10]}:",
            "AGORA_SMTP_URL": sink.url,
            "AGORA_RAY_DASHBOARD": "false",
            "AGORA_SECRET_KEY": secrets.token_urlsafe(32),
            "AGORA_VAR_DIR": str(work / "var"),
            "AGORA_LOGIN_ATTEMPTS_PER_IP": "10000",
            "AGORA_OTP_SENDS_PER_IP": "10000",
            "AGORA_STRIPE_SECRET_KEY": SECRET_KEY,
            "AGORA_STRIPE_WEBHOOK_SECRET": WEBHOOK_SECRET,
            "AGORA_STRIPE_API_BASE": stripe.base_url,
            "AGORA_WHATSAPP_GRAPH_URL": whatsapp.base_url,
        }
        log_path = work / "edge.log"
        with log_path.open("w") as log:
            # A process group of its own, so stopping it also stops the Ray processes it started.
            edge = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "agora",
                "serve",
                env=env,
                stdout=log,
                stderr=log,
                start_new_session=True,
            )
            try:
                await asyncio.to_thread(wait_for_edge, base_url, _Poll(edge), log_path)
                # A process group of its own too: stopped as a whole (the test runner's
                # children and their browsers) when the harness is stopped before it ends.
                suite = await asyncio.create_subprocess_exec(
                    *command,
                    cwd=REPO_ROOT,
                    env={
                        **env,
                        "AGORA_E2E_BASE_URL": base_url,
                        "AGORA_E2E_MAIL_URL": f"http://127.0.0.1:{mail_port}/messages",
                        "AGORA_E2E_STRIPE_URL": stripe.base_url,
                        # Its control API: /_standin/numbers, /media, /fail, /sent, /webhook.
                        "AGORA_E2E_WHATSAPP_URL": whatsapp.origin,
                    },
                    process_group=0,
                )
                try:
                    code = await suite.wait()
                finally:
                    await stop_group(suite)
            finally:
                await stop_group(edge)
                # Ray starts its workers in process groups of their own, in the edge's session.
                kill_session(edge.pid)
                await runner.cleanup()
                await stripe.stop()
                await whatsapp.close()
        if code != 0:
            sys.stderr.write("---- edge log (last 60 lines) ----\n")
            sys.stderr.write("\n".join(log_path.read_text().splitlines()[-60:]) + "\n")
        return code


async def stop_group(process) -> None:
    """Terminates the process group a child leads (what is left of it, once the child ended),
    and kills it when it does not end within 15 s."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        await asyncio.wait_for(process.wait(), timeout=15)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        await process.wait()


class _Poll:
    """Lets the blocking waiter ask an asyncio subprocess whether it has exited."""

    def __init__(self, process) -> None:
        self.process = process

    def poll(self):
        return self.process.returncode


class _Stopped(BaseException):
    """SIGTERM or SIGINT ends the harness as the end of its command does: through its clean-up.
    Inside the event loop the running task is cancelled; outside it this is raised. Only the
    first signal counts: another must not cut the clean-up short. SIGINT explicitly, as `make
    run` does (agora/launch/supervision.py): a shell starts a background job (`nohup ... &`) with
    SIGINT ignored, and Python leaves it so; `kill -INT` then stopped the MongoDB-wire server
    (it handles SIGINT itself) and not the harness, which left it a zombie."""

    exit_code = 0
    task: asyncio.Task | None = None

    @classmethod
    def on_signal(cls, signum: int, _frame) -> None:
        if cls.exit_code:
            return
        cls.exit_code = 128 + signum
        if cls.task is None:
            raise cls
        cls.task.get_loop().call_soon_threadsafe(cls.task.cancel)


async def _cancelled_on_signals(coroutine):
    _Stopped.task = asyncio.current_task()
    try:
        return await coroutine
    finally:
        _Stopped.task = None


def main() -> None:
    command = sys.argv[1:]
    if not command:
        raise SystemExit("usage: python -m tests.e2e.harness COMMAND...")
    for stop in (signal.SIGTERM, signal.SIGINT):
        signal.signal(stop, _Stopped.on_signal)
    redis_url = os.environ.get("AGORA_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    try:
        with tempfile.TemporaryDirectory(prefix="agora-e2e-") as tmp:
            work = Path(tmp)
            with (
                mongo_wire_server(work / "mongo") as mongo_url,
                redis_server(redis_url, work / "redis.log") as live_redis,
            ):
                code = asyncio.run(_cancelled_on_signals(run(command, work, mongo_url, live_redis)))
    except (_Stopped, asyncio.CancelledError):
        code = _Stopped.exit_code
    sys.exit(code)


if __name__ == "__main__":
    main()
