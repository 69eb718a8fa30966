"""Steps the integration tests share."""

import uuid

from aiohttp.test_utils import TestClient

from tests.mail import SmtpSink


def new_email() -> str:
    return f"user-{uuid.uuid4().hex[:10]}@example.org"


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


async def request_code(client: TestClient, email: str) -> dict:
    reply = await client.post("/api/user/login", json={"email_id": email})
    assert reply.status == 200, await reply.text()
    return await reply.json()


async def login(client: TestClient, sink: SmtpSink, email: str, name: str = "Ada") -> dict:
    """Logs in through every step of the multi-step flow; returns the final reply."""
    await request_code(client, email)
    reply = await client.post(
        "/api/user/login", json={"email_id": email, "name": name, "otp": sink.last_code(email)}
    )
    body = await reply.json()
    assert reply.status == 200, body
    return body
