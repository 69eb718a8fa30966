"""Uploaded files in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2...), through aiobotocore:
botocore's own requests and signing, sent on the edge's event loop with aiohttp."""

import asyncio
from collections.abc import AsyncGenerator
from contextlib import AsyncExitStack
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from aiobotocore.config import AioConfig
from aiobotocore.session import get_session
from botocore.exceptions import ClientError

from agora.settings import Settings

READ_CHUNK_BYTES = 256 * 1024
NOT_FOUND = {"404", "NoSuchKey", "NotFound"}


@dataclass(frozen=True)
class S3File:
    files: "S3Files"
    name: str
    size: int
    modified: datetime

    async def chunks(self, start: int, count: int) -> AsyncGenerator[bytes, None]:
        client = await self.files.client()
        reply = await client.get_object(
            Bucket=self.files.bucket, Key=self.name, Range=f"bytes={start}-{start + count - 1}"
        )
        async with reply["Body"] as body:
            async for piece in body.iter_chunks(READ_CHUNK_BYTES):
                yield piece


class S3Files:
    def __init__(self, settings: Settings) -> None:
        if not settings.s3_bucket:
            raise ValueError("AGORA_UPLOADS_STORE=s3 needs AGORA_S3_BUCKET")
        self.bucket = settings.s3_bucket
        secret = settings.s3_secret_access_key.get_secret_value()
        # Unset values are left to botocore, which then looks in its usual places (the
        # environment, ~/.aws, an instance's role).
        self._client_options: dict[str, Any] = {
            "endpoint_url": settings.s3_endpoint_url or None,
            "region_name": settings.s3_region or None,
            "aws_access_key_id": settings.s3_access_key_id or None,
            "aws_secret_access_key": secret or None,
            "config": AioConfig(
                connect_timeout=settings.s3_timeout_seconds,
                read_timeout=settings.s3_timeout_seconds,
                retries={"mode": "standard", "max_attempts": 3},
                s3={"addressing_style": settings.s3_addressing_style},
            ),
        }
        self._client: Any = None
        self._opening = asyncio.Lock()
        self._stack = AsyncExitStack()

    async def client(self) -> Any:
        """The client, made on first use: it belongs to the event loop that serves."""
        async with self._opening:
            if self._client is None:
                self._client = await self._stack.enter_async_context(
                    get_session().create_client("s3", **self._client_options)
                )
        return self._client

    async def save(self, name: str, content_type: str, data: bytes) -> None:
        # One PUT: the object appears whole or not at all.
        client = await self.client()
        await client.put_object(Bucket=self.bucket, Key=name, Body=data, ContentType=content_type)

    async def open(self, name: str) -> S3File | None:
        client = await self.client()
        try:
            head = await client.head_object(Bucket=self.bucket, Key=name)
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") in NOT_FOUND:
                return None
            raise
        return S3File(self, name, head["ContentLength"], head["LastModified"])

    async def delete(self, name: str) -> None:
        client = await self.client()
        await client.delete_object(Bucket=self.bucket, Key=name)

    async def close(self) -> None:
        await self._stack.aclose()
        self._client = None
