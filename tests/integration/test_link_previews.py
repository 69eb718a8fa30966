"""Link previews against real local web servers.

127.0.0.2 stands in for the public internet (the fetcher is told that only it is public);
127.0.0.1 stands for the internal network, where a counting server must never be reached.
"""

import io
import ipaddress

import pytest
from aiohttp import web
from PIL import Image

from agora.integrations.web_pages import PageFetcher
from tests.integration.helpers import member, new_group
from tests.services import free_port

PUBLIC_STAND_IN = "127.0.0.2"
# Hosts written as IDNA labels that do not decode (the URL library raises on reading them).
BAD_PUNYCODE = ["xn--a-", "xn--", "www.xn--a-.com", "xn--a", "xn---"]
PAGE = """<html><head><title>Fallback</title>
<meta property="og:title" content="Bike for sale">
<meta property="og:description" content="Barely used, Amsterdam">
<meta property="og:image" content="/bike.jpg"></head><body>hi</body></html>"""


async def _serve(app: web.Application, host: str) -> tuple[web.AppRunner, int]:
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, host, port).start()
    return runner, port


@pytest.fixture
async def internal():
    """An internal service that counts every request reaching it."""
    hits: list[str] = []

    async def record(request: web.Request) -> web.Response:
        hits.append(request.path)
        return web.Response(text="<title>secret</title>", content_type="text/html")

    app = web.Application()
    app.router.add_get("/{tail:.*}", record)
    runner, port = await _serve(app, "127.0.0.1")
    yield port, hits
    await runner.cleanup()


def _jpeg() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 40), "orange").save(out, "JPEG")
    return out.getvalue()


@pytest.fixture
def picture_hits() -> list[str]:
    return []


@pytest.fixture
async def public(internal, picture_hits):
    internal_port, _ = internal

    async def page(request: web.Request) -> web.Response:
        return web.Response(text=PAGE, content_type="text/html")

    async def to_internal(request: web.Request) -> web.Response:
        raise web.HTTPFound(f"http://127.0.0.1:{internal_port}/admin")

    async def to_internal_fullwidth(request: web.Request) -> web.Response:
        raise web.HTTPFound(f"http://\uff11\uff12\uff17.0.0.1:{internal_port}/admin")

    async def to_internal_name(request: web.Request) -> web.Response:
        raise web.HTTPFound(f"http://localhost:{internal_port}/admin")

    async def to_bad_punycode(request: web.Request) -> web.Response:
        raise web.HTTPFound(f"http://{BAD_PUNYCODE[0]}/")

    async def pdf(request: web.Request) -> web.Response:
        return web.Response(body=b"%PDF-", content_type="application/pdf")

    async def picture(request: web.Request) -> web.Response:
        picture_hits.append(request.path)
        return web.Response(body=_jpeg(), content_type="image/jpeg")

    app = web.Application()
    app.router.add_get("/page", page)
    app.router.add_get("/redirect", to_internal)
    app.router.add_get("/redirect-fullwidth", to_internal_fullwidth)
    app.router.add_get("/redirect-name", to_internal_name)
    app.router.add_get("/redirect-bad-punycode", to_bad_punycode)
    app.router.add_get("/file.pdf", pdf)
    app.router.add_get("/bike.jpg", picture)
    app.router.add_get("/avatar.jpg", picture)
    runner, port = await _serve(app, PUBLIC_STAND_IN)
    yield f"http://{PUBLIC_STAND_IN}:{port}"
    await runner.cleanup()


@pytest.fixture
async def user(client_for, smtp_sink):
    only_stand_in = PageFetcher(allowed=lambda a: a == ipaddress.ip_address(PUBLIC_STAND_IN))
    client = await client_for(page_fetcher=only_stand_in)
    return await member(client, smtp_sink)


async def _is_kept_picture(client, url: str) -> None:
    """A picture the edge keeps and serves itself: readers never ask the outside host."""
    assert url.startswith("/uploads/"), url
    reply = await client.get(url)
    assert reply.status == 200
    assert reply.content_type == "image/jpeg"
    assert Image.open(io.BytesIO(await reply.read())).size == (40, 40)


async def test_a_public_page_is_previewed_with_its_picture_kept_by_the_edge(
    user, public, picture_hits
):
    preview = await user.get(f"/url_preview?url={public}/page")
    assert {k: preview[k] for k in ("title", "description")} == {
        "title": "Bike for sale",
        "description": "Barely used, Amsterdam",
    }
    await _is_kept_picture(user.client, preview["image"])
    assert picture_hits == ["/bike.jpg"]


async def test_outside_avatars_and_group_images_are_kept_by_the_edge(user, public):
    profile = await user.call("/api/user/profile?action=update", {"image": f"{public}/avatar.jpg"})
    await _is_kept_picture(user.client, profile["user"]["image"])
    group_id = await new_group(user)
    changed = await user.call(
        "/api/group?action=update", {"group_id": group_id, "image": f"{public}/avatar.jpg"}
    )
    await _is_kept_picture(user.client, changed["group"]["image"])


@pytest.mark.parametrize("path", ["/page", "/file.pdf", "/missing.jpg", "/redirect"])
async def test_avatar_links_to_anything_but_a_reachable_picture_are_refused(
    user, public, internal, path
):
    reply = await user.client.post(
        "/api/user/profile?action=update",
        json={"image": f"{public}{path}"},
        headers={"Authorization": f"Bearer {user.key}"},
    )
    assert reply.status == 400
    assert "image" in (await reply.json())["errors"]
    assert internal[1] == []


@pytest.mark.parametrize("host", BAD_PUNYCODE)
async def test_outside_pictures_on_hosts_that_do_not_decode_are_refused(user, host):
    group_id = await new_group(user)
    for path, body in (
        ("/api/user/profile?action=update", {"image": f"http://{host}/a.jpg"}),
        ("/api/group?action=update", {"group_id": group_id, "image": f"https://{host}/a.jpg"}),
    ):
        reply = await user.client.post(
            path, json=body, headers={"Authorization": f"Bearer {user.key}"}
        )
        assert reply.status == 400, (path, await reply.text())
        assert "image" in (await reply.json())["errors"]


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "169.254.169.254",
        "[::1]",
        "2130706433",
        "0x7f.1",
        "127.1",
        "[::ffff:127.0.0.1]",
        "localhost",
        "LOCALHOST.",
        # Forms the URL library normalises to 127.0.0.1 only after a name-based check.
        "\uff11\uff12\uff17.\uff10.\uff10.\uff11",  # fullwidth digits
        "\u2460\u2461\u2466.0.0.1",  # circled digits
        "127\u30020\u30020\u30021",  # ideographic full stops
        "127\uff0e0\uff0e0\uff0e1",  # fullwidth full stops
        "\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54",  # fullwidth "localhost"
        "0177.0.0.1",
        "0x7f000001",
        "017700000001",
        "127.0.0.1.",
        "[0:0:0:0:0:0:0:1]",
        "[::ffff:7f00:1]",
        "[::127.0.0.1]",
        "[64:ff9b::7f00:1]",
        "[2002:7f00:1::]",
    ],
)
async def test_internal_addresses_are_refused_without_connecting(user, internal, address):
    port, hits = internal
    reply = await user.client.get(
        "/url_preview",
        params={"url": f"http://{address}:{port}/admin"},
        headers={"Authorization": f"Bearer {user.key}"},
    )
    assert reply.status == 400
    assert "url" in (await reply.json())["errors"]
    assert hits == []


@pytest.mark.parametrize(
    "url",
    ["http://[", "http://[::1", "https://[zz]/", "http://:80/"]
    + [f"http://{host}/" for host in BAD_PUNYCODE],
)
async def test_malformed_links_are_refused(user, url):
    reply = await user.client.get(
        "/url_preview", params={"url": url}, headers={"Authorization": f"Bearer {user.key}"}
    )
    assert reply.status == 400
    assert "url" in (await reply.json())["errors"]


@pytest.mark.parametrize(
    "path", ["/redirect", "/redirect-fullwidth", "/redirect-name", "/redirect-bad-punycode"]
)
async def test_a_redirect_to_an_internal_address_is_not_followed(user, public, internal, path):
    _, hits = internal
    reply = await user.client.get(
        "/url_preview",
        params={"url": f"{public}{path}"},
        headers={"Authorization": f"Bearer {user.key}"},
    )
    assert reply.status == 400
    assert hits == []


async def test_only_web_pages_and_web_schemes_are_previewed(user, public):
    for url in (f"{public}/file.pdf", "file:///etc/passwd", "gopher://x/", ""):
        reply = await user.client.get(
            "/url_preview", params={"url": url}, headers={"Authorization": f"Bearer {user.key}"}
        )
        assert reply.status == 400, url


async def test_visitors_cannot_use_previews(client):
    assert (await client.get("/url_preview?url=http://example.com/")).status == 401


async def test_a_name_is_resolved_once_and_the_checked_address_is_connected_to():
    """The request goes to the address the check saw; the server still sees the name."""
    hosts: list[str] = []

    async def record(request: web.Request) -> web.Response:
        hosts.append(request.headers["Host"])
        return web.Response(text="<title>named</title>", content_type="text/html")

    app = web.Application()
    app.router.add_get("/named", record)
    runner, port = await _serve(app, "127.0.0.1")
    checked: list = []

    def allowed(address) -> bool:
        checked.append(address)
        return address.is_loopback

    try:
        fetched = await PageFetcher(allowed=allowed).fetch(
            f"http://localhost:{port}/named", frozenset({"text/html"}), 1024
        )
    finally:
        await runner.cleanup()
    assert fetched.body == b"<title>named</title>"
    assert hosts == [f"localhost:{port}"]
    assert ipaddress.ip_address("127.0.0.1") in checked
