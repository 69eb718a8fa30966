"""The edge's health check, for the load balancer in front of the edges (HAProxy's `option
httpchk`). It answers from the edge alone: MongoDB, Redis and Ray are shared by every edge, so
an outage of theirs would take every edge out of the balancer at once, where each edge's own
answers (503 with Retry-After) serve its clients better."""

from aiohttp import web

from agora.http.replies import ok
from agora.http.routes import Auth, Reply, Route

HEALTH_PATH = "/health"


class HealthReply(Reply):
    ok: bool


async def health(request: web.Request) -> web.Response:
    return ok({"ok": True})


def routes() -> list[Route]:
    return [
        Route(
            "GET",
            HEALTH_PATH,
            health,
            "Whether this edge serves (for load balancers)",
            auth=Auth.NONE,
            reply=HealthReply,
        )
    ]
