"""Entry point: `python -m agora run` (everything on one machine) or `serve` (one edge)."""

import argparse
import asyncio
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Protocol

import uvloop
from aiohttp import web

from agora import embedded, events_table, web_constants
from agora.actors import growth
from agora.actors.runtime import stop_ray
from agora.app import api_document, build_app
from agora.http.access_log import access_logger_class
from agora.http.openapi import render
from agora.settings import MissingSecret, Settings

log = logging.getLogger("agora")


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
        # EX_CONFIG: the supervisor of `make run` does not start it again.
        print(f"agora: not starting: {refusal}", file=sys.stderr)
        sys.exit(os.EX_CONFIG)
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


# A child that exits is started again after a wait, doubled after each exit that follows a
# short run (up to the most), back to the least once it has run a while.
RESTART_LEAST_SECONDS = 1.0
RESTART_MOST_SECONDS = 30.0
RAN_A_WHILE_SECONDS = 60.0
SUPERVISION_PERIOD_SECONDS = 0.5


class Child(Protocol):
    def poll(self) -> int | None: ...


class Restarting:
    """One child of the supervisor kept running: started again, with backoff, when it exits."""

    def __init__(
        self, name: str, start: Callable[[], Child], stop: Callable[[Child], None]
    ) -> None:
        self.name = name
        self._start = start
        self._stop = stop
        self._wait = RESTART_LEAST_SECONDS
        self._started_at = time.monotonic()
        self.child = start()

    def refused(self) -> int | None:
        """Starts the child again if it exited; its exit code if it refused to start (the same
        start would be refused again)."""
        code = self.child.poll()
        if code is None:
            return None
        if code == os.EX_CONFIG:
            return code
        if time.monotonic() - self._started_at > RAN_A_WHILE_SECONDS:
            self._wait = RESTART_LEAST_SECONDS
        log.warning(
            "the %s exited (code %s); starting it again in %.0f s", self.name, code, self._wait
        )
        # What it leaves behind (a head's temp dir, its processes' group) goes first.
        self._stop(self.child)
        time.sleep(self._wait)
        self._wait = min(self._wait * 2, RESTART_MOST_SECONDS)
        self._started_at = time.monotonic()
        self.child = self._start()
        log.info("the %s is started again", self.name)
        return None

    def stop(self) -> None:
        self._stop(self.child)


def run_embedded(settings: Settings) -> int:
    """Starts what is missing (MongoDB-wire server, Redis, a Ray head), runs one edge beside
    them, starts the edge and the Ray head again whenever one exits, and stops everything it
    started when interrupted (Ctrl-C or SIGTERM).

    The edge runs as a child process because Ray's runtime takes over the signal handling of
    the process it lives in; this supervisor stays free of Ray and so can always clean up.
    """
    var = settings.var_dir
    services: list[subprocess.Popen] = []
    supervised: list[Restarting] = []
    exit_code = 0
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        host, port = embedded.mongo_address(settings.mongo_url)
        if not embedded.port_open(host, port):
            services.append(
                embedded.start_mongo_wire(var / "mongo", host, port, var / "log" / "nx-27017.log")
            )
            log.info("started the MongoDB-wire server (nx-27017) on %s:%d", host, port)
        redis = embedded.ensure_redis(settings.redis_url, var / "log" / "redis.log")
        if redis is not None:
            services.append(redis)
        ray_address = settings.ray_address
        if not ray_address:
            ray_address = f"127.0.0.1:{settings.ray_port}"
            if embedded.port_open("127.0.0.1", settings.ray_port):
                log.info("a Ray cluster already listens on %s; joining it", ray_address)
            else:
                supervised.append(_ray_head(settings))
        env = {**os.environ, "AGORA_RAY_ADDRESS": ray_address, "AGORA_SEED_DEMO": "true"}
        if not settings.secret_key.get_secret_value():
            env["AGORA_SECRET_KEY"] = embedded.kept_secret_key(var / "secret_key")
        edge_command = [sys.executable, "-m", "agora", "serve"]
        supervised.insert(
            0, Restarting("edge", lambda: subprocess.Popen(edge_command, env=env), _stop_one)
        )
        while exit_code == 0:
            time.sleep(SUPERVISION_PERIOD_SECONDS)
            exit_code = next(filter(None, (child.refused() for child in supervised)), 0)
    except KeyboardInterrupt:
        log.info("stopping")
    finally:
        for child in supervised:
            child.stop()
        embedded.stop(services)
    return exit_code


def _ray_head(settings: Settings) -> Restarting:
    # The embedded cluster listens on loopback for this machine's edge only; a shared
    # cluster (AGORA_RAY_ADDRESS) keeps Ray's token authentication.
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    log_file = settings.var_dir / "log" / "ray-head.log"

    def start() -> embedded.RayHead:
        log.info(
            "starting a local Ray cluster on 127.0.0.1:%d (dashboard on :%d)",
            settings.ray_port,
            settings.ray_dashboard_port,
        )
        return embedded.start_ray_head(settings, log_file)

    return Restarting("Ray head", start, embedded.stop_ray_head)


def _stop_one(process: subprocess.Popen) -> None:
    embedded.stop([process])


def main() -> None:
    parser = argparse.ArgumentParser(prog="agora")
    parser.add_argument(
        "command",
        choices=["run", "serve", "openapi", "constants", "events", "shards"],
        help="run: embedded; serve: edge; openapi: print the API's OpenAPI document; "
        "constants: print the web app's copy of the spec's constants; "
        "events: print docs/architecture.md's table of domain events; "
        "shards: show the shard pools, or grow them while the edges serve",
    )
    parser.add_argument("--sessions", type=int, help="shards: the session shards' new count")
    parser.add_argument("--users", type=int, help="shards: the user shards' new count")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    settings = Settings()
    if args.command == "openapi":
        sys.stdout.write(render(api_document(settings)))
    elif args.command == "constants":
        sys.stdout.write(web_constants.render())
    elif args.command == "events":
        sys.stdout.write(events_table.render())
    elif args.command == "shards":
        asyncio.run(growth.grow(settings, args.sessions, args.users))
    elif args.command == "run":
        sys.exit(run_embedded(settings))
    else:
        serve(settings)


if __name__ == "__main__":
    main()
