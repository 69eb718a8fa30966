"""Fetching outside web pages for link previews without reaching anything internal: every
hop, the link as written (`core.addresses.check_url`) and the connection (the outbound guard,
`integrations/outbound.py`) are checked.
"""

from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import urljoin

import aiohttp

from agora.core.addresses import AddressCheck, Refused, check_url, public_address
from agora.integrations.outbound import REDIRECT_STATUSES, guarded_session

MAX_REDIRECTS = 3
MAX_BYTES = 512 * 1024
PAGE_TYPES = frozenset({"text/html"})
TIMEOUT_SECONDS = 5


class _Meta(HTMLParser):
    """Collects <title> and the Open Graph / description meta tags."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: dict[str, str] = {}
        self._in_title = False
        self._title: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag == "title":
            self._in_title = True
        elif tag == "meta":
            name = (values.get("property") or values.get("name") or "").lower()
            if name in ("og:title", "og:description", "og:image", "description"):
                self.found.setdefault(name, values.get("content", "").strip())

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self._title.append(data)

    def preview(self, base_url: str) -> dict[str, str]:
        image = self.found.get("og:image", "")
        return {
            "title": (self.found.get("og:title") or "".join(self._title)).strip()[:300],
            "description": (self.found.get("og:description") or self.found.get("description", ""))[
                :500
            ],
            "image": urljoin(base_url, image) if image.startswith(("http", "/")) else "",
        }


async def _read_at_most(reply: aiohttp.ClientResponse, max_bytes: int) -> bytes:
    """The body up to `max_bytes`: the rest is never read, however much the server sends."""
    body = bytearray()
    async for chunk in reply.content.iter_chunked(64 * 1024):
        body += chunk
        if len(body) >= max_bytes:
            break
    return bytes(body[:max_bytes])


@dataclass(frozen=True)
class Fetched:
    url: str  # after redirects
    content_type: str
    charset: str | None
    body: bytes


class PageFetcher:
    """Fetches web pages (for previews) and pictures (kept as uploads) from the internet."""

    def __init__(self, allowed: AddressCheck = public_address) -> None:
        self.allowed = allowed

    async def preview(self, url: str) -> dict[str, str]:
        page = await self.fetch(url, PAGE_TYPES, MAX_BYTES, cut=True)
        parser = _Meta()
        parser.feed(page.body.decode(page.charset or "utf-8", errors="replace"))
        return parser.preview(page.url)

    async def fetch(
        self, url: str, content_types: frozenset[str], max_bytes: int, cut: bool = False
    ) -> Fetched:
        """The body of `url` if it is of one of `content_types`; beyond `max_bytes` it is cut
        there when `cut` (the head of a page is enough), refused otherwise."""
        timeout = aiohttp.ClientTimeout(total=TIMEOUT_SECONDS)
        headers = {"User-Agent": "AgoraLinkPreview/1.0", "Accept": ", ".join(content_types)}
        async with guarded_session(self.allowed, timeout=timeout, headers=headers) as client:
            current = check_url(url, self.allowed)
            for _ in range(MAX_REDIRECTS + 1):
                try:
                    async with client.get(current, allow_redirects=False) as reply:
                        if reply.status in REDIRECT_STATUSES:
                            target = urljoin(str(current), reply.headers.get("Location", ""))
                            current = check_url(target, self.allowed)
                            continue
                        if reply.status != 200 or reply.content_type not in content_types:
                            raise Refused("The link is not of a kind that can be shown")
                        body = await _read_at_most(reply, max_bytes + 1)
                        if len(body) > max_bytes and not cut:
                            raise Refused("The file behind the link is too large")
                        return Fetched(
                            str(current), reply.content_type, reply.charset, body[:max_bytes]
                        )
                except (aiohttp.ClientError, TimeoutError, UnicodeError) as error:
                    raise Refused("The link could not be read") from error
            raise Refused("Too many redirects")
