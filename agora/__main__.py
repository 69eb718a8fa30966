"""Entry point: `python -m agora run` (everything on one machine), `cluster` (several edges
behind HAProxy and several Ray nodes on one machine) or `serve` (one edge)."""

import argparse
import asyncio
import logging
import os
import subprocess
import sys
import time

import uvloop
from aiohttp import web
from pydantic import ValidationError

from agora.actors import growth
from agora.actors.runtime import stop_ray
from agora.app import api_document, build_app
from agora.generate import events_table, takes_table, web_constants
from agora.http.access_log import access_logger_class
from agora.http.openapi import render
from agora.launch import cluster, embedded, supervision
from agora.settings import REPO_ROOT, MissingSecret, Settings

log = logging.getLogger("agora")
ARCHITECTURE_DOC = REPO_ROOT / "docs" / "architecture.md"


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


def run_embedded(settings: Settings) -> int:
    """Starts what is missing (MongoDB-wire server, Redis, a Ray head), runs one edge beside
    them, starts the edge and the Ray head again whenever one exits, and stops everything it
    started when interrupted (Ctrl-C or SIGTERM).

    The edge runs as a child process because Ray's runtime takes over the signal handling of
    the process it lives in; this supervisor stays free of Ray and so can always clean up.
    """
    services: list[subprocess.Popen] = []
    children: list[supervision.Restarting] = []
    local_head = not settings.ray_address
    ray_address = settings.ray_address or f"127.0.0.1:{settings.ray_port}"
    head_running = local_head and embedded.port_open("127.0.0.1", settings.ray_port)
    if head_running and not embedded.answers_as_ray("127.0.0.1", settings.ray_port):
        print(
            f"agora: not starting: {ray_address} is taken by a program that does not answer as "
            "a Ray cluster; set AGORA_RAY_PORT to a free port",
            file=sys.stderr,
        )
        return os.EX_CONFIG
    supervision.stop_on_signals()
    try:
        services += embedded.start_stores(settings)
        if local_head:
            embedded.use_ray_token(settings)
            if head_running:
                log.info("a Ray cluster already listens on %s; joining it", ray_address)
            else:
                children.append(supervision.ray_head(settings))
        env = {
            **os.environ,
            "AGORA_RAY_ADDRESS": ray_address,
            "AGORA_SEED_DEMO": "true",
            "AGORA_SECRET_KEY": embedded.secret_key(settings),
        }
        children.insert(0, supervision.edge("edge", env))
        return supervision.supervise(children)
    except KeyboardInterrupt:
        log.info("stopping")
        return 0
    finally:
        supervision.stop_all(children)
        embedded.stop(services)


def _setting_errors(bad: ValidationError) -> str:
    """Each error named by its environment variable, without pydantic's links."""
    return "; ".join(
        (f"AGORA_{'_'.join(map(str, e['loc'])).upper()}: " if e["loc"] else "")
        + e["msg"].removeprefix("Value error, ")
        for e in bad.errors()
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="agora")
    parser.add_argument(
        "command",
        choices=["run", "cluster", "serve", "openapi", "constants", "events", "takes", "shards"],
        help="run: embedded; cluster: edges behind HAProxy and Ray nodes on this machine; "
        "serve: edge; openapi: print the API's OpenAPI document; "
        "constants: print the web app's copy of the spec's constants; "
        "events: print docs/architecture.md's table of domain events; "
        "takes: write the chat's constructors into docs/architecture.md's takes cells; "
        "shards: show the shard pools, or grow them while the edges serve",
    )
    parser.add_argument("--sessions", type=int, help="shards: the session shards' new count")
    parser.add_argument("--users", type=int, help="shards: the user shards' new count")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    try:
        settings = Settings()
    except ValidationError as bad:
        print(f"agora: not starting: {_setting_errors(bad)}", file=sys.stderr)
        sys.exit(os.EX_CONFIG)
    if args.command == "openapi":
        sys.stdout.write(render(api_document(settings)))
    elif args.command == "constants":
        sys.stdout.write(web_constants.render())
    elif args.command == "events":
        sys.stdout.write(events_table.render())
    elif args.command == "takes":
        ARCHITECTURE_DOC.write_text(takes_table.written(ARCHITECTURE_DOC.read_text()))
    elif args.command == "shards":
        asyncio.run(growth.grow(settings, args.sessions, args.users))
    elif args.command == "run":
        sys.exit(run_embedded(settings))
    elif args.command == "cluster":
        sys.exit(cluster.run(settings))
    else:
        serve(settings)


if __name__ == "__main__":
    main()
