"""The stored shapes of the main entities, as the store hands them to the services.

They name what crosses the store boundary; the store adds and reads these fields, and a
document may carry more (older fields, a feature's own) than is listed here.
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


class ChatSession(TypedDict):
    """A group or an item chat: both are sessions whose members exchange messages."""

    _id: str
    kind: str
    created_at: int
    title: NotRequired[str]
    data: NotRequired[dict[str, Any]]


class Membership(TypedDict):
    _id: str
    session_id: str
    user_id: str
    session_user_type: int
    notification_flag: int
    read_seq: int
    created_at: int
    updated_at: int


class Message(TypedDict):
    """The optional fields are stored only when the send had them (`store.messages`)."""

    _id: str
    dest_session_id: str
    src_id: str
    local_id: str
    created_at: int
    seq: int
    type: int
    payload: str
    client_created_at: NotRequired[int]
    payload1: NotRequired[list[dict[str, Any]]]
    data: NotRequired[dict[str, Any]]
    info: NotRequired[dict[str, Any]]


class Item(TypedDict):
    _id: str
    title: str
    user_id: str
    group_id: str
    route_id: str
    tags: list[str]
    created_at: int
    updated_at: int
    sort_order: int
    feed_key: str


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
