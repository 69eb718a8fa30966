"""Fetching outside web pages for link previews without reaching anything internal.

Every address a host name resolves to is checked before connecting, on every redirect hop,
and the connection goes to the checked address itself, so a name cannot be re-pointed at an
internal address between the check and the connection.
"""

import ipaddress
import socket
from collections.abc import Callable
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import aiohttp
from aiohttp.abc import AbstractResolver

MAX_REDIRECTS = 3
MAX_BYTES = 512 * 1024
TIMEOUT_SECONDS = 5
AddressCheck = Callable[[ipaddress.IPv4Address | ipaddress.IPv6Address], bool]


class Refused(Exception):
    """The URL may not be fetched; nothing was sent to it."""


def public_address(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Only globally routable unicast addresses: no loopback, private, link-local (cloud
    metadata), multicast, reserved or IPv4-mapped internal addresses."""
    mapped = getattr(address, "ipv4_mapped", None)
    if mapped is not None:
        address = mapped
    return address.is_global and not address.is_multicast


class _CheckedResolver(AbstractResolver):
    def __init__(self, allowed: AddressCheck) -> None:
        self.allowed = allowed
        self.system = aiohttp.ThreadedResolver()

    async def resolve(self, host: str, port: int = 0, family: int = socket.AF_INET):
        answers = await self.system.resolve(host, port, family=socket.AF_UNSPEC)
        if not answers:
            raise Refused(f"{host} does not resolve")
        for answer in answers:
            if not self.allowed(ipaddress.ip_address(answer["host"])):
                raise Refused(f"{host} points to an address that may not be reached")
        return answers

    async def close(self) -> None:
        await self.system.close()


def _literal_address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address a host written as a number stands for, in any of the forms resolvers accept
    (2130706433, 0x7f.1, 127.1); None for a name."""
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    try:
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except OSError:
        return None


def check_url(url: str, allowed: AddressCheck) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Refused("Only http and https links can be previewed")
    if parts.username or parts.password:
        raise Refused("Links with credentials are not previewed")
    literal = _literal_address(parts.hostname)
    # Names are checked when resolved; numbers never reach a resolver, so here.
    if literal is not None and (not allowed(literal) or str(literal) != parts.hostname):
        raise Refused("This address may not be reached")
    return url


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


class PageFetcher:
    def __init__(self, allowed: AddressCheck = public_address) -> None:
        self.allowed = allowed

    async def preview(self, url: str) -> dict[str, str]:
        connector = aiohttp.TCPConnector(resolver=_CheckedResolver(self.allowed), limit=4)
        timeout = aiohttp.ClientTimeout(total=TIMEOUT_SECONDS)
        headers = {"User-Agent": "AgoraLinkPreview/1.0", "Accept": "text/html"}
        async with aiohttp.ClientSession(
            connector=connector, timeout=timeout, headers=headers
        ) as client:
            current = check_url(url, self.allowed)
            for _ in range(MAX_REDIRECTS + 1):
                try:
                    async with client.get(current, allow_redirects=False) as reply:
                        if reply.status in (301, 302, 303, 307, 308):
                            target = urljoin(current, reply.headers.get("Location", ""))
                            current = check_url(target, self.allowed)
                            continue
                        if reply.status != 200 or reply.content_type != "text/html":
                            raise Refused("The link is not a web page")
                        body = await reply.content.read(MAX_BYTES)
                        parser = _Meta()
                        parser.feed(body.decode(reply.charset or "utf-8", errors="replace"))
                        return parser.preview(current)
                except (aiohttp.ClientError, TimeoutError, UnicodeError) as error:
                    raise Refused("The page could not be read") from error
            raise Refused("Too many redirects")
