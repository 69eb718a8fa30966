"""Headers every response carries: what a browser may load, frame, sniff and refer.

The web app is built by Vite into files served from the edge itself: no inline script and
no inline style element, so both are limited to 'self'. React's `style={...}` props are set
through the CSSOM, which style-src does not govern. Images come from the edge only (uploads,
proxied preview images) and from the map's tile server; sockets go to the edge's own origin.
"""

from urllib.parse import urlsplit

from aiohttp import web

MAP_TILES = "https://*.tile.openstreetmap.org"


def content_security_policy(public_base_url: str) -> str:
    parts = urlsplit(public_base_url)
    socket_origin = f"{'wss' if parts.scheme == 'https' else 'ws'}://{parts.netloc}"
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            f"img-src 'self' data: blob: {MAP_TILES}",
            "font-src 'self' data:",
            f"connect-src 'self' {socket_origin}",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


def security_headers(public_base_url: str):
    headers = {
        "Content-Security-Policy": content_security_policy(public_base_url),
        "X-Content-Type-Options": "nosniff",
        # Links people post lead to other sites: those learn nothing of the page they came from.
        "Referrer-Policy": "same-origin",
        # For browsers without frame-ancestors.
        "X-Frame-Options": "DENY",
    }

    async def add(request: web.Request, response: web.StreamResponse) -> None:
        """A header a handler set itself (uploads' `sandbox` policy) is kept."""
        for name, value in headers.items():
            response.headers.setdefault(name, value)

    return add
