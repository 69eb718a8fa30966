"""Every response tells browsers what the page may load, that it may not be framed, and not
to guess types or send the page's address to other sites."""

import pytest

from tests.integration.helpers import member
from tests.integration.test_uploads import png_bytes, put, upload_link


def _policy(reply) -> dict[str, str]:
    directives = (d.strip() for d in reply.headers["Content-Security-Policy"].split(";"))
    return {name: value for name, _, value in (d.partition(" ") for d in directives)}


@pytest.mark.parametrize("path", ["/", "/landing", "/assets/app-1234.js", "/user/me", "/nope/x"])
async def test_pages_and_calls_carry_the_security_headers(client, path):
    reply = await client.get(path)
    assert reply.headers["X-Content-Type-Options"] == "nosniff"
    assert reply.headers["Referrer-Policy"] == "same-origin"
    assert reply.headers["X-Frame-Options"] == "DENY"
    policy = _policy(reply)
    assert policy["frame-ancestors"] == "'none'"
    assert policy["script-src"] == "'self'"
    assert policy["style-src"] == "'self'"
    assert policy["object-src"] == "'none'"
    assert policy["img-src"].split()[:3] == ["'self'", "data:", "blob:"]
    assert policy["connect-src"] == f"'self' ws://127.0.0.1:{8080}"


async def test_the_socket_origin_follows_the_public_address(client_for):
    client = await client_for(public_base_url="https://agora.example")
    policy = _policy(await client.get("/landing"))
    assert policy["connect-src"] == "'self' wss://agora.example"


async def test_uploaded_files_keep_their_own_sandbox_policy(client, smtp_sink):
    ada = await member(client, smtp_sink)
    link = await upload_link(client, ada.key, "image/png")
    stored = await put(client, link, png_bytes())
    assert stored.status == 200, await stored.text()
    reply = await client.get(link["file_url"])
    assert reply.status == 200
    assert reply.headers["Content-Security-Policy"] == "sandbox"
    assert reply.headers["X-Frame-Options"] == "DENY"
