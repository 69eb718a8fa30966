"""Which hosts a URL someone gave may lead to, from its spelling alone: the pure half of the
outbound guard that link previews and web push share (the other half, resolving names and
connecting, is `agora/integrations/outbound.py`).

A URL is parsed once, by yarl (the library aiohttp's connector uses), so the host that is
checked is the host that would be connected to, after the same IDNA/NFKC normalisation
(fullwidth or circled digits and ideographic full stops become plain ones).
"""

import ipaddress
import re
import socket
from collections.abc import Callable
from urllib.parse import urlsplit

from yarl import URL

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
AddressCheck = Callable[[Address], bool]
NAT64_PREFIX = ipaddress.IPv6Network("64:ff9b::/96")
IPV4_COMPATIBLE = ipaddress.IPv6Network("::/96")
# What URL parsers and resolvers read as an IPv4 address when it ends a host (WHATWG URL's
# "ends in a number"): 127.0.0.1., 0x7f.1, 1.2.3.0x4.
NUMBER_LABEL = re.compile(r"(?:[0-9]+|0x[0-9a-f]*)", re.IGNORECASE)
DOMAIN_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?", re.IGNORECASE)
DOMAIN_MAX_CHARS = 253
# Everything the numeric IPv4 forms are written with (digits, hex, the 0x prefix, dots).
IPV4_FORM_CHARACTERS = frozenset("0123456789abcdefxABCDEFX.")


class Refused(Exception):
    """The URL may not be reached; nothing was sent to it."""


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


def literal_address(host: str) -> Address | None:
    """The address a host written as a number stands for, in any of the forms resolvers accept
    (2130706433, 0x7f.1, 127.1); None for a name."""
    if ":" not in host and not IPV4_FORM_CHARACTERS.issuperset(host):
        return None  # a name, told at once: both parsers failing cost 13 µs, paid per push
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    try:
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except OSError:
        return None


def written_as_address(host: str) -> bool:
    """An address in any spelling: an IPv6 or IPv4 literal, or a host whose last label is a
    number, which browsers and resolvers read as an address (127.0.0.1., 1.2.3.0x4)."""
    last_label = host.removesuffix(".").rpartition(".")[2]
    return (
        ":" in host or literal_address(host) is not None or bool(NUMBER_LABEL.fullmatch(last_label))
    )


def domain_name(host: str) -> bool:
    """A full domain name as DNS writes it (after IDNA): at least two labels of letters,
    digits and inner hyphens; not `localhost` or another single label."""
    labels = host.removesuffix(".").split(".")
    return (
        len(host) <= DOMAIN_MAX_CHARS
        and len(labels) >= 2
        and all(DOMAIN_LABEL.fullmatch(label) for label in labels)
    )


def parse_url(url: str) -> URL:
    """The URL as aiohttp's connector will see it, its host readable as people read it (what
    refusals show): a host with an IDNA label that does not decode (xn--a-) is malformed."""
    try:
        target = URL(url)
        target.host  # noqa: B018  (decoded here, once: yarl keeps it, later reads cannot raise)
    except (ValueError, TypeError) as error:  # UnicodeError is a ValueError
        raise Refused("This is not a valid link") from error
    return target


def check_url(url: str, allowed: AddressCheck) -> URL:
    """The link as the connector will see it; refused unless it is http(s) without
    credentials, and a host written as an address is written plainly and may be reached."""
    target = parse_url(url)
    try:
        written = urlsplit(url).hostname
    except ValueError as error:
        raise Refused("This is not a valid link") from error
    if target.scheme not in ("http", "https") or not target.raw_host or not written:
        raise Refused("Only http and https links can be previewed")
    if target.user is not None or target.password is not None:
        raise Refused("Links with credentials are not previewed")
    literal = literal_address(target.raw_host)
    # An address in any but its plain form (fullwidth or circled digits, ideographic dots,
    # hex, octal, one number) is refused whatever it points to: nobody links to a page so.
    if literal is not None and (not allowed(literal) or str(literal) != written.lower()):
        raise Refused("This address may not be reached")
    return target
