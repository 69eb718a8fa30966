"""Entry point: `python -m agora run` (everything on one machine) or `serve` (one edge)."""

import argparse
import logging
import time

from aiohttp import web

from agora import embedded
from agora.actors.runtime import stop_ray
from agora.app import build_app
from agora.settings import Settings

log = logging.getLogger("agora")


def serve(settings: Settings) -> None:
    started = time.monotonic()

    async def report_ready(app: web.Application) -> None:
        log.info(
            "Agora is serving on %s (edge ready in %.1f s)",
            settings.public_base_url,
            time.monotonic() - started,
        )

    app = build_app(settings)
    app.on_startup.append(report_ready)
    try:
        web.run_app(app, host=settings.host, port=settings.port, print=None)
    finally:
        stop_ray()


def run_embedded(settings: Settings) -> None:
    """Starts what is missing (MongoDB-wire server, Redis), serves, and stops them on Ctrl-C."""
    var = settings.var_dir
    started: list = []
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
        serve(settings)
    finally:
        embedded.stop(started)


def main() -> None:
    parser = argparse.ArgumentParser(prog="agora")
    parser.add_argument("command", choices=["run", "serve"], help="run: embedded; serve: edge")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    settings = Settings()
    if args.command == "run":
        run_embedded(settings)
    else:
        serve(settings)


if __name__ == "__main__":
    main()
