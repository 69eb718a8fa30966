"""`python -m agora cluster` (what `make cluster` runs), started by the command's own code
(`agora.launch.cluster.started`) against the test session's nx-27017 and Redis: a Ray head and a
second Ray node, two edges and HAProxy in front of them, one cluster for the module.

Its shards are spread over both Ray nodes from the start (issue 41, item 6).

A message sent through HAProxy to one edge reaches a socket that came through HAProxy to the
other, each client pinned by HAProxy's cookie as a browser is.
Then an edge is killed under a stream of sends: its sockets reconnect through HAProxy to the
other edge, the sends go on, and every acknowledged message reaches every member once they
drop repeats by id, as the web app does: its screen polls the chat from its newest message
while the socket is down, and when the socket is back and has joined the chat's room again,
fetches what was stored after the newest message it had then (the messages stored between
the last poll and the socket entering its rooms again on the new edge).

Last, a per-address limit counts the address HAProxy was reached from, whatever a client
writes in X-Forwarded-For (issue 41, item 1)."""

import asyncio
import contextlib
import os
import signal
import uuid
from collections import Counter
from dataclasses import dataclass, field

import aiohttp
import pytest
import socketio
from multidict import CIMultiDict
from yarl import URL

from agora.actors.ownership import shard_name
from agora.actors.sessions import SESSION_POOL
from agora.actors.users import USER_POOL
from agora.core.chat.constants import SEND_REPLY_OK
from agora.core.shard_map import shard_of
from agora.launch import cluster, embedded
from agora.settings import Settings
from tests import shared_ray
from tests.integration.helpers import (
    Member,
    all_messages,
    bearer,
    eventually,
    member,
    new_group,
    until,
)
from tests.integration.ray_nodes import live_actors, nodes
from tests.services import free_port, free_ports_in_a_row, late_bound_port, web_dist_stand_in

MEMBERS = 20
# Sends over HTTP by the group's owner, and over their sockets by two members; the edge is
# killed once the owner has had this many acknowledged.
HTTP_SENDS = 30
SOCKET_SENDS = 10
SOCKET_SENDERS = 2
KILL_AFTER = 10
SEND_PAUSE_SECONDS = 0.1
# The web app polls a lively chat every 8 s while its socket is down; the test, sooner.
POLL_SECONDS = 0.5
# Hang guards on two busy cores, not speed checks.
ANSWER_SECONDS = 30
HEARD_ALL_SECONDS = 60
# What HAProxy answers while an edge it sent the request to has just died.
RETRYABLE = {502, 503, 504}
RETRY_PAUSE_SECONDS = 0.2
COOKIE = "SERVERID"
# Every login of the module comes from 127.0.0.1, through HAProxy: room for the members' (two
# calls each); the address test, last, uses up the rest.
LOGIN_ATTEMPTS_PER_IP = 100
# The deployment's defaults: one session shard, two user shards.
USER_SHARDS = Settings.model_fields["user_shards"].default
# What clients write in X-Forwarded-For to pass for someone else: made-up single values,
# chains, several header lines, and nothing at all.
CLIENT_WRITTEN = [
    [("X-Forwarded-For", "203.0.113.7")],
    [("X-Forwarded-For", "203.0.113.8")],
    [("X-Forwarded-For", "203.0.113.9, 198.51.100.4")],
    [("X-Forwarded-For", "198.51.100.5"), ("X-Forwarded-For", "198.51.100.6, 203.0.113.10")],
    [],
]


@pytest.fixture(scope="module")
def cluster_plan(mongo_url, redis_url, smtp_sink, tmp_path_factory) -> tuple[Settings, dict]:
    """The cluster's settings, and the same as the environment its edges start with."""
    place = tmp_path_factory.mktemp("cluster")
    port = late_bound_port()
    values = {
        "host": "127.0.0.1",
        "port": port,
        "public_base_url": f"http://127.0.0.1:{port}",
        "cluster_edges": 2,
        "cluster_first_edge_port": free_ports_in_a_row(2),
        "cluster_stats_port": free_port(),
        # A Ray of the cluster's own, a head and a second node, as `make cluster` starts.
        "ray_address": "",
        "cluster_ray_worker_nodes": 1,
        **{name: free_port() for name in shared_ray.HEAD_PORTS},
        "mongo_url": mongo_url,
        "mongo_db": "agora_cluster_test",
        "redis_url": redis_url,
        "redis_prefix": f"test:cluster:{uuid.uuid4().hex[:8]}:",
        "smtp_url": smtp_sink.url,
        "web_dist": web_dist_stand_in(place / "dist"),
        "var_dir": place / "var",
        "secret_key": uuid.uuid4().hex * 2,
        "login_attempts_per_ip": LOGIN_ATTEMPTS_PER_IP,
        "otp_sends_per_ip": 100_000,
    }
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGORA_")}
    env.update({f"AGORA_{name.upper()}": str(value) for name, value in values.items()})
    return Settings(**values), env


@pytest.fixture(scope="module")
async def running_cluster(cluster_plan) -> cluster.Cluster:
    settings, env = cluster_plan
    started = cluster.started(settings, env)
    running = await asyncio.to_thread(started.__enter__)
    try:
        yield running
    finally:
        await asyncio.to_thread(started.__exit__, None, None, None)
    # Stopped: every process the cluster started has exited.
    assert all(child.child.poll() is not None for child in running.children)


@dataclass
class Listener:
    """A member's screen of the group chat: a socket through HAProxy (with a cookie jar of
    its own, as a browser has), and polls over HTTP while the socket is down."""

    person: Member
    session_id: str
    base_url: str
    heard: list[str] = field(default_factory=list)
    newest: int = 0
    # A room's messages that came before the socket's connect: the server enters the rooms
    # before it answers the connect. socket.io-client keeps them and hands them over right
    # before "connect", where the web app's join reads the newest message shown before their
    # render; kept here the same way, so they cannot hide the gap that join fetches.
    early: list[dict] = field(default_factory=list)
    reconnects: int = 0
    socket: socketio.AsyncClient | None = None
    polling: asyncio.Task | None = None

    @property
    def edge(self) -> str | None:
        return edge_of(self.person.client, self.base_url)

    def hear(self, messages: list[dict]) -> None:
        for message in messages:
            if message.get("dest_session_id") == self.session_id:
                self.heard.append(message["id"])
                self.newest = max(self.newest, message["created_at"])

    def hear_live(self, messages: list[dict]) -> None:
        if "/" in self.socket.namespaces:
            self.hear(messages)
        else:
            self.early.extend(messages)

    async def connect(self) -> None:
        self.socket = socketio.AsyncClient(
            reconnection_delay=0.2,
            reconnection_delay_max=1,
            http_session=self.person.client,
        )
        self.socket.on("message", lambda message: self.hear_live([message]))
        self.socket.on("messages", self.hear_live)
        self.socket.on("connect", self._connected)
        self.socket.on("disconnect", self._disconnected)
        # Socket.IO's own default: polling first, then the upgrade to a websocket.
        await self.socket.connect(self.base_url, auth={"auth_key": self.person.key})

    async def _connected(self) -> None:
        shown_before = self.newest
        early, self.early = self.early, []
        self.hear(early)
        if self.polling is None:
            return
        # As the web app does (web/src/features/chat/useChatSession.ts): polling stops, the
        # chat's room is joined again, and once the join is answered, what was stored after
        # the newest message heard when the socket came back is fetched (the room's next
        # messages may be heard before that answer: they must not hide the gap).
        self.reconnects += 1
        self.polling.cancel()
        self.polling = None
        reply = await self.socket.call("join", {"session_id": self.session_id}, timeout=5)
        assert reply == {"ok": True}, reply
        await self.fetch_newer(shown_before)

    def _disconnected(self, reason: str) -> None:
        if reason != socketio.AsyncClient.reason.CLIENT_DISCONNECT:
            self.polling = asyncio.create_task(self._poll_while_away())

    async def _poll_while_away(self) -> None:
        while True:
            self.hear((await self.messages_after(self.newest))["inbox_messages"])
            await asyncio.sleep(POLL_SECONDS)

    async def fetch_newer(self, after: int) -> None:
        """Every page stored after `after`, as the web app's fetchNewer."""
        while True:
            page = await self.messages_after(after)
            self.hear(page["inbox_messages"])
            if not page["has_more"] or not page["inbox_messages"]:
                return
            after = page["inbox_messages"][-1]["created_at"]

    async def messages_after(self, after: int) -> dict:
        body = {"session_id": self.session_id, "greater_than_timestamp": after}
        return await answered(self.person, "/session/messages", body)


async def answered(person: Member, path: str, body: dict) -> dict:
    """A call made again, as the app does, while the edge behind it dies and HAProxy moves on."""
    async with asyncio.timeout(ANSWER_SECONDS):
        while True:
            with contextlib.suppress(aiohttp.ClientConnectionError):
                reply = await person.client.post(path, json=body, headers=bearer(person.key))
                if reply.status not in RETRYABLE:
                    answer = await reply.json()
                    assert reply.status == 200, (path, reply.status, answer)
                    return answer
            await asyncio.sleep(RETRY_PAUSE_SECONDS)


async def socket_send(listener: Listener, body: dict) -> dict:
    """A send over the socket, sent again with the same local_id until it is acknowledged."""
    async with asyncio.timeout(ANSWER_SECONDS):
        while True:
            with contextlib.suppress(socketio.exceptions.SocketIOError, TimeoutError):
                if listener.socket.connected:
                    reply = await listener.socket.call("send", body, timeout=5)
                    if reply.get("type") == SEND_REPLY_OK:
                        return reply
            await asyncio.sleep(RETRY_PAUSE_SECONDS)


def new_http(base_url: str) -> aiohttp.ClientSession:
    # unsafe: keeps cookies set by a numeric address (HAProxy's, on 127.0.0.1).
    return aiohttp.ClientSession(base_url=base_url, cookie_jar=aiohttp.CookieJar(unsafe=True))


def pin(http: aiohttp.ClientSession, base_url: str, edge: str) -> None:
    http.cookie_jar.update_cookies({COOKIE: edge}, URL(base_url))


def edge_of(http: aiohttp.ClientSession, base_url: str) -> str | None:
    """The edge HAProxy's cookie names in this client's jar."""
    cookies = http.cookie_jar.filter_cookies(URL(base_url))
    return cookies[COOKIE].value if COOKIE in cookies else None


async def test_the_shards_are_spread_over_the_ray_nodes(cluster_plan, running_cluster, smtp_sink):
    """A fresh cluster: the session shard and the two user shards (the defaults) spread over
    both Ray nodes (Ray's SPREAD had left all three on one). The user shards start as people
    connect."""
    settings, _ = cluster_plan
    dashboard = f"http://127.0.0.1:{settings.ray_dashboard_port}"
    token = embedded.ray_token_env(settings)["RAY_AUTH_TOKEN"]
    base_url = running_cluster.base_url
    expected = {shard_name(SESSION_POOL, 0), shard_name(USER_POOL, 0), shard_name(USER_POOL, 1)}
    async with contextlib.AsyncExitStack() as stack:
        # People connect until each user shard has one of them.
        placed: set[int] = set()
        for _ in range(MEMBERS):
            http = await stack.enter_async_context(new_http(base_url))
            person = await member(http, smtp_sink, "Placed")
            sio = socketio.AsyncClient(http_session=http)
            await sio.connect(base_url, auth={"auth_key": person.key}, transports=["websocket"])
            stack.push_async_callback(sio.disconnect)
            placed.add(shard_of(person.id, USER_SHARDS))
            if len(placed) == USER_SHARDS:
                break

        def shards() -> dict[str, str]:
            """Each running shard's node."""
            return {
                actor["name"]: actor["node_id"]
                for kind in ("SessionShard", "UserShard")
                for actor in live_actors(dashboard, kind, token)
            }

        async def running() -> set[str]:
            return set(await asyncio.to_thread(shards))

        assert await eventually(running, expected, ANSWER_SECONDS) == expected
        placed_on = await asyncio.to_thread(shards)
    # The nodes take the shards in turn, the head first, the user shards from the second.
    alive = [n for n in await asyncio.to_thread(nodes, dashboard, token) if n["state"] == "ALIVE"]
    (head,) = [n["node_id"] for n in alive if n["is_head_node"]]
    (worker,) = [n["node_id"] for n in alive if not n["is_head_node"]]
    assert placed_on == {
        shard_name(SESSION_POOL, 0): head,
        shard_name(USER_POOL, 0): worker,
        shard_name(USER_POOL, 1): head,
    }


async def test_edges_behind_haproxy_share_rooms_and_an_edge_lost_loses_no_message(
    running_cluster, smtp_sink, record_property
):
    async with contextlib.AsyncExitStack() as stack:
        base_url = running_cluster.base_url
        edge_a, edge_b = running_cluster.places.values()
        sessions = [await stack.enter_async_context(new_http(base_url)) for _ in range(MEMBERS + 1)]
        owner = await member(sessions[0], smtp_sink, "Owner")
        group_id = await new_group(owner, is_public=True)
        people = [await member(http, smtp_sink, f"M{n}") for n, http in enumerate(sessions[1:])]
        for person in people:
            await person.call("/api/group?action=join", {"group_id": group_id})

        # A message sent over HTTP through HAProxy to edge A reaches a socket that came through
        # HAProxy to edge B, each pinned there by HAProxy's cookie, as a browser would be.
        pin(people[0].client, base_url, edge_b.name)
        pinned = Listener(people[0], group_id, base_url)
        await pinned.connect()
        stack.push_async_callback(pinned.socket.disconnect)
        assert pinned.edge == edge_b.name
        pin(owner.client, base_url, edge_a.name)
        through_a = await answered(
            owner,
            "/session/send",
            {"dest_session_id": group_id, "payload": "via A", "local_id": "via-a"},
        )
        # HAProxy rewrites the cookie only when it sends a request to another edge.
        assert edge_of(owner.client, base_url) == edge_a.name
        await until(lambda: through_a["inbox_message"]["id"] in pinned.heard, ANSWER_SECONDS)
        assert through_a["inbox_message"]["id"] in pinned.heard

        # Every other member's socket lands where HAProxy's round robin puts it.
        listeners = [pinned, *(Listener(p, group_id, base_url) for p in people[1:])]
        for listener in listeners[1:]:
            await listener.connect()
            stack.push_async_callback(listener.socket.disconnect)
        on_a = [listener for listener in listeners if listener.edge == edge_a.name]
        assert on_a and len(on_a) < MEMBERS, Counter(listener.edge for listener in listeners)

        # local_id -> the stored message's id, for every acknowledged send from here on (every
        # socket is connected by now).
        acked = {}
        owner_acked = asyncio.Event()

        async def owner_sends() -> None:
            for n in range(HTTP_SENDS):
                body = {"dest_session_id": group_id, "payload": f"o{n}", "local_id": f"o{n}"}
                reply = await answered(owner, "/session/send", body)
                acked[body["local_id"]] = reply["inbox_message"]["id"]
                if n + 1 == KILL_AFTER:
                    owner_acked.set()
                await asyncio.sleep(SEND_PAUSE_SECONDS)

        async def member_sends(sender: Listener, tag: str) -> None:
            for n in range(SOCKET_SENDS):
                local_id = f"{tag}{n}"
                body = {"dest_session_id": group_id, "payload": local_id, "local_id": local_id}
                reply = await socket_send(sender, body)
                acked[body["local_id"]] = reply["inbox_message"]["id"]
                await asyncio.sleep(SEND_PAUSE_SECONDS * 3)

        async def kill_edge_a() -> None:
            await owner_acked.wait()
            os.kill(running_cluster.edges[edge_a.name].child.pid, signal.SIGKILL)

        senders = [on_a[0], next(lst for lst in listeners if lst.edge == edge_b.name)]
        await asyncio.gather(
            owner_sends(),
            *(member_sends(s, f"s{n}-") for n, s in enumerate(senders[:SOCKET_SENDERS])),
            kill_edge_a(),
        )

        # Edge A's sockets came back through HAProxy, to edge B.
        def all_back() -> bool:
            return all(lst.socket.connected and lst.polling is None for lst in listeners)

        await until(all_back, HEARD_ALL_SECONDS)
        assert all_back()
        assert all(listener.reconnects >= 1 for listener in on_a)
        assert {listener.edge for listener in listeners} == {edge_b.name}

        # Stored once each.
        stored = Counter(
            m["local_id"] for m in await all_messages(owner, group_id) if m["local_id"] in acked
        )
        assert [local for local, count in stored.items() if count > 1] == []
        assert set(acked) <= set(stored)

        # Heard by every member, once each after dropping repeats by id.
        wanted = set(acked.values())

        def all_heard() -> bool:
            return all(wanted <= set(listener.heard) for listener in listeners)

        await until(all_heard, HEARD_ALL_SECONDS)
        by_id = {message_id: local_id for local_id, message_id in acked.items()}
        missed = {
            f"{listener.person.user['name']} ({listener.reconnects} reconnects)": sorted(
                by_id[message_id] for message_id in wanted - set(listener.heard)
            )
            for listener in listeners
            if not wanted <= set(listener.heard)
        }
        assert missed == {}
        repeats = sum(
            count - 1
            for listener in listeners
            for message_id, count in Counter(listener.heard).items()
            if message_id in wanted
        )
        record_property("acknowledged", len(acked))
        record_property("heard_twice_or_more", repeats)
        record_property("sockets_moved", len(on_a))
        print(f"{len(acked)} acknowledged, {len(on_a)} sockets moved, {repeats} repeats heard")


async def test_a_per_address_limit_counts_the_address_haproxy_was_reached_from(
    cluster_plan, running_cluster, tmp_path
):
    """Logins through HAProxy until 127.0.0.1 is over its limit: then every login is refused,
    whatever the client wrote in X-Forwarded-For. Through HAProxy as `make cluster` writes it
    (the outermost proxy: it replaces the header), and as it writes it behind a trusted proxy
    (`AGORA_TRUSTED_PROXY_HOPS=1`: it appends its own line to what came, which the edges must
    find after every line the client wrote). Last in the module: it uses up the logins."""
    settings, _ = cluster_plan
    behind_a_proxy = settings.model_copy(
        update={
            "trusted_proxy_hops": 1,
            "port": late_bound_port(),
            "cluster_stats_port": late_bound_port(),
            "var_dir": tmp_path / "var",
        }
    )
    appending = await asyncio.to_thread(
        cluster.haproxy, behind_a_proxy, list(running_cluster.places.values())
    )
    try:
        async with new_http(running_cluster.base_url) as http:
            for _ in range(LOGIN_ATTEMPTS_PER_IP + 1):
                if await login_status(http, []) == 429:
                    break
            else:
                pytest.fail("127.0.0.1 never reached its login limit")
            for headers in CLIENT_WRITTEN:
                assert await login_status(http, headers) == 429, headers
        async with new_http(f"http://127.0.0.1:{behind_a_proxy.port}") as http:
            for headers in CLIENT_WRITTEN:
                assert await login_status(http, headers) == 429, headers
    finally:
        await asyncio.to_thread(appending.stop)


async def login_status(http: aiohttp.ClientSession, headers: list[tuple[str, str]]) -> int:
    """The first login step's status, without an identifier (counted, then refused)."""
    async with asyncio.timeout(ANSWER_SECONDS):
        reply = await http.post("/api/user/login", json={}, headers=CIMultiDict(headers))
        return reply.status


# Edges of its own, started as programs (as the make-run tests start theirs).
pytestmark = [
    pytest.mark.timeout(300),
    pytest.mark.xdist_group("own-processes"),
    pytest.mark.slow,
    pytest.mark.cluster,
]
