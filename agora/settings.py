"""Typed settings, read once from AGORA_* environment variables."""

from decimal import Decimal
from pathlib import Path
from typing import Literal, Self

from pydantic import Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from agora.core.items import POST_EXPIRY_DAYS_DEFAULT
from agora.core.money import CURRENCY_POINTS, OFFER_CURRENCIES
from agora.core.push import PUSH_COALESCE_SECONDS
from agora.core.reactions import REACTIONS_TICK_MS

REPO_ROOT = Path(__file__).resolve().parent.parent
# The ports `ray start` gives its worker processes (its --min-worker-port and
# --max-worker-port defaults): a head told to serve on one of them refuses to start.
RAY_WORKER_PORTS = range(10_002, 20_000)
MongoTransactions = Literal["auto", "on", "off"]


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="AGORA_", extra="ignore", frozen=True)

    host: str = "127.0.0.1"
    port: int = 8080
    public_base_url: str = "http://127.0.0.1:8080"
    # Origins allowed to open sockets: the public site and Vite's dev server.
    cors_origins: tuple[str, ...] = (
        "http://127.0.0.1:8080",
        "http://localhost:8080",
        "http://127.0.0.1:5173",
        "http://localhost:5173",
    )
    # How many reverse proxies in front of the edge append to X-Forwarded-For.
    trusted_proxy_hops: int = Field(default=0, ge=0)

    mongo_url: str = "mongodb://127.0.0.1:27017/?directConnection=true"
    mongo_db: str = "agora"
    # Money moves in transactions (`store/unit_of_work.py`): auto, where the server is a replica
    # set member or mongos; off, never (each write alone, the sweep finishes what an edge left);
    # on, always: on nx-27017 one at a time from this process, right only while it is the only
    # writer (the tests that prove the transactions).
    mongo_transactions: MongoTransactions = "auto"
    # How long a call waits for an unreachable MongoDB before it answers 503 (PyMongo's own
    # default is 30 s, a hung request as far as a person is concerned).
    mongo_server_selection_timeout_ms: int = Field(default=5000, ge=100)
    mongo_connect_timeout_ms: int = Field(default=5000, ge=100)
    # Commands slower than this are logged with their collection and filter's fields (0: off).
    mongo_slow_command_ms: int = Field(default=0, ge=0)
    # Every this many seconds each process that asks the store (the edge, each shard) logs how
    # many commands of each shape it sent (0: off).
    mongo_command_census_seconds: int = Field(default=0, ge=0)
    # The census also names who asked each shape (a frame walk per command and per task).
    mongo_command_census_callers: bool = False
    # Every send (HTTP or socket) is answered within this: stored, or 503 with Retry-After,
    # after which the client sends it again with the same local_id and it is stored once.
    # Calls the edge makes to the shards wait no longer either.
    send_answer_seconds: float = Field(default=5.0, gt=0)
    redis_url: str = "redis://127.0.0.1:6379/0"
    # The same for Redis: a connection that cannot be made or a reply that does not come.
    redis_timeout_seconds: float = Field(default=5.0, gt=0)
    # Connections one edge keeps to Redis; a request finding all of them busy waits for one
    # (at most redis_timeout_seconds) rather than failing.
    redis_max_connections: int = Field(default=100, ge=1)
    # Every Redis key and Socket.IO channel starts with this, so several deployments
    # (or test runs) can share one Redis without seeing each other's data.
    redis_prefix: str = "agora:"
    # Empty means: start a local Ray in the edge process (the embedded default).
    ray_address: str = ""
    ray_dashboard: bool = True
    # Chat sessions are spread over this many Ray actors (one process each). Every edge of a
    # deployment must use the same number (it places sessions). Each batch a shard takes costs
    # it about 2 ms of CPU whatever its size (a Ray call, an insert, a count, a publish), and a
    # second shard halves the batches: on two cores, where the edge and MongoDB take most of
    # the CPU, one shard spent 10-20 % less CPU per message than two up to the ceiling
    # (docs/decisions.md, "Eighth pass"). Raise it when a shard's queue keeps growing.
    session_shards: int = Field(default=1, ge=1, le=256)
    # A session's reactions reach the tabs showing it at most this often, together (a busy
    # group's reactions cost its viewers one event per tick, not one per reaction).
    reactions_tick_ms: int = Field(default=REACTIONS_TICK_MS, ge=1, le=10_000)
    # The edge and the shards collect reference cycles fully every this many seconds, never
    # by count (agora/tools/garbage.py): by count, one took 110-290 ms of the edge's CPU every
    # 10-15 s at 1,000 people (docs/decisions.md, "The eleventh pass").
    gc_full_every_seconds: float = Field(default=600.0, gt=0)
    # A probe, never a deployment's setting: the edge traces its Python heap (tracemalloc, a
    # large cost) and writes a snapshot here on each SIGUSR2 (agora/tools/heap.py).
    heap_snapshots_dir: Path | None = None
    # The ports of the Ray head `python -m agora run` starts (AGORA_RAY_ADDRESS unset): its
    # GCS (Ray's default, 6379, is Redis's), its dashboard, its Ray Client server and its
    # dashboard agent. Settings, so that two runs (a developer's and a test's) can share a
    # machine.
    ray_port: int = Field(default=6380, ge=1, le=65535)
    ray_dashboard_port: int = 8265
    ray_client_port: int = Field(default=10001, ge=1, le=65535)
    ray_dashboard_agent_port: int = Field(default=52365, ge=1, le=65535)
    # Where the local Ray node serves its metrics (agora/tools/metrics.py) in Prometheus text, when
    # the dashboard is on; 0: a port of Ray's choosing.
    ray_metrics_port: int = Field(default=8266, ge=0, le=65535)
    # Users (presence and push decisions) are spread over this many Ray actors; the same on
    # every edge of a deployment.
    user_shards: int = Field(default=2, ge=1, le=256)

    # `python -m agora cluster`: HAProxy on host:port (public_base_url must name it) in front
    # of this many edges, on the ports from cluster_first_edge_port on; beside its Ray head,
    # this many more Ray nodes, the n-th serving its dashboard agent on
    # ray_dashboard_agent_port + n and its metrics on ray_metrics_port + n.
    cluster_edges: int = Field(default=2, ge=1, le=32)
    cluster_first_edge_port: int = Field(default=8081, ge=1, le=65535)
    cluster_ray_worker_nodes: int = Field(default=1, ge=0, le=16)
    # HAProxy's statistics page (each edge's state and sessions), on host.
    cluster_stats_port: int = Field(default=8404, ge=1, le=65535)

    # Web push. Off, subscriptions are still stored but nothing is decided or sent, and
    # sockets are not reported to the user shards (benchmarks compare the two).
    push_enabled: bool = True
    # Without a key pair here, one is made on first start and kept in MongoDB.
    vapid_private_key: SecretStr = SecretStr("")
    vapid_public_key: str = ""
    # Who the push services may contact about this sender (a mailto: or https: URL).
    vapid_subject: str = "mailto:admin@agora.local"
    # Tests and the push bench only: endpoints on a loopback address written plainly (the
    # push service stand-in: plain http, any port) are accepted and pushed to. Off, an
    # endpoint must be https on port 443 of a domain name that resolves to global addresses.
    push_allow_loopback_endpoints: bool = False
    push_coalesce_seconds: float = Field(default=PUSH_COALESCE_SECONDS, gt=0)

    smtp_url: str = ""
    smtp_from: str = "Agora <no-reply@agora.local>"

    # `python -m agora run` turns this on: a demo city with a few posts for newcomers.
    seed_demo: bool = False

    # The edge's access log: "failures" writes a line for each answer of 400 or more and each
    # request slower than `slow_request_seconds`; "all" for every request (about a tenth of
    # the edge's CPU under a send load: formatting and writing a line per request).
    access_log: Literal["failures", "all"] = "failures"
    slow_request_seconds: float = Field(default=1.0, gt=0)

    # Signs guest cookies and upload links and hashes one-time codes. No default: `python -m
    # agora run` keeps a random one under var/; any other start must be given one.
    secret_key: SecretStr = SecretStr("")
    dev_mode: bool = True

    web_dist: Path = REPO_ROOT / "web" / "dist"
    var_dir: Path = REPO_ROOT / "var"

    # Where uploaded files live, shared by every edge: GridFS in the MongoDB above (the
    # bucket's collections are `<bucket>.files` and `<bucket>.chunks`), or an S3-compatible
    # bucket (docs/operations.md, "Uploaded files").
    uploads_store: Literal["gridfs", "s3"] = "gridfs"
    uploads_gridfs_bucket: str = Field(default="upload_files", min_length=1)
    # Empty: AWS's own endpoint for the region; else e.g. http://minio:9000.
    s3_endpoint_url: str = ""
    s3_bucket: str = ""
    s3_region: str = ""
    # Empty: botocore's usual places (environment, ~/.aws, the instance's role).
    s3_access_key_id: str = ""
    s3_secret_access_key: SecretStr = SecretStr("")
    # "path" for servers that do not serve buckets as host names (most MinIO setups).
    s3_addressing_style: Literal["auto", "path", "virtual"] = "auto"
    # A connection or an answer that takes longer fails the call (503), after botocore's
    # retries, instead of holding the request.
    s3_timeout_seconds: float = Field(default=10.0, gt=0)

    otp_ttl_seconds: int = Field(default=600, ge=1)
    otp_max_wrong_tries: int = Field(default=5, ge=1)
    otp_sends_per_identifier: int = Field(default=5, ge=1)
    otp_sends_per_ip: int = Field(default=20, ge=1)
    login_attempts_per_ip: int = Field(default=60, ge=1)
    rate_window_seconds: int = Field(default=900, ge=1)
    # What one person may create per creation window: enough for a shop listing its stock in
    # a sitting, not for a script filling a city's feed (docs/decisions.md, "Hardening").
    posts_per_user: int = Field(default=60, ge=1)
    # A post is open this long (shown on it as `expires_at`): then it closes, and what its
    # reward still holds goes back to its poster (issue 32).
    post_expiry_days: int = Field(default=POST_EXPIRY_DAYS_DEFAULT, ge=1, le=3650)
    groups_per_user: int = Field(default=10, ge=1)
    creation_window_seconds: int = Field(default=3600, ge=1)

    max_body_bytes: int = Field(default=256 * 1024, ge=1024)

    # Card payments (Stripe). An empty secret key turns them off: the card calls answer 503.
    stripe_secret_key: SecretStr = SecretStr("")
    # Signing secret of the webhook endpoint (`whsec_...`); Connect events (account.updated)
    # may come through a second endpoint with its own secret.
    stripe_webhook_secret: SecretStr = SecretStr("")
    stripe_connect_webhook_secret: SecretStr = SecretStr("")
    # Empty means Stripe's real API; tests point it at a local stand-in.
    stripe_api_base: str = ""
    stripe_webhook_tolerance_seconds: int = Field(default=300, ge=1)
    stripe_timeout_seconds: float = Field(default=20.0, gt=0)
    # The monthly price of a group subscription, in the currency's minor unit.
    stripe_group_price_cents: int = Field(default=500, ge=50)
    stripe_group_price_currency: str = "USD"

    # Meta's WhatsApp Cloud API; tests point it at a local stand-in.
    whatsapp_graph_url: str = "https://graph.facebook.com/v21.0"
    # Wrongly signed webhook deliveries an address may post per rate window; then 429 before
    # its bodies are read (Meta's own deliveries are always signed).
    whatsapp_bad_signatures_per_ip: int = Field(default=60, ge=1)
    # What each template sent costs the group's owner, charged to their wallet in this
    # currency (a decimal amount, 0: free); a template the wallet cannot pay is not sent.
    whatsapp_template_price: Decimal = Field(default=Decimal(0), ge=0, max_digits=12)
    whatsapp_template_currency: Literal[OFFER_CURRENCIES] = CURRENCY_POINTS

    @property
    def card_payments(self) -> bool:
        return bool(self.stripe_secret_key.get_secret_value())

    @property
    def socketio_channel(self) -> str:
        return f"{self.redis_prefix}socketio"

    @model_validator(mode="after")
    def _ray_ports_outside_its_workers(self) -> Self:
        if self.ray_address:
            return self  # a cluster started elsewhere: these ports are not used
        fixed = {
            "ray_port": self.ray_port,
            "ray_dashboard_port": self.ray_dashboard_port,
            "ray_client_port": self.ray_client_port,
            "ray_dashboard_agent_port": self.ray_dashboard_agent_port,
            "ray_metrics_port": self.ray_metrics_port,
        }
        inside = [
            f"AGORA_{name.upper()}={port}"
            for name, port in fixed.items()
            if port in RAY_WORKER_PORTS
        ]
        if inside:
            raise ValueError(
                f"{', '.join(inside)}: Ray gives ports {RAY_WORKER_PORTS.start}-"
                f"{RAY_WORKER_PORTS.stop - 1} to its worker processes; pick ports outside them"
            )
        return self

    @property
    def local_uploads_dir(self) -> Path:
        """Where versions before the upload store kept files; copied into it at start."""
        return self.var_dir / "uploads"


class MissingSecret(RuntimeError):
    """The edge would sign with a secret others may know; it refuses to start."""


SECRET_KEY_MIN_LENGTH = 32
# The constant earlier versions signed with when none was set: known to anyone.
KNOWN_SECRETS = frozenset({"dev-only-secret-change-me"})


def require_secret(settings: Settings) -> str:
    secret = settings.secret_key.get_secret_value()
    if len(secret) < SECRET_KEY_MIN_LENGTH or secret in KNOWN_SECRETS:
        raise MissingSecret(
            "AGORA_SECRET_KEY must be set to a random secret of at least "
            f"{SECRET_KEY_MIN_LENGTH} characters, the same on every edge (for example "
            "`python -c 'import secrets; print(secrets.token_urlsafe(48))'`). "
            "`python -m agora run` creates one under var/ by itself."
        )
    return secret


def load_settings(**overrides) -> Settings:
    return Settings(**overrides)
