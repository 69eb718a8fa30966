"""Fixtures of the integration tests that need a local Ray cluster."""

import uuid

import pytest
import ray


@pytest.fixture(scope="session")
def ray_cluster():
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture(scope="session")
def chat_prefix() -> str:
    """One Redis prefix for every chat test, so they share one set of shard actors (each is a
    process; a set per test would be slow to start)."""
    return f"test:chat:{uuid.uuid4().hex[:8]}:"


@pytest.fixture
async def chat_client(client_for, chat_prefix):
    return await client_for(session_shards=2, redis_prefix=chat_prefix)
