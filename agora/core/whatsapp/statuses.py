"""Delivery statuses of our messages (Meta's status webhooks), merged forward-only into the
message's `info` flags: sent < delivered < read; failed may follow sent, never delivered or
read. Each flag is the time (ms) it was first heard of and is never changed or removed, so
statuses merge the same in any order and any number of times.

The store applies a status as one conditional update built from `status_change` (set these
flags where they are still missing, and only if the message has none of `blocked_by`), so
two statuses racing on one message both land; `merge_status` is the same rule on a dict.
Meta's status objects are read in `integrations/whatsapp/webhooks.py` (`parse_status`).
"""

from dataclasses import dataclass
from typing import Any

# Meta's status -> our flag.
FLAGS = {"sent": "wa_s", "delivered": "wa_d", "read": "wa_r", "failed": "wa_f"}
INFO_KEYS = ("s0", "s1", "wa_s", "wa_d", "wa_r", "wa_f", "wa_ns", "wa_errors", "wa_click")


@dataclass(frozen=True)
class Status:
    """One status of one of our messages, as Meta reported it."""

    wamid: str
    status: str
    at: int  # ms
    errors: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class StatusChange:
    """Set `fields` where they are missing, unless the message has a flag of `blocked_by`."""

    fields: dict[str, Any]
    blocked_by: tuple[str, ...] = ()


def status_change(status: Status) -> StatusChange:
    flag = FLAGS[status.status]
    if status.status == "failed":
        errors = list(status.errors) or [{"code": 0, "title": "Failed", "message": ""}]
        return StatusChange({flag: status.at, "wa_errors": errors}, blocked_by=("wa_d", "wa_r"))
    return StatusChange({flag: status.at})


def merge_status(info: dict[str, Any], status: Status) -> dict[str, Any]:
    """The info after the status: unchanged when it adds nothing."""
    change = status_change(status)
    if any(key in info for key in change.blocked_by):
        return info
    missing = {k: v for k, v in change.fields.items() if k not in info}
    # A failure's errors come with its flag, never on their own.
    if "wa_f" in change.fields and "wa_f" not in missing:
        return info
    return {**info, **missing} if missing else info


def whatsapp_info(info: dict[str, Any] | None) -> dict[str, Any]:
    """The WhatsApp flags of a message's info, only those set."""
    return {key: info[key] for key in INFO_KEYS if key in (info or {})}
