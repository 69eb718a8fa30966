"""Serves the built web app; unknown API paths get JSON 404s instead of the page."""

import mimetypes
from pathlib import Path

from aiohttp import web

from agora.core.errors import NotFound, Unavailable

API_PREFIXES = (
    "/api/",
    "/user/",
    "/session/",
    "/realtime/",
    "/socket.io",
    "/uploads/",
    "/get_by_ids",
    "/get_upload_url",
    "/update_push_token",
    "/push/",
    "/url_preview",
    "/jserror",
    "/health",
)
# Vite fingerprints asset names, so they can be cached for good; the page itself never.
IMMUTABLE = "public, max-age=31536000, immutable"
# The service worker is checked for updates on every visit: never served from a cache.
SERVICE_WORKER = "sw.js"
mimetypes.add_type("application/manifest+json", ".webmanifest")


def routes(dist: Path) -> list[web.RouteDef]:
    root = dist.resolve()

    async def serve(request: web.Request) -> web.StreamResponse:
        if request.method not in ("GET", "HEAD") or request.path.startswith(API_PREFIXES):
            raise NotFound(f"No such call: {request.path}")
        index = root / "index.html"
        if not index.is_file():
            raise Unavailable("The web app is not built yet: run `make run`")
        candidate = (root / request.match_info["tail"]).resolve()
        if candidate.is_file() and candidate.is_relative_to(root) and candidate != index:
            cache = IMMUTABLE if candidate.parent.name == "assets" else "public, max-age=3600"
            if candidate.relative_to(root).as_posix() == SERVICE_WORKER:
                cache = "no-cache"
            return web.FileResponse(candidate, headers={"Cache-Control": cache})
        return web.FileResponse(index, headers={"Cache-Control": "no-cache"})

    return [web.route("*", "/{tail:.*}", serve)]
