"""Fixtures of the integration tests that need a local Ray cluster."""

import os
import secrets
import uuid
from typing import Any

import pytest
import ray

from tests import shared_ray
from tests.integration.helpers import OPENED_SOCKETS, PUSH_COALESCE_SECONDS
from tests.services import RAY_START_ATTEMPTS


@pytest.fixture(scope="session")
def ray_cluster():
    # The raylet itself aborts when its agents take long to start (same reason).
    os.environ.setdefault("RAY_agent_register_timeout_ms", "120000")
    shared_address = shared_ray.address()
    if shared_address:
        ray.init(address=shared_address, log_to_driver=False)
        yield
        ray.shutdown()
        return
    for attempt in range(1, RAY_START_ATTEMPTS + 1):
        try:
            ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
            break
        except Exception as slow_start:  # Ray raises a bare Exception for this
            ray.shutdown()
            if "timed out during startup" not in str(slow_start) or attempt == RAY_START_ATTEMPTS:
                raise
    yield
    ray.shutdown()


@pytest.fixture
async def opened_sockets_closed(client_for):
    """Closes the sockets `open_socket` opened, after the test and before its edges stop: it
    is set up after `client_for`, so torn down before it (an autouse fixture is set up first
    and torn down last, after the edges)."""
    yield
    while OPENED_SOCKETS:
        sio = OPENED_SOCKETS.pop()
        if sio.connected:
            await sio.disconnect()


@pytest.fixture(scope="session")
def chat_prefix() -> str:
    """One Redis prefix for every chat test, so they share one set of shard actors (each is a
    process; a set per test would be slow to start)."""
    return f"test:chat:{uuid.uuid4().hex[:8]}:"


@pytest.fixture
async def chat_client(client_for, chat_prefix):
    return await client_for(session_shards=2, redis_prefix=chat_prefix)


@pytest.fixture(scope="session")
def push_deployment() -> dict[str, Any]:
    """The settings of one deployment with web push on, for every test that pushes (the push
    tests, the read rule's push path): its session and user shards are two processes for all
    of them. Every edge of it takes all of these: its shards keep the settings of the edge
    that started them, and sign delivery receipts with its secret."""
    return {
        "redis_prefix": f"test:push:{uuid.uuid4().hex[:8]}:",
        "secret_key": secrets.token_urlsafe(32),
        "session_shards": 1,
        "user_shards": 1,
        "push_enabled": True,
        "push_allow_loopback_endpoints": True,
        "push_coalesce_seconds": PUSH_COALESCE_SECONDS,
    }
