"""Who may do what with an id: every HTTP endpoint and socket event that takes one (group,
session, post, share route, user, wallet, payment, member) called as each kind of caller.

The world: a private group that hides its posts, owned by `owner`, with a `member`, a member
awaiting approval (`waiting`, type 30), a blocked member (`blocked`, 29), a banned one
(`banned`, 40); a signed-in `stranger` and a `guest`; and a `moderator` (15), called only by
the rows about reviews. The owner posted in it with a reward; the member opened a chat about
the post and wrote in the group, was paid an offer and reviewed the owner; last, someone asked
to join. Each row names the callers allowed; everyone else is refused, and a refused call
changes nothing stored. For the summaries of messages, and what anyone may read of a person
(their profile, their reviews), every caller gets an answer: "allowed" there means the answer
shows something of what only the group's readers may read.

A row whose allowed callers change the world, or that counts what others' reads move (the red
dots count unseen messages, and reading a chat's newest page marks it read), builds a world of
its own. The other rows share one world on each worker, each through an edge of its own, and
each row is checked to leave what is stored of it as it was built (how far members have seen,
been delivered and read aside).
"""

import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

import pytest
import ray
import socketio
from bson import ObjectId
from pymongo import AsyncMongoClient

from agora.core.chat.receipts import RECEIPT_TIMES
from agora.core.shard_map import shard_of
from agora.core.whatsapp.constants import MESSAGE_TYPE_WA_TEXT
from agora.services.whatsapp.webhooks import LEASE_MS, SWEEP_SECONDS
from tests.integration.helpers import (
    DeploymentStores,
    Member,
    bearer,
    deployment_stores,
    eventually,
    member,
    new_group,
)
from tests.integration.test_payments import PAYMENT_SETTINGS

# The session-wide Stripe stand-in fixture, shared with the payment tests.
from tests.integration.test_payments import standin as standin
from tests.integration.whatsapp_setup import connect_body, connected_business
from tests.whatsapp_signing import text as customer_text
from tests.whatsapp_signing import webhook
from tests.whatsapp_standin import WhatsAppStandin

pytestmark = [pytest.mark.usefixtures("ray_cluster"), pytest.mark.slow]

ROLES = ("owner", "member", "stranger", "guest", "blocked", "banned", "waiting")
OWNER = {"owner"}
PARTICIPANTS = {"owner", "member"}
SIGNED_IN = set(ROLES) - {"guest"}
# Another of the group's moderators: called by the rows that name it in `also`.
MODERATOR = frozenset({"moderator"})
MEMBERSHIPS = {"owner", "member", "blocked", "banned", "waiting"}


@dataclass
class World:
    client: Any
    people: dict[str, Member | None]
    group_id: str
    item: dict[str, Any]
    chat_id: str
    chat_message_at: int
    group_message_at: int
    checkout_id: str
    # The group's WhatsApp channel (connected by the owner) and one customer's chat.
    whatsapp_connect: dict[str, str] | None = None
    business_chat_id: str = ""
    # The owner's paid offer to the member, and the member's review of the owner after it.
    move_id: str = ""
    review_id: str = ""

    def id_of(self, role: str) -> str:
        person = self.people[role]
        return person.id if person else "guest"


Outcome = tuple[bool, Any]  # (allowed, reply)
Call = Callable[[World, str], Awaitable[Outcome]]


async def http(world: World, role: str, method: str, path: str, body: dict | None = None):
    person = world.people[role]
    headers = bearer(person.key) if person else {}
    if method == "GET":
        reply = await world.client.get(path, headers=headers)
    else:
        reply = await world.client.post(path, json=body or {}, headers=headers)
    data = await reply.json()
    allowed = reply.status == 200 and not (isinstance(data, dict) and data.get("type") == -1)
    return allowed, (reply.status, data)


async def socket(world: World, role: str, event: str, arguments: dict | tuple | None) -> Outcome:
    """The event with one object (a dict), or with these arguments (a tuple; None: none)."""
    person = world.people[role]
    sio = socketio.AsyncClient(reconnection=False)
    auth = {"auth_key": person.key} if person else None
    await sio.connect(str(world.client.make_url("/")), auth=auth, transports=["websocket"])
    try:
        reply = await sio.call(event, arguments, timeout=10)
    finally:
        await sio.disconnect()
    return "errors" not in reply and reply.get("type") != -1, reply


def post(path: str | Callable[[World], str], body: Callable[[World, str], dict]) -> Call:
    def call(world: World, role: str) -> Awaitable[Outcome]:
        where = path(world) if callable(path) else path
        return http(world, role, "POST", where, body(world, role))

    return call


def get(path: Callable[[World, str], str]) -> Call:
    return lambda world, role: http(world, role, "GET", path(world, role))


def emit(event: str, body: Callable[[World, str], dict]) -> Call:
    return lambda world, role: socket(world, role, event, body(world, role))


# The arguments of an event other than its one object: none, null, one or two too many.
OTHER_ARGUMENTS: list[Callable[[dict], tuple | None]] = [
    lambda body: None,
    lambda body: (None,),
    lambda body: (body, body),
    lambda body: (body, None, 7),
]


def emit_otherwise(event: str, body: Callable[[World, str], dict]) -> Call:
    """The event with every other shape of arguments around the body that the allowed may
    send: allowed if any one shape is."""

    async def call(world: World, role: str) -> Outcome:
        outcomes = [
            await socket(world, role, event, shape(body(world, role))) for shape in OTHER_ARGUMENTS
        ]
        return any(allowed for allowed, _ in outcomes), [reply for _, reply in outcomes]

    return call


def lookup(field: str, shown: str, wanted: Callable[[World], str]) -> Call:
    """/get_by_ids answers everyone; what the caller may not see is left out of the reply."""

    async def call(world: World, role: str) -> Outcome:
        body = {field: [wanted(world)]}
        ok, (status, reply) = await http(world, role, "POST", "/get_by_ids", body)
        assert status == 200 and "email_id" not in str(reply), reply
        return ok and wanted(world) in reply[shown], reply

    return call


def showing(call: Call, shows: Callable[[Any], bool]) -> Call:
    """A call everyone gets an answer to; allowed when the answer `shows` something of what
    only the group's readers may read."""

    async def shown(world: World, role: str) -> Outcome:
        ok, (status, reply) = await call(world, role)
        assert ok, (status, reply)
        return shows(reply), (status, reply)

    return shown


def names_the_post(reply: dict) -> bool:
    """A person's reviews (`/api/reviews`) naming the world's review's post, group or text."""
    [review] = reply["reviews"]
    return any(review[field] is not None for field in ("item_id", "group_id", "text"))


def counts_the_reward(reply: dict) -> bool:
    """A person's profile counting the reward of the world's post (held, paid)."""
    return bool(reply["rewards"]["held"] or reply["rewards"]["paid"])


def in_chat_list(session: Callable[[World], str]) -> Call:
    """/user/chats answers every signed-in caller; a chat's row shows its messages (the newest,
    an unseen count) only to those who may read it: someone who asked to join or was blocked
    sees the row without them."""

    async def call(world: World, role: str) -> Outcome:
        ok, (_, reply) = await http(world, role, "POST", "/user/chats", {})
        rows = [s for s in reply["sessions"] if s["_id"] == session(world)] if ok else []
        return any("last_message" in row or row["unseen_count"] > 0 for row in rows), reply

    return call


async def red_dot_over_http(world: World, role: str) -> Outcome:
    """The red dot on Chats (`data.notifications_unseen_count` of /user/me) counts the
    messages of chats the caller may read only."""
    ok, (_, reply) = await http(world, role, "GET", "/user/me")
    user = reply.get("user") if ok else None
    return bool(user and user["data"]["notifications_unseen_count"] > 0), reply


async def red_dot_over_socket(world: World, role: str) -> Outcome:
    """The red dot a (re)connecting screen asks for (socket `unseen`)."""
    ok, reply = await socket(world, role, "unseen", {})
    return ok and reply["notifications_unseen_count"] > 0, reply


def text(world: World, role: str) -> dict:
    return {"payload": f"from {role}", "local_id": uuid.uuid4().hex}


def wa_text(world: World) -> dict:
    """An agent's WhatsApp text (the customer's message opened the 24-hour window)."""
    return {"payload": "Thanks!", "local_id": uuid.uuid4().hex, "_type": MESSAGE_TYPE_WA_TEXT}


def react(session_id: str, created_at: int) -> dict:
    return {"session_id": session_id, "created_at": created_at, "emoji": "👍"}


def group_message(world: World) -> dict:
    """The member's message in the group."""
    return {"session_id": world.group_id, "created_at": world.group_message_at}


def chat_message(world: World) -> dict:
    """The member's message in their chat about the owner's post."""
    return {"session_id": world.chat_id, "created_at": world.chat_message_at}


def moderate(action: str, target: str) -> Call:
    return post(
        "/session/user/update",
        lambda w, r: {"session_id": w.group_id, "for_user_id": w.id_of(target), "action": action},
    )


@dataclass(frozen=True)
class Row:
    name: str
    call: Call
    allowed: set[str]
    # Allowed callers whose call changes nothing either (asking to join a group one is in).
    unchanged: frozenset[str] = frozenset()
    # A world of the row's own: its allowed calls change what other rows read, or it reads
    # what other rows' reads move (how far each member has seen and read: the red dot). The
    # other rows share one world.
    own_world: bool = False
    # Callers beyond ROLES this row is called as.
    also: frozenset[str] = frozenset()


def socket_rows(
    name: str,
    event: str,
    body: Callable[[World, str], dict],
    allowed: set[str],
    unchanged: frozenset[str] = frozenset(),
    own_world: bool = False,
) -> list[Row]:
    """The event as a client sends it, and with any other arguments: refused to everyone."""
    return [
        Row(name, emit(event, body), allowed, unchanged, own_world),
        Row(f"{name}, other arguments", emit_otherwise(event, body), set()),
    ]


ROWS = [
    # Groups (a group is also a chat session).
    Row("group view", post("/api/group", lambda w, r: {"group_id": w.group_id}), PARTICIPANTS),
    Row("group feed", post("/api/feed", lambda w, r: {"group_id": w.group_id}), PARTICIPANTS),
    Row(
        "group update",
        post("/api/group?action=update", lambda w, r: {"group_id": w.group_id, "title": "Ours"}),
        OWNER,
        own_world=True,
    ),
    Row(
        "group join",
        post("/api/group?action=join", lambda w, r: {"group_id": w.group_id}),
        SIGNED_IN,
        unchanged=frozenset(MEMBERSHIPS),
        own_world=True,
    ),
    # A group's link shows its title and picture to whoever holds it, signed in, so that
    # people invited to a private group may ask to join: nothing of its content.
    Row(
        "group invitation",
        post("/api/group?action=invitation", lambda w, r: {"group_id": w.group_id}),
        SIGNED_IN,
    ),
    Row(
        "group subscription",
        post("/api/group?action=manage_subscription", lambda w, r: {"group_id": w.group_id}),
        OWNER,
        own_world=True,
    ),
    Row(
        "post in group",
        post("/api/item?action=create", lambda w, r: {"group_id": w.group_id, "title": "Mine"}),
        PARTICIPANTS,
        own_world=True,
    ),
    Row(
        "group messages",
        post("/session/messages", lambda w, r: {"session_id": w.group_id}),
        PARTICIPANTS,
    ),
    Row(
        "group messages around a message",
        post(
            "/session/messages",
            lambda w, r: {"session_id": w.group_id, "around_timestamp": w.group_message_at},
        ),
        PARTICIPANTS,
    ),
    Row(
        "group search",
        post("/session/search", lambda w, r: {"session_id": w.group_id, "q": "from member"}),
        PARTICIPANTS,
    ),
    Row(
        "group members",
        post("/session/users", lambda w, r: {"session_id": w.group_id}),
        PARTICIPANTS,
    ),
    Row(
        "group send",
        post("/session/send", lambda w, r: {"dest_session_id": w.group_id, **text(w, r)}),
        PARTICIPANTS,
        own_world=True,
    ),
    Row(
        "group send mentioning a member",
        post(
            "/session/send",
            lambda w, r: {
                "dest_session_id": w.group_id,
                **text(w, r),
                "data": {"mentions": [w.id_of("member")]},
            },
        ),
        PARTICIPANTS,
        own_world=True,
    ),
    # Everyone is mentioned by the group's admins and moderators only.
    Row(
        "group send mentioning @all",
        post(
            "/session/send",
            lambda w, r: {
                "dest_session_id": w.group_id,
                **text(w, r),
                "data": {"mentions": ["all"]},
            },
        ),
        OWNER,
        own_world=True,
    ),
    Row(
        "group members by name",
        post("/session/users", lambda w, r: {"session_id": w.group_id, "search": "a"}),
        PARTICIPANTS,
    ),
    *socket_rows(
        "group send (socket)",
        "send",
        lambda w, r: {"dest_session_id": w.group_id, **text(w, r)},
        PARTICIPANTS,
        own_world=True,
    ),
    *socket_rows(
        "group join room (socket)", "join", lambda w, r: {"session_id": w.group_id}, PARTICIPANTS
    ),
    *socket_rows(
        "group delivered (socket)",
        "delivered",
        lambda w, r: {"session_id": w.group_id, "created_at": w.group_message_at},
        PARTICIPANTS,
    ),
    *socket_rows(
        "group read (socket)",
        "read",
        lambda w, r: {"session_id": w.group_id, "created_at": w.group_message_at},
        PARTICIPANTS,
    ),
    *socket_rows(
        "group typing (socket)", "typing", lambda w, r: {"session_id": w.group_id}, PARTICIPANTS
    ),
    # Leaving a chat's room, and telling which chat a tab shows, change nothing stored.
    *socket_rows(
        "group leave room (socket)",
        "leave",
        lambda w, r: {"session_id": w.group_id},
        set(ROLES),
        unchanged=frozenset(ROLES),
    ),
    *socket_rows(
        "group viewing (socket)",
        "viewing",
        lambda w, r: {"session_id": w.group_id},
        set(ROLES),
        unchanged=frozenset(ROLES),
    ),
    # Reactions: members who may post there (a passer-by of a public chat neither).
    Row(
        "group react",
        post("/session/message/react", lambda w, r: react(w.group_id, w.group_message_at)),
        PARTICIPANTS,
        own_world=True,
    ),
    *socket_rows(
        "group react (socket)",
        "react",
        lambda w, r: react(w.group_id, w.group_message_at),
        PARTICIPANTS,
        own_world=True,
    ),
    Row(
        "group message info",
        get(
            lambda w, r: f"/session/im_info?session_id={w.group_id}&created_at={w.group_message_at}"
        ),
        PARTICIPANTS,  # the owner moderates, the member sent it
    ),
    Row(
        "group rename",
        post("/session/update", lambda w, r: {"session_id": w.group_id, "title": "Renamed"}),
        OWNER,
        own_world=True,
    ),
    Row(
        "group slow mode",
        post("/session/update", lambda w, r: {"session_id": w.group_id, "slow_mode_seconds": 30}),
        OWNER,
        own_world=True,
    ),
    Row(
        "mute group",
        post(
            "/session/user/update", lambda w, r: {"session_id": w.group_id, "notification_flag": 30}
        ),
        MEMBERSHIPS,  # one's own membership, whatever its type
        own_world=True,
    ),
    Row("approve waiting", moderate("approve", "waiting"), OWNER, own_world=True),
    Row("unblock blocked", moderate("unblock", "blocked"), OWNER, own_world=True),
    Row("reject waiting", moderate("reject", "waiting"), OWNER, own_world=True),
    Row("block member", moderate("block", "member"), OWNER, own_world=True),
    Row("make member moderator", moderate("make_moderator", "member"), OWNER, own_world=True),
    Row("group by id", lookup("session_ids", "sessions", lambda w: w.group_id), PARTICIPANTS),
    Row(
        "group with members by id",
        lookup("session_with_user_ids", "session_with_users", lambda w: w.group_id),
        PARTICIPANTS,
    ),
    # Summaries of messages: the chat list's rows, the red dot (the world's newest group
    # message is a notice that someone asked to join, unseen by both participants).
    Row("group in chat list", in_chat_list(lambda w: w.group_id), PARTICIPANTS),
    # Changing the member's message: its sender edits it; its sender and the group's
    # moderators delete it; the moderators pin it.
    Row(
        "group message edit",
        post("/session/message/edit", lambda w, r: {**group_message(w), "payload": f"by {r}"}),
        {"member"},
        own_world=True,
        also=MODERATOR,
    ),
    Row(
        "group message delete",
        post("/session/message/delete", lambda w, r: group_message(w)),
        {"owner", "member", "moderator"},
        own_world=True,
        also=MODERATOR,
    ),
    Row(
        "group pin",
        post("/session/pin", lambda w, r: {**group_message(w), "pinned": True}),
        {"owner", "moderator"},
        own_world=True,
        also=MODERATOR,
    ),
    Row("group pins", get(lambda w, r: f"/session/pins?session_id={w.group_id}"), PARTICIPANTS),
    Row("red dot", red_dot_over_http, PARTICIPANTS, own_world=True),
    Row("red dot (socket)", red_dot_over_socket, PARTICIPANTS, own_world=True),
    # The post and its share route.
    Row("post", post("/api/item", lambda w, r: {"item_id": w.item["_id"]}), PARTICIPANTS),
    Row(
        "post update",
        post(
            "/api/item?action=update", lambda w, r: {"item_id": w.item["_id"], "title": "Changed"}
        ),
        OWNER,
        own_world=True,
    ),
    Row(
        "post delete",
        post("/api/item?action=delete", lambda w, r: {"item_id": w.item["_id"]}),
        OWNER,
        own_world=True,
    ),
    Row(
        "post close",
        post("/api/item?action=close", lambda w, r: {"item_id": w.item["_id"]}),
        OWNER,
        own_world=True,
    ),
    Row(
        "post reward hold preview",
        post(
            "/api/reward/hold_preview",
            lambda w, r: {"item_id": w.item["_id"], "offer_amount": 6, "offer_currency": "POINTS"},
        ),
        OWNER,
    ),
    Row("post by id", lookup("item_ids", "items", lambda w: w.item["_id"]), PARTICIPANTS),
    Row("share route", get(lambda w, r: f"/api/r/{w.item['route_id']}"), PARTICIPANTS),
    Row(
        "share link",
        get(lambda w, r: f"/api/r/{w.item['route_id']}?action=share"),
        PARTICIPANTS,
        own_world=True,
    ),
    Row("post chats", post(lambda w: f"/api/chats/{w.item['_id']}", lambda w, r: {}), PARTICIPANTS),
    Row(
        "chat about post",
        post(
            "/session/send",
            lambda w, r: {"dest_session_id": f"r_{w.item['_id']}_{w.id_of(r)}", **text(w, r)},
        ),
        {"member"},  # the owner does not ask about their own post
        own_world=True,
    ),
    # The member's chat with the owner about the post.
    Row(
        "chat messages",
        post("/session/messages", lambda w, r: {"session_id": w.chat_id}),
        PARTICIPANTS,
    ),
    Row(
        "chat messages around a message",
        post(
            "/session/messages",
            lambda w, r: {"session_id": w.chat_id, "around_timestamp": w.chat_message_at},
        ),
        PARTICIPANTS,
    ),
    Row(
        "chat search",
        post("/session/search", lambda w, r: {"session_id": w.chat_id, "q": "from"}),
        PARTICIPANTS,
    ),
    Row(
        "chat members", post("/session/users", lambda w, r: {"session_id": w.chat_id}), PARTICIPANTS
    ),
    Row(
        "chat send",
        post("/session/send", lambda w, r: {"dest_session_id": w.chat_id, **text(w, r)}),
        PARTICIPANTS,
        own_world=True,
    ),
    Row(
        "chat react",
        post("/session/message/react", lambda w, r: react(w.chat_id, w.chat_message_at)),
        PARTICIPANTS,
        own_world=True,
    ),
    Row("chat by id", lookup("session_ids", "sessions", lambda w: w.chat_id), PARTICIPANTS),
    Row("chat in chat list", in_chat_list(lambda w: w.chat_id), PARTICIPANTS),
    # The member's message in their chat about the post: theirs to edit and delete (the
    # poster moderates no one there); both sides pin.
    Row(
        "chat message edit",
        post("/session/message/edit", lambda w, r: {**chat_message(w), "payload": f"by {r}"}),
        {"member"},
        own_world=True,
    ),
    Row(
        "chat message delete",
        post("/session/message/delete", lambda w, r: chat_message(w)),
        {"member"},
        own_world=True,
    ),
    Row(
        "chat pin",
        post("/session/pin", lambda w, r: {**chat_message(w), "pinned": True}),
        PARTICIPANTS,
        own_world=True,
    ),
    Row("chat pins", get(lambda w, r: f"/session/pins?session_id={w.chat_id}"), PARTICIPANTS),
    Row(
        "chat join room (socket)",
        emit("join", lambda w, r: {"session_id": w.chat_id}),
        PARTICIPANTS,
    ),
    Row(
        "chat message info",
        get(lambda w, r: f"/session/im_info?session_id={w.chat_id}&created_at={w.chat_message_at}"),
        PARTICIPANTS,  # the owner administers the chat, the member sent it
    ),
    Row(
        "chat made public",
        post("/session/update", lambda w, r: {"session_id": w.chat_id, "is_read_allowed": True}),
        OWNER,
        own_world=True,
    ),
    Row(
        "offer in chat",
        post("/api/giveoffer", lambda w, r: {"cs_id": w.chat_id, "request_id": uuid.uuid4().hex}),
        OWNER,
        own_world=True,
    ),
    # Reviews after the paid offer: its two sides write them, anyone reads them (what names
    # the private group's post, or tells the text, only its readers and the two sides), any
    # other signed-in person reports one, the group's moderators but the one it is about hide it.
    Row(
        "review of a paid offer",
        post(
            "/api/review?action=create",
            lambda w, r: {"move_id": w.move_id, "rating": 4, "text": f"by {r}"},
        ),
        {"owner"},  # the member wrote theirs already
        own_world=True,
    ),
    Row(
        "paid offer's reviews",
        post("/api/reviews/offer", lambda w, r: {"move_id": w.move_id}),
        PARTICIPANTS,
    ),
    Row(
        "chat's paid offers",
        post("/api/reviews/chat", lambda w, r: {"cs_id": w.chat_id}),
        PARTICIPANTS,
    ),
    Row(
        "review update",
        post(
            "/api/review?action=update",
            lambda w, r: {"review_id": w.review_id, "rating": 2, "text": "changed"},
        ),
        {"member"},
        own_world=True,
    ),
    Row(
        "review report",
        post("/api/review?action=report", lambda w, r: {"review_id": w.review_id}),
        SIGNED_IN - {"member"},
        own_world=True,
    ),
    Row(
        "review hide",
        post("/api/review?action=hide", lambda w, r: {"review_id": w.review_id}),
        set(MODERATOR),  # the review is of the owner, by the member
        own_world=True,
        also=MODERATOR,
    ),
    Row(
        "reported reviews",
        post("/api/reviews/reported", lambda w, r: {"group_id": w.group_id}),
        OWNER | MODERATOR,
        also=MODERATOR,
    ),
    Row(
        "person's reviews",
        showing(post("/api/reviews", lambda w, r: {"user_id": w.id_of("owner")}), names_the_post),
        PARTICIPANTS | MODERATOR,
        also=MODERATOR,
    ),
    Row(
        "person's profile",
        showing(get(lambda w, r: f"/api/users/{w.id_of('owner')}/profile"), counts_the_reward),
        PARTICIPANTS | MODERATOR,
        also=MODERATOR,
    ),
    # A person's wallet and payments.
    Row(
        "wallet ledger",
        get(
            lambda w, r: (
                f"/api/wallet/ledger?wallet_user_id={w.id_of('owner')}"
                "&wallet_for=user&wallet_currency=POINTS"
            )
        ),
        OWNER,
    ),
    Row(
        "recharge status",
        get(lambda w, r: f"/api/recharge/status?session_id={w.checkout_id}"),
        OWNER,
    ),
    Row("user by id", lookup("user_ids", "users", lambda w: w.id_of("owner")), set(ROLES)),
    # The group's WhatsApp channel: its admins only; its business chats: its agents only.
    Row("whatsapp channel", get(lambda w, r: f"/api/groups/{w.group_id}/whatsapp"), OWNER),
    Row(
        "whatsapp connect",
        post(lambda w: f"/api/groups/{w.group_id}/whatsapp", lambda w, r: w.whatsapp_connect),
        OWNER,
        own_world=True,
    ),
    Row(
        "whatsapp disable",
        post(lambda w: f"/api/groups/{w.group_id}/whatsapp/disable", lambda w, r: {}),
        OWNER,
        own_world=True,
    ),
    Row(
        "whatsapp enable",
        post(lambda w: f"/api/groups/{w.group_id}/whatsapp/enable", lambda w, r: {}),
        OWNER,
        own_world=True,
    ),
    # The group's WhatsApp business chat: its agents (the group's admins and moderators).
    Row(
        "whatsapp templates sync",
        post(lambda w: f"/api/groups/{w.group_id}/whatsapp/templates/sync", lambda w, r: {}),
        OWNER,
        own_world=True,
    ),
    Row(
        "whatsapp templates",
        get(lambda w, r: f"/api/whatsapp/templates?session_id={w.business_chat_id}"),
        OWNER,
    ),
    Row(
        "business chat messages",
        post("/session/messages", lambda w, r: {"session_id": w.business_chat_id}),
        OWNER,
    ),
    Row(
        "business chat join room (socket)",
        emit("join", lambda w, r: {"session_id": w.business_chat_id}),
        OWNER,
    ),
    Row(
        "business chat by id",
        lookup("session_ids", "sessions", lambda w: w.business_chat_id),
        OWNER,
    ),
    Row("business chat in chat list", in_chat_list(lambda w: w.business_chat_id), OWNER),
    Row(
        "business chat reply",
        post("/session/send", lambda w, r: {"dest_session_id": w.business_chat_id, **wa_text(w)}),
        OWNER,
        own_world=True,
    ),
    Row(
        "business chat reply (socket)",
        emit("send", lambda w, r: {"dest_session_id": w.business_chat_id, **wa_text(w)}),
        OWNER,
        own_world=True,
    ),
]


async def _world(
    client, sink, stores: DeploymentStores, db, chat_prefix, whatsapp: WhatsAppStandin
) -> World:
    # What does not depend on each other is done at once: the matrix builds many worlds.
    signed_up = ("owner", "member", "stranger", "blocked", "banned", "waiting", "moderator")
    signed = await asyncio.gather(*(member(client, sink, role.title()) for role in signed_up))
    people: dict[str, Member | None] = dict(zip(signed_up, signed, strict=True))
    people["guest"] = None
    owner = people["owner"]
    group_id = await new_group(owner)
    joining = ("member", "blocked", "banned", "waiting", "moderator")
    await asyncio.gather(
        *(people[r].call("/api/group?action=join", {"group_id": group_id}) for r in joining)
    )
    await asyncio.gather(
        *(
            owner.call(
                "/session/user/update",
                {"session_id": group_id, "for_user_id": people[role].id, "action": "approve"},
            )
            for role in ("member", "blocked", "banned", "moderator")
        )
    )
    await owner.call(
        "/session/user/update",
        {"session_id": group_id, "for_user_id": people["moderator"].id, "action": "make_moderator"},
    )
    await owner.call(
        "/session/user/update",
        {"session_id": group_id, "for_user_id": people["blocked"].id, "action": "block"},
    )
    # Type 40 has no action of its own in the API: set as an operator would, through the
    # store (every edge hears of it), and the shard that holds the group told.
    await stores.sessions.set_member(group_id, people["banned"].id, {"session_user_type": 40})
    namespace = f"agora-agora_test-{chat_prefix}"
    await ray.get_actor(
        f"session-shard-{shard_of(group_id, 2)}", namespace=namespace
    ).forget.remote(group_id)
    item = await owner.post_item(group_id, "Secret plans", offer_amount=5, offer_currency="POINTS")
    world = World(client, people, group_id, item, "", 0, 0, "")
    chat_id = f"r_{item['_id']}_{people['member'].id}"
    asked = await people["member"].call(
        "/session/send", {"dest_session_id": chat_id, "payload": "still there?", "local_id": "q"}
    )
    said = await people["member"].call(
        "/session/send", {"dest_session_id": group_id, "payload": "hello all", "local_id": "h"}
    )
    recharge = await owner.call("/api/recharge", {"amount": 10, "currency": "USD"})
    paid = await owner.call("/api/giveoffer", {"cs_id": chat_id, "request_id": "world"})
    world.move_id = paid["move_id"]
    review = {"move_id": paid["move_id"], "rating": 5, "text": "Paid at once"}
    world.review_id = (await people["member"].call("/api/review?action=create", review))["review"][
        "_id"
    ]
    world.chat_id = chat_id
    world.chat_message_at = asked["inbox_message"]["created_at"]
    world.group_message_at = said["inbox_message"]["created_at"]
    world.checkout_id = recharge["stripe_checkout_data"]["id"]
    business = await connected_business(client, sink, whatsapp, owner, group_id)
    customer = "15550009999"
    delivery = webhook(
        business.number.phone_number_id, messages=[customer_text(customer, "hello shop")]
    )
    assert await business.deliver(delivery) == 200
    await business.settled()
    world.whatsapp_connect = connect_body(
        business.number, business.app_secret, business.verify_token
    )
    world.business_chat_id = business.chat_id(customer)
    # Someone asks to join last: the group's newest message, a notice, is unseen by both
    # participants (neither wrote it).
    applicant = await member(client, sink, "Applicant")
    await applicant.call("/api/group?action=join", {"group_id": group_id})
    await _until_posted(db, world, applicant.id)
    return world


# A WhatsApp delivery whose processing failed is tried again once its lease ran out, by the
# next sweep.
STORED_WITHIN = LEASE_MS / 1000 + 2 * SWEEP_SECONDS


async def _until_posted(db, world: World, applicant_id: str) -> None:
    """Until the messages services post while the world is built are stored and counted.
    Each is posted through a shard call the service gives up on after a few seconds on a
    loaded machine, while the shard still stores it, or (the customer's message) tries again
    once the delivery's lease ran out: the rows would otherwise see it land mid-row."""
    expected = {
        "the offer's notice": {
            "dest_session_id": world.chat_id,
            "data.offer.move_id": world.move_id,
        },
        "the applicant's notice": {
            "dest_session_id": world.group_id,
            "data.member.user_id": applicant_id,
        },
        "the customer's message": {"dest_session_id": world.business_chat_id},
    }
    for what, query in expected.items():
        stored = await eventually(lambda q=query: _is_counted(db, q), True, STORED_WITHIN)
        assert stored, f"{what} was not stored and counted in {STORED_WITHIN} s"


async def _is_counted(db, query: dict[str, Any]) -> bool:
    """The message is stored and its session counts it: the shard writes the count just
    after the message, so a message found alone may see its session change a moment later."""
    message = await db["messages"].find_one(query)
    if message is None:
        return False
    session = await db["sessions"].find_one({"_id": message["dest_session_id"]})
    return session is not None and session.get("message_seq", 0) >= message["seq"]


# How far a session's messages were announced moves after the fact, by itself; how far a
# member had seen, and had been delivered, moves whenever they open Chats.
MOVING = ("announced_seq", "seen_seq", "delivered_seq", *RECEIPT_TIMES["delivered"])
# How far a member has read moves as they open a chat: rows that share a world do, and only
# the red dots (with worlds of their own) count it.
READ = ("read_seq", *RECEIPT_TIMES["read"])


async def _stored(db, world: World, moving: tuple[str, ...] = MOVING) -> dict[str, list]:
    """Everything stored about the world but the `moving` fields, to show a refused call
    changed nothing."""
    ids = [p.id for p in world.people.values() if p]
    sessions = [world.group_id, world.chat_id, world.business_chat_id]
    sessions += [f"r_{world.item['_id']}_{i}" for i in ids]
    queries = {
        "sessions": {"_id": {"$in": sessions}},
        "session_users": {"session_id": {"$in": sessions}},
        "messages": {"dest_session_id": {"$in": sessions}},
        "items": {"group_id": world.group_id},
        "routes": {"item_id": world.item["_id"]},
        "wallets": {"user_id": {"$in": ids}},
        "ledger_entries": {"user_id": {"$in": ids}},
        "recharges": {"user_id": {"$in": ids}},
        "whatsapp_channels": {"group_id": world.group_id},
        "reviews": {"move_id": world.move_id},
    }
    stored = {}
    for name, query in queries.items():
        found = await db[name].find(query).sort("_id", 1).to_list()
        stored[name] = [{k: v for k, v in doc.items() if k not in moving} for doc in found]
    return stored


@dataclass
class Shared:
    """The world the rows without one of their own share on this worker, once built, and what
    was stored of it then."""

    world: World | None = None
    stored: dict[str, list] | None = None


@pytest.fixture(scope="module")
def shared() -> Shared:
    return Shared()


@pytest.fixture
async def db(mongo_url) -> AsyncIterator[Any]:
    """The tests' database, read directly (one client a row: the matrix reads it a few hundred
    times)."""
    mongo = AsyncMongoClient(mongo_url)
    yield mongo["agora_test"]
    await mongo.close()


@pytest.fixture
async def world_for(
    client_for, settings_for, standin, whatsapp_standin, smtp_sink, db, chat_prefix, shared
) -> AsyncIterator[Callable[[Row], Awaitable[World]]]:
    """The row's world, reached through an edge of the row's own (of the same deployment)."""

    async def world(row: Row) -> World:
        client = await client_for(
            session_shards=2,
            redis_prefix=chat_prefix,
            stripe_api_base=standin.base_url,
            whatsapp_graph_url=whatsapp_standin.base_url,
            **PAYMENT_SETTINGS,
        )
        if row.own_world:
            return await build(client)
        if shared.world is None:
            shared.world = await build(client)
            shared.stored = await _stored(db, shared.world, MOVING + READ)
        return replace(shared.world, client=client)

    async with deployment_stores(settings_for(redis_prefix=chat_prefix)) as stores:

        async def build(client) -> World:
            return await _world(client, smtp_sink, stores, db, chat_prefix, whatsapp_standin)

        yield world


# Those who hold no membership in the world's private group: to them, what they may not see
# is as if it did not exist.
OUTSIDERS = {"stranger", "guest"}


def _missing(world: World) -> World:
    """The world with ids of the same kinds that name nothing."""
    item_id, route_id, group_id, channel_id = (str(ObjectId()) for _ in range(4))
    _, _, customer = world.business_chat_id.split("_", 2)
    return replace(
        world,
        group_id=group_id,
        item={**world.item, "_id": item_id, "route_id": route_id},
        chat_id=f"r_{item_id}_{world.id_of('member')}",
        business_chat_id=f"wa_{channel_id}_{customer}",
    )


@pytest.mark.parametrize("row", ROWS, ids=[row.name for row in ROWS])
async def test_authorization_matrix(world_for, db, shared: Shared, row: Row):
    world = await world_for(row)
    # Refused callers first: the allowed ones may change what the others would see. What is
    # stored after one caller's calls is what the next one's must leave as it is.
    roles = set(ROLES) | row.also
    before = await _stored(db, world)
    for role in sorted(roles - row.allowed) + sorted(row.unchanged & row.allowed):
        allowed, reply = await row.call(world, role)
        assert allowed is (role in row.allowed), (row.name, role, reply)
        if role in OUTSIDERS and not allowed:
            # The same answer as for ids that name nothing: ids cannot be probed.
            assert await row.call(_missing(world), role) == (False, reply), (row.name, role)
        after = await _stored(db, world)
        assert after == before, (row.name, role, "changed something")
        before = after
    for role in sorted(row.allowed - row.unchanged):
        allowed, reply = await row.call(world, role)
        assert allowed, (row.name, role, reply)
    if not row.own_world:
        # What the next rows read of the world they share is as it was built.
        assert await _stored(db, world, MOVING + READ) == shared.stored, (row.name, "changed it")
