"""Which push endpoints a browser may register: the rule reads the URL only (no DNS, so it
works offline) and refuses whatever a push service's endpoint never looks like."""

import json

import pytest

from agora.core.errors import InvalidInput
from agora.core.push import parse_subscription

P256DH = "BN" + "A" * 85
AUTH = "A" * 22
STANDIN = "http://127.0.0.1:8123/push/abc"


def _endpoint(endpoint: str, allow_loopback: bool = False) -> str:
    token = json.dumps({"endpoint": endpoint, "keys": {"p256dh": P256DH, "auth": AUTH}})
    return parse_subscription("WEB_PUSH", token, allow_loopback).endpoint


def _refusal(endpoint: str, allow_loopback: bool = False) -> str:
    with pytest.raises(InvalidInput) as refused:
        _endpoint(endpoint, allow_loopback)
    return refused.value.errors["push_token"]


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://fcm.googleapis.com/fcm/send/dGVzdA:APA91b",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAAA",
        "https://web.push.apple.com/QO3nW1",
        "https://db5p.notify.windows.com/w/?token=BQYAAA",
        "https://push.example:443/explicit-port",
        "https://push.example./trailing-dot",
        "https://пуш.пример/idna",
    ],
)
def test_push_service_endpoints_are_accepted_as_sent(endpoint):
    assert _endpoint(endpoint) == endpoint


# Every spelling of an address the link-preview tests cover, and plain public ones: a push
# service is always named, so an address in any form is refused whatever it points to.
ADDRESSES = [
    "127.0.0.1",
    "169.254.169.254",
    "10.0.0.1",
    "8.8.8.8",
    "[::1]",
    "[2001:4860:4860::8888]",
    "2130706433",
    "0x7f.1",
    "127.1",
    "[::ffff:127.0.0.1]",
    "\uff11\uff12\uff17.\uff10.\uff10.\uff11",  # fullwidth digits
    "\u2460\u2461\u2466.0.0.1",  # circled digits
    "127\u30020\u30020\u30021",  # ideographic full stops
    "127\uff0e0\uff0e0\uff0e1",  # fullwidth full stops
    "0177.0.0.1",
    "0x7f000001",
    "017700000001",
    "127.0.0.1.",
    "1.2.3.0x4",
    "[0:0:0:0:0:0:0:1]",
    "[::ffff:7f00:1]",
    "[::127.0.0.1]",
    "[64:ff9b::7f00:1]",
    "[2002:7f00:1::]",
    "[fe80::1%25eth0]",
]


@pytest.mark.parametrize("host", ADDRESSES)
def test_an_address_in_any_spelling_is_refused(host):
    assert "address" in _refusal(f"https://{host}/push/abc")


@pytest.mark.parametrize(
    "host",
    ["localhost", "LOCALHOST.", "\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54", "push"],
)
def test_a_host_without_a_dot_is_refused(host):
    assert "domain" in _refusal(f"https://{host}/push/abc")


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://user:secret@fcm.googleapis.com/fcm/send/abc",
        "https://user@fcm.googleapis.com/fcm/send/abc",
        "https://:secret@fcm.googleapis.com/fcm/send/abc",
    ],
)
def test_credentials_are_refused(endpoint):
    assert "credentials" in _refusal(endpoint)


@pytest.mark.parametrize("port", ["8443", "80", "22", "6379", "1"])
def test_a_port_other_than_443_is_refused(port):
    assert "443" in _refusal(f"https://fcm.googleapis.com:{port}/fcm/send/abc")


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://fcm.googleapis.com/fcm/send/abc",
        "ftp://fcm.googleapis.com/x",
        "https:///no-host",
        "https://[zz]/",
        "https://xn--/bad-idna",
        "https://a..b/empty-label",
        "//fcm.googleapis.com/no-scheme",
    ],
)
def test_what_is_no_https_url_with_a_host_is_refused(endpoint):
    assert _refusal(endpoint)


def test_the_loopback_stand_in_is_accepted_only_when_allowed():
    assert "address" in _refusal(STANDIN)
    assert _endpoint(STANDIN, allow_loopback=True) == STANDIN
    assert _endpoint("https://[::1]:8443/push/abc", allow_loopback=True)


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://10.0.0.1:8123/push/abc",
        "http://169.254.169.254/latest/meta-data",
        "http://127.1:8123/push/abc",
        "http://2130706433:8123/push/abc",
        "http://[::ffff:127.0.0.1]:8123/push/abc",
        "http://localhost:8123/push/abc",
        "http://user:pw@127.0.0.1:8123/push/abc",
        "http://fcm.googleapis.com/fcm/send/abc",
    ],
)
def test_allowing_the_stand_in_allows_nothing_but_loopback_addresses_written_plainly(endpoint):
    assert _refusal(endpoint, allow_loopback=True)
