"""Statuses merge forward-only, in any order, any number of times."""

import itertools

from agora.core.whatsapp.statuses import Status, merge_status, whatsapp_info
from agora.integrations.whatsapp.webhooks import parse_status

SENT = Status("w", "sent", 1_000)
DELIVERED = Status("w", "delivered", 2_000)
READ = Status("w", "read", 3_000)
FAILED = Status("w", "failed", 4_000, ({"code": 131026, "title": "Undeliverable", "message": ""},))


def merged(*statuses, info=None):
    info = info or {"s1": 1}
    for status in statuses:
        info = merge_status(info, status)
    return info


def test_each_flag_keeps_the_time_it_was_first_heard():
    assert merged(SENT, DELIVERED, READ) == {"s1": 1, "wa_s": 1_000, "wa_d": 2_000, "wa_r": 3_000}
    assert merged(SENT, Status("w", "sent", 9_000)) == {"s1": 1, "wa_s": 1_000}


def test_any_order_gives_the_same_flags():
    results = {
        tuple(sorted(merged(*order).items()))
        for order in itertools.permutations([SENT, DELIVERED, READ])
    }
    assert len(results) == 1


def test_read_before_delivered_keeps_read():
    info = merged(READ, DELIVERED)
    assert info["wa_r"] == 3_000 and info["wa_d"] == 2_000


def test_failed_may_follow_sent_but_never_delivered_or_read():
    assert merged(SENT, FAILED) == {
        "s1": 1,
        "wa_s": 1_000,
        "wa_f": 4_000,
        "wa_errors": [{"code": 131026, "title": "Undeliverable", "message": ""}],
    }
    assert "wa_f" not in merged(DELIVERED, FAILED)
    assert "wa_f" not in merged(READ, FAILED)
    again = Status("w", "failed", 5_000, ({"code": 1, "title": "", "message": ""},))
    assert merged(SENT, FAILED, again) == merged(SENT, FAILED)


def test_meta_status_objects_are_parsed():
    raw = {
        "id": "wamid.A",
        "status": "failed",
        "timestamp": "1700000000",
        "recipient_id": "4915",
        "errors": [
            {"code": 131047, "title": "Re-engagement message", "error_data": {"details": "24 h"}}
        ],
    }
    status = parse_status(raw)
    assert status == Status(
        "wamid.A",
        "failed",
        1_700_000_000_000,
        ({"code": 131047, "title": "Re-engagement message", "message": "24 h"},),
    )
    assert parse_status({**raw, "status": "deleted"}) is None
    assert parse_status({**raw, "timestamp": "soon"}) is None
    assert parse_status("x") is None


def test_whatsapp_info_keeps_only_the_flags_set():
    assert whatsapp_info({"s1": 1, "read": {}, "wa_click": 2}) == {"s1": 1, "wa_click": 2}
    assert whatsapp_info(None) == {}
