"""A chat call reads the chat from its edge's copy (issue 45), which is exact: a change to a
chat document, whoever writes it (an edge's settings, a shard's pins, a reply that moves a
sender's own mark), is what the very next call reads, through the edge that made it and
through another of the same deployment, each holding a copy of the chat from before.

Nothing waits between a change and the calls that follow it but for another edge to hear
what a shard announced, as a socket of that edge would.
"""

import pytest

from agora.app import SESSION_COPIES
from tests.integration.helpers import Member, eventually, member, new_group, send_text, until

pytestmark = pytest.mark.usefixtures("ray_cluster")


@pytest.fixture
async def edges(client_for, chat_prefix):
    made = [await client_for(session_shards=2, redis_prefix=chat_prefix) for _ in range(2)]
    # Copies are served only while announcements are heard: both edges hear them now.
    await until(lambda: all(edge.server.app[SESSION_COPIES].listening for edge in made))
    return made


def through(edges, person: Member) -> list[Member]:
    """The same person (one key) through each edge."""
    return [Member(edge, person.key, person.user) for edge in edges]


async def statuses(people: list[Member], path: str, body: dict) -> list[int]:
    return [(await p.client.post(path, json=body, headers=_bearer(p.key))).status for p in people]


def _bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


async def test_an_item_chat_made_public_is_readable_at_once_through_every_edge(edges, smtp_sink):
    owner = await member(edges[0], smtp_sink, "Owner")
    asker = await member(edges[0], smtp_sink, "Asker")
    stranger = through(edges, await member(edges[0], smtp_sink, "Stranger"))
    group_id = await new_group(owner, is_public=True)
    item = await owner.post_item(group_id, "Old piano")
    chat_id = f"r_{item['_id']}_{asker.id}"
    assert (await send_text(asker, chat_id, "still there?"))["type"] == 13
    page = {"session_id": chat_id}
    # Each edge holds the chat as it was: private to its two members.
    assert await statuses(stranger, "/session/messages", page) == [404, 404]

    await owner.call("/session/update", {"session_id": chat_id, "is_read_allowed": True})

    assert await statuses(stranger, "/session/messages", page) == [200, 200]


async def test_a_pin_shows_at_once_through_the_edge_that_pinned(edges, smtp_sink):
    """The chat's shard writes its pins; the edge that asked it reads them next."""
    owner = await member(edges[0], smtp_sink, "Owner")
    reader = through(edges, await member(edges[0], smtp_sink, "Reader"))
    group_id = await new_group(owner, is_public=True)
    await reader[0].call("/api/group?action=join", {"group_id": group_id})
    sent = (await send_text(owner, group_id, "rules: be kind"))["inbox_message"]["created_at"]
    pins_path = f"/session/pins?session_id={group_id}"
    assert [(await r.get(pins_path))["pins"] for r in reader] == [[], []]

    body = {"session_id": group_id, "created_at": sent, "pinned": True}
    await owner.call("/session/pin", body)

    assert await pinned(owner, pins_path) == [sent]
    assert await pinned(reader[0], pins_path) == [sent]
    # Another edge hears the shard's announcement as its sockets hear the pin.
    assert await eventually(lambda: pinned(reader[1], pins_path), [sent]) == [sent]


async def pinned(reader: Member, path: str) -> list[int]:
    return [m["created_at"] for m in (await reader.get(path))["pins"]]


async def test_a_reply_shows_the_message_read_at_once_through_every_edge(edges, smtp_sink):
    """In an item chat a reply is its sender's read mark (`sent_seq`, a counter of the chat
    document that no copy holds): the asker's question shows read the moment the owner's reply
    is stored, in the chat's newest page (from the page itself) and in a search (from the
    chat's marks), through both edges, each of which showed it unread before."""
    owner = await member(edges[0], smtp_sink, "Owner")
    asker = through(edges, await member(edges[0], smtp_sink, "Asker"))
    group_id = await new_group(owner, is_public=True)
    item = await owner.post_item(group_id, "Old piano")
    chat_id = f"r_{item['_id']}_{asker[0].id}"
    asked = await send_text(asker[0], chat_id, "still there?")
    asked_at = asked["inbox_message"]["created_at"]

    async def statuses(path: str, body: dict) -> list[str]:
        found = [(await a.call(path, body))["inbox_messages"] for a in asker]
        return [
            next(m for m in messages if m["created_at"] == asked_at)["flags"]["status"]
            for messages in found
        ]

    async def in_pages() -> list[str]:
        return await statuses("/session/messages", {"session_id": chat_id})

    async def in_searches() -> list[str]:
        return await statuses("/session/search", {"session_id": chat_id, "q": "still"})

    assert "read" not in await in_pages()
    # The pages' receipts moved the chat's marks; both edges hold them as they stand now.
    assert "read" not in await in_pages()
    assert "read" not in await in_searches()

    await send_text(Member(edges[1], owner.key, owner.user), chat_id, "yes, come by")

    assert await in_searches() == ["read", "read"]
    assert await in_pages() == ["read", "read"]
