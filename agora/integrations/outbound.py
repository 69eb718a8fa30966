"""HTTP clients for hosts that people name (pages to preview, browsers' push endpoints) that
never reach anything internal: the one outbound guard of the edge and the user shards.

Every request's URL is checked as the connector sees it (`core.addresses.check_url`), so an
address literal, which aiohttp connects to without resolving, must itself be allowed. A name
is resolved once, by the connector's resolver, and every address it resolves to must be
allowed; the connector then connects to those checked addresses, so nothing is resolved again
between check and connection, while the Host header and the TLS server name keep the name.
A redirect hop is a request of its own, checked the same way.
"""

import ipaddress
import socket
from typing import Any

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult

from agora.core.addresses import AddressCheck, Refused, check_url

REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})


class _CheckingResolver(AbstractResolver):
    def __init__(self, allowed: AddressCheck) -> None:
        self.allowed = allowed
        self.resolver = aiohttp.ThreadedResolver()

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        try:
            answers = await self.resolver.resolve(host, port, family)
        except (OSError, UnicodeError) as error:
            raise Refused(f"{host} does not resolve") from error
        if not answers or not all(
            self.allowed(ipaddress.ip_address(answer["host"])) for answer in answers
        ):
            raise Refused(f"{host} points to an address that may not be reached")
        return answers

    async def close(self) -> None:
        await self.resolver.close()


def guarded_session(
    allowed: AddressCheck, refuse_redirects: bool = False, **options: Any
) -> aiohttp.ClientSession:
    """A client session that reaches only addresses `allowed` accepts. With
    `refuse_redirects`, a redirect is a refusal rather than a reply to follow (for clients,
    like pywebpush, that cannot be told not to follow one)."""

    async def checked(
        request: aiohttp.ClientRequest, handler: aiohttp.ClientHandlerType
    ) -> aiohttp.ClientResponse:
        check_url(str(request.url), allowed)
        reply = await handler(request)
        if refuse_redirects and reply.status in REDIRECT_STATUSES:
            reply.release()
            raise Refused(f"{request.url.host} answered with a redirect, which is not followed")
        return reply

    connector = aiohttp.TCPConnector(resolver=_CheckingResolver(allowed))
    return aiohttp.ClientSession(connector=connector, middlewares=(checked,), **options)
