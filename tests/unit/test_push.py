"""The pure part of web push: subscriptions, payloads, topics and coalescing windows."""

import json

import pytest

from agora.core.errors import InvalidInput
from agora.core.push import (
    DeliveryReceipt,
    Notification,
    PushWindows,
    delivery_receipt,
    parse_subscription,
    push_recipients,
    read_delivery_receipt,
    topic_for,
)
from agora.core.signing import sign

P256DH = "BN" + "A" * 85  # 65 bytes starting with 0x04 (base64url "BA..." -> 0x04 0x00 ...)
AUTH = "A" * 22  # 16 bytes


def _token(endpoint: str = "https://push.example/abc", **keys) -> str:
    return json.dumps({"endpoint": endpoint, "keys": {"p256dh": P256DH, "auth": AUTH, **keys}})


def test_a_browser_subscription_is_read_and_a_loopback_endpoint_only_when_allowed():
    assert parse_subscription("WEB_PUSH", _token(), False).endpoint == "https://push.example/abc"
    with pytest.raises(InvalidInput):
        parse_subscription("WEB_PUSH", _token("http://127.0.0.1:9/x"), False)
    assert parse_subscription("WEB_PUSH", _token("http://127.0.0.1:9/x"), True).auth == AUTH


def test_a_compressed_point_is_not_a_browser_key():
    with pytest.raises(InvalidInput):
        parse_subscription("WEB_PUSH", _token(p256dh="Ag" + "A" * 85), False)


def test_recipients_are_readers_with_notifications_on_except_the_sender():
    members = [
        {"user_id": "sender", "session_user_type": 20},
        {"user_id": "on", "session_user_type": 20, "notification_flag": 20},
        {"user_id": "muted", "session_user_type": 20, "notification_flag": 30},
        {"user_id": "waiting", "session_user_type": 30},
        {"user_id": "blocked", "session_user_type": 40},
    ]
    assert push_recipients("sender", members) == ["on"]


def test_a_payload_stays_under_the_record_size_and_the_preview_is_short():
    notification = Notification("s1", "T" * 5000, "N" * 5000, "x" * 10_000)
    data = json.loads(notification.payload())
    assert len(data["body"]) == 120
    assert len(notification.payload()) <= 3993
    assert len(notification.payload(30)) < len(notification.payload())


def test_a_delivery_receipt_reads_back_only_as_signed_for_its_one_recipient():
    receipt = DeliveryReceipt("u1", "r_item|odd_u2", 1_700_000_000_000)
    token = delivery_receipt("secret", receipt)
    assert read_delivery_receipt("secret", token) == receipt
    assert read_delivery_receipt("another secret", token) is None
    assert read_delivery_receipt("secret", token.replace("u1", "u3")) is None
    # Another signed token of ours (an upload's, say) is no receipt, nor a malformed one.
    assert read_delivery_receipt("secret", sign("secret", "/uploads/a.png")) is None
    assert read_delivery_receipt("secret", sign("secret", "delivered|soon|u1|s1")) is None
    notification = Notification("s1", "T", "N", "x", receipt=token)
    assert json.loads(notification.payload())["receipt"] == token
    assert "receipt" not in json.loads(Notification("s1", "T", "N", "x").payload())


def test_a_topic_is_at_most_32_url_safe_characters_and_one_per_chat():
    topic = topic_for("r_" + "x" * 300)
    assert len(topic) <= 32 and topic.replace("-", "").replace("_", "").isalnum()
    assert topic_for("a") != topic_for("b") and topic_for("a") == topic_for("a")


def test_a_window_pushes_the_first_message_and_counts_the_rest_into_one():
    windows = PushWindows(seconds=30)
    key = ("u", "s")
    n = Notification("s", "Chat", "Ann", "hi")
    assert windows.arrive(key, n, now=0) == "send"
    assert windows.arrive(key, n, now=1) == "hold"
    assert windows.arrive(key, n, now=2) == "held"
    assert windows.release_at(key) == 30
    coalesced = windows.release(key, now=30)
    assert coalesced is not None and coalesced.body() == "2 new messages"
    # The coalesced push opened a new window; after it, a message is pushed at once.
    assert windows.arrive(key, n, now=31) == "hold"
    windows.release(key, now=60)
    assert windows.arrive(key, n, now=91) == "send"
