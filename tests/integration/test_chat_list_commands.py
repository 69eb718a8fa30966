"""A chat list reads the person's memberships and their chats in one store command (issue 45):
the edge knows which chats a person's memberships are of once it has read them all (a list, a
socket's connection), and hears every membership added since, which its announcement names.
What the list shows is what is stored: the memberships themselves are read with the chats,
so a change of one shows in the very next list, whichever edge made it, and one written
behind the stores' back too (its chat then read after the others).
"""

import pytest
import socketio
from pymongo import AsyncMongoClient, monitoring

from agora.app import SESSION_COPIES
from agora.core.chat.constants import (
    USER_TYPE_AWAITING_APPROVAL,
    USER_TYPE_BLOCKED_REVERSIBLE,
    USER_TYPE_MEMBER,
    USER_TYPE_MODERATOR,
)
from agora.store import mongo
from agora.store.groups import add_membership
from tests.integration.helpers import (
    Member,
    deployment_stores,
    member,
    new_group,
    send_text,
    until,
)

pytestmark = pytest.mark.usefixtures("ray_cluster")

# What an edge asks of its store; the rest is the driver's own (handshakes, sessions).
DATA_COMMANDS = {"find", "aggregate", "getMore", "insert", "update", "delete", "findAndModify"}


class Commands(monitoring.CommandListener):
    """The data commands an edge sends its store, each as (command, collection, the fields
    its filter or its pipeline's first match names)."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str, list[str]]] = []

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        name, command = event.command_name, event.command
        if name in DATA_COMMANDS:
            matched = command.get("filter") or (command.get("pipeline") or [{}])[0].get("$match")
            self.sent.append((name, str(command[name]), sorted(matched or {})))

    def succeeded(self, event) -> None:
        pass

    def failed(self, event) -> None:
        pass


class Watched:
    """Two edges of one deployment; the first's store commands are counted."""

    def __init__(self, edges, commands: Commands) -> None:
        self.edges = edges
        self.commands = commands

    async def listed(
        self, person: Member
    ) -> tuple[dict[str, dict], list[tuple[str, str, list[str]]]]:
        """The person's chat list through the first edge, by chat id, and the commands it took."""
        self.commands.sent.clear()
        listed = await Member(self.edges[0], person.key, person.user).call("/user/chats", {})
        return {s["_id"]: s for s in listed["sessions"]}, list(self.commands.sent)

    def knows_chat_of(self, person: Member, session_id: str) -> bool:
        """Whether the first edge heard of the person's membership of the chat."""
        known = self.edges[0].server.app[SESSION_COPIES].chats_of(person.id)
        return session_id in (known or ())


@pytest.fixture
async def watched(client_for, chat_prefix, monkeypatch) -> Watched:
    commands = Commands()

    def counted(*args, event_listeners=(), **options) -> AsyncMongoClient:
        return AsyncMongoClient(*args, event_listeners=[*event_listeners, commands], **options)

    monkeypatch.setattr(mongo, "AsyncMongoClient", counted)
    first = await client_for(session_shards=2, redis_prefix=chat_prefix)
    monkeypatch.setattr(mongo, "AsyncMongoClient", AsyncMongoClient)
    edges = [first, await client_for(session_shards=2, redis_prefix=chat_prefix)]
    # Copies are kept only while announcements are heard: both edges hear them now.
    await until(lambda: all(edge.server.app[SESSION_COPIES].listening for edge in edges))
    return Watched(edges, commands)


# The person's memberships, with their chats in the same command.
ONE_COMMAND = [("aggregate", "session_users", ["user_id"])]


async def test_a_chat_list_is_one_command_once_the_edge_knows_the_persons_chats(watched, smtp_sink):
    """The person's first list on an edge reads the memberships, then their chats; every
    list after it (and the first after their socket connected, which read the memberships
    to join their rooms) reads both at once, and nothing else where nothing changed."""
    edge = watched.edges[0]
    owner = await member(edge, smtp_sink, "Owner")
    person = await member(edge, smtp_sink, "Person")
    group_id = await new_group(owner, is_public=True)
    await person.call("/api/group?action=join", {"group_id": group_id})
    item = await owner.post_item(group_id, "Old piano")
    item_chat_id = f"r_{item['_id']}_{person.id}"
    # The person's own message: no receipt of theirs is written behind the list.
    assert (await send_text(person, item_chat_id, "still there?"))["type"] == 13

    listed, _ = await watched.listed(person)
    assert set(listed) == {group_id, item_chat_id}
    listed, commands = await watched.listed(person)
    assert set(listed) == {group_id, item_chat_id}
    assert commands == ONE_COMMAND

    # Another person, whose socket connects first: their first list reads both at once.
    other = await member(edge, smtp_sink, "Other")
    other_group = await new_group(other, is_public=True)
    screen = socketio.AsyncClient(reconnection=False)
    await screen.connect(
        str(edge.make_url("/")), auth={"auth_key": other.key}, transports=["websocket"]
    )
    try:
        listed, commands = await watched.listed(other)
    finally:
        await screen.disconnect()
    assert set(listed) == {other_group}
    assert commands == ONE_COMMAND


async def test_an_announced_membership_change_shows_in_the_next_list_in_one_command(
    watched, smtp_sink
):
    """Joined, left (turned down), joined through the other edge (once this one heard it),
    approved, made moderator, blocked: each shows in the person's very next list through the
    first edge, which reads it in one command."""
    edge, elsewhere = watched.edges
    owner = await member(edge, smtp_sink, "Owner")
    person = await member(edge, smtp_sink, "Person")
    group_id = await new_group(owner, is_public=False)
    own_group = await new_group(person, is_public=True)
    listed, _ = await watched.listed(person)
    assert set(listed) == {own_group}

    async def type_listed() -> int | None:
        listed, commands = await watched.listed(person)
        # Besides, once the group shows a message (the approval's notice), the red dot's seen
        # mark and the delivery receipt the list writes behind, with the chat's marks.
        assert [c for c in commands if c[0] != "update" and "session_id" not in c[2]] == (
            ONE_COMMAND
        )
        return listed[group_id]["session_user_type"] if group_id in listed else None

    async def moderate(action: str) -> None:
        body = {"session_id": group_id, "for_user_id": person.id, "action": action}
        await owner.call("/session/user/update", body)

    joining = {"group_id": group_id}
    await person.call("/api/group?action=join", joining)
    assert await type_listed() == USER_TYPE_AWAITING_APPROVAL
    await moderate("reject")
    assert await type_listed() is None
    await Member(elsewhere, person.key, person.user).call("/api/group?action=join", joining)
    await until(lambda: watched.knows_chat_of(person, group_id))
    assert await type_listed() == USER_TYPE_AWAITING_APPROVAL
    await moderate("approve")
    assert await type_listed() == USER_TYPE_MEMBER
    await moderate("make_moderator")
    assert await type_listed() == USER_TYPE_MODERATOR
    await moderate("block")
    assert await type_listed() == USER_TYPE_BLOCKED_REVERSIBLE


async def test_a_membership_written_behind_the_stores_back_shows_in_the_next_list(
    watched, smtp_sink, settings_for, chat_prefix
):
    """Nothing announces it, so the edge did not know its chat: the list reads that chat after
    the others, and the next list reads them all at once again."""
    edge = watched.edges[0]
    owner = await member(edge, smtp_sink, "Owner")
    person = await member(edge, smtp_sink, "Person")
    group_id = await new_group(owner, is_public=True)
    own_group = await new_group(person, is_public=True)
    await watched.listed(person)

    async with deployment_stores(settings_for(redis_prefix=chat_prefix)) as stores:
        await add_membership(stores.db["session_users"], group_id, person.id, USER_TYPE_MEMBER)

    listed, commands = await watched.listed(person)
    assert set(listed) == {own_group, group_id}
    assert commands == [*ONE_COMMAND, ("find", "sessions", ["_id"])]
    listed, commands = await watched.listed(person)
    assert set(listed) == {own_group, group_id}
    assert commands == ONE_COMMAND


async def test_a_list_of_more_chats_than_a_union_holds_reads_them_whole_at_once(watched, smtp_sink):
    """A person with more chats than one command's union holds (a seller asked by many) has
    their memberships read, then their chats: whole, so the page needs no read of its own (it
    read the counters of all, then the page's chats), as they stand."""
    edge = watched.edges[0]
    owner = await member(edge, smtp_sink, "Owner")
    group_id = await new_group(owner, is_public=True)
    item = await owner.post_item(group_id, "Lamp")
    askers = [await member(edge, smtp_sink, f"Asker {n}") for n in range(21)]
    chats = [f"r_{item['_id']}_{asker.id}" for asker in askers]
    for asker, chat in zip(askers, chats, strict=True):
        assert (await send_text(asker, chat, "mine?"))["type"] == 13
    await watched.listed(owner)
    assert (await send_text(askers[3], chats[3], "still there?"))["type"] == 13

    listed, commands = await watched.listed(owner)
    assert len(listed) == 20 and listed[chats[3]]["unseen_count"] == 2
    # Its memberships and its chats (each row's newest message and marks are read after).
    assert [c for c in commands if c[1] == "sessions" or "user_id" in c[2]] == [
        ("find", "session_users", ["user_id"]),
        ("find", "sessions", ["_id"]),
    ]


async def test_the_memberships_a_socket_read_to_join_its_rooms_are_the_edges_copies(
    watched, smtp_sink
):
    """A socket's connection reads all of its person's memberships to join their rooms: they
    are the edge's copies from then on, so the person's chat calls read none again (each chat's
    first call read its membership once more: 30 a second while 300 people connected)."""
    edge = watched.edges[0]
    owner = await member(edge, smtp_sink, "Owner")
    person = await member(edge, smtp_sink, "Person")
    group_id = await new_group(owner, is_public=True)
    # The join announces the membership: no edge holds a copy of it.
    await person.call("/api/group?action=join", {"group_id": group_id})
    screen = socketio.AsyncClient(reconnection=False)
    await screen.connect(
        str(edge.make_url("/")), auth={"auth_key": person.key}, transports=["websocket"]
    )
    try:
        await until(lambda: watched.knows_chat_of(person, group_id))
        watched.commands.sent.clear()
        page = await Member(edge, person.key, person.user).call(
            "/session/messages", {"session_id": group_id}
        )
        sent = list(watched.commands.sent)
    finally:
        await screen.disconnect()
    # Only the person's own joining (a receipt of another's message checks that its sender
    # still follows the chat, on their membership).
    assert [m["src_id"] for m in page["inbox_messages"]] == [person.id]
    assert ("find", "session_users", ["_id"]) not in sent
