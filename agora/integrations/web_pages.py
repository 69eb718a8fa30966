"""Fetching outside web pages for link previews without reaching anything internal.

A link is parsed once, by yarl (the library aiohttp's connector uses), so the host that is
checked is the host that would be connected to, after the same IDNA/NFKC normalisation
(fullwidth or circled digits and ideographic full stops become plain ones). A name is
resolved here and every address it resolves to is checked; the request then goes to the checked
address itself (Host header and TLS server name keep the name), through a connector whose
resolver refuses everything, so nothing is resolved again between check and connection.
Every redirect hop is checked the same way.
"""

import asyncio
import ipaddress
import socket
from collections.abc import Callable
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import aiohttp
from aiohttp.abc import AbstractResolver
from yarl import URL

MAX_REDIRECTS = 3
MAX_BYTES = 512 * 1024
PAGE_TYPES = frozenset({"text/html"})
TIMEOUT_SECONDS = 5
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
AddressCheck = Callable[[Address], bool]
NAT64_PREFIX = ipaddress.IPv6Network("64:ff9b::/96")
IPV4_COMPATIBLE = ipaddress.IPv6Network("::/96")


class Refused(Exception):
    """The URL may not be fetched; nothing was sent to it."""


def _embedded_ipv4(address: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """IPv4 addresses an IPv6 address carries to (mapped, compatible, NAT64, 6to4, Teredo)."""
    found = [address.ipv4_mapped, address.sixtofour, *(address.teredo or ())]
    if address in NAT64_PREFIX or address in IPV4_COMPATIBLE:
        found.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    return [embedded for embedded in found if embedded is not None]


def public_address(address: Address) -> bool:
    """Only globally routable unicast addresses: no loopback, private, link-local (cloud
    metadata), multicast or reserved address, nor an IPv6 form carrying one."""
    carried = _embedded_ipv4(address) if isinstance(address, ipaddress.IPv6Address) else []
    return all(a.is_global and not a.is_multicast for a in [address, *carried])


class _NoResolver(AbstractResolver):
    """Requests go to checked address literals only; a name reaching the connector is a bug."""

    async def resolve(self, host: str, port: int = 0, family: int = socket.AF_INET):
        raise Refused(f"{host} was not checked before connecting")

    async def close(self) -> None:
        pass


def _literal_address(host: str) -> Address | None:
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


def check_url(url: str, allowed: AddressCheck) -> URL:
    """The link as the connector will see it; refused unless it is http(s) without
    credentials, and a host written as an address is written plainly and may be reached."""
    try:
        target = URL(url)
        written = urlsplit(url).hostname
        # The name as people read it, which refusals show: reading an IDNA label that does
        # not decode (xn--a-) raises, so such a link is malformed.
        host = target.host
    except (ValueError, TypeError) as error:  # UnicodeError is a ValueError
        raise Refused("This is not a valid link") from error
    if target.scheme not in ("http", "https") or not host or not written:
        raise Refused("Only http and https links can be previewed")
    if target.user or target.password:
        raise Refused("Links with credentials are not previewed")
    literal = _literal_address(target.raw_host)
    # An address in any but its plain form (fullwidth or circled digits, ideographic dots,
    # hex, octal, one number) is refused whatever it points to: nobody links to a page so.
    if literal is not None and (not allowed(literal) or str(literal) != written.lower()):
        raise Refused("This address may not be reached")
    return target


async def _checked_address(target: URL, allowed: AddressCheck) -> Address:
    """The one address the request goes to: the literal itself, or an address of the name,
    every one of which must be allowed."""
    literal = _literal_address(target.raw_host)
    if literal is not None:
        return literal
    try:
        answers = await asyncio.get_running_loop().getaddrinfo(
            target.raw_host, target.port, type=socket.SOCK_STREAM
        )
    except (OSError, UnicodeError) as error:
        raise Refused(f"{target.host} does not resolve") from error
    addresses = [ipaddress.ip_address(answer[4][0]) for answer in answers]
    if not addresses or not all(allowed(address) for address in addresses):
        raise Refused(f"{target.host} points to an address that may not be reached")
    return addresses[0]


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
        connector = aiohttp.TCPConnector(resolver=_NoResolver(), limit=4)
        timeout = aiohttp.ClientTimeout(total=TIMEOUT_SECONDS)
        headers = {"User-Agent": "AgoraLinkPreview/1.0", "Accept": ", ".join(content_types)}
        async with aiohttp.ClientSession(
            connector=connector, timeout=timeout, headers=headers
        ) as client:
            current = check_url(url, self.allowed)
            for _ in range(MAX_REDIRECTS + 1):
                address = await _checked_address(current, self.allowed)
                try:
                    async with client.get(
                        current.with_host(str(address)),
                        headers={"Host": current.host_port_subcomponent},
                        server_hostname=current.host if current.scheme == "https" else None,
                        allow_redirects=False,
                    ) as reply:
                        if reply.status in (301, 302, 303, 307, 308):
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
