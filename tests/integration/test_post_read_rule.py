"""One read rule for posts: every path that shows a post or opens a chat about it refuses a
post of a private group that hides its posts to everyone but the group's members."""

import pytest
import socketio

from tests.integration.helpers import bearer, member, new_group

pytestmark = pytest.mark.usefixtures("ray_cluster")

SECRET = "Secret plans"


async def _private_post(client, sink):
    """A post in a private group (posts hidden from non-members) and one viewer of each kind;
    a guest is None."""
    owner = await member(client, sink, "Owner")
    group_id = await new_group(owner)
    viewers = {"stranger": await member(client, sink, "Stranger"), "guest": None}
    for name in ("member", "waiting", "blocked"):
        viewers[name] = await member(client, sink, name.title())
        await viewers[name].call("/api/group?action=join", {"group_id": group_id})
    for name, action in (("member", "approve"), ("blocked", "approve"), ("blocked", "block")):
        await owner.call(
            "/session/user/update",
            {"session_id": group_id, "for_user_id": viewers[name].id, "action": action},
        )
    item = await owner.post_item(group_id, SECRET, description="only for members")
    # The member asked about the post; the owner made that chat public. Its session shows
    # the post's title and description, so it is read under the post's rule.
    public_chat = f"r_{item['_id']}_{viewers['member'].id}"
    first = {"dest_session_id": public_chat, "payload": "hi", "local_id": "first"}
    assert (await viewers["member"].call("/session/send", first))["type"] == 13
    await owner.call("/session/update", {"session_id": public_chat, "is_read_allowed": True})
    return owner, viewers, group_id, {**item, "public_chat": public_chat}


async def _call(client, viewer, method: str, path: str, body: dict | None = None):
    headers = bearer(viewer.key) if viewer else {}
    if method == "GET":
        reply = await client.get(path, headers=headers)
    else:
        reply = await client.post(path, json=body or {}, headers=headers)
    return reply.status, await reply.json()


async def _socket_call(client, viewer, event: str, body: dict) -> dict:
    sio = socketio.AsyncClient(reconnection=False)
    auth = {"auth_key": viewer.key} if viewer else None
    await sio.connect(str(client.make_url("/")), auth=auth, transports=["websocket"])
    try:
        return await sio.call(event, body, timeout=10)
    finally:
        await sio.disconnect()


def _paths(item: dict, group_id: str, viewer) -> list[tuple[str, str, str, dict | None]]:
    """(name, method, path, body) of every path that shows the post or opens its chat."""
    return [
        ("item", "POST", "/api/item", {"item_id": item["_id"]}),
        ("item in group", "POST", "/api/item", {"item_id": item["_id"], "group_id": group_id}),
        ("share route", "GET", f"/api/r/{item['route_id']}", None),
        ("share link", "GET", f"/api/r/{item['route_id']}?action=share", None),
        ("feed", "POST", "/api/feed", {"group_id": group_id}),
        ("lookup by id", "POST", "/get_by_ids", {"item_ids": [item["_id"]]}),
        ("item chats", "POST", f"/api/chats/{item['_id']}", {"route_id": item["route_id"]}),
        ("public chat by id", "POST", "/get_by_ids", {"session_ids": [item["public_chat"]]}),
        ("public chat messages", "POST", "/session/messages", {"session_id": item["public_chat"]}),
        ("public chat members", "POST", "/session/users", {"session_id": item["public_chat"]}),
    ]


def _shows_post(name: str, status: int, reply: dict, item: dict) -> bool:
    if status != 200:
        return False
    if name == "feed":
        return any(i["_id"] == item["_id"] for i in reply["items"])
    if name == "lookup by id":
        return item["_id"] in reply["items"]
    if name == "share link":
        return bool(reply.get("url"))
    if name == "public chat by id":
        return item["public_chat"] in reply["sessions"]
    if name.startswith("public chat"):
        return True
    return reply["item"]["title"] == SECRET


@pytest.mark.parametrize("viewer_name", ["member", "stranger", "guest", "waiting", "blocked"])
async def test_every_path_to_a_post_applies_the_groups_read_rule(
    chat_client, smtp_sink, viewer_name
):
    owner, viewers, group_id, item = await _private_post(chat_client, smtp_sink)
    viewer = viewers[viewer_name]
    allowed = viewer_name == "member"
    for name, method, path, body in _paths(item, group_id, viewer):
        status, reply = await _call(chat_client, viewer, method, path, body)
        assert _shows_post(name, status, reply, item) is allowed, (name, status, reply)
        assert SECRET not in str(reply) or allowed, (name, reply)

    joined = await _socket_call(chat_client, viewer, "join", {"session_id": item["public_chat"]})
    assert ("errors" not in joined) is allowed, joined

    # Sending the first message of an item chat (over HTTP and the socket) opens a chat
    # about the post: only for those who may read it.
    chat_id = f"r_{item['_id']}_{viewer.id if viewer else 'guest'}"
    for local_id, send in (
        ("over-http", lambda b: _call(chat_client, viewer, "POST", "/session/send", b)),
        ("over-socket", lambda b: _socket_call(chat_client, viewer, "send", b)),
    ):
        body = {"dest_session_id": chat_id, "payload": "is it still there?", "local_id": local_id}
        reply = await send(body)
        reply = reply[1] if isinstance(reply, tuple) else reply
        assert (reply.get("type") == 13) is allowed, (local_id, reply)
        assert SECRET not in str(reply) or allowed
    owner_chats = await owner.call(f"/api/chats/{item['_id']}", {})
    asked = [c["session"]["_id"] for c in owner_chats["chats"] if c["session"]["_id"] == chat_id]
    assert asked == ([chat_id] if allowed else [])
    lookup = await owner.call("/get_by_ids", {"session_ids": [chat_id]})
    assert (chat_id in lookup["sessions"]) is allowed
