"""Slow mode: a group's admins set the least time between one member's messages
(`slow_mode_seconds` on the session); its admins and moderators are not slowed. The
session's shard, which takes its messages one batch at a time, keeps each member's last send
and refuses an early one."""

import math
from typing import Any

from agora.core.chat.constants import SESSION_KIND_GROUP, USER_TYPE_MODERATOR
from agora.core.errors import InvalidInput

# The choices the chat settings offer, in seconds (0: off).
SLOW_MODE_CHOICES = (0, 10, 30, 60, 300, 900, 3600)
SLOW_MODE_FIELD = "slow_mode_seconds"
SLOW_MODE_CHOICE_TEXT = "Choose one of " + ", ".join(str(s) for s in SLOW_MODE_CHOICES)
SLOW_MODE_GROUPS_ONLY = "Only group chats have a slow mode"


def check_slow_mode(session: dict[str, Any], raw: Any) -> int:
    """A new `slow_mode_seconds` for the session, checked (its admin is the caller's to be)."""
    if session.get("kind") != SESSION_KIND_GROUP:
        raise InvalidInput({SLOW_MODE_FIELD: SLOW_MODE_GROUPS_ONLY})
    if isinstance(raw, bool) or raw not in SLOW_MODE_CHOICES:
        raise InvalidInput({SLOW_MODE_FIELD: SLOW_MODE_CHOICE_TEXT})
    return int(raw)


def slow_mode_seconds(session: dict[str, Any]) -> int:
    return int(session.get(SLOW_MODE_FIELD) or 0)


def is_slowed(session: dict[str, Any], user_type: int | None) -> bool:
    """Whether the member's messages wait out the session's slow mode."""
    exempt = user_type is not None and user_type <= USER_TYPE_MODERATOR
    return slow_mode_seconds(session) > 0 and not exempt


def slow_mode_wait_ms(session: dict[str, Any], last_sent_at: int, now: int) -> int:
    """How long a member whose last message came at `last_sent_at` waits before the next
    (0: they may send now)."""
    return max(0, last_sent_at + slow_mode_seconds(session) * 1000 - now)


def slow_mode_refusal(wait_ms: int) -> dict[str, str]:
    seconds = max(1, math.ceil(wait_ms / 1000))
    return {"slow_mode": f"Slow mode is on: you can send again in {seconds} s"}
