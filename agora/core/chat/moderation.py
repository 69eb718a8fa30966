"""What a chat's owners and moderators do to it and its members, and the notices it posts."""

from typing import Any

from agora.core.chat.constants import (
    NOTIFICATION_MUTED,
    NOTIFICATION_UNMUTED,
    USER_TYPE_ADMIN,
    USER_TYPE_AWAITING_APPROVAL,
    USER_TYPE_BLOCKED_REVERSIBLE,
    USER_TYPE_MEMBER,
    USER_TYPE_MODERATOR,
)
from agora.core.errors import Forbidden, InvalidInput


def check_make_public(session: dict[str, Any], user_type: int | None) -> None:
    if session.get("is_inactive"):
        raise Forbidden("This chat is no longer active")
    if session.get("is_read_allowed"):
        raise InvalidInput({"is_read_allowed": "This chat is already public"})
    if user_type is None or user_type > USER_TYPE_ADMIN:
        raise Forbidden("Only the chat's owner can make it public")


def moderated_type(action: str, actor_type: int, target_type: int) -> int | None:
    """The member's new type after `action`, None when it removes them; Forbidden otherwise."""
    if actor_type > USER_TYPE_MODERATOR or target_type <= actor_type:
        raise Forbidden("You cannot moderate this member")
    if action == "approve" and target_type == USER_TYPE_AWAITING_APPROVAL:
        return USER_TYPE_MEMBER
    if action == "reject" and target_type == USER_TYPE_AWAITING_APPROVAL:
        return None
    if action == "block" and target_type <= USER_TYPE_MEMBER:
        return USER_TYPE_BLOCKED_REVERSIBLE
    if action == "unblock" and target_type == USER_TYPE_BLOCKED_REVERSIBLE:
        return USER_TYPE_MEMBER
    if (
        action == "make_moderator"
        and actor_type <= USER_TYPE_ADMIN
        and target_type == USER_TYPE_MEMBER
    ):
        return USER_TYPE_MODERATOR
    raise Forbidden(f"'{action}' does not apply to this member")


def notification_flag(muted: bool) -> int:
    return NOTIFICATION_MUTED if muted else NOTIFICATION_UNMUTED


MEMBER_NOTICES = {
    "joined": "{name} joined",
    "asked": "{name} asked to join",
    "approved": "{name} was approved by {by}",
}


def member_notice(event: str, name: str, by: str = "") -> str:
    """The text of a system notice (type 1010) about a member."""
    return MEMBER_NOTICES[event].format(name=name or "Someone", by=by or "a moderator")
