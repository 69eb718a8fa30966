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

from tests.integration.helpers import (
    DeploymentStores,
    Member,
    bearer,
    deployment_stores,
    member,
    new_group,
)
from tests.push_standin import PushServiceStandin, Subscriber

pytestmark = pytest.mark.usefixtures("ray_cluster")

SECRET = "Secret plans, see https://example.org/plans"
FILE_TITLE = "secret-map"
VIEWERS = ("member", "waiting", "blocked", "banned", "former", "stranger")
# Long enough for a push decided with the witness's to have arrived too (one user shard
# decides on all of a message's members at once and sends their pushes together): one window
# for every viewer.
PUSH_GRACE_SECONDS = 1.0


@pytest.fixture
async def edge(client_for, push_deployment, tmp_path):
    """On the push tests' deployment: web push is one of the paths walked."""
    return await client_for(**push_deployment, var_dir=tmp_path / "var")


@pytest.fixture
async def stores(settings_for, push_deployment):
    """The stores as an operator reaches them, on the edge's deployment."""
    async with deployment_stores(settings_for(**push_deployment)) as stores:
        yield stores


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


async def _viewer(
    edge, sink, stores: DeploymentStores | None, owner: Member, group_id: str, role: str
) -> Member:
    """Someone standing in the group as `role` says (`stores` to ban them)."""
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
    if role == "banned" and stores is not None:
        # Type 40 has no action of its own in the API: set as an operator would.
        await stores.sessions.set_member(group_id, person.id, {"session_user_type": 40})
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


async def test_every_path_to_a_message_applies_the_chats_read_rule(
    edge, standin, smtp_sink, stores
):
    """Every viewer stands in one group and hears (or not) one message: a quiet window for
    the pushes the refused must not get is waited once for all of them."""
    owner = await member(edge, smtp_sink, "Owner")
    group_id = await new_group(owner)
    # A member who hears everything: once they did, the viewers would have too.
    witness = await _viewer(edge, smtp_sink, None, owner, group_id, "member")
    viewers = {
        role: await _viewer(edge, smtp_sink, stores, owner, group_id, role) for role in VIEWERS
    }
    people = [witness, *viewers.values()]
    browsers = {p.id: await _subscribe(p, standin) for p in people}
    screens = {p.id: await _screen(edge, p) for p in people}
    for role, viewer in viewers.items():
        joined = await screens[viewer.id].sio.call("join", {"session_id": group_id}, timeout=10)
        assert ("errors" not in joined) is (role == "member"), (role, joined)

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
    heard_by = [witness, viewers["member"]]
    await _until(
        lambda: all(screens[p.id].texts(group_id) and browsers[p.id].pushes for p in heard_by)
    )
    assert screens[witness.id].texts(group_id) == [SECRET]
    assert [p.payload["body"] for p in browsers[witness.id].pushes] == [f"Owner: {SECRET}"[:120]]
    await asyncio.sleep(PUSH_GRACE_SECONDS)

    try:
        for role, viewer in viewers.items():
            heard = (screens[viewer.id], browsers[viewer.id])
            await _walk(edge, role, viewer, heard, group_id, message, file_url, owner)
    finally:
        for screen in screens.values():
            await screen.sio.disconnect()


async def _walk(
    edge,
    role: str,
    viewer: Member,
    heard: tuple[Screen, Subscriber],
    group_id: str,
    message: dict[str, Any],
    file_url: str,
    owner: Member,
) -> None:
    """Every path to the message, as `viewer` (standing as `role`) takes it."""
    allowed = role == "member"
    screen, browser = heard
    # Live: the socket and web push.
    assert (screen.texts(group_id) == [SECRET]) is allowed, (role, screen.heard)
    assert bool(browser.pushes) is allowed, (role, browser.pushes)

    # The red dot, as the side menu and a reconnecting screen read it.
    me = await viewer.get("/user/me")
    assert (me["user"]["data"]["notifications_unseen_count"] > 0) is allowed, (role, me)
    summary = await screen.sio.call("unseen", {}, timeout=10)
    assert (summary["notifications_unseen_count"] > 0) is allowed, (role, summary)

    # The chat list: a member sees the newest message and its count; someone who asked or
    # was blocked sees the group (their request or block shows) but nothing of its messages.
    chats = await viewer.call("/user/chats", {})
    [row] = [s for s in chats["sessions"] if s["_id"] == group_id] or [None]
    has_row = role in ("member", "waiting", "blocked", "banned")
    assert (row is not None) is has_row, (role, chats)
    if row is not None:
        assert ("last_message" in row) is allowed, (role, row)
        assert (row["unseen_count"] > 0) is allowed, (role, row)
        assert (row["updated_at"] == message["created_at"]) is allowed, (role, row)

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
        "around": await _status(
            edge,
            viewer,
            "POST",
            "/session/messages",
            {"session_id": group_id, "around_timestamp": message["created_at"]},
        ),
        "search": await _status(
            edge, viewer, "POST", "/session/search", {"session_id": group_id, "q": "secret plans"}
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
    for name in ("messages", "around", "search", "members"):
        status, reply = shown[name]
        assert (status == 200) is allowed, (role, name, status, reply)
    if allowed:
        assert [m["payload"] for m in shown["search"][1]["inbox_messages"]] == [SECRET]
        assert [m["payload"] for m in shown["around"][1]["inbox_messages"]][-1] == SECRET
    # A message's info is the sender's and the moderators' (a plain member is refused too);
    # to someone with no tie to the private group it answers as for a chat that is not there.
    status, reply = shown["message info"]
    if role in ("former", "stranger"):
        assert status == 404 and "This chat does not exist" in str(reply), (role, reply)
    else:
        assert status == 403, (role, reply)
        assert ("You cannot read this chat" in str(reply)) is not allowed, (role, reply)
    status, lookup = shown["by id"]
    assert status == 200
    assert (group_id in lookup["sessions"]) is allowed, (role, lookup)
    assert (group_id in lookup["session_with_users"]) is allowed, (role, lookup)
    if not allowed:
        # Nothing of the message anywhere: its text, its file, its sender.
        for name, reply in shown.items():
            for part in (SECRET, file_url, FILE_TITLE, message["id"], owner.id):
                assert part not in str(reply), (role, name, part, reply)


@dataclass
class Visit:
    """A chat someone reads without following it (its room's visitor), someone who follows
    it and hears everything, someone who writes in it, and what takes the visitor's right to
    read it away."""

    chat_id: str
    visitor: Member
    follower: Member
    writer: Member
    narrow: Any


async def _group_made_hidden(edge, sink) -> Visit:
    """A private group that lets non-members read; a stranger reads along; the owner hides it."""
    owner = await member(edge, sink, "Owner")
    group_id = await new_group(owner, is_read_allowed=True)
    follower = await _viewer(edge, sink, None, owner, group_id, "member")
    stranger = await member(edge, sink, "Stranger")
    hide = {"group_id": group_id, "is_read_allowed": False}
    return Visit(
        group_id, stranger, follower, owner, lambda: owner.call("/api/group?action=update", hide)
    )


async def _member_blocked(edge, sink) -> Visit:
    """A member follows the private group's chat; the owner blocks them."""
    owner = await member(edge, sink, "Owner")
    group_id = await new_group(owner)
    follower = await _viewer(edge, sink, None, owner, group_id, "member")
    reader = await _viewer(edge, sink, None, owner, group_id, "member")
    return Visit(
        group_id, reader, follower, owner, lambda: _moderate(owner, group_id, reader, "block")
    )


async def _public_item_chat(edge, sink, owner: Member, group_id: str) -> tuple[str, str, Member]:
    """An asker's chat about the owner's post in the group, made public by the owner."""
    item = await owner.post_item(group_id, "Old piano", description="in the hall")
    asker = await member(edge, sink, "Asker")
    if not (await owner.call("/api/group", {"group_id": group_id}))["group"]["is_public"]:
        await asker.call("/api/group?action=join", {"group_id": group_id})
        await _moderate(owner, group_id, asker, "approve")
    chat_id = f"r_{item['_id']}_{asker.id}"
    first = {"dest_session_id": chat_id, "payload": "still there?", "local_id": "first"}
    assert (await asker.call("/session/send", first))["type"] == 13
    await owner.call("/session/update", {"session_id": chat_id, "is_read_allowed": True})
    return chat_id, item["_id"], asker


async def _post_deleted(edge, sink) -> Visit:
    """A stranger reads a public chat about a post in a public group; the post is deleted."""
    owner = await member(edge, sink, "Owner")
    group_id = await new_group(owner, is_public=True)
    chat_id, item_id, asker = await _public_item_chat(edge, sink, owner, group_id)
    stranger = await member(edge, sink, "Stranger")
    delete = {"item_id": item_id}
    return Visit(
        chat_id, stranger, owner, asker, lambda: owner.call("/api/item?action=delete", delete)
    )


async def _posts_group_made_hidden(edge, sink) -> Visit:
    """A stranger reads a public chat about a post in a public group; the group turns private
    and hides its posts."""
    owner = await member(edge, sink, "Owner")
    group_id = await new_group(owner, is_public=True)
    chat_id, _, asker = await _public_item_chat(edge, sink, owner, group_id)
    stranger = await member(edge, sink, "Stranger")
    hide = {"group_id": group_id, "is_public": False, "is_read_allowed": False}
    return Visit(
        chat_id, stranger, owner, asker, lambda: owner.call("/api/group?action=update", hide)
    )


async def _visitor_blocked_in_posts_group(edge, sink) -> Visit:
    """A member of a private group reads a public chat about one of its posts; the owner
    blocks them in the group."""
    owner = await member(edge, sink, "Owner")
    group_id = await new_group(owner)
    chat_id, _, asker = await _public_item_chat(edge, sink, owner, group_id)
    reader = await _viewer(edge, sink, None, owner, group_id, "member")
    return Visit(chat_id, reader, owner, asker, lambda: _moderate(owner, group_id, reader, "block"))


NARROWINGS = {
    "group made hidden": _group_made_hidden,
    "member blocked": _member_blocked,
    "post deleted": _post_deleted,
    "post's group made hidden": _posts_group_made_hidden,
    "visitor blocked in the post's group": _visitor_blocked_in_posts_group,
}


@pytest.mark.parametrize("narrowing", NARROWINGS)
async def test_a_socket_stops_hearing_a_chat_once_it_may_no_longer_read_it(
    edge, smtp_sink, narrowing
):
    visit = await NARROWINGS[narrowing](edge, smtp_sink)
    follower, visitor = await _screen(edge, visit.follower), await _screen(edge, visit.visitor)
    try:
        joined = await visitor.sio.call("join", {"session_id": visit.chat_id}, timeout=10)
        assert "errors" not in joined, joined
        await _send_text(visit.writer, visit.chat_id, "before")
        await _until(lambda: "before" in visitor.texts(visit.chat_id))
        assert "before" in visitor.texts(visit.chat_id)

        await visit.narrow()
        await _send_text(visit.writer, visit.chat_id, SECRET)
        await _until(lambda: SECRET in follower.texts(visit.chat_id))
        assert SECRET in follower.texts(visit.chat_id)
        assert SECRET not in visitor.texts(visit.chat_id), visitor.heard
        # Opening it again is refused at once: rooms are entered on fresh data, never on an
        # edge's copy of a group or membership from before the change.
        joined = await visitor.sio.call("join", {"session_id": visit.chat_id}, timeout=10)
        assert "errors" in joined, joined
    finally:
        await follower.sio.disconnect()
        await visitor.sio.disconnect()


async def _send_text(person: Member, chat_id: str, text: str) -> None:
    body = {"dest_session_id": chat_id, "payload": text, "local_id": uuid.uuid4().hex}
    assert (await person.call("/session/send", body))["type"] == 13


async def test_an_asker_blocked_in_their_chat_about_a_post_sees_none_of_its_messages(
    edge, smtp_sink
):
    """The post's owner blocks the asker in their chat: the chat stays in the asker's lists
    (the chat list, the post's chats) without its messages, their count or their time."""
    owner = await member(edge, smtp_sink, "Owner")
    group_id = await new_group(owner, is_public=True)
    item = await owner.post_item(group_id, "Old piano")
    asker = await member(edge, smtp_sink, "Asker")
    chat_id = f"r_{item['_id']}_{asker.id}"
    await _send_text(asker, chat_id, "still there?")
    await _moderate(owner, chat_id, asker, "block")
    await _send_text(owner, chat_id, SECRET)
    newest = (await owner.call("/session/messages", {"session_id": chat_id}))["inbox_messages"]

    chats = await asker.call("/user/chats", {})
    [row] = [s for s in chats["sessions"] if s["_id"] == chat_id]
    [listed] = (await asker.call(f"/api/chats/{item['_id']}", {}))["chats"]
    for view in (row, listed["session"]):
        assert (view["session_user_type"], view["unseen_count"]) == (29, 0), view
        assert view["updated_at"] != newest[-1]["created_at"], view
        assert "last_message" not in view and SECRET not in str(view), view
    status, _ = await _status(edge, asker, "POST", "/session/messages", {"session_id": chat_id})
    assert status == 403
