"""The tracked link of a template's URL button: counted, then redirected."""

from aiohttp import web

from agora.http.routes import Route
from agora.services.whatsapp.clicks import WhatsAppClicks

# Everything under /wa/c/ is this route's: an unknown token is a 404, not the web app's page.
CLICK_PATH = r"/wa/c/{token:.+}"


def routes(clicks: WhatsAppClicks) -> list[Route]:
    async def follow(request: web.Request) -> web.Response:
        url = await clicks.follow(request.match_info["token"])
        raise web.HTTPFound(url, headers={"Cache-Control": "no-store"})

    return [
        Route(
            "GET",
            CLICK_PATH,
            follow,
            "Counts a click on a template's link button and redirects to its URL",
            redirects=True,
        )
    ]
