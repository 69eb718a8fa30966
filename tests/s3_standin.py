"""An S3-compatible server on loopback (moto's server mode), for the S3 upload store's tests:
the store's real client talks HTTP to it as it would to a bucket elsewhere."""

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import boto3
from moto.server import ThreadedMotoServer

from tests.services import free_port

# moto accepts any keys; the client signs with these as it would with real ones.
REGION = "us-east-1"
ACCESS_KEY_ID = "testing"
SECRET_ACCESS_KEY = "testing"


class S3Standin:
    def __init__(self, endpoint_url: str) -> None:
        self.endpoint_url = endpoint_url
        self.client = boto3.client(
            "s3",
            endpoint_url=endpoint_url,
            region_name=REGION,
            aws_access_key_id=ACCESS_KEY_ID,
            aws_secret_access_key=SECRET_ACCESS_KEY,
        )

    def new_bucket(self) -> dict[str, str]:
        """A bucket of its own, as the settings that point an edge at it."""
        bucket = f"agora-test-{uuid.uuid4().hex[:12]}"
        self.client.create_bucket(Bucket=bucket)
        return {
            "uploads_store": "s3",
            "s3_endpoint_url": self.endpoint_url,
            "s3_bucket": bucket,
            "s3_region": REGION,
            "s3_access_key_id": ACCESS_KEY_ID,
            "s3_secret_access_key": SECRET_ACCESS_KEY,
        }

    def names(self, bucket: str) -> list[str]:
        listed = self.client.list_objects_v2(Bucket=bucket)
        return sorted(entry["Key"] for entry in listed.get("Contents", []))


@contextmanager
def s3_standin() -> Iterator[S3Standin]:
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        yield S3Standin(f"http://127.0.0.1:{port}")
    finally:
        server.stop()
