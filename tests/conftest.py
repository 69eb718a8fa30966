import asyncio
import os
import secrets
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from _pytest.nodeid import NodeId
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import HealthCheck, settings

from agora.actors.ownership import deployment_namespace
from agora.app import build_app
from agora.settings import Settings
from tests import shared_ray
from tests.mail import SmtpSink
from tests.s3_standin import S3Standin, s3_standin
from tests.services import mongo_wire_server, redis_server, web_dist_stand_in
from tests.whatsapp_standin import WhatsAppStandin

# Property tests check what is computed, not how fast: no per-example deadline and no
# complaint that generating inputs is slow (a busy two-core machine is both).
settings.register_profile("agora", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("agora")


def pytest_configure(config: pytest.Config) -> None:
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        config.stash[SHARED_RAY] = shared_ray.offer_to_workers()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Schemathesis names each fuzzed call in the item's name (`test_x[GET /user/me]`) but
    gives every one the test function's node id; pytest-xdist's `--dist loadgroup` schedules
    by node id, so all but one of them were never run. Each gets the id its name says.

    `--dist loadgroup` sends the tests of one `xdist_group` to one worker by the group's name
    at the end of their node ids (`...::test_x@own-processes`). pytest-xdist 3.8 writes it
    where pytest 9 no longer reads a node id from, so every group was spread over the workers
    (two Ray heads of the own-processes tests starting at once): it is written here."""
    for item in items:
        if hasattr(item, "operation_label") and item._id.params is None:
            item._id = item._id.with_params(item.operation_label)
    # A worker is told by `loadgroup` (its `dist` is "no").
    if not (getattr(config.option, "loadgroup", False) or config.option.dist == "loadgroup"):
        return
    for item in items:
        groups = sorted({str(mark.args[0]) for mark in item.iter_markers("xdist_group")})
        suffix = f"@{'_'.join(groups)}"
        if groups and not item.nodeid.endswith(suffix):
            item._id = NodeId.parse(item.nodeid + suffix)


def pytest_unconfigure(config: pytest.Config) -> None:
    place = config.stash.get(SHARED_RAY, None)
    if place is not None:
        shared_ray.stop(place)


SHARED_RAY = pytest.StashKey[Path]()


@pytest.fixture(scope="session")
def mongo_url(tmp_path_factory) -> str:
    with mongo_wire_server(tmp_path_factory.mktemp("mongo")) as url:
        yield url


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory) -> str:
    url = os.environ.get("AGORA_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    with redis_server(url, tmp_path_factory.mktemp("redis") / "redis.log") as live_url:
        yield live_url


@pytest.fixture(scope="session")
def smtp_sink() -> SmtpSink:
    with SmtpSink() as sink:
        yield sink


@pytest.fixture(scope="session")
def s3() -> S3Standin:
    """A stand-in S3 server on loopback; `s3.new_bucket()` gives an edge's settings for one."""
    with s3_standin() as standin:
        yield standin


@pytest.fixture
def web_dist(tmp_path: Path) -> Path:
    return web_dist_stand_in(tmp_path / "dist")


@pytest.fixture
def settings_for(mongo_url, redis_url, smtp_sink, web_dist) -> Callable[..., Settings]:
    """Settings for one test: its own Redis prefix, so counters and codes never leak across."""

    # One fresh random secret per test (its edges share it); an edge refuses to start without.
    secret_key = secrets.token_urlsafe(32)

    def make(**overrides) -> Settings:
        values = {
            "mongo_url": mongo_url,
            "mongo_db": "agora_test",
            "redis_url": redis_url,
            "redis_prefix": f"test:{uuid.uuid4().hex[:12]}:",
            "smtp_url": smtp_sink.url,
            "web_dist": web_dist,
            "secret_key": secret_key,
            # Every test signs up from 127.0.0.1, and the chat tests share one Redis prefix (so
            # one set of counters) for the whole run: the per-address limits are tested alone.
            "login_attempts_per_ip": 100_000,
            "otp_sends_per_ip": 100_000,
            "whatsapp_bad_signatures_per_ip": 100_000,
            # Each deployment (Redis prefix) with push on gets user shard processes of its
            # own; only the push tests need them.
            "push_enabled": False,
        }
        return Settings(**{**values, **overrides})

    return make


@pytest.fixture
async def client_for(settings_for) -> AsyncIterator[Callable]:
    """Starts an edge with the given setting overrides and returns an HTTP client to it.

    An edge given no Redis prefix is a deployment of its own, whose shards (detached Ray
    actors, each a process) no other test finds: they are stopped after the test. Left
    running, every one of them took a share of a core until the run ended."""
    clients: list[TestClient] = []
    own_deployments: set[str] = set()

    async def start(page_fetcher=None, **overrides) -> TestClient:
        settings = settings_for(**overrides)
        if "redis_prefix" not in overrides:
            own_deployments.add(deployment_namespace(settings))
        app = build_app(settings, with_ray=False, page_fetcher=page_fetcher)
        client = TestClient(TestServer(app, host="127.0.0.1"))
        await client.start_server()
        clients.append(client)
        return client

    yield start
    for client in clients:
        await client.close()
    await asyncio.to_thread(shared_ray.stop_shards, own_deployments)


@pytest.fixture
async def client(client_for) -> TestClient:
    return await client_for()


@pytest.fixture
async def whatsapp_standin() -> AsyncIterator[WhatsAppStandin]:
    """Meta's WhatsApp Graph API on a loopback port: pass `whatsapp_graph_url=
    whatsapp_standin.base_url` to `client_for`."""
    standin = await WhatsAppStandin().start()
    yield standin
    await standin.close()
