"""Uploads: signed upload links, receiving and checking files, serving them, attaching them."""

import asyncio
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable, Iterable
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from agora.core.clock import now_ms
from agora.core.errors import Conflict, InvalidInput, NotFound, PayloadTooLarge
from agora.core.uploads import (
    THUMBNAIL_TYPE,
    UPLOAD_CHECK_JOBS,
    UPLOAD_PUT_PATH,
    UPLOAD_URL_TTL_SECONDS,
    UPLOAD_URLS_PER_USER,
    UPLOADS_PATH,
    CheckedFile,
    FileType,
    UploadGrant,
    check_content,
    clean_title,
    file_type,
    grant_token,
    kept_file_type,
    media_item,
    mismatching,
    read_grant,
    served_type,
    stored_name,
    thumbnail_name,
    too_large,
    upload_id_of,
    upload_limit,
    url_of,
)
from agora.integrations.web_pages import PageFetcher, Refused
from agora.services.events import MessageDeleted, MessageStored
from agora.settings import Settings
from agora.store.file_store import FileStore, OpenedFile
from agora.store.rate_limits import RateLimiter
from agora.store.uploads import IncomingFile, UploadStore, incoming_file

# Pictures behind outside links (avatars, group images, link previews) kept as uploads.
KEPT_IMAGE_TYPES = frozenset({"image/jpeg", "image/png", "image/webp"})
KEPT_IMAGE_MAX_BYTES = 5 * 1024 * 1024
KEPT_IMAGE_REFUSAL = "The picture could not be fetched: link a jpeg, png or webp of at most 5 MB"


# UploadService.kept_image, as the services that store picture links receive it.
KeptImage = Callable[[str, str], Awaitable[str]]


@dataclass(frozen=True)
class StoredFile:
    content: OpenedFile
    kind: FileType


class UploadService:
    def __init__(
        self,
        *,
        settings: Settings,
        uploads: UploadStore,
        files: FileStore,
        limits: RateLimiter,
        fetcher: PageFetcher,
    ) -> None:
        self.uploads = uploads
        self.fetcher = fetcher
        self.files = files
        self.limits = limits
        self.secret = settings.secret_key.get_secret_value()
        self.rate_window = settings.rate_window_seconds
        self.check_jobs = asyncio.Semaphore(UPLOAD_CHECK_JOBS)

    async def upload_url(
        self,
        user_id: str,
        *,
        file_mime_type: str,
        file_name_hint: str | None = None,
        file_size: int | None = None,
    ) -> dict[str, Any]:
        """A signed link the client PUTs the file to, and the url the file will then have."""
        await self.limits.hit(f"upload-url:{user_id}", UPLOAD_URLS_PER_USER, self.rate_window)
        kind = file_type(file_mime_type)
        max_bytes = upload_limit(file_size)
        now = now_ms()
        upload = await self.uploads.add_pending(
            user_id, kind, clean_title(file_name_hint, kind), now
        )
        expires_at = now + UPLOAD_URL_TTL_SECONDS * 1000
        grant = UploadGrant(upload["_id"], user_id, kind.mime_type, max_bytes, expires_at)
        return {
            "file_mime_type": kind.mime_type,
            "file_url": upload["file_url"],
            "title": upload["title"],
            "upload_data": {
                "url": UPLOAD_PUT_PATH + grant_token(self.secret, grant),
                "method": "PUT",
                "fields": {},
                "headers": {"Content-Type": kind.mime_type},
            },
        }

    async def kept_image(self, user_id: str, url: str) -> str:
        """A picture link as it is stored: empty or an upload path as given; an outside link
        is fetched once (through the link guard) and kept as the user's own upload, checked
        and re-encoded like one, so readers load pictures from the edge and never tell an
        outside host their address."""
        if not url.startswith(("http://", "https://")):
            await self._keep([url])
            return url
        try:
            picture = await self.fetcher.fetch(url, KEPT_IMAGE_TYPES, KEPT_IMAGE_MAX_BYTES)
            link = await self.upload_url(
                user_id, file_mime_type=picture.content_type, file_size=len(picture.body)
            )
            stored = await self.receive(
                link["upload_data"]["url"].removeprefix(UPLOAD_PUT_PATH),
                content_type=picture.content_type,
                content_length=len(picture.body),
                chunks=_one_chunk(picture.body),
            )
        except (Refused, InvalidInput, PayloadTooLarge) as error:
            raise InvalidInput({"image": KEPT_IMAGE_REFUSAL}) from error
        await self._keep([stored["file_url"]])
        return stored["file_url"]

    async def keep_file(
        self, owner_id: str, mime_type: str, content: bytes, title_hint: str
    ) -> dict[str, Any]:
        """Bytes from elsewhere (a WhatsApp customer's file) kept as `owner_id`'s upload: a
        picture is checked and re-encoded like an uploaded one, anything else kept as is
        (served with its type, as a download unless it plays in the page). The media item."""
        kind = kept_file_type(mime_type)
        upload = await self.uploads.add_pending(
            owner_id, kind, clean_title(title_hint, kind), now_ms()
        )
        checked = await self._checked(kind, content) if kind.is_image else CheckedFile()
        stored = checked.content if checked.content is not None else content
        thumbnail = await self._save(upload["_id"], kind, stored, checked.thumbnail)
        await self.uploads.claim(upload["_id"], owner_id)
        await self.uploads.mark_stored(upload["_id"], len(stored), thumbnail)
        return media_item({**upload, "size": len(stored), "thumbnail": thumbnail})

    async def receive(
        self,
        token: str,
        *,
        content_type: str,
        content_length: int | None,
        chunks: AsyncIterable[bytes],
    ) -> dict[str, Any]:
        """Stores the file sent to an upload link; the link itself is the authority."""
        grant = read_grant(self.secret, token, now_ms())
        if content_type != grant.mime_type:
            raise mismatching()
        if (content_length or 0) > grant.max_bytes:
            raise too_large(grant.max_bytes)
        if await self.uploads.claim(grant.upload_id, grant.user_id) is None:
            raise Conflict("This upload link was already used")
        try:
            return await self._store(grant, chunks)
        except BaseException:
            # Cancelled too: aiohttp cancels the handler when the client goes away mid-upload.
            await self.uploads.release(grant.upload_id)
            raise

    async def _store(self, grant: UploadGrant, chunks: AsyncIterable[bytes]) -> dict[str, Any]:
        kind = file_type(grant.mime_type)
        async with incoming_file() as part:
            await _receive_into(part, chunks, grant.max_bytes)
            received = await part.read()
        # Checked before anything is written: a refused file leaves nothing in the store.
        checked = await self._checked(kind, received)
        content = checked.content if checked.content is not None else received
        thumbnail = await self._save(grant.upload_id, kind, content, checked.thumbnail)
        await self.uploads.mark_stored(grant.upload_id, len(content), thumbnail)
        return {
            "file_url": url_of(stored_name(grant.upload_id, kind)),
            "file_mime_type": kind.mime_type,
            "thumbnail": thumbnail,
            "size": len(content),
        }

    async def _checked(self, kind: FileType, data: bytes) -> CheckedFile:
        # Decoding images is CPU-heavy and memory-hungry: off the event loop, a few at a time.
        async with self.check_jobs:
            return await asyncio.to_thread(check_content, kind, data)

    async def _save(
        self, upload_id: str, kind: FileType, content: bytes, thumbnail: bytes | None
    ) -> str:
        """Writes the file and its thumbnail to the store; the thumbnail's url, or "" without
        one. Should either write fail, neither stays: a name is written by one upload only,
        the one that then marks it stored."""
        saved = [(stored_name(upload_id, kind), kind.mime_type, content)]
        if thumbnail is not None:
            saved.append((thumbnail_name(upload_id), THUMBNAIL_TYPE.mime_type, thumbnail))
        # Written at once: each write in a row waits its turn at the store. Both have ended
        # before either is undone (a cancelled gather waits for what it cancels).
        try:
            written = await asyncio.gather(
                *(self.files.save(name, mime_type, data) for name, mime_type, data in saved),
                return_exceptions=True,
            )
            failed = next((e for e in written if isinstance(e, BaseException)), None)
            if failed is not None:
                raise failed
        except BaseException:
            for name, _, _ in saved:
                # Best effort: the store may be what failed; the upload is refused either way.
                with suppress(Exception):
                    await self.files.delete(name)
            raise
        return url_of(thumbnail_name(upload_id)) if thumbnail is not None else ""

    async def stored_file(self, name: str) -> StoredFile:
        kind = served_type(name)
        content = await self.files.open(name) if kind else None
        if kind is None or content is None:
            raise NotFound("No such file")
        return StoredFile(content, kind)

    async def post_files(self, user_id: str, urls: list[str]) -> list[dict[str, Any]]:
        """`stored_files` for a post, which keeps them: deleting a message never deletes
        a file a post shows."""
        files = await self.stored_files(user_id, urls)
        await self._keep(urls)
        return files

    async def _keep(self, urls: list[str]) -> None:
        await self.uploads.keep(_upload_ids(urls))

    async def message_stored(self, stored: MessageStored) -> None:
        """One more message names its files."""
        await self.uploads.attach(
            _upload_ids(f["url"] for f in stored.message.get("payload1") or [])
        )

    async def message_deleted(self, deleted: MessageDeleted) -> None:
        """The deleted message's files that nothing names any more are deleted, thumbnails
        too: a deleted picture is no longer served to whoever kept its link."""
        for upload in await self.uploads.detach(_upload_ids(deleted.files)):
            names = [upload["file_url"].removeprefix(UPLOADS_PATH)]
            if upload.get("thumbnail"):
                names.append(upload["thumbnail"].removeprefix(UPLOADS_PATH))
            for name in names:
                await self.files.delete(name)

    async def stored_files(self, user_id: str, urls: list[str]) -> list[dict[str, Any]]:
        """The media items for files a user attaches; each must be that user's stored upload."""
        if not urls:
            return []  # most messages attach nothing: no lookup
        ids = [upload_id_of(url) for url in urls]
        known = [upload_id for upload_id in ids if upload_id]
        stored = {upload["_id"]: upload for upload in await self.uploads.stored_of(user_id, known)}
        items = []
        for url, upload_id in zip(urls, ids, strict=True):
            upload = stored.get(upload_id or "")
            if upload is None or upload["file_url"] != url:
                raise InvalidInput({"files": f"Unknown or unfinished upload: {url}"})
            items.append(media_item(upload))
        return items


def _upload_ids(urls: Iterable[str]) -> set[str]:
    return {upload_id for url in urls if (upload_id := upload_id_of(url))}


async def _one_chunk(data: bytes) -> AsyncIterator[bytes]:
    yield data


async def _receive_into(part: IncomingFile, chunks: AsyncIterable[bytes], max_bytes: int) -> None:
    """Writes the chunks and counts them, stopping as soon as they pass the limit."""
    size = 0
    async for chunk in chunks:
        size += len(chunk)
        if size > max_bytes:
            raise too_large(max_bytes)
        await part.write(chunk)
