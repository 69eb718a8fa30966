"""Reactions on messages of group and item chats, against real edges, a real local Ray
cluster, the MongoDB-wire server and Redis: one per person per message, kept by the session's
shard in its memory and the store together, told to the chat's viewers once a tick."""

import time
import uuid

import pytest
import ray
import socketio

from agora.core.chat.access import CANNOT_SEND, NO_SUCH_CHAT
from agora.core.reactions import EMOJI_NOT_OFFERED, MEMBERS_REACT, NO_SUCH_MESSAGE
from agora.core.shard_map import shard_of
from tests.integration.helpers import (
    item_chat,
    member,
    new_group,
    open_socket,
    send_text,
    until,
)

pytestmark = pytest.mark.usefixtures("ray_cluster", "opened_sockets_closed")


async def _socket(client, person, heard: list | None = None) -> socketio.AsyncClient:
    """A socket of `person`, recording the `reactions` events it hears in `heard`."""
    handlers = {"reactions": heard.append} if heard is not None else None
    return await open_socket(client, person, handlers)


async def _react(person, session_id: str, created_at: int, emoji: str, status: int = 200):
    body = {"session_id": session_id, "created_at": created_at, "emoji": emoji}
    return await person.call("/session/message/react", body, status=status)


async def _group(client, sink, *names: str):
    """A private group of an admin and these members, and a message of the admin's in it."""
    admin = await member(client, sink, "Admin")
    group_id = await new_group(admin)
    people = {}
    for name in names:
        person = await member(client, sink, name)
        await person.call("/api/group?action=join", {"group_id": group_id})
        body = {"session_id": group_id, "for_user_id": person.id, "action": "approve"}
        await admin.call("/session/user/update", body)
        people[name] = person
    sent = await send_text(admin, group_id, "Market on Saturday?")
    return admin, people, group_id, sent["inbox_message"]["created_at"]


async def _shown(person, session_id: str, created_at: int) -> dict:
    page = await person.call("/session/messages", {"session_id": session_id})
    [message] = [m for m in page["inbox_messages"] if m["created_at"] == created_at]
    return message["data"].get("reactions", {})


async def test_a_reaction_is_set_changed_and_taken_away_and_pages_show_it(
    chat_client, smtp_sink, chat_prefix
):
    admin, people, group_id, at = await _group(chat_client, smtp_sink, "Bea", "Cy")
    bea, cy = people["Bea"], people["Cy"]
    assert await _react(bea, group_id, at, "👍") == {"ok": True, "reactions": {bea.id: "👍"}}
    both = {bea.id: "👍", cy.id: "❤️"}
    assert (await _react(cy, group_id, at, "❤️"))["reactions"] == both
    # Another choice replaces one's own; the same again changes nothing.
    changed = {bea.id: "😂", cy.id: "❤️"}
    assert (await _react(bea, group_id, at, "😂"))["reactions"] == changed
    assert (await _react(bea, group_id, at, "😂"))["reactions"] == changed
    # The page comes from the shard's memory, and from the store once the shard forgot it.
    assert await _shown(admin, group_id, at) == changed
    namespace = f"agora-agora_test-{chat_prefix}"
    shard = ray.get_actor(f"session-shard-{shard_of(group_id, 2)}", namespace=namespace)
    await shard.forget.remote(group_id)
    assert await _shown(admin, group_id, at) == changed
    # An empty emoji takes one's reaction away, and only one's own.
    assert (await _react(bea, group_id, at, ""))["reactions"] == {cy.id: "❤️"}
    assert await _shown(cy, group_id, at) == {cy.id: "❤️"}


async def test_an_item_chats_two_sides_react(chat_client, smtp_sink):
    owner, asker, item = await item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    sent = await send_text(asker, session_id, "Still for sale?")
    at = sent["inbox_message"]["created_at"]
    assert (await _react(owner, session_id, at, "🙏"))["reactions"] == {owner.id: "🙏"}
    assert (await _react(asker, session_id, at, "👍"))["reactions"] == {
        owner.id: "🙏",
        asker.id: "👍",
    }


async def test_what_is_no_reaction_is_refused(chat_client, smtp_sink):
    admin, people, group_id, at = await _group(chat_client, smtp_sink, "Bea")
    bea = people["Bea"]
    refused = await _react(bea, group_id, at, "🦄", status=400)
    assert refused == {"errors": {"emoji": EMOJI_NOT_OFFERED}}
    refused = await _react(bea, group_id, at, "hello", status=400)
    assert set(refused["errors"]) == {"emoji"}
    missing = await _react(bea, group_id, at + 12345, "👍", status=404)
    assert missing == {"errors": {"created_at": NO_SUCH_MESSAGE}}
    # A notice (someone asked to join) is the chat's, no one's to answer.
    applicant = await member(chat_client, smtp_sink, "Applicant")
    await applicant.call("/api/group?action=join", {"group_id": group_id})
    page = await admin.call("/session/messages", {"session_id": group_id})
    notice = page["inbox_messages"][-1]
    assert notice["type"] == 1010
    assert await _react(bea, group_id, notice["created_at"], "👍", status=404) == missing
    assert await _shown(admin, group_id, at) == {}


async def test_only_members_who_may_post_react(chat_client, smtp_sink):
    admin, people, group_id, at = await _group(chat_client, smtp_sink, "Bea", "Blocked")
    body = {"session_id": group_id, "for_user_id": people["Blocked"].id, "action": "block"}
    await admin.call("/session/user/update", body)
    refused = await _react(people["Blocked"], group_id, at, "👍", status=403)
    assert refused == {"errors": CANNOT_SEND}
    stranger = await member(chat_client, smtp_sink, "Stranger")
    hidden = await _react(stranger, group_id, at, "👍", status=404)
    assert hidden == {"errors": {"session_id": NO_SUCH_CHAT}}
    # A public group's passers-by read it, and may even post, but only its members react.
    public_id = await new_group(admin, is_public=True)
    sent = await send_text(admin, public_id, "Welcome")
    public_at = sent["inbox_message"]["created_at"]
    refused = await _react(stranger, public_id, public_at, "👍", status=403)
    assert refused == {"errors": MEMBERS_REACT}
    reply = await chat_client.post(
        "/session/message/react",
        json={"session_id": public_id, "created_at": public_at, "emoji": "👍"},
    )
    assert reply.status == 401
    assert await _shown(admin, public_id, public_at) == {}


async def test_the_socket_reacts_as_http_does(chat_client, smtp_sink):
    _, people, group_id, at = await _group(chat_client, smtp_sink, "Bea")
    bea = await _socket(chat_client, people["Bea"])
    body = {"session_id": group_id, "created_at": at, "emoji": "🔥"}
    assert await bea.call("react", body) == {"ok": True, "reactions": {people["Bea"].id: "🔥"}}
    refused = await bea.call("react", {**body, "emoji": "nope"})
    assert set(refused["errors"]) == {"emoji"}
    missing = await bea.call("react", {**body, "created_at": at + 1})
    assert missing == {"errors": {"created_at": NO_SUCH_MESSAGE}}


# The coalescing test's tick: long beside what a few reactions take to be stored.
LONG_TICK_MS = 1000


@pytest.fixture(scope="module")
def long_tick_prefix() -> str:
    """A deployment of its own (its shard keeps the tick of the edge that started it)."""
    return f"test:reactions:{uuid.uuid4().hex[:8]}:"


async def test_a_ticks_reactions_reach_the_viewers_as_one_event_and_no_one_else(
    client_for, smtp_sink, long_tick_prefix
):
    """In a city group every reaction went to nobody but the tabs showing the chat, and a
    tick's reactions go as one event naming each message once, with its reactions by then.
    Reactions stored within one tick of the first are told together: the first one's tick
    ends after the last one is answered when they all took less than a tick; on a machine so
    slow that they did not, each further tick they spanned may add one event."""
    client = await client_for(
        session_shards=1, redis_prefix=long_tick_prefix, reactions_tick_ms=LONG_TICK_MS
    )
    admin, people, group_id, first_at = await _group(client, smtp_sink, "Bea", "Cy", "Dee")
    second_at = (await send_text(admin, group_id, "Who brings bread?"))["inbox_message"][
        "created_at"
    ]
    viewing: list[dict] = []
    elsewhere: list[dict] = []
    viewer = await _socket(client, admin, viewing)
    assert await viewer.call("viewing", {"session_id": group_id}) == {"ok": True}
    # A member's socket in the group's room, on another screen.
    await _socket(client, people["Dee"], elsewhere)
    sockets = {name: await _socket(client, people[name]) for name in ("Bea", "Cy", "Dee")}
    reactions = [
        ("Bea", first_at, "👍"),
        ("Cy", first_at, "❤️"),
        ("Dee", first_at, "😮"),
        ("Bea", second_at, "🙏"),
        ("Cy", second_at, "👍"),
        ("Bea", first_at, "😂"),  # changed within the tick
        ("Dee", first_at, ""),  # taken away within the tick
    ]
    started = time.monotonic()
    for name, at, emoji in reactions:
        body = {"session_id": group_id, "created_at": at, "emoji": emoji}
        assert (await sockets[name].call("react", body))["ok"] is True
    span = time.monotonic() - started
    bea, cy = people["Bea"].id, people["Cy"].id
    final = {first_at: {bea: "😂", cy: "❤️"}, second_at: {bea: "🙏", cy: "👍"}}
    told: dict[int, dict] = {}

    def all_told() -> bool:
        for event in viewing:
            told.update({m["created_at"]: m["reactions"] for m in event["messages"]})
        return told == final

    await until(all_told, seconds=10 + LONG_TICK_MS / 1000)
    assert told == final
    assert 1 <= len(viewing) <= 1 + int(span * 1000 // LONG_TICK_MS), viewing
    for event in viewing:
        assert event["session_id"] == group_id
        named = [m["created_at"] for m in event["messages"]]
        assert len(named) == len(set(named)), event
    # What the viewer heard, a socket on another screen would have heard by now.
    await viewer.call("unseen", {})
    assert elsewhere == []
