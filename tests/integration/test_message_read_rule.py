"""One read rule for a chat's messages: every path that shows any part of a message (its
text, sender, attachment, when it came, how many are unseen) shows it only to those who may
read the chat.

A private group that hides its content is walked, over HTTP, the socket and web push, as a
member (who sees everything), a member awaiting approval (30), a blocked one (29) and a
banned one (40), a former one (asked to join and was turned away: the membership is gone)
and a stranger.
"""

import asyncio
import io
import uuid
from dataclasses import dataclass, field
from typing import Any

import pytest
import socketio
from PIL import Image
from pymongo import AsyncMongoClient

from tests.integration.helpers import Member, bearer, member, new_group
from tests.push_standin import PushServiceStandin, Subscriber

pytestmark = pytest.mark.usefixtures("ray_cluster")

SECRET = "Secret plans, see https://example.org/plans"
FILE_TITLE = "secret-map"
VIEWERS = ("member", "waiting", "blocked", "banned", "former", "stranger")
# Long enough for a push decided with the witness's to have arrived too (one user shard
# decides on all of a message's members at once and sends their pushes together).
PUSH_GRACE_SECONDS = 1.0


@pytest.fixture(scope="module")
def read_rule_prefix() -> str:
    """One set of shard actors for the module (each is a process)."""
    return f"test:readrule:{uuid.uuid4().hex[:8]}:"


@pytest.fixture
async def edge(client_for, read_rule_prefix, tmp_path):
    return await client_for(
        redis_prefix=read_rule_prefix,
        session_shards=1,
        user_shards=1,
        push_enabled=True,
        push_allow_http=True,
        var_dir=tmp_path / "var",
    )


@pytest.fixture
async def standin():
    service = await PushServiceStandin().start()
    yield service
    await service.close()


@dataclass
class Screen:
    """A signed-in socket and the chat messages it heard."""

    sio: socketio.AsyncClient
    heard: list[dict[str, Any]] = field(default_factory=list)

    def texts(self, session_id: str) -> list[str]:
        return [m.get("payload", "") for m in self.heard if m.get("dest_session_id") == session_id]


async def _screen(edge, person: Member) -> Screen:
    sio = socketio.AsyncClient(reconnection=False)
    screen = Screen(sio)
    sio.on("message", lambda message: screen.heard.append(message))
    sio.on("messages", lambda messages: screen.heard.extend(messages))
    await sio.connect(
        str(edge.make_url("/")), auth={"auth_key": person.key}, transports=["websocket"]
    )
    return screen


async def _subscribe(person: Member, standin: PushServiceStandin) -> Subscriber:
    browser = standin.subscriber()
    body = {"push_token": browser.token(), "os_type": "WEB_PUSH"}
    assert await person.call("/update_push_token", body) == {"success": True}
    return browser


async def _attachment(edge, owner: Member) -> str:
    link = await owner.call(
        "/get_upload_url", {"file_mime_type": "image/png", "file_name_hint": FILE_TITLE}
    )
    picture = io.BytesIO()
    Image.new("RGB", (8, 8), "navy").save(picture, "PNG")
    headers = {"Content-Type": "image/png"}
    stored = await edge.put(link["upload_data"]["url"], data=picture.getvalue(), headers=headers)
    assert stored.status == 200, await stored.text()
    return link["file_url"]


async def _moderate(owner: Member, group_id: str, person: Member, *actions: str) -> None:
    for action in actions:
        await owner.call(
            "/session/user/update",
            {"session_id": group_id, "for_user_id": person.id, "action": action},
        )


async def _viewer(edge, sink, mongo_url, owner: Member, group_id: str, role: str) -> Member:
    """Someone standing in the group as `role` says."""
    person = await member(edge, sink, role.title())
    if role == "stranger":
        return person
    await person.call("/api/group?action=join", {"group_id": group_id})
    steps = {
        "member": ("approve",),
        "waiting": (),
        "blocked": ("approve", "block"),
        "banned": ("approve",),
        "former": ("reject",),
    }
    await _moderate(owner, group_id, person, *steps[role])
    if role == "banned":
        # Type 40 has no action of its own in the API: set as an operator would.
        mongo = AsyncMongoClient(mongo_url)
        await mongo["agora_test"]["session_users"].update_one(
            {"session_id": group_id, "user_id": person.id}, {"$set": {"session_user_type": 40}}
        )
        await mongo.close()
    return person


async def _until(condition, seconds: float = 15.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)


async def _status(edge, person: Member, method: str, path: str, body: dict | None = None):
    if method == "GET":
        reply = await edge.get(path, headers=bearer(person.key))
    else:
        reply = await edge.post(path, json=body or {}, headers=bearer(person.key))
    return reply.status, await reply.json()


@pytest.mark.parametrize("role", VIEWERS)
async def test_every_path_to_a_message_applies_the_chats_read_rule(
    edge, standin, smtp_sink, mongo_url, role
):
    owner = await member(edge, smtp_sink, "Owner")
    group_id = await new_group(owner)
    # A member who hears everything: once they did, the viewer would have too.
    witness = await _viewer(edge, smtp_sink, mongo_url, owner, group_id, "member")
    viewer = await _viewer(edge, smtp_sink, mongo_url, owner, group_id, role)
    allowed = role == "member"
    browsers = {p.id: await _subscribe(p, standin) for p in (witness, viewer)}
    screens = {p.id: await _screen(edge, p) for p in (witness, viewer)}
    joined = await screens[viewer.id].sio.call("join", {"session_id": group_id}, timeout=10)
    assert ("errors" not in joined) is allowed, joined

    file_url = await _attachment(edge, owner)
    sent = await owner.call(
        "/session/send",
        {
            "dest_session_id": group_id,
            "payload": SECRET,
            "payload1": [file_url],
            "local_id": uuid.uuid4().hex,
        },
    )
    message = sent["inbox_message"]
    await _until(lambda: screens[witness.id].texts(group_id) and browsers[witness.id].pushes)
    assert screens[witness.id].texts(group_id) == [SECRET]
    assert [p.payload["body"] for p in browsers[witness.id].pushes] == [f"Owner: {SECRET}"[:120]]
    if allowed:
        await _until(lambda: screens[viewer.id].texts(group_id) and browsers[viewer.id].pushes)
    else:
        await asyncio.sleep(PUSH_GRACE_SECONDS)

    # Live: the socket and web push.
    assert (screens[viewer.id].texts(group_id) == [SECRET]) is allowed
    assert bool(browsers[viewer.id].pushes) is allowed, browsers[viewer.id].pushes

    # The red dot, as the side menu and a reconnecting screen read it.
    me = await viewer.get("/user/me")
    assert (me["user"]["data"]["notifications_unseen_count"] > 0) is allowed, me
    summary = await screens[viewer.id].sio.call("unseen", {}, timeout=10)
    assert (summary["notifications_unseen_count"] > 0) is allowed, summary

    # The chat list: a member sees the newest message and its count; someone who asked or
    # was blocked sees the group (their request or block shows) but nothing of its messages.
    chats = await viewer.call("/user/chats", {})
    [row] = [s for s in chats["sessions"] if s["_id"] == group_id] or [None]
    has_row = role in ("member", "waiting", "blocked", "banned")
    assert (row is not None) is has_row, chats
    if row is not None:
        assert ("last_message" in row) is allowed, row
        assert (row["unseen_count"] > 0) is allowed, row
        assert (row["updated_at"] == message["created_at"]) is allowed, row

    # Pages, message info, members and lookups by id.
    shown = {
        "chat list": chats,
        "me": me,
        "unseen": summary,
        "messages": await _status(
            edge, viewer, "POST", "/session/messages", {"session_id": group_id}
        ),
        "message info": await _status(
            edge,
            viewer,
            "GET",
            f"/session/im_info?session_id={group_id}&created_at={message['created_at']}",
        ),
        "members": await _status(edge, viewer, "POST", "/session/users", {"session_id": group_id}),
        "by id": await _status(
            edge,
            viewer,
            "POST",
            "/get_by_ids",
            {"session_ids": [group_id], "session_with_user_ids": [group_id]},
        ),
    }
    for name in ("messages", "members"):
        status, reply = shown[name]
        assert (status == 200) is allowed, (name, status, reply)
    # A message's info is the sender's and the moderators' (a plain member is refused too).
    status, reply = shown["message info"]
    assert status == 403, reply
    assert ("You cannot read this chat" in str(reply)) is not allowed, reply
    status, lookup = shown["by id"]
    assert status == 200
    assert (group_id in lookup["sessions"]) is allowed, lookup
    assert (group_id in lookup["session_with_users"]) is allowed, lookup
    if not allowed:
        # Nothing of the message anywhere: its text, its file, its sender.
        for name, reply in shown.items():
            for part in (SECRET, file_url, FILE_TITLE, message["id"], owner.id):
                assert part not in str(reply), (name, part, reply)
    for screen in screens.values():
        await screen.sio.disconnect()
