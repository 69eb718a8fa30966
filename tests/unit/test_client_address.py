"""The address every per-address limit counts (`client_ip`): behind trusted proxies, the value
the outermost trusted proxy appended to X-Forwarded-For, whatever the client wrote before it
and on however many header lines (issue 41, item 1)."""

from unittest import mock

import pytest
from aiohttp import web
from aiohttp.test_utils import make_mocked_request
from multidict import CIMultiDict

from agora.http.requests import TRUSTED_PROXY_HOPS, client_ip

PEER = "10.0.0.5"  # the connection's own address: the proxy next to the edge, or the client


def address(hops: int, *forwarded_lines: str) -> str:
    app = web.Application()
    app[TRUSTED_PROXY_HOPS] = hops
    peer = mock.Mock()
    peer.get_extra_info.return_value = (PEER, 40_000)
    headers = CIMultiDict(("X-Forwarded-For", line) for line in forwarded_lines)
    return client_ip(make_mocked_request("POST", "/", headers=headers, app=app, transport=peer))


@pytest.mark.parametrize(
    "lines",
    [
        # What HAProxy's `option forwardfor` makes of what a client wrote: a line of its own.
        ("203.0.113.7", "198.51.100.9"),
        ("203.0.113.7, 203.0.113.8", "198.51.100.9"),
        ("203.0.113.7", "203.0.113.8, 203.0.113.9", "198.51.100.9"),
        # A proxy appending to the last line instead.
        ("203.0.113.7, 198.51.100.9",),
        # The client wrote nothing.
        ("198.51.100.9",),
    ],
)
def test_one_trusted_proxy_the_last_value_counts_whatever_the_client_wrote(lines):
    assert address(1, *lines) == "198.51.100.9"


def test_two_trusted_proxies_the_value_the_outer_one_wrote_counts():
    assert address(2, "203.0.113.7, 192.0.2.1", "198.51.100.9") == "192.0.2.1"
    assert address(2, "203.0.113.7", "192.0.2.1", "198.51.100.9") == "192.0.2.1"
    # Past the inner proxy only (the outer one left out): what that one saw.
    assert address(2, "198.51.100.9") == "198.51.100.9"


def test_without_trusted_proxies_or_a_value_the_connection_counts():
    assert address(0, "203.0.113.7") == PEER
    assert address(1) == PEER
    assert address(1, "203.0.113.7, ") == PEER
