"""`python -m agora cluster`: the parts of a production deployment on one machine, each a
process of its own: the MongoDB-wire server and Redis (as `make run`), a Ray head and more Ray
nodes joined to it, several edges (`python -m agora serve`) and HAProxy in front of them on the
public port. Every child is started again when it exits; Ctrl-C (or SIGTERM) stops exactly
what was started, by process group."""

import contextlib
import logging
import os
import subprocess
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from string import Template
from urllib.error import URLError
from urllib.request import urlopen

from agora.http.health import HEALTH_PATH
from agora.launch import embedded, supervision
from agora.settings import Settings

log = logging.getLogger("agora.launch.cluster")

HAPROXY_TEMPLATE = Path(__file__).with_name("haproxy.cfg.template")
# Hang guards on two busy cores: an edge joins Ray and starts its shards before it serves.
EDGE_START_SECONDS = 120
HAPROXY_START_SECONDS = 30
HAPROXY_STOP_SECONDS = 5
# The edges listen on loopback: only HAProxy reaches them.
EDGE_HOST = "127.0.0.1"


@dataclass(frozen=True)
class EdgePlace:
    name: str  # HAProxy's server name, and the value of its SERVERID cookie
    port: int

    @property
    def url(self) -> str:
        return f"http://{EDGE_HOST}:{self.port}"


def edge_places(settings: Settings) -> list[EdgePlace]:
    first = settings.cluster_first_edge_port
    return [EdgePlace(f"edge{n + 1}", first + n) for n in range(settings.cluster_edges)]


# How HAProxy writes X-Forwarded-For: as the outermost proxy, the address it was reached from
# alone (every line the client sent is dropped); behind trusted proxies, appended to theirs.
FORWARDED_FOR_OUTERMOST = "http-request set-header X-Forwarded-For %[src]"
FORWARDED_FOR_APPENDED = "option forwardfor"


def haproxy_config(settings: Settings, edges: list[EdgePlace]) -> str:
    servers = "\n".join(
        f"    server {edge.name} {EDGE_HOST}:{edge.port} check cookie {edge.name}" for edge in edges
    )
    return Template(HAPROXY_TEMPLATE.read_text()).substitute(
        bind=f"{settings.host}:{settings.port}",
        stats=f"{settings.host}:{settings.cluster_stats_port}",
        forwarded_for=(
            FORWARDED_FOR_APPENDED if settings.trusted_proxy_hops else FORWARDED_FOR_OUTERMOST
        ),
        servers=servers,
    )


@dataclass(frozen=True)
class Cluster:
    base_url: str  # HAProxy's
    ray_address: str
    edges: dict[str, supervision.Restarting]  # by HAProxy's server name
    places: dict[str, EdgePlace]
    # The Ray nodes it started, the head first (none when it joined AGORA_RAY_ADDRESS).
    ray_nodes: list[supervision.Restarting]
    haproxy: supervision.Restarting
    # Everything started, in the order started (stopped the other way round).
    children: list[supervision.Restarting]


@contextlib.contextmanager
def started(settings: Settings, env: Mapping[str, str]) -> Iterator[Cluster]:
    """Starts the cluster `settings` describe (joining the Ray cluster at AGORA_RAY_ADDRESS
    instead of starting one, when set); the edges get `env` with the cluster's settings over
    it. Yields once HAProxy answers through an edge; stops everything on the way out."""
    services: list[subprocess.Popen] = []
    children: list[supervision.Restarting] = []
    try:
        services += embedded.start_stores(settings)
        ray_address = settings.ray_address or _start_ray(settings, children)
        ray_nodes = children[:]
        places = edge_places(settings)
        edges = {
            place.name: supervision.edge(
                place.name,
                _edge_env(settings, env, ray_address, place, seeds=place is places[0]),
                settings.var_dir / "log" / f"{place.name}.log",
            )
            for place in places
        }
        children += edges.values()
        for place in places:
            _wait_for_health(place.url, edges[place.name])
            log.info("%s serves on %s", place.name, place.url)
        started_haproxy = haproxy(settings, places)
        children.append(started_haproxy)
        yield Cluster(
            settings.public_base_url,
            ray_address,
            edges,
            {place.name: place for place in places},
            ray_nodes,
            started_haproxy,
            children,
        )
    finally:
        supervision.stop_all(children[::-1])
        embedded.stop(services)


def run(settings: Settings) -> int:
    """The command: starts the cluster and keeps it running until Ctrl-C or SIGTERM."""
    supervision.stop_on_signals()
    try:
        with started(settings, os.environ) as cluster:
            log.info(
                "Agora's cluster serves on %s through HAProxy (statistics on http://%s:%d/), "
                "edges %s; Ray at %s (dashboard on http://127.0.0.1:%d); logs in %s",
                cluster.base_url,
                settings.host,
                settings.cluster_stats_port,
                ", ".join(f"{p.name} on :{p.port}" for p in cluster.places.values()),
                cluster.ray_address,
                settings.ray_dashboard_port,
                settings.var_dir / "log",
            )
            return supervision.supervise(cluster.children)
    except KeyboardInterrupt:
        log.info("stopping")
        return 0


def _start_ray(settings: Settings, children: list[supervision.Restarting]) -> str:
    """A Ray head and the worker nodes joined to it; returns the head's address."""
    head = supervision.ray_head(settings)
    children.append(head)
    address = head.child.address
    for n in range(1, settings.cluster_ray_worker_nodes + 1):
        children.append(_ray_worker_node(settings, address, n))
    return address


def worker_node_ports(settings: Settings, n: int) -> tuple[int, int]:
    """The n-th worker node's dashboard agent and metrics ports: the head's + n (a metrics
    port of 0 leaves it to Ray, as for the head)."""
    return (
        settings.ray_dashboard_agent_port + n,
        settings.ray_metrics_port and settings.ray_metrics_port + n,
    )


def _ray_worker_node(settings: Settings, head_address: str, n: int) -> supervision.Restarting:
    log_file = settings.var_dir / "log" / f"ray-node-{n}.log"
    agent_port, metrics_port = worker_node_ports(settings, n)

    def start() -> embedded.RayNode:
        log.info("starting Ray node %d, joining %s", n, head_address)
        return embedded.start_ray_worker_node(head_address, agent_port, metrics_port, log_file)

    return supervision.Restarting(f"Ray node {n}", start, embedded.stop_ray_node)


def _edge_env(
    settings: Settings, env: Mapping[str, str], ray_address: str, place: EdgePlace, seeds: bool
) -> dict[str, str]:
    return {
        **env,
        # The embedded head's token (the edges' environment may have been read before it).
        **({} if settings.ray_address else embedded.ray_token_env(settings)),
        "AGORA_HOST": EDGE_HOST,
        "AGORA_PORT": str(place.port),
        # Links, cookies and allowed origins name the address people use: HAProxy's.
        "AGORA_PUBLIC_BASE_URL": settings.public_base_url,
        "AGORA_RAY_ADDRESS": ray_address,
        # Signed links and guest cookies made by one edge are checked by another.
        "AGORA_SECRET_KEY": embedded.secret_key(settings),
        # HAProxy writes the address it was reached from last in X-Forwarded-For.
        "AGORA_TRUSTED_PROXY_HOPS": str(settings.trusted_proxy_hops + 1),
        # One edge seeds the demo city, so no two write it at once.
        "AGORA_SEED_DEMO": str(seeds).lower(),
    }


def _wait_for_health(url: str, edge: supervision.Restarting) -> None:
    deadline = time.monotonic() + EDGE_START_SECONDS
    while time.monotonic() < deadline:
        if edge.child.poll() is not None:
            raise embedded.ServiceError(f"{edge.name} exited while starting: see its log")
        with contextlib.suppress(URLError, OSError), urlopen(url + HEALTH_PATH, timeout=2):
            return
        time.sleep(0.3)
    raise embedded.ServiceError(f"{edge.name} did not answer within {EDGE_START_SECONDS} s")


def haproxy(settings: Settings, places: list[EdgePlace]) -> supervision.Restarting:
    """HAProxy in front of the edges at `places`, configured and logging under var/."""
    binary = embedded.haproxy_executable()
    config = settings.var_dir / "haproxy.cfg"
    log_file = settings.var_dir / "log" / "haproxy.log"
    log_file.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(haproxy_config(settings, places))

    def start() -> subprocess.Popen:
        if embedded.port_open(settings.host, settings.port):
            raise embedded.ServiceError(
                f"{settings.host}:{settings.port} is taken: set AGORA_PORT and "
                "AGORA_PUBLIC_BASE_URL to a free one"
            )
        # -db: in the foreground, one process, stopped by SIGTERM.
        with log_file.open("a") as output:
            process = subprocess.Popen(
                [binary, "-db", "-f", str(config)],
                stdout=output,
                stderr=subprocess.STDOUT,
                process_group=0,
            )
        try:
            embedded.wait_for_port(settings.host, settings.port, HAPROXY_START_SECONDS, process)
        except BaseException:
            _stop_haproxy(process)
            raise
        log.info("HAProxy listens on %s:%d (config %s)", settings.host, settings.port, config)
        return process

    return supervision.Restarting("HAProxy", start, _stop_haproxy)


def _stop_haproxy(process: subprocess.Popen) -> None:
    embedded.stop_process_group(process, HAPROXY_STOP_SECONDS)
