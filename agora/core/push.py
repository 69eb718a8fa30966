"""Web push, the pure part: subscriptions as browsers serialize them, who is told of a
message, what a notification says, the receipt its service worker acknowledges delivery
with, and the per-chat window that coalesces a busy chat."""

import base64
import hashlib
import json
from dataclasses import dataclass, field, replace
from typing import Any

from agora.core import json_text
from agora.core.addresses import (
    Address,
    AddressCheck,
    Refused,
    check_url,
    domain_name,
    literal_address,
    parse_url,
    public_address,
    written_as_address,
)
from agora.core.chat.access import is_reader
from agora.core.chat.counts import is_muted
from agora.core.errors import InvalidInput
from agora.core.mentions import mentioned_recipients
from agora.core.signing import sign, unsign

# The product spec's numbers for push (those the web app shares are written out by
# `python -m agora constants`, agora/generate/web_constants.py).
PUSH_OS_TYPE_WEB = "WEB_PUSH"
# Web push (decisions: "Web push").
# Where a pushed notification sends its reader, and how long an undelivered one is kept.
PUSH_TTL_SECONDS = 24 * 3600
# A person gets at most one push per chat in this window; later messages are counted into
# one "N new messages" push at its end.
PUSH_COALESCE_SECONDS = 30.0
PUSH_PREVIEW_CHARS = 120
# RFC 8291 leaves 3,993 bytes of plaintext in a 4,096-byte aes128gcm record.
PUSH_PAYLOAD_MAX_BYTES = 3993
PUSH_TOKEN_MAX_CHARS = 2048
PUSH_ENDPOINT_MAX_CHARS = 1024
PUSH_TOPIC_CHARS = 32
# Browsers an account is pushed to: a new one replaces the one registered longest ago.
PUSH_SUBSCRIPTIONS_PER_ACCOUNT = 5
# Sending: 429 and 5xx are retried this many times, waiting twice as long each time from the
# first wait (or the push service's Retry-After, capped).
PUSH_RETRIES = 3
PUSH_FIRST_RETRY_SECONDS = 0.5
PUSH_MAX_RETRY_SECONDS = 30.0
PUSH_SEND_TIMEOUT_SECONDS = 10.0


HTTPS_PORT = 443
P256DH_BYTES = 65  # an uncompressed P-256 point: 0x04, x, y
AUTH_SECRET_BYTES = 16
CHAT_URL = "/chats?session_id={session_id}"


@dataclass(frozen=True)
class Subscription:
    endpoint: str
    p256dh: str
    auth: str

    def info(self) -> dict[str, Any]:
        """As pywebpush (and the browser's `PushSubscription.toJSON()`) shape it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


def b64url_decode(text: str) -> bytes:
    if not isinstance(text, str) or not text.replace("-", "").replace("_", "").isalnum():
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))


def b64url_encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def parse_subscription(os_type: str, push_token: str, allow_loopback: bool) -> Subscription:
    """The serialized PushSubscription a browser sent, checked field by field; endpoints on
    loopback addresses (a test's push service stand-in) only with `allow_loopback`."""
    if os_type != PUSH_OS_TYPE_WEB:
        raise InvalidInput({"os_type": f"Only {PUSH_OS_TYPE_WEB} is supported"})
    if len(push_token) > PUSH_TOKEN_MAX_CHARS:
        raise InvalidInput({"push_token": "Too long"})
    try:
        data = json_text.loads_outside(push_token)
    except ValueError as exc:
        raise InvalidInput({"push_token": "Send the subscription as JSON text"}) from exc
    keys = data.get("keys") if isinstance(data, dict) else None
    if not isinstance(keys, dict):
        raise InvalidInput({"push_token": "The subscription needs an endpoint and keys"})
    endpoint = _endpoint(data.get("endpoint"), allow_loopback)
    p256dh = _key(keys, "p256dh", P256DH_BYTES)
    if b64url_decode(p256dh)[0] != 0x04:
        raise InvalidInput({"push_token": "keys.p256dh must be an uncompressed P-256 point"})
    return Subscription(endpoint, p256dh, _key(keys, "auth", AUTH_SECRET_BYTES))


def _endpoint(endpoint: Any, allow_loopback: bool) -> str:
    if not isinstance(endpoint, str) or len(endpoint) > PUSH_ENDPOINT_MAX_CHARS:
        raise InvalidInput({"push_token": "The subscription's endpoint is missing or too long"})
    if refusal := _endpoint_refusal(endpoint, allow_loopback):
        raise InvalidInput({"push_token": f"The subscription's endpoint {refusal}"})
    return endpoint


def _endpoint_refusal(endpoint: str, allow_loopback: bool) -> str | None:
    """What no push service's endpoint looks like, read from the URL alone: registering needs
    no DNS (and works offline); where a name leads is checked each time a push is sent."""
    try:
        target = parse_url(endpoint)
    except Refused:
        return "must be an https URL"
    host = target.raw_host or ""
    if target.user is not None or target.password is not None:
        return "must not carry credentials"
    if allow_loopback and _loopback_standin(endpoint):
        return None
    if written_as_address(host):
        return "must name its push service, not an address"
    if target.scheme != "https" or not host:
        return "must be an https URL"
    if target.port != HTTPS_PORT:
        return f"must use the https port, {HTTPS_PORT}"
    if not domain_name(host):
        return "must name its push service by a full domain name"
    return None


def _loopback_standin(endpoint: str) -> bool:
    """A loopback address written plainly, on any port, over http or https."""
    try:
        target = check_url(endpoint, _loopback)
    except Refused:
        return False
    return literal_address(target.raw_host) is not None


def _loopback(address: Address) -> bool:
    return address.is_loopback


def push_addresses(allow_loopback: bool) -> AddressCheck:
    """Where pushes may be sent: global addresses, and loopback ones too where a test's push
    service stand-in is allowed."""
    if allow_loopback:
        return lambda address: _loopback(address) or public_address(address)
    return public_address


def _key(keys: dict[str, Any], name: str, size: int) -> str:
    value = keys.get(name)
    try:
        raw = b64url_decode(value)
    except (ValueError, TypeError) as exc:
        raise InvalidInput({"push_token": f"keys.{name} must be base64url text"}) from exc
    if len(raw) != size:
        raise InvalidInput({"push_token": f"keys.{name} must be {size} bytes"})
    return value


def push_recipients(sender_id: str, memberships: list[dict[str, Any]]) -> list[str]:
    """Members told of a message by push, if not looking at the chat: readers with
    notifications on, never the sender."""
    return [
        m["user_id"]
        for m in memberships
        if m["user_id"] != sender_id and is_reader(m.get("session_user_type")) and not is_muted(m)
    ]


def mention_recipients(message: dict[str, Any], memberships: list[dict[str, Any]]) -> list[str]:
    """Members told of a message by push as mentioned in it (`core.mentions`), whether or not
    they muted the chat: muted means "only mentions"."""
    readers = [m for m in memberships if is_reader(m.get("session_user_type"))]
    muted = {m["user_id"] for m in readers if is_muted(m)}
    return mentioned_recipients(message, [m["user_id"] for m in readers], muted.__contains__)


def topic_for(session_id: str) -> str:
    """The Topic header: a push service replaces an undelivered push of the same topic, so
    one per chat. At most 32 characters of the URL-safe base64 alphabet."""
    digest = hashlib.sha256(session_id.encode()).digest()
    return b64url_encode(digest)[:PUSH_TOPIC_CHARS]


# What a delivery receipt signs: its purpose (no other signed token of ours reads as one), the
# newest message's time, the recipient and the chat (last: the only part that is free text).
RECEIPT_PURPOSE = "delivered"
RECEIPT_PARTS = 4


@dataclass(frozen=True)
class DeliveryReceipt:
    """A recipient's screen (their service worker) got the chat's messages up to `created_at`."""

    user_id: str
    session_id: str
    created_at: int


def delivery_receipt(secret: str, receipt: DeliveryReceipt) -> str:
    """The token a push carries: the service worker, which holds no auth key, posts it back
    when the push arrives, and it names the one person the push was for."""
    value = f"{RECEIPT_PURPOSE}|{receipt.created_at}|{receipt.user_id}|{receipt.session_id}"
    return sign(secret, value)


def read_delivery_receipt(secret: str, token: str) -> DeliveryReceipt | None:
    """The receipt a token of ours names; None for anything we did not sign as one."""
    value = unsign(secret, token)
    parts = value.split("|", RECEIPT_PARTS - 1) if value else []
    if len(parts) != RECEIPT_PARTS or parts[0] != RECEIPT_PURPOSE or not parts[1].isdigit():
        return None
    return DeliveryReceipt(user_id=parts[2], session_id=parts[3], created_at=int(parts[1]))


@dataclass(frozen=True)
class Notification:
    """What a push says; `count` > 1 for a coalesced one."""

    session_id: str
    title: str
    sender_name: str
    text: str
    count: int = 1
    red_dot: int = 0
    direct: bool = False  # a 1:1 chat: delivered with high urgency
    url: str = ""  # where a click leads; the chat when empty
    created_at: int = 0  # the newest message it tells of (none for an offer's push)
    receipt: str = ""  # the recipient's delivery receipt for it (`delivery_receipt`)

    def body(self) -> str:
        if self.count > 1:
            return f"{self.count} new messages"
        return f"{self.sender_name}: {self.text}" if self.sender_name else self.text

    def payload(self, preview_chars: int = PUSH_PREVIEW_CHARS) -> bytes:
        """JSON for the service worker, under the size a push record carries; a push
        service that still finds it too large (413) is sent a shorter one."""
        while True:
            data = {
                "session_id": self.session_id,
                "title": _shorten(self.title, preview_chars),
                "sender_name": _shorten(self.sender_name, preview_chars),
                "body": _shorten(self.body(), preview_chars),
                "count": self.count,
                "url": self.url or CHAT_URL.format(session_id=self.session_id),
                "red_dot": self.red_dot,
            }
            if self.receipt:
                data["receipt"] = self.receipt
            raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
            if len(raw) <= PUSH_PAYLOAD_MAX_BYTES or preview_chars <= 8:
                return raw
            preview_chars //= 2


def _shorten(text: str, chars: int) -> str:
    return text if len(text) <= chars else text[: chars - 1] + "…"


# A coalesced push's text where the message it would have shown was deleted.
NEW_MESSAGE_TEXT = "New message"


@dataclass
class _Window:
    opened_at: float
    pending: int = 0
    latest: Notification | None = None


@dataclass
class PushWindows:
    """At most one push per person and chat per `seconds`: the first message of a window
    is pushed at once, later ones are held and counted, and pushed as one at its end."""

    seconds: float
    windows: dict[tuple[str, str], _Window] = field(default_factory=dict)

    def arrive(self, key: tuple[str, str], notification: Notification, now: float) -> str:
        """ "send" (push it now), "hold" (the first held one: schedule `release` at
        `release_at`), or "held" (counted into the push already scheduled)."""
        window = self.windows.get(key)
        expired = window is not None and now >= window.opened_at + self.seconds
        if window is None or (expired and window.pending == 0):
            self.windows[key] = _Window(opened_at=now)
            return "send"
        window.pending += 1
        window.latest = notification
        return "hold" if window.pending == 1 else "held"

    def release_at(self, key: tuple[str, str]) -> float:
        return self.windows[key].opened_at + self.seconds

    def release(self, key: tuple[str, str], now: float) -> Notification | None:
        """The coalesced push at the window's end; a new window starts with it."""
        window = self.windows.pop(key, None)
        if window is None or window.latest is None:
            return None
        self.windows[key] = _Window(opened_at=now)
        return replace(window.latest, count=window.pending)

    def withdraw(self, session_id: str, created_at: int) -> None:
        """The chat's message at `created_at` was deleted: a window whose held push would
        show it holds one message fewer, and shows nothing of it (a window left holding
        none pushes nothing; one still holding others says only how many)."""
        for (_, window_session), window in self.windows.items():
            latest = window.latest
            if window_session != session_id or latest is None:
                continue
            if latest.created_at == created_at:
                window.pending -= 1
                window.latest = replace(latest, sender_name="", text=NEW_MESSAGE_TEXT)
                if window.pending == 0:
                    window.latest = None

    def forget_idle(self, now: float) -> None:
        """Windows that ended with nothing held are forgotten (memory stays bounded)."""
        ended = now - self.seconds
        for key in [k for k, w in self.windows.items() if w.pending == 0 and w.opened_at <= ended]:
            del self.windows[key]
