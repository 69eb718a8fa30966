"""Entry point: `python -m agora run` (everything on one machine) or `serve` (one edge)."""

import argparse
import logging
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import uvloop
from aiohttp import web

from agora import embedded, web_constants
from agora.actors.runtime import stop_ray
from agora.app import api_document, build_app
from agora.http.access_log import access_logger_class
from agora.http.openapi import render
from agora.settings import MissingSecret, Settings

log = logging.getLogger("agora")

# Ray's default port is Redis's 6379, so the local head listens beside it.
LOCAL_RAY_PORT = 6380


def _interrupt(*_) -> None:
    raise KeyboardInterrupt


def serve(settings: Settings) -> None:
    started = time.monotonic()

    async def report_ready(app: web.Application) -> None:
        log.info(
            "Agora is serving on %s (edge ready in %.1f s)",
            settings.public_base_url,
            time.monotonic() - started,
        )

    try:
        app = build_app(settings)
    except MissingSecret as refusal:
        sys.exit(f"agora: not starting: {refusal}")
    app.on_startup.append(report_ready)
    try:
        web.run_app(
            app,
            host=settings.host,
            port=settings.port,
            print=None,
            access_log_class=access_logger_class(settings),
            # libuv's loop: the edge's sends and fan-out spend a tenth less CPU and half the
            # wait (docs/decisions.md, "Sixth pass"); Ray's actors pick it up on their own.
            loop=uvloop.new_event_loop(),
        )
    finally:
        stop_ray()


def run_embedded(settings: Settings) -> int:
    """Starts what is missing (MongoDB-wire server, Redis, a Ray head), runs one edge beside
    them, and stops everything it started when interrupted (Ctrl-C or SIGTERM).

    The edge runs as a child process because Ray's runtime takes over the signal handling of
    the process it lives in; this supervisor stays free of Ray and so can always clean up.
    """
    var = settings.var_dir
    started: list[subprocess.Popen] = []
    ray_started = False
    exit_code = 0
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        host, port = embedded.mongo_address(settings.mongo_url)
        if not embedded.port_open(host, port):
            started.append(
                embedded.start_mongo_wire(var / "mongo", host, port, var / "log" / "nx-27017.log")
            )
            log.info("started the MongoDB-wire server (nx-27017) on %s:%d", host, port)
        redis = embedded.ensure_redis(settings.redis_url, var / "log" / "redis.log")
        if redis is not None:
            started.append(redis)
        ray_address = settings.ray_address
        if not ray_address:
            # The embedded cluster listens on loopback for this machine's edge only; a shared
            # cluster (AGORA_RAY_ADDRESS) keeps Ray's token authentication.
            os.environ.setdefault("RAY_AUTH_MODE", "disabled")
            log.info("starting a local Ray cluster (dashboard on :%d)", settings.ray_dashboard_port)
            embedded.start_ray_head(
                LOCAL_RAY_PORT,
                settings.ray_dashboard_port,
                settings.ray_metrics_port,
                Path(tempfile.gettempdir()) / "ray",
            )
            ray_started = True
            ray_address = f"127.0.0.1:{LOCAL_RAY_PORT}"
        env = {**os.environ, "AGORA_RAY_ADDRESS": ray_address, "AGORA_SEED_DEMO": "true"}
        if not settings.secret_key.get_secret_value():
            env["AGORA_SECRET_KEY"] = embedded.kept_secret_key(var / "secret_key")
        edge = subprocess.Popen([sys.executable, "-m", "agora", "serve"], env=env)
        started.insert(0, edge)
        exit_code = edge.wait()
    except KeyboardInterrupt:
        log.info("stopping")
    finally:
        embedded.stop(started)
        if ray_started:
            embedded.stop_ray_head()
    return exit_code


def main() -> None:
    parser = argparse.ArgumentParser(prog="agora")
    parser.add_argument(
        "command",
        choices=["run", "serve", "openapi", "constants"],
        help="run: embedded; serve: edge; openapi: print the API's OpenAPI document; "
        "constants: print the web app's copy of the spec's constants",
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    settings = Settings()
    if args.command == "openapi":
        sys.stdout.write(render(api_document(settings)))
    elif args.command == "constants":
        sys.stdout.write(web_constants.render())
    elif args.command == "run":
        sys.exit(run_embedded(settings))
    else:
        serve(settings)


if __name__ == "__main__":
    main()
