"""A membership change is seen by every path the moment it is made, on every edge (issue 41,
item 8): an approval, a block, an unblock or a promotion given through one edge is what the
very next call reads, through that edge and through another of the same deployment, whatever
copies either kept; the chat shard takes the member's next message by the new type.

Each edge has read the member's membership before the change (so each holds a copy of it),
and serves its copies (its subscription to the announcements is confirmed); nothing waits
between the change and the calls that follow it.
"""

import logging
import uuid

import pytest
import socketio

from agora.app import SESSION_COPIES
from agora.core.chat.access import CANNOT_SEND
from agora.core.chat.constants import (
    USER_TYPE_AWAITING_APPROVAL,
    USER_TYPE_BLOCKED_REVERSIBLE,
    USER_TYPE_MEMBER,
    USER_TYPE_MODERATOR,
)
from agora.services.chat.access import NOT_IN_CHAT
from tests.integration.helpers import Member, member, new_group, send_text, until

pytestmark = pytest.mark.usefixtures("ray_cluster")

CANNOT_READ = "You cannot read this chat"


class Deployment:
    """Two edges of one deployment; the group's owner, and a person seen through each edge."""

    def __init__(self, edges, owner: Member, person: Member, group_id: str, item: dict) -> None:
        self.edges = edges
        self.owner = owner
        self.group_id = group_id
        self.item = item
        # The same person (one key) through each edge.
        self.person = [Member(edge, person.key, person.user) for edge in edges]
        self.sockets: list[socketio.AsyncClient] = []

    async def moderate(self, action: str) -> None:
        body = {"session_id": self.group_id, "for_user_id": self.person[0].id, "action": action}
        await self.owner.call("/session/user/update", body)

    async def statuses(self, path: str, body: dict) -> list[int]:
        """The status of the person's call through each edge."""
        return [
            (await edge.client.post(path, json=body, headers=_bearer(edge.key))).status
            for edge in self.person
        ]

    async def feed(self) -> list[int]:
        return await self.statuses("/api/feed", {"group_id": self.group_id})

    async def pages(self) -> list[int]:
        """The group chat's newest page (every chat call checks the membership as it does)."""
        return await self.statuses("/session/messages", {"session_id": self.group_id})

    async def delivery_details(self) -> list[int]:
        """Who received the owner's welcome: the sender's and the moderators' to see."""
        page = await self.owner.call("/session/messages", {"session_id": self.group_id})
        at = page["inbox_messages"][0]["created_at"]
        path = f"/session/im_info?session_id={self.group_id}&created_at={at}"
        return [
            (await edge.client.get(path, headers=_bearer(edge.key))).status for edge in self.person
        ]

    async def item_chats(self) -> list[int]:
        return await self.statuses(f"/api/chats/{self.item['_id']}", {})

    async def types_in_feed(self) -> list[int | None]:
        """The person's type in the group, as the feed shows it through each edge."""
        return [
            (await edge.call("/api/feed", {"group_id": self.group_id}))["group"][
                "session_user_type"
            ]
            for edge in self.person
        ]

    async def types_on_joining(self) -> list[int]:
        """What `?action=join` answers through each edge (a member is not added again)."""
        return [
            (await edge.call("/api/group?action=join", {"group_id": self.group_id}))[
                "group_membership"
            ]["session_user_type"]
            for edge in self.person
        ]

    async def open_sockets(self) -> None:
        for edge in self.edges:
            sio = socketio.AsyncClient(reconnection=False)
            await sio.connect(
                str(edge.make_url("/")),
                auth={"auth_key": self.person[0].key},
                transports=["websocket"],
            )
            self.sockets.append(sio)

    async def on_sockets(self, event: str) -> list[dict]:
        """The person's socket event about the group, through each edge."""
        return [await sio.call(event, {"session_id": self.group_id}) for sio in self.sockets]

    async def sends(self) -> list[dict]:
        """A message of the person's to the group through each edge: its reply's errors."""
        return [
            (await send_text(edge, self.group_id, "hello")).get("errors") for edge in self.person
        ]

    async def close(self) -> None:
        for sio in self.sockets:
            await sio.disconnect()


def _bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture
async def deploy(client_for, smtp_sink, chat_prefix):
    """Makes a private group (with `group_fields`) with a post, and a person who asked to
    join it, on two edges of one deployment."""
    made: list[Deployment] = []

    async def make(**group_fields) -> Deployment:
        edges = [await client_for(session_shards=2, redis_prefix=chat_prefix) for _ in range(2)]
        owner = await member(edges[0], smtp_sink, "Owner")
        group_id = await new_group(owner, is_public=False, **group_fields)
        item = await owner.post_item(group_id, f"Members only {uuid.uuid4().hex[:6]}")
        # The group's chat has a message: its shard holds it, with its members' types.
        await send_text(owner, group_id, "welcome")
        person = await member(edges[0], smtp_sink, "Person")
        await person.call("/api/group?action=join", {"group_id": group_id})
        # Copies are kept only while announcements are heard: both edges hear them now.
        await until(lambda: all(edge.server.app[SESSION_COPIES].listening for edge in edges))
        made.append(Deployment(edges, owner, person, group_id, item))
        return made[-1]

    yield make
    for deployment in made:
        await deployment.close()


@pytest.fixture
async def deployment(deploy) -> Deployment:
    """A private group that hides its posts from non-members."""
    return await deploy(is_read_allowed=False)


async def test_an_approved_member_reads_the_group_at_once_through_every_edge(deployment):
    assert await deployment.feed() == [403, 403]
    assert await deployment.pages() == [403, 403]
    assert await deployment.item_chats() == [403, 403]
    assert await deployment.sends() == [CANNOT_SEND, CANNOT_SEND]

    await deployment.moderate("approve")

    assert await deployment.pages() == [200, 200]
    assert await deployment.item_chats() == [200, 200]
    assert await deployment.feed() == [200, 200]
    assert await deployment.types_in_feed() == [USER_TYPE_MEMBER, USER_TYPE_MEMBER]
    assert await deployment.sends() == [None, None]


async def test_a_blocked_member_is_refused_at_once_through_every_edge(deployment):
    await deployment.moderate("approve")
    await deployment.open_sockets()
    assert await deployment.feed() == [200, 200]
    assert await deployment.pages() == [200, 200]
    assert await deployment.on_sockets("typing") == [{"ok": True}, {"ok": True}]
    assert await deployment.on_sockets("join") == [{"ok": True}, {"ok": True}]
    assert await deployment.sends() == [None, None]

    await deployment.moderate("block")

    blocked = USER_TYPE_BLOCKED_REVERSIBLE
    assert await deployment.types_on_joining() == [blocked, blocked]
    assert await deployment.sends() == [CANNOT_SEND, CANNOT_SEND]
    assert await deployment.on_sockets("typing") == [{"errors": NOT_IN_CHAT}] * 2
    assert await deployment.on_sockets("join") == [{"errors": CANNOT_READ}] * 2
    assert await deployment.pages() == [403, 403]
    assert await deployment.feed() == [403, 403]
    assert await deployment.item_chats() == [403, 403]

    await deployment.moderate("unblock")

    assert await deployment.pages() == [200, 200]
    assert await deployment.feed() == [200, 200]
    assert await deployment.on_sockets("typing") == [{"ok": True}, {"ok": True}]
    assert await deployment.sends() == [None, None]


async def test_a_member_made_moderator_is_one_at_once_through_every_edge(deploy):
    """In a group where moderators may write and members may not."""
    deployment = await deploy(write_permission=USER_TYPE_MODERATOR)
    await deployment.moderate("approve")
    assert await deployment.types_in_feed() == [USER_TYPE_MEMBER, USER_TYPE_MEMBER]
    assert await deployment.sends() == [CANNOT_SEND, CANNOT_SEND]
    assert await deployment.delivery_details() == [403, 403]

    await deployment.moderate("make_moderator")

    assert await deployment.delivery_details() == [200, 200]
    assert await deployment.types_in_feed() == [USER_TYPE_MODERATOR, USER_TYPE_MODERATOR]
    assert await deployment.sends() == [None, None]


async def test_a_join_reaches_the_chat_shard_before_it_answers(deployment, smtp_sink):
    """Someone who asked to join a private group is refused its chat as a member awaiting
    approval (who knows the group exists), as the shard would answer after reading it anew,
    not as a stranger to a chat that does not exist."""
    newcomer = await member(deployment.edges[1], smtp_sink, "Newcomer")
    joined = await newcomer.call("/api/group?action=join", {"group_id": deployment.group_id})
    assert joined["group_membership"]["session_user_type"] == USER_TYPE_AWAITING_APPROVAL
    assert (await send_text(newcomer, deployment.group_id, "hello"))["errors"] == CANNOT_SEND


async def test_a_join_is_answered_when_the_chat_shard_does_not_answer_in_time(
    client_for, smtp_sink, caplog
):
    """Every call to a shard waits less than Ray takes to answer one: the joins (the owner's,
    as the group is made, then another person's) are stored and answered, and the shard that
    was not told in time is a warning, not a failure of the join's subscribers."""
    client = await client_for(send_answer_seconds=0.000_1)
    owner = await member(client, smtp_sink, name="Owner")
    person = await member(client, smtp_sink, name="Person")
    group_id = await new_group(owner, is_public=True)
    joined = await person.call("/api/group?action=join", {"group_id": group_id})
    assert joined["group_membership"]["session_user_type"] == USER_TYPE_MEMBER
    failures = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert failures == []
    assert any("was not told in time" in r.getMessage() for r in caplog.records)
