"""Upload links, the signed PUT they point to, and the stored files."""

from typing import Any

from aiohttp import web

from agora.core.constants import UPLOAD_PUT_PATH, UPLOAD_READ_CHUNK_BYTES, UPLOADS_PATH
from agora.core.errors import InvalidInput
from agora.http.replies import ok
from agora.http.requests import Body, content_encoding, read_body, require_caller
from agora.http.routes import Auth, Reply, Route
from agora.http.web_app import IMMUTABLE
from agora.services.uploads import UploadService


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

    async def serve(request: web.Request) -> web.FileResponse:
        stored = await uploads.stored_file(request.match_info["name"])
        headers = {
            "Content-Type": stored.kind.mime_type,
            "X-Content-Type-Options": "nosniff",
            # Should a browser still render a file as a page, it gets no script and no origin.
            "Content-Security-Policy": "sandbox",
            # A stored name is never written twice.
            "Cache-Control": IMMUTABLE,
        }
        if not stored.kind.inline:
            headers["Content-Disposition"] = "attachment"
        return web.FileResponse(stored.path, headers=headers)

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
