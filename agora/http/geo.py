"""Geocoding: a point on the map to an address (forward search is /api/cities)."""

from aiohttp import web

from agora.core.errors import InvalidInput
from agora.http.replies import ok
from agora.services.geo import GeoService


def _number(request: web.Request, name: str) -> float:
    text = request.query.get(name, "")
    try:
        return float(text)
    except ValueError as exc:
        raise InvalidInput({name: "Must be a number"}) from exc


def routes(geo: GeoService) -> list[web.RouteDef]:
    async def reverse(request: web.Request) -> web.Response:
        return ok(await geo.reverse(_number(request, "latitude"), _number(request, "longitude")))

    return [web.get("/api/geocode/reverse", reverse)]
