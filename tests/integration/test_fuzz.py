"""Property-based fuzz of every documented call against a real edge (nx-27017, Redis, Ray,
the Stripe stand-in): schemathesis generates requests from /api/openapi.json, valid and
invalid ones, and every one is sent as a visitor and as a signed-in user. No reply may be a
5xx, and every reply must be documented: its status, its content type, its JSON schema.

Bounded and reproducible: a fixed seed, derandomized generation, a few examples per call.
"""

import uuid

import pytest
import requests
import schemathesis

from agora.app import build_app
from agora.http.openapi import OPENAPI_DOCUMENT
from agora.settings import Settings
from tests.integration.live_edge import ThreadedEdge
from tests.stripe_standin import SECRET_KEY, WEBHOOK_SECRET, StripeStandin

EXAMPLES_PER_CALL = 40
FUZZ_CONFIG = {
    "seed": 10,
    "suppress-health-check": ["all"],
    "generation": {
        "mode": "all",  # schema-valid bodies and deliberately invalid ones
        "max-examples": EXAMPLES_PER_CALL,
        "deterministic": True,
        "database": "none",
        "with-security-parameters": False,
    },
    "phases": {"coverage": {"enabled": True}, "stateful": {"enabled": False}},
    "checks": {
        "enabled": False,
        "not_a_server_error": {"enabled": True},
        "status_code_conformance": {"enabled": True},
        "content_type_conformance": {"enabled": True},
        "response_schema_conformance": {"enabled": True},
    },
    "request-timeout": 20,
}


@pytest.fixture(scope="module")
def fuzzed_edge(ray_cluster, mongo_url, redis_url, smtp_sink, chat_prefix, tmp_path_factory):
    edge = ThreadedEdge()
    stripe = edge.run(StripeStandin(webhook_url=f"{edge.base_url}/webhooks/stripe").start())
    dist = tmp_path_factory.mktemp("dist")
    (dist / "index.html").write_text("<!doctype html><title>Agora</title>")
    edge.serve(
        Settings(
            port=edge.port,
            public_base_url=edge.base_url,
            mongo_url=mongo_url,
            mongo_db="agora_test",
            redis_url=redis_url,
            # The chat tests' prefix: the fuzz sends through the same shard actors.
            redis_prefix=chat_prefix,
            smtp_url=smtp_sink.url,
            web_dist=dist,
            var_dir=tmp_path_factory.mktemp("var"),
            login_attempts_per_ip=100_000,
            otp_sends_per_ip=100_000,
            stripe_secret_key=SECRET_KEY,
            stripe_webhook_secret=WEBHOOK_SECRET,
            stripe_api_base=stripe.base_url,
        )
    )
    yield edge
    edge.run(stripe.stop())
    edge.close()


@pytest.fixture
def user_key(fuzzed_edge, smtp_sink) -> str:
    """A user of each fuzzed call's own (one call's fuzz may log out or change the profile)."""
    return fuzzed_edge.login(smtp_sink, f"fuzz-{uuid.uuid4().hex[:10]}@example.org")


# Built like `python -m agora openapi` builds it (nothing connected); the test checks that
# the edge serves this very document.
DOCUMENT = build_app(Settings(), with_ray=False)[OPENAPI_DOCUMENT]
schema = schemathesis.openapi.from_dict(DOCUMENT, config=schemathesis.Config.from_dict(FUZZ_CONFIG))


@schema.parametrize()
def test_every_reply_is_documented_and_none_is_a_server_error(case, fuzzed_edge, user_key):
    with requests.Session() as session:
        base_url = fuzzed_edge.base_url
        case.call_and_validate(base_url, session)
        case.call_and_validate(base_url, session, {"Authorization": f"Bearer {user_key}"})


def test_the_edge_serves_the_fuzzed_document(fuzzed_edge):
    reply = requests.get(f"{fuzzed_edge.base_url}/api/openapi.json", timeout=30)
    assert reply.status_code == 200
    assert reply.json() == DOCUMENT
