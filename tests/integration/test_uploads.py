"""Upload links, the signed PUT, serving stored files and attaching them."""

import asyncio
import dataclasses
import io
import struct
import uuid
import zipfile
import zlib
from types import SimpleNamespace

import pytest
from aiohttp.test_utils import TestClient
from PIL import Image
from pymongo import AsyncMongoClient

from agora.core.clock import now_ms
from agora.core.errors import InvalidInput
from agora.core.uploads import (
    UPLOAD_PUT_PATH,
    UPLOAD_RECEIVING,
    UPLOAD_URLS_PER_USER,
    grant_token,
    read_grant,
)
from agora.integrations.web_pages import PageFetcher
from agora.services.uploads import UploadService
from agora.store.file_store import file_store
from agora.store.mongo import connect_mongo, database
from agora.store.rate_limits import RateLimiter
from agora.store.redis import Keys, connect_redis
from agora.store.uploads import UploadStore
from tests.integration.helpers import bearer, login, new_email
from tests.services import free_port

MISMATCH = {"file_mime_type": "Mismatching mime types"}
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


@pytest.fixture(params=["gridfs", "s3"])
def upload_store(request) -> SimpleNamespace:
    """Each test runs against both stores, each test with a bucket of its own: `settings` for
    the edges, `names()` lists what the store holds."""
    if request.param == "s3":
        s3 = request.getfixturevalue("s3")
        settings = s3.new_bucket()

        async def s3_names() -> list[str]:
            return s3.names(settings["s3_bucket"])

        return SimpleNamespace(settings=settings, names=s3_names)
    bucket = f"files_{uuid.uuid4().hex[:12]}"
    mongo_url = request.getfixturevalue("mongo_url")

    async def gridfs_names() -> list[str]:
        mongo = AsyncMongoClient(mongo_url)
        db = mongo["agora_test"]
        files = await db[f"{bucket}.files"].find({}, {"filename": 1}).to_list()
        chunks = await db[f"{bucket}.chunks"].find({}, {"files_id": 1}).to_list()
        await mongo.close()
        orphans = {chunk["files_id"] for chunk in chunks} - {file["_id"] for file in files}
        strays = [f"chunks of {len(orphans)} missing files"] if orphans else []
        return sorted(file["filename"] for file in files) + strays

    return SimpleNamespace(
        settings={"uploads_store": "gridfs", "uploads_gridfs_bucket": bucket}, names=gridfs_names
    )


@pytest.fixture
async def edge(settings_for, client_for, upload_store, tmp_path):
    """A full edge, plus an upload service over the same stores for calling it directly."""
    overrides = {"var_dir": tmp_path / "var", **upload_store.settings}
    settings = settings_for(**overrides)
    client = await client_for(redis_prefix=settings.redis_prefix, **overrides)
    mongo = connect_mongo(settings)
    db = database(mongo, settings)
    redis = connect_redis(settings)
    limits = RateLimiter(redis, Keys(settings.redis_prefix))
    files = file_store(settings, db)
    uploads = UploadService(
        settings=settings,
        uploads=UploadStore(db),
        files=files,
        limits=limits,
        fetcher=PageFetcher(),
    )
    yield SimpleNamespace(
        client=client,
        uploads=uploads,
        settings=settings,
        overrides={**overrides, "redis_prefix": settings.redis_prefix},
        records=db["uploads"],
        stored=upload_store.names,
    )
    await files.close()
    await redis.aclose()
    await mongo.close()


@pytest.fixture
async def key(edge, smtp_sink) -> str:
    return (await login(edge.client, smtp_sink, new_email()))["allspark_auth_key"]


async def upload_link(client: TestClient, key: str, mime: str, **fields) -> dict:
    reply = await client.post(
        "/get_upload_url", json={"file_mime_type": mime, **fields}, headers=bearer(key)
    )
    body = await reply.json()
    assert reply.status == 200, body
    return body


async def put(client: TestClient, link: dict, data, content_type: str | None = None):
    headers = {"Content-Type": content_type or link["upload_data"]["headers"]["Content-Type"]}
    return await client.put(link["upload_data"]["url"], data=data, headers=headers)


async def in_chunks(data: bytes, size: int = 64 * 1024):
    """A body sent with chunked encoding: the server learns its size only by reading it."""
    for start in range(0, len(data), size):
        yield data[start : start + size]


def name_of(url: str) -> str:
    return url.rsplit("/", 1)[1]


def jpeg_with_exif() -> bytes:
    exif = Image.Exif()
    exif[0x0112] = 6  # orientation: rotate 90 degrees clockwise to display
    exif[0x010F] = "Camera maker"
    exif[0x8825] = {2: (52.0, 22.0, 1.0)}  # GPS latitude
    out = io.BytesIO()
    Image.new("RGB", (1200, 600), "orange").save(out, "JPEG", exif=exif)
    return out.getvalue()


def png_bytes(size=(50, 50)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, "navy").save(out, "PNG")
    return out.getvalue()


def png_declaring(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims width x height pixels: a decompression bomb's shape."""
    data = bytearray(png_bytes((1, 1)))
    data[16:24] = struct.pack(">II", width, height)
    data[29:33] = struct.pack(">I", zlib.crc32(data[12:29]))
    return bytes(data)


def docx_bytes() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("word/document.xml", "<w:document/>")
    return out.getvalue()


async def test_a_photo_is_stored_upright_without_metadata_with_a_thumbnail(edge, key):
    client = edge.client
    link = await upload_link(client, key, "image/jpeg", file_name_hint="C:\\pics\\beach.jpg")
    assert link["title"] == "beach.jpg"
    assert link["upload_data"]["method"] == "PUT"
    assert link["upload_data"]["fields"] == {}
    assert link["upload_data"]["url"].startswith(UPLOAD_PUT_PATH)

    reply = await client.put(
        link["upload_data"]["url"], data=jpeg_with_exif(), headers=link["upload_data"]["headers"]
    )
    stored = await reply.json()
    assert reply.status == 200, stored
    assert stored["file_url"] == link["file_url"]
    assert stored["file_mime_type"] == "image/jpeg"
    assert stored["thumbnail"].endswith("_thumb.jpg")

    served = await client.get(link["file_url"])
    assert served.status == 200
    assert served.headers["Content-Type"] == "image/jpeg"
    assert served.headers["X-Content-Type-Options"] == "nosniff"
    assert "immutable" in served.headers["Cache-Control"]
    assert "Content-Disposition" not in served.headers
    body = await served.read()
    assert len(body) == stored["size"]
    with Image.open(io.BytesIO(body)) as image:
        assert image.size == (600, 1200)
        assert not image.getexif()
        assert "exif" not in image.info
    thumbnail = await client.get(stored["thumbnail"])
    with Image.open(io.BytesIO(await thumbnail.read())) as image:
        assert (image.format, max(image.size)) == ("JPEG", 400)
    assert await edge.stored() == sorted([name_of(link["file_url"]), name_of(stored["thumbnail"])])


async def test_visitors_cannot_get_upload_links(edge):
    reply = await edge.client.post("/get_upload_url", json={"file_mime_type": "image/png"})
    assert reply.status == 401
    assert (await reply.json())["need_user"] is True


async def test_disallowed_types_and_declared_sizes_are_refused_up_front(edge, key):
    client = edge.client
    gif = await client.post(
        "/get_upload_url", json={"file_mime_type": "image/gif"}, headers=bearer(key)
    )
    assert gif.status == 400
    assert (await gif.json())["errors"] == {
        "file_mime_type": "Invalid file type, allowed: jpeg, png, webp, pdf, docx, mp4"
    }
    big = await client.post(
        "/get_upload_url",
        json={"file_mime_type": "video/mp4", "file_size": 16 * 1024 * 1024},
        headers=bearer(key),
    )
    assert big.status == 400
    assert (await big.json())["errors"] == {"file_size": "File too large, max is 15360KB"}


async def test_upload_links_are_rate_limited_per_user(edge, key):
    statuses = []
    for _ in range(UPLOAD_URLS_PER_USER + 1):
        reply = await edge.client.post(
            "/get_upload_url", json={"file_mime_type": "text/plain"}, headers=bearer(key)
        )
        statuses.append(reply.status)
    assert set(statuses[:-1]) == {400}
    assert statuses[-1] == 429
    assert int(reply.headers["Retry-After"]) > 0


async def test_a_body_past_the_bound_size_is_refused_and_leaves_no_file(edge, key):
    client = edge.client
    link = await upload_link(client, key, "application/pdf", file_size=100_000)
    too_big = b"%PDF-1.7\n" + b"0" * 400_000

    announced = await put(client, link, too_big)
    assert announced.status == 413
    streamed = await put(client, link, in_chunks(too_big))
    assert streamed.status == 413
    assert (await streamed.json())["errors"] == {"file_size": "File too large, max is 98KB"}
    assert await edge.stored() == []

    fitting = await put(client, link, in_chunks(too_big[:100_000]))
    assert fitting.status == 200, await fitting.text()
    assert await edge.stored() == [name_of(link["file_url"])]


async def eventually(condition) -> None:
    """Polls: the server's cleanup after a dropped connection has no event to wait on."""
    for _ in range(500):
        if await condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the condition never held")


async def test_an_interrupted_upload_leaves_no_file_and_the_link_usable(edge, key):
    link = await upload_link(edge.client, key, "application/pdf")
    _, writer = await asyncio.open_connection("127.0.0.1", edge.client.port)
    writer.write(
        f"PUT {link['upload_data']['url']} HTTP/1.1\r\nHost: edge\r\n"
        "Content-Type: application/pdf\r\nContent-Length: 90000\r\n\r\n%PDF-1.7\n".encode()
    )
    await writer.drain()

    upload_id = name_of(link["file_url"]).split(".")[0]

    async def receiving():
        record = await edge.records.find_one({"_id": upload_id})
        return record["status"] == UPLOAD_RECEIVING

    async def released():
        return not await edge.stored() and (
            (await put(edge.client, link, b"%PDF-1.7\n")).status == 200
        )

    await eventually(receiving)
    writer.close()
    await eventually(released)


async def test_bytes_must_be_the_type_the_link_was_granted_for(edge, key):
    client = edge.client
    link = await upload_link(client, key, "image/jpeg")

    header = await put(client, link, jpeg_with_exif(), content_type="image/png")
    assert (header.status, (await header.json())["errors"]) == (400, MISMATCH)
    png_as_jpeg = await put(client, link, png_bytes())
    assert (png_as_jpeg.status, (await png_as_jpeg.json())["errors"]) == (400, MISMATCH)

    pdf = await upload_link(client, key, "application/pdf")
    html = await put(client, pdf, b"<html><script>alert(1)</script></html>")
    assert (html.status, (await html.json())["errors"]) == (400, MISMATCH)
    assert await edge.stored() == []


async def test_a_decompression_bomb_is_refused_and_nothing_is_kept(edge, key):
    link = await upload_link(edge.client, key, "image/png")
    reply = await put(edge.client, link, png_declaring(20000, 20000))
    assert reply.status == 400
    assert (await reply.json())["errors"] == {"file": "Image is too large to process"}
    assert await edge.stored() == []


async def test_expired_and_tampered_links_are_refused(edge, key):
    client = edge.client
    link = await upload_link(client, key, "image/png")
    secret = edge.settings.secret_key.get_secret_value()
    token = link["upload_data"]["url"].removeprefix(UPLOAD_PUT_PATH)
    grant = read_grant(secret, token, now_ms())

    expired = dataclasses.replace(grant, expires_at=now_ms() - 1)
    bigger = dataclasses.replace(grant, max_bytes=grant.max_bytes * 10)
    payload, _, mac = token.partition(".")
    for bad in [
        grant_token(secret, expired),
        f"{grant_token(secret, bigger).partition('.')[0]}.{mac}",
        f"{payload}.{mac[::-1]}",
        grant_token("not-the-secret", grant),
    ]:
        reply = await client.put(
            UPLOAD_PUT_PATH + bad, data=png_bytes(), headers={"Content-Type": "image/png"}
        )
        assert reply.status == 403, bad
        assert (await reply.json())["errors"]
    assert (await put(client, link, png_bytes())).status == 200


async def test_a_link_stores_one_file_only(edge, key):
    link = await upload_link(edge.client, key, "image/png")
    assert (await put(edge.client, link, png_bytes())).status == 200
    again = await put(edge.client, link, png_bytes((80, 80)))
    assert again.status == 409
    assert (await again.json())["errors"]


async def test_documents_are_served_as_downloads(edge, key):
    client = edge.client
    link = await upload_link(client, key, "application/pdf", file_name_hint="report.pdf")
    stored = await (await put(client, link, b"%PDF-1.7\n1 0 obj\n")).json()
    assert stored["thumbnail"] == ""
    served = await client.get(link["file_url"])
    assert served.headers["Content-Type"] == "application/pdf"
    assert served.headers["Content-Disposition"] == "attachment"
    assert await served.read() == b"%PDF-1.7\n1 0 obj\n"

    docx = await upload_link(client, key, DOCX)
    assert (await put(client, docx, docx_bytes())).status == 200
    document = await client.get(docx["file_url"])
    assert (document.headers["Content-Type"], document.headers["Content-Disposition"]) == (
        DOCX,
        "attachment",
    )

    mp4 = await upload_link(client, key, "video/mp4")
    assert (await put(client, mp4, b"\x00\x00\x00\x18ftypmp42" + bytes(64))).status == 200
    video = await client.get(mp4["file_url"])
    assert "Content-Disposition" not in video.headers


async def test_only_stored_files_are_served(edge, key):
    client = edge.client
    edge.settings.var_dir.mkdir(parents=True, exist_ok=True)
    (edge.settings.var_dir / "secret.txt").write_text("secret")
    pending = await upload_link(client, key, "image/png")
    for path in [
        "/uploads/..%2Fsecret.txt",
        "/uploads/%2E%2E%2Fsecret.txt",
        "/uploads/..%5Csecret.txt",
        "/uploads/.incoming-abc",
        "/uploads/65f0c0ffee0123456789abcd.txt",
        pending["file_url"],
    ]:
        reply = await client.get(path)
        assert reply.status == 404, path
        assert (await reply.json())["errors"]


async def test_stored_files_are_attachable_only_by_their_owner(edge, smtp_sink):
    client = edge.client
    owner = await login(client, smtp_sink, new_email())
    owner_id, key = owner["user"]["_id"], owner["allspark_auth_key"]
    link = await upload_link(client, key, "image/png", file_name_hint="map.png")
    stored = await (await put(client, link, png_bytes())).json()
    files = await edge.uploads.stored_files(owner_id, [link["file_url"]])
    assert files == [
        {
            "url": link["file_url"],
            "mime_type": "image/png",
            "thumbnail": stored["thumbnail"],
            "title": "map.png",
            "size": stored["size"],
        }
    ]
    other = await login(client, smtp_sink, new_email())
    pending = await upload_link(client, key, "image/png")
    for user_id, url in [
        (other["user"]["_id"], link["file_url"]),
        (owner_id, pending["file_url"]),
        (owner_id, stored["thumbnail"]),
        (owner_id, "https://elsewhere.example/x.png"),
    ]:
        with pytest.raises(InvalidInput) as caught:
            await edge.uploads.stored_files(user_id, [url])
        assert list(caught.value.errors) == ["files"]


async def test_an_upload_through_one_edge_is_served_by_another(edge, key, client_for):
    link = await upload_link(edge.client, key, "image/png")
    stored = await (await put(edge.client, link, png_bytes())).json()
    first = await (await edge.client.get(link["file_url"])).read()

    other_edge = await client_for(**edge.overrides)
    for url in (link["file_url"], stored["thumbnail"]):
        served = await other_edge.get(url)
        assert served.status == 200, url
    assert await (await other_edge.get(link["file_url"])).read() == first
    assert len(first) == stored["size"]


async def test_ranges_and_revalidation_are_answered_from_the_store(edge, key):
    client = edge.client
    content = b"%PDF-1.7\n" + bytes(range(256)) * 1200  # past one GridFS chunk (255 KB)
    link = await upload_link(client, key, "application/pdf")
    assert (await put(client, link, content)).status == 200
    url, size = link["file_url"], len(content)

    whole = await client.get(url)
    assert (whole.status, whole.headers["Accept-Ranges"]) == (200, "bytes")
    assert await whole.read() == content
    for asked, start, stop in [
        ("bytes=2-5", 2, 6),
        ("bytes=261000-261200", 261000, 261201),
        (f"bytes={size - 10}-", size - 10, size),
        ("bytes=-7", size - 7, size),
        (f"bytes=5-{size + 100}", 5, size),
    ]:
        part = await client.get(url, headers={"Range": asked})
        assert part.status == 206, asked
        assert part.headers["Content-Range"] == f"bytes {start}-{stop - 1}/{size}", asked
        assert await part.read() == content[start:stop], asked
    beyond = await client.get(url, headers={"Range": f"bytes={size}-"})
    assert (beyond.status, beyond.headers["Content-Range"]) == (416, f"bytes */{size}")

    again = await client.get(url, headers={"If-None-Match": whole.headers["ETag"]})
    assert (again.status, await again.read()) == (304, b"")
    head = await client.head(url)
    assert (head.status, head.headers["Content-Length"]) == (200, str(size))
    assert head.headers["Content-Disposition"] == "attachment"


async def test_files_an_older_version_kept_on_disk_join_the_store(edge, client_for):
    local = edge.settings.local_uploads_dir
    local.mkdir(parents=True)
    name = f"{uuid.uuid4().hex[:24]}.png"
    (local / name).write_bytes(png_bytes())
    (local / ".incoming-abc").write_bytes(b"half a file")

    first = await client_for(**edge.overrides)
    served = await first.get(f"/uploads/{name}")
    assert served.status == 200
    assert await served.read() == png_bytes()
    await client_for(**edge.overrides)  # started again: nothing is copied twice
    assert await edge.stored() == [name]


async def test_an_unreachable_bucket_answers_503_to_retry(client_for, s3):
    settings = {**s3.new_bucket(), "s3_endpoint_url": f"http://127.0.0.1:{free_port()}"}
    client = await client_for(**settings, s3_timeout_seconds=1)
    reply = await client.get(f"/uploads/{uuid.uuid4().hex[:24]}.png")
    assert reply.status == 503
    assert reply.headers["Retry-After"]
