"""Groups: who may read, write, join and administer; tags; the public group shape."""

from typing import Any

from agora.core.chat.constants import (
    USER_TYPE_ADMIN,
    USER_TYPE_AWAITING_APPROVAL,
    USER_TYPE_MEMBER,
    USER_TYPE_MODERATOR,
)
from agora.core.chat.counts import unseen_count
from agora.core.documents import ChatSession, Membership
from agora.core.errors import InvalidInput
from agora.core.text import (
    CONTROL_CHARACTERS,
    clean_line,
    clean_text,
    without_format_characters,
)

# The product spec's numbers for groups (those the web app shares are written out by
# `python -m agora constants`, agora/generate/web_constants.py).
RECENT_GROUPS = 5
# How many of the newest groups are looked at to find the RECENT_GROUPS anyone may read.
RECENT_GROUPS_SCANNED = 50
GROUP_TAGS_MAX = 30
TAG_MAX_LENGTH = 30
GROUP_TITLE_MAX_LENGTH = 80
GROUP_DESCRIPTION_MAX_LENGTH = 2000


NOT_VIEWABLE = "Cannot view group, not authorized or invalid"

# Who may write in a group (its `write_permission`): its admins, admins and moderators, or
# every member.
WRITE_PERMISSIONS = (USER_TYPE_ADMIN, USER_TYPE_MODERATOR, USER_TYPE_MEMBER)


def member_type(membership: Membership | None) -> int | None:
    return membership["session_user_type"] if membership else None


def can_write(group: ChatSession, membership: Membership | None) -> bool:
    """Members within the write permission write; anyone may join a public group by posting,
    unless its members may not write (posting would make them one)."""
    kind = member_type(membership)
    if kind is None:
        kind = joining_type(group)
        if kind != USER_TYPE_MEMBER:
            return False
    return kind <= group.get("write_permission", USER_TYPE_MEMBER)


def check_write_permission(raw: int) -> int:
    if raw not in WRITE_PERMISSIONS:
        allowed = ", ".join(str(kind) for kind in WRITE_PERMISSIONS)
        raise InvalidInput({"write_permission": f"One of {allowed}"})
    return raw


def is_admin(membership: Membership | None) -> bool:
    kind = member_type(membership)
    return kind is not None and kind <= USER_TYPE_ADMIN


def joining_type(group: ChatSession) -> int:
    return USER_TYPE_MEMBER if group.get("is_public") else USER_TYPE_AWAITING_APPROVAL


def clean_tags(raw: list[str], limit: int = GROUP_TAGS_MAX) -> list[str]:
    """Trimmed, de-duplicated (case-insensitively), order kept."""
    tags: list[str] = []
    seen: set[str] = set()
    for tag in raw:
        clean = " ".join(without_format_characters(tag).split())
        if not clean:
            continue
        if len(clean) > TAG_MAX_LENGTH or CONTROL_CHARACTERS.search(clean):
            raise InvalidInput({"tags": f"Each tag must be at most {TAG_MAX_LENGTH} characters"})
        if clean.lower() not in seen:
            seen.add(clean.lower())
            tags.append(clean)
    if len(tags) > limit:
        raise InvalidInput({"tags": f"At most {limit} tags"})
    return tags


def clean_group_title(raw: str) -> str:
    return clean_line(raw, "title", GROUP_TITLE_MAX_LENGTH)


def clean_group_description(raw: str) -> str:
    return clean_text(raw, "description", GROUP_DESCRIPTION_MAX_LENGTH)


def group_view(group: ChatSession, membership: Membership | None) -> dict[str, Any]:
    """The group as the API shows it to one viewer (can_write is theirs)."""
    data = group.get("data") or {}
    return {
        "_id": group["_id"],
        "title": group.get("title", ""),
        "description": group.get("description", ""),
        "image": group.get("image", ""),
        "is_public": bool(group.get("is_public")),
        "is_read_allowed": bool(group.get("is_read_allowed")),
        "write_permission": group.get("write_permission", USER_TYPE_MEMBER),
        "created_at": group.get("created_at"),
        "is_inactive": bool(group.get("is_inactive")),
        "session_user_type": member_type(membership),
        "can_write": can_write(group, membership),
        "data": {
            "tags": list(data.get("tags", [])),
            "num_posts": int(data.get("num_posts", 0)),
            "num_members": int(data.get("num_members", 0)),
            "city": data.get("city"),
            "subscription_status": data.get("subscription_status", 0),
        },
    }


def invitation_view(group: ChatSession) -> dict[str, Any]:
    """What a signed-in person holding a group's link sees of it before they may read it:
    enough to know which group they would ask to join (its title, picture and whether it is
    public or lets non-members read), nothing of what it keeps to its members (description,
    posts, members, counts)."""
    return {
        "_id": group["_id"],
        "title": group.get("title", ""),
        "image": group.get("image", ""),
        "is_public": bool(group.get("is_public")),
        "is_read_allowed": bool(group.get("is_read_allowed")),
    }


def membership_view(membership: Membership | None, session: ChatSession) -> dict[str, Any] | None:
    """The membership in `session` (a group or chat), with its unseen count as of now."""
    if membership is None:
        return None
    return {
        "session_id": membership["session_id"],
        "user_id": membership["user_id"],
        "session_user_type": membership["session_user_type"],
        "notification_flag": membership.get("notification_flag"),
        "unseen_count": unseen_count(session, membership),
        "updated_at": membership.get("updated_at"),
        "is_dummy": bool(membership.get("is_dummy")),
        # data.app: what the member's app reported about itself, shown to moderators.
        "data": {k: v for k, v in (membership.get("data") or {}).items() if k == "app"},
    }
