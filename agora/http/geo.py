"""Geocoding: a point on the map to an address (forward search is /api/cities)."""

from typing import Any

from aiohttp import web

from agora.core.errors import InvalidInput
from agora.http.replies import ok
from agora.http.routes import Query, Reply, Route
from agora.services.geo import GeoService


def _number(request: web.Request, name: str) -> float:
    text = request.query.get(name, "")
    try:
        return float(text)
    except ValueError as exc:
        raise InvalidInput({name: "Must be a number"}) from exc


class ReverseQuery(Query):
    latitude: float
    longitude: float


class ReverseReply(Reply):
    location: dict[str, Any]


def routes(geo: GeoService) -> list[Route]:
    async def reverse(request: web.Request) -> web.Response:
        return ok(await geo.reverse(_number(request, "latitude"), _number(request, "longitude")))

    return [
        Route(
            "GET",
            "/api/geocode/reverse",
            reverse,
            "The address of a point",
            query=ReverseQuery,
            reply=ReverseReply,
        )
    ]
