"""The tracked link of a template's URL button: counted, then redirected."""

from aiohttp import web

from agora.http.routes import Route
from agora.services.whatsapp.clicks import WhatsAppClicks

# Tokens are 24 URL-safe characters (`secrets.token_urlsafe(18)`).
CLICK_PATH = r"/wa/c/{token:[A-Za-z0-9_-]{1,64}}"


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
