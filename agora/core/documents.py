"""The stored shapes of the main entities, as the store hands them to the services.

They name what crosses the store boundary; the store adds and reads these fields, and a
document may carry more (older fields, a feature's own) than is listed here. The chat's
documents (sessions, memberships, messages, posts) are plain dicts by name, their fields
listed beside them: the stores hand them out as such, and mypy (`make lint`) would refuse
each of the chat's hundreds of reads of a field a TypedDict does not list.
"""

from typing import Any, NotRequired, TypedDict


class User(TypedDict):
    _id: str
    name: str
    image: str
    data: dict[str, Any]
    created_at: int
    email_id: NotRequired[str]
    phone_number: NotRequired[str]


# A group or an item chat: both are sessions whose members exchange messages.
# _id, kind, created_at; title, data, message_seq, announced_seq, sent_seq when stored.
ChatSession = dict[str, Any]

# _id, session_id, user_id, session_user_type, notification_flag, read_seq, created_at,
# updated_at.
Membership = dict[str, Any]

# _id, dest_session_id, src_id, local_id, created_at, seq, type, payload; client_created_at,
# payload1, data and info only when the send had them (`store.messages`).
Message = dict[str, Any]

# _id, title, user_id, group_id, route_id, tags, created_at, updated_at, sort_order, feed_key.
Item = dict[str, Any]


class Route(TypedDict):
    """A share route: the chain of people a post travelled through to `user_id`."""

    _id: str
    item_id: str
    user_id: str
    prev_user_ids: list[str]
    parent_route_id: str | None
    created_at: int


class Wallet(TypedDict):
    _id: str
    user_id: str
    wallet_for: str
    currency: str
    balance: int  # available + held
    held: NotRequired[int]  # held for the owner's posts' rewards (issue 32)
    seq: int
    created_at: int


class LedgerEntry(TypedDict):
    _id: str
    wallet_id: str
    user_id: str
    currency: str
    seq: int
    diff: int
    change_to: int
    ref_type: str
    ref_id: str
    title: str
    created_at: int
    # Issue 32: what the wallet holds after the entry, and for an entry that moved one post's
    # hold, by how much, which post and its hold after (`core.money.ItemHold` fields).
    held_to: NotRequired[int]
    held_diff: NotRequired[int]
    item_id: NotRequired[str]
    item_hold: NotRequired[dict[str, Any]]
