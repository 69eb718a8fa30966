"""Upload links, the signed PUT they point to, and the stored files."""

from contextlib import aclosing
from typing import Any

from aiohttp import hdrs, web
from aiohttp.helpers import ETAG_ANY

from agora.core.errors import InvalidInput
from agora.core.uploads import UPLOAD_PUT_PATH, UPLOAD_READ_CHUNK_BYTES, UPLOADS_PATH
from agora.http.replies import ok
from agora.http.requests import Body, content_encoding, read_body, require_caller
from agora.http.routes import Auth, Reply, Route
from agora.http.web_app import IMMUTABLE
from agora.services.uploads import StoredFile, UploadService


class UploadUrlBody(Body):
    file_mime_type: str
    file_name_hint: str | None = None
    file_size: int | None = None


class UploadUrlReply(Reply):
    file_mime_type: str
    file_url: str
    title: str | None = None
    upload_data: dict[str, Any]


class StoredFileReply(Reply):
    file_url: str
    file_mime_type: str
    thumbnail: str | None = None
    size: int


def stored_file_response(name: str, stored: StoredFile) -> web.StreamResponse:
    response = web.StreamResponse(
        headers={
            "Content-Type": stored.kind.mime_type,
            "X-Content-Type-Options": "nosniff",
            # Should a browser still render a file as a page, it gets no script and no origin.
            "Content-Security-Policy": "sandbox",
            # A stored name is never written twice.
            "Cache-Control": IMMUTABLE,
            "Accept-Ranges": "bytes",
        }
    )
    if not stored.kind.inline:
        response.headers["Content-Disposition"] = "attachment"
    # The name is the file's version: the one validator a client can hold.
    response.etag = name
    response.last_modified = stored.content.modified
    return response


def requested_bytes(request: web.Request, size: int) -> range | None:
    """The bytes a request asks for (one Range, as aiohttp reads it; all without one); None
    when it cannot be met (416). If-Range is not checked: a stored file never changes, so any
    validator a client holds for it still holds."""
    try:
        asked = request.http_range
    except ValueError:
        return None
    if asked.start is None:
        return range(size)
    if asked.start < 0:  # the last -start bytes
        return range(max(size + asked.start, 0), size)
    if asked.start >= size:
        return None
    return range(asked.start, min(asked.stop if asked.stop is not None else size, size))


def routes(uploads: UploadService) -> list[Route]:
    async def upload_url(request: web.Request) -> web.Response:
        caller = require_caller(request)
        body = await read_body(request, UploadUrlBody)
        return ok(await uploads.upload_url(caller.user["_id"], **body.model_dump()))

    async def put(request: web.Request) -> web.Response:
        # Streamed, not read whole: the edge-wide body limit is far below a file's.
        if content_encoding(request) != "identity":
            raise InvalidInput("Send the file as it is, without a Content-Encoding")
        reply = await uploads.receive(
            request.match_info["token"],
            content_type=request.content_type,
            content_length=request.content_length,
            chunks=request.content.iter_chunked(UPLOAD_READ_CHUNK_BYTES),
        )
        return ok(reply)

    async def serve(request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        stored = await uploads.stored_file(name)
        response = stored_file_response(name, stored)
        size = stored.content.size
        span = requested_bytes(request, size)
        if any(tag.value in (name, ETAG_ANY) for tag in request.if_none_match or ()):
            response.set_status(304)
        elif span is None:
            response.set_status(416)
            response.headers["Content-Range"] = f"bytes */{size}"
        elif hdrs.RANGE in request.headers:
            response.set_status(206)
            response.headers["Content-Range"] = f"bytes {span.start}-{span.stop - 1}/{size}"
        sending = span if response.status in (200, 206) else range(0)
        if response.status != 304:  # a 304 has no body, and need not say the file's length
            response.content_length = len(sending)
        await response.prepare(request)
        if request.method != "HEAD" and sending:
            # Closed at once when the client goes away: an S3 read holds a connection.
            async with aclosing(stored.content.chunks(sending.start, len(sending))) as pieces:
                async for piece in pieces:
                    await response.write(piece)
        await response.write_eof()
        return response

    return [
        Route(
            "POST",
            "/get_upload_url",
            upload_url,
            "A signed link to upload one file to",
            auth=Auth.REQUIRED,
            body=UploadUrlBody,
            reply=UploadUrlReply,
        ),
        Route(
            "PUT",
            UPLOAD_PUT_PATH + "{token}",
            put,
            "The file's bytes, to the signed link (the token authorizes)",
            auth=Auth.NONE,
            reply=StoredFileReply,
            errors=(409,),
            body_media_type="application/octet-stream",
        ),
        Route(
            "GET",
            UPLOADS_PATH + "{name}",
            serve,
            "A stored file",
            auth=Auth.NONE,
            reply_media_type="*/*",
        ),
    ]
