"""Property-based fuzz of every documented call against a real edge (nx-27017, Redis, Ray,
the Stripe stand-in): schemathesis generates requests from /api/openapi.json, valid and
invalid ones, and every one is sent as a signed-in user and as a visitor (but for the
coverage phase's bodies to a call that needs a login: `sent_as_visitor`). No reply may be a
5xx, and every reply must be documented: its status, its content type, its JSON schema.

Bounded and reproducible: a fixed seed, derandomized generation, a few examples per call.
"""

import secrets
import uuid
from collections.abc import Iterator

import pytest
import requests
import schemathesis
import socketio
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st
from schemathesis.generation.meta import TestPhase

from agora.app import api_document
from agora.settings import Settings
from tests.integration.helpers import CLIENT_EVENTS
from tests.integration.live_edge import ThreadedEdge
from tests.stripe_standin import SECRET_KEY, WEBHOOK_SECRET, StripeStandin
from tests.whatsapp_standin import WhatsAppStandin

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
    "phases": {
        # Sent with a method it does not take, a call meets the edge's catch-all route, which
        # refuses GET (and HEAD) by the path and every other method by the method: one of each
        # is every path it has (each call was sent all seven).
        "coverage": {"enabled": True, "unexpected-methods": ["get", "post"]},
        "stateful": {"enabled": False},
    },
    "checks": {
        "enabled": False,
        "not_a_server_error": {"enabled": True},
        "status_code_conformance": {"enabled": True},
        "content_type_conformance": {"enabled": True},
        "response_schema_conformance": {"enabled": True},
    },
    "request-timeout": 20,
}

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def fuzzed_edge(ray_cluster, mongo_url, redis_url, smtp_sink, chat_prefix, tmp_path_factory):
    edge = ThreadedEdge()
    stripe = edge.run(StripeStandin(webhook_url=f"{edge.base_url}/webhooks/stripe").start())
    whatsapp = edge.run(WhatsAppStandin().start())
    dist = tmp_path_factory.mktemp("dist")
    (dist / "index.html").write_text("<!doctype html><title>Agora</title>")
    edge.serve(
        Settings(
            port=edge.port,
            public_base_url=edge.base_url,
            mongo_url=mongo_url,
            mongo_db="agora_test",
            redis_url=redis_url,
            # The chat tests' deployment: the fuzz sends through the same shard actors, so it
            # takes their pool's size (the first edge to ask writes it). Web push stays on (the
            # default), decided by one user shard: each is a process of its own.
            redis_prefix=chat_prefix,
            session_shards=2,
            user_shards=1,
            smtp_url=smtp_sink.url,
            web_dist=dist,
            var_dir=tmp_path_factory.mktemp("var"),
            secret_key=secrets.token_urlsafe(32),
            login_attempts_per_ip=100_000,
            otp_sends_per_ip=100_000,
            whatsapp_bad_signatures_per_ip=100_000,
            stripe_secret_key=SECRET_KEY,
            stripe_webhook_secret=WEBHOOK_SECRET,
            stripe_api_base=stripe.base_url,
            whatsapp_graph_url=whatsapp.base_url,
        )
    )
    yield edge
    edge.run(stripe.stop())
    edge.run(whatsapp.close())
    edge.close()


# Ids of real objects: a field holding an id sometimes gets one of these (drawn by
# hypothesis, so still reproducible), so that requests also get past "not found".
REAL_IDS: dict[str, list[str]] = {}
ID_KINDS = {
    "group_id": "groups",
    "item_id": "items",
    "item_ids": "items",
    "route_id": "routes",
    "session_id": "sessions",
    "dest_session_id": "sessions",
    "cs_id": "sessions",
    "session_ids": "sessions",
    "user_ids": "users",
    "session_with_user_ids": "users",
    "for_user_id": "users",
    "wallet_user_id": "users",
}


def with_real_ids(values: object) -> st.SearchStrategy:
    if not isinstance(values, dict):
        return st.just(values)
    fields = {}
    for name, value in values.items():
        known = REAL_IDS.get(ID_KINDS.get(name, ""))
        real = None
        if known:
            real = (
                st.lists(st.sampled_from(known), max_size=3)
                if isinstance(value, list)
                else (st.sampled_from(known))
            )
        fields[name] = st.just(value) if real is None else st.one_of(st.just(value), real)
    return st.fixed_dictionaries(fields)


def call(edge: ThreadedEdge, path: str, body: dict, key: str) -> dict:
    reply = requests.post(
        edge.base_url + path, json=body, headers={"Authorization": f"Bearer {key}"}, timeout=30
    )
    reply.raise_for_status()
    return reply.json()


@pytest.fixture(scope="module")
def world(fuzzed_edge, smtp_sink) -> dict[str, str]:
    """A public and a private group, each with a post of someone else's."""
    owner_key = fuzzed_edge.login(smtp_sink, f"owner-{uuid.uuid4().hex[:10]}@example.org")
    owner_id = call(fuzzed_edge, "/api/user/profile", {}, owner_key)["user"]["_id"]
    groups, items = [], []
    for is_public in (True, False):
        body = {"title": f"Fuzz {uuid.uuid4().hex[:6]}", "tags": ["Books"], "is_public": is_public}
        group = call(fuzzed_edge, "/api/group?action=create", body, owner_key)["group"]
        body = {
            "group_id": group["_id"],
            "title": "A piano",
            "offer_amount": 5,
            "offer_currency": "POINTS",
        }
        items.append(call(fuzzed_edge, "/api/item?action=create", body, owner_key)["item"])
        groups.append(group["_id"])
    REAL_IDS.update(
        groups=groups,
        items=[item["_id"] for item in items],
        routes=[item["route_id"] for item in items],
    )
    return {"owner_id": owner_id, "public_item_id": items[0]["_id"]}


# The calls that end the key they are sent with: each fuzzes with a user of its own.
KEY_ENDING_CALLS = {"POST /api/user/logout"}


@pytest.fixture(scope="module")
def shared_user_key(fuzzed_edge, smtp_sink, world) -> Iterator[str]:
    """A user who has opened a chat about the public post, whom every call and socket event
    of the module is sent as: what one call's fuzz changes (a profile, posts, chats) is state
    any user may be in when the next is sent."""
    key = fuzzed_edge.login(smtp_sink, f"fuzz-{uuid.uuid4().hex[:10]}@example.org")
    user_id = call(fuzzed_edge, "/api/user/profile", {}, key)["user"]["_id"]
    chat_id = f"r_{world['public_item_id']}_{user_id}"
    body = {"dest_session_id": chat_id, "payload": "Is it still there?", "local_id": "first"}
    call(fuzzed_edge, "/session/send", body, key)
    REAL_IDS.update(sessions=[chat_id, *REAL_IDS["groups"]], users=[world["owner_id"], user_id])
    yield key
    # Still signed in: had a call ended the key, the calls after it were sent as nobody.
    call(fuzzed_edge, "/api/user/profile", {}, key)


@pytest.fixture
def user_key(request, fuzzed_edge, smtp_sink) -> str:
    if request.node.operation_label in KEY_ENDING_CALLS:
        return fuzzed_edge.login(smtp_sink, f"fuzz-{uuid.uuid4().hex[:10]}@example.org")
    return request.getfixturevalue("shared_user_key")


# Built like `python -m agora openapi` builds it (nothing connected); the test checks that
# the edge serves this very document.
DOCUMENT = api_document(Settings())
schema = schemathesis.openapi.from_dict(DOCUMENT, config=schemathesis.Config.from_dict(FUZZ_CONFIG))


@schema.hook
def flatmap_body(context, body):
    return with_real_ids(body)


@schema.hook
def flatmap_query(context, query):
    return with_real_ids(query)


@schema.hook
def flatmap_path_parameters(context, path_parameters):
    return with_real_ids(path_parameters)


def needs_login(case) -> bool:
    security = DOCUMENT["paths"][case.operation.path][case.operation.method.lower()].get("security")
    return bool(security) and {} not in security


def sent_as_visitor(case) -> bool:
    """A call that needs a login answers a visitor 401 at once, or after checking the body as
    it checks a user's (the user's request meets the same checks): the coverage phase's
    hundreds of bodies took no path as a visitor that the user's did not. Its generated
    bodies (a few dozen) keep sending it as a visitor too."""
    return case.meta.phase.name != TestPhase.COVERAGE or not needs_login(case)


@schema.parametrize()
def test_every_reply_is_documented_and_none_is_a_server_error(case, fuzzed_edge, user_key):
    with requests.Session() as session:
        base_url = fuzzed_edge.base_url
        if sent_as_visitor(case):
            case.call_and_validate(base_url, session)
        case.call_and_validate(base_url, session, {"Authorization": f"Bearer {user_key}"})


def test_the_edge_serves_the_fuzzed_document(fuzzed_edge):
    reply = requests.get(f"{fuzzed_edge.base_url}/api/openapi.json", timeout=30)
    assert reply.status_code == 200
    assert reply.json() == DOCUMENT


# Socket.IO events, which OpenAPI cannot describe: whatever a client sends, with whatever
# arguments, an event asking for an acknowledgement gets one (never leaves the client waiting),
# one that does not leaves the socket working, and the socket stays whose it was.
# Names Socket.IO keeps for itself, and names the edge does not know: refused.
REFUSED_EVENTS = (
    "connect",
    "disconnect",
    "connect_error",
    "disconnecting",
    "newListener",
    "removeListener",
    "message",
    "no-such-event",
)
ANSWERED_WITHOUT_OK = ("unseen", "send")
ACK_GUARD_SECONDS = 5  # a hang guard, not a speed check


def real_ids(kind: str) -> st.SearchStrategy[str]:
    """Drawn when the test runs, once the fixtures made the objects."""
    return st.deferred(lambda: st.sampled_from(REAL_IDS[kind]))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)
event_data = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {},
        optional={
            "session_id": st.one_of(real_ids("sessions"), st.text(max_size=30)),
            "created_at": st.one_of(
                st.integers(), st.floats(allow_nan=False), st.text(max_size=30)
            ),
            "dest_session_id": st.one_of(real_ids("sessions"), st.text(max_size=30)),
            "payload": json_values,
            "local_id": st.text(max_size=30),
        },
    ),
)


@pytest.fixture(scope="module")
def sockets(fuzzed_edge, shared_user_key):
    clients = {"visitor": socketio.SimpleClient(), "user": socketio.SimpleClient()}
    clients["visitor"].connect(fuzzed_edge.base_url, transports=["websocket"])
    clients["user"].connect(
        fuzzed_edge.base_url, auth={"auth_key": shared_user_key}, transports=["websocket"]
    )
    yield clients
    for client in clients.values():
        client.disconnect()


# What an event carries: no argument (None), one (null included), two or three.
event_arguments = st.one_of(
    st.none(),
    st.tuples(event_data),
    st.tuples(event_data, event_data),
    st.tuples(event_data, event_data, event_data),
)


@pytest.mark.parametrize("event", CLIENT_EVENTS + REFUSED_EVENTS)
@settings(
    max_examples=25,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
    # A failure waits out the guard; shrinking would wait it out many times over.
    phases=[Phase.explicit, Phase.generate],
)
@given(who=st.sampled_from(["visitor", "user"]), arguments=event_arguments, asks=st.booleans())
# Every number of arguments, whatever is drawn.
@example(who="user", arguments=None, asks=True)
@example(who="user", arguments=(None,), asks=True)
@example(who="visitor", arguments=({}, {}), asks=True)
@example(who="user", arguments=({}, None, 7), asks=True)
@example(who="user", arguments=({}, {}), asks=False)
def test_every_socket_event_answers_whatever_it_is_sent(sockets, event, who, arguments, asks):
    client = sockets[who]
    if asks:
        ack = client.call(event, arguments, timeout=ACK_GUARD_SECONDS)
        assert isinstance(ack, dict), ack
        if event in REFUSED_EVENTS or (arguments is not None and len(arguments) > 1):
            assert "errors" in ack, ack
        elif "errors" not in ack:
            assert ack.get("ok") is True or event in ANSWERED_WITHOUT_OK, ack
    else:
        client.emit(event, arguments)
    # The socket still answers, as the same caller (a `connect` made a user's a guest's).
    counts = client.call("unseen", timeout=ACK_GUARD_SECONDS)
    assert ("need_user" in counts) is (who == "visitor"), counts
