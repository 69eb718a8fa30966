"""Edits, deletions and pins of messages against real edges, Ray shards, the MongoDB-wire
server and Redis: who may make each, what the store, the pages, the chat list and the chat's
room show after it."""

import asyncio
import time
import uuid
from dataclasses import dataclass

import pytest
import ray
import socketio
from pymongo import AsyncMongoClient

from agora.core.chat.access import CANNOT_SEND, NO_SUCH_CHAT
from agora.core.chat.constants import SESSION_BUFFER_MESSAGES
from agora.core.message_changes import (
    CANNOT_PIN,
    EDIT_WINDOW_PASSED,
    MESSAGE_EDIT_WINDOW_SECONDS,
    NOT_YOURS_TO_DELETE,
    NOT_YOURS_TO_EDIT,
    PINS_FULL,
    PINS_MAX,
)
from agora.core.shard_map import shard_of
from tests.integration.helpers import (
    Member,
    bearer,
    deployment_stores,
    member,
    new_group,
    until,
)
from tests.integration.helpers import item_chat as _item_chat
from tests.integration.helpers import send_text as _send

pytestmark = pytest.mark.usefixtures("ray_cluster")


@dataclass
class Group:
    group_id: str
    people: dict[str, Member]


async def _group(client, sink) -> Group:
    """A private group: its admin, a moderator, two members, one awaiting approval."""
    admin = await member(client, sink, "Admin")
    group_id = await new_group(admin)
    people = {"admin": admin}
    for name in ("moderator", "member", "other", "waiting"):
        people[name] = await member(client, sink, name.title())
        await people[name].call("/api/group?action=join", {"group_id": group_id})
    for name in ("moderator", "member", "other"):
        await _moderate(admin, group_id, people[name], "approve")
    await _moderate(admin, group_id, people["moderator"], "make_moderator")
    return Group(group_id, people)


async def _moderate(admin: Member, group_id: str, person: Member, action: str) -> None:
    body = {"session_id": group_id, "for_user_id": person.id, "action": action}
    await admin.call("/session/user/update", body)


async def _post(person: Member, path: str, body: dict) -> tuple[int, dict]:
    reply = await person.client.post(path, json=body, headers=bearer(person.key))
    return reply.status, await reply.json()


async def _edit(person: Member, session_id: str, created_at: int, text: str):
    body = {"session_id": session_id, "created_at": created_at, "payload": text}
    return await _post(person, "/session/message/edit", body)


async def _delete(person: Member, session_id: str, created_at: int):
    body = {"session_id": session_id, "created_at": created_at}
    return await _post(person, "/session/message/delete", body)


async def _pin(person: Member, session_id: str, created_at: int, pinned: bool = True):
    body = {"session_id": session_id, "created_at": created_at, "pinned": pinned}
    return await _post(person, "/session/pin", body)


async def _sent_at(person: Member, session_id: str, text: str) -> int:
    reply = await _send(person, session_id, text)
    assert reply["type"] == 13, reply
    return reply["inbox_message"]["created_at"]


async def _page(person: Member, session_id: str) -> dict[int, dict]:
    page = await person.call("/session/messages", {"session_id": session_id})
    return {m["created_at"]: m for m in page["inbox_messages"]}


async def _listening(client, person: Member) -> tuple[socketio.AsyncClient, list[dict]]:
    """A socket of the person's, and the `message_update` events it hears."""
    heard: list[dict] = []
    sio = socketio.AsyncClient(reconnection=False)
    sio.on("message_update", heard.append)
    await sio.connect(
        str(client.make_url("/")), auth={"auth_key": person.key}, transports=["websocket"]
    )
    return sio, heard


async def test_a_sender_edits_their_message_and_everyone_sees_it_edited(chat_client, smtp_sink):
    group = await _group(chat_client, smtp_sink)
    writer, reader = group.people["member"], group.people["other"]
    at = await _sent_at(writer, group.group_id, "See you at 7")
    sio, heard = await _listening(chat_client, reader)
    try:
        status, reply = await _edit(writer, group.group_id, at, "  See you at 8\u200b ")
        assert status == 200, reply
        await until(lambda: heard)
    finally:
        await sio.disconnect()
    edited = reply["message"]
    assert (edited["payload"], edited["created_at"]) == ("See you at 8", at)
    assert edited["edited_at"] >= at
    assert heard == [{"session_id": group.group_id, "message": edited}]
    shown = (await _page(reader, group.group_id))[at]
    assert (shown["payload"], shown["edited_at"]) == ("See you at 8", edited["edited_at"])
    [row] = [
        s for s in (await reader.call("/user/chats"))["sessions"] if s["_id"] == group.group_id
    ]
    assert row["last_message"]["payload"] == "See you at 8"


async def test_an_edit_is_checked_as_a_send_and_only_the_sender_edits_within_the_window(
    chat_client, smtp_sink, mongo_url
):
    group = await _group(chat_client, smtp_sink)
    writer = group.people["member"]
    at = await _sent_at(writer, group.group_id, "hello")
    assert await _edit(writer, group.group_id, at, " \u200b ") == (
        400,
        {"errors": {"payload": "Write the message's new text"}},
    )
    status, reply = await _edit(writer, group.group_id, at, "x" * 5_001)
    assert (status, list(reply["errors"])) == (400, ["payload"])
    for other in ("admin", "moderator", "other"):
        assert await _edit(group.people[other], group.group_id, at, "mine now") == (
            403,
            {"errors": NOT_YOURS_TO_EDIT},
        )
    assert await _edit(writer, group.group_id, at + 1, "none") == (
        404,
        {"errors": {"created_at": "No such message"}},
    )
    # A message older than the window (stored as if sent 16 minutes ago).
    old_at = int(time.time() * 1000) - (MESSAGE_EDIT_WINDOW_SECONDS + 60) * 1000
    mongo = AsyncMongoClient(mongo_url)
    await mongo["agora_test"]["messages"].insert_one(
        {
            "_id": uuid.uuid4().hex[:24],
            "dest_session_id": group.group_id,
            "src_id": writer.id,
            "local_id": uuid.uuid4().hex,
            "created_at": old_at,
            "seq": 0,
            "type": 1003,
            "payload": "long ago",
        }
    )
    await mongo.close()
    assert await _edit(writer, group.group_id, old_at, "now") == (
        403,
        {"errors": EDIT_WINDOW_PASSED},
    )
    assert (await _page(writer, group.group_id))[at]["payload"] == "hello"


async def test_a_deleted_message_keeps_its_place_without_its_content(chat_client, smtp_sink):
    group = await _group(chat_client, smtp_sink)
    writer, reader = group.people["member"], group.people["other"]
    at = await _sent_at(writer, group.group_id, "oops, wrong chat")
    reply_at = (await _send(reader, group.group_id, "what?", data={"context": {"reply_to": at}}))[
        "inbox_message"
    ]["created_at"]
    last_at = await _sent_at(writer, group.group_id, "never mind")
    sio, heard = await _listening(chat_client, reader)
    try:
        assert (await _delete(writer, group.group_id, last_at))[0] == 200
        status, reply = await _delete(writer, group.group_id, at)
        await until(lambda: len(heard) == 2)
    finally:
        await sio.disconnect()
    assert status == 200, reply
    gone = reply["message"]
    assert (gone["payload"], gone["payload1"], gone["data"]) == ("", [], {})
    assert gone["deleted_at"] >= at and "deleted_by" not in gone
    assert heard[-1] == {"session_id": group.group_id, "message": gone}
    page = await _page(reader, group.group_id)
    assert list(page)[-3:] == [at, reply_at, last_at]
    assert page[at]["deleted_at"] == gone["deleted_at"] and page[at]["payload"] == ""
    # The reply still answers it (its quote shows it deleted); the chat list's last message
    # is the deleted one, as deleted; unseen counts are as before.
    assert page[reply_at]["data"] == {"context": {"reply_to": at}}
    [row] = [
        s for s in (await reader.call("/user/chats"))["sessions"] if s["_id"] == group.group_id
    ]
    assert (row["last_message"]["created_at"], row["last_message"]["payload"]) == (last_at, "")
    assert "deleted_at" in row["last_message"]
    # Deleting it again changes nothing; it cannot be edited any more.
    assert await _delete(writer, group.group_id, at) == (200, reply)
    assert (await _edit(writer, group.group_id, at, "back"))[0] == 403


async def test_moderators_delete_the_messages_of_those_below_them(chat_client, smtp_sink):
    group = await _group(chat_client, smtp_sink)
    people, group_id = group.people, group.group_id
    spam_at = await _sent_at(people["member"], group_id, "cheap watches!!!")
    status, reply = await _delete(people["moderator"], group_id, spam_at)
    assert status == 200, reply
    assert reply["message"]["deleted_by"] == "moderator"
    other_at = await _sent_at(people["other"], group_id, "more spam")
    assert (await _delete(people["admin"], group_id, other_at))[1]["message"]["deleted_by"] == (
        "admin"
    )
    # Members delete only their own; a moderator not the admin's.
    admin_at = await _sent_at(people["admin"], group_id, "rules: be kind")
    mod_at = await _sent_at(people["moderator"], group_id, "welcome")
    for who, at in (("member", admin_at), ("other", mod_at), ("moderator", admin_at)):
        assert await _delete(people[who], group_id, at) == (403, {"errors": NOT_YOURS_TO_DELETE})
    assert (await _delete(people["admin"], group_id, mod_at))[0] == 200


async def test_who_may_change_messages_is_who_may_send_there(
    chat_client, smtp_sink, settings_for, chat_prefix
):
    """The waiting and the blocked are refused as their sends are; strangers and former
    members of a private group are told it does not exist, as for a missing one (and as
    their sends are)."""
    group = await _group(chat_client, smtp_sink)
    people, group_id = group.people, group.group_id
    blocked_at = await _sent_at(people["other"], group_id, "before the block")
    former_at = await _sent_at(people["member"], group_id, "before I left")
    await _moderate(people["admin"], group_id, people["other"], "block")
    async with deployment_stores(settings_for(redis_prefix=chat_prefix)) as stores:
        await stores.sessions.remove_member(group_id, people["member"].id)
    namespace = f"agora-agora_test-{chat_prefix}"
    await ray.get_actor(
        f"session-shard-{shard_of(group_id, 2)}", namespace=namespace
    ).forget.remote(group_id)
    stranger = await member(chat_client, smtp_sink, "Stranger")
    hidden = (404, {"errors": {"session_id": NO_SUCH_CHAT}})
    assert await _edit(people["other"], group_id, blocked_at, "changed") == (
        403,
        {"errors": CANNOT_SEND},
    )
    assert await _delete(people["other"], group_id, blocked_at) == (403, {"errors": CANNOT_SEND})
    for person in (people["member"], stranger):
        assert await _edit(person, group_id, former_at, "x") == hidden
        assert await _delete(person, group_id, former_at) == hidden
        assert await _pin(person, group_id, former_at) == hidden
    assert await _delete(stranger, "f" * 24, former_at) == hidden
    assert await _pin(people["waiting"], group_id, former_at) == (403, {"errors": CANNOT_PIN})
    page = await _page(people["admin"], group_id)
    assert (page[blocked_at]["payload"], page[former_at]["payload"]) == (
        "before the block",
        "before I left",
    )


async def test_group_pins_are_the_moderators_newest_first_and_go_with_a_deleted_message(
    chat_client, smtp_sink
):
    group = await _group(chat_client, smtp_sink)
    people, group_id = group.people, group.group_id
    times = [await _sent_at(people["member"], group_id, f"note {n}") for n in range(PINS_MAX + 1)]
    assert await _pin(people["member"], group_id, times[0]) == (403, {"errors": CANNOT_PIN})
    sio, heard = await _listening(chat_client, people["other"])
    try:
        status, reply = await _pin(people["moderator"], group_id, times[0])
        await until(lambda: heard)
    finally:
        await sio.disconnect()
    assert status == 200, reply
    assert [m["created_at"] for m in reply["pins"]] == [times[0]]
    assert heard[0]["pins"] == reply["pins"] and heard[0]["message"]["created_at"] == times[0]
    for at in times[1:PINS_MAX]:
        assert (await _pin(people["admin"], group_id, at))[0] == 200
    assert await _pin(people["admin"], group_id, times[PINS_MAX]) == (403, {"errors": PINS_FULL})
    pins = (await people["other"].get(f"/session/pins?session_id={group_id}"))["pins"]
    assert [m["created_at"] for m in pins] == times[PINS_MAX - 1 :: -1]
    # Unpinned, and a deleted message's pin gone with it.
    assert (await _pin(people["admin"], group_id, times[1], pinned=False))[0] == 200
    deleted = await _delete(people["member"], group_id, times[2])
    assert deleted[0] == 200
    pins = (await people["other"].get(f"/session/pins?session_id={group_id}"))["pins"]
    assert times[1] not in [m["created_at"] for m in pins]
    assert times[2] not in [m["created_at"] for m in pins]
    assert len(pins) == PINS_MAX - 2
    # The group's readers only.
    stranger = await member(chat_client, smtp_sink, "Stranger")
    reply = await chat_client.get(
        f"/session/pins?session_id={group_id}", headers=bearer(stranger.key)
    )
    assert reply.status == 404


async def test_in_an_item_chat_both_sides_pin_and_each_deletes_only_their_own(
    chat_client, smtp_sink
):
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    asked_at = await _sent_at(asker, session_id, "Is it still available?")
    answer_at = await _sent_at(owner, session_id, "Yes")
    assert (await _pin(owner, session_id, asked_at))[0] == 200
    status, reply = await _pin(asker, session_id, answer_at)
    assert status == 200, reply
    assert [m["created_at"] for m in reply["pins"]] == [answer_at, asked_at]
    assert await _delete(owner, session_id, asked_at) == (403, {"errors": NOT_YOURS_TO_DELETE})
    assert await _edit(owner, session_id, asked_at, "no") == (403, {"errors": NOT_YOURS_TO_EDIT})
    assert (await _delete(asker, session_id, asked_at))[0] == 200
    pins = (await owner.get(f"/session/pins?session_id={session_id}"))["pins"]
    assert [m["created_at"] for m in pins] == [answer_at]


async def test_changes_to_a_message_older_than_the_shards_memory_reach_the_store(
    chat_client, smtp_sink
):
    """A message the shard's buffer no longer holds is changed in the store (and the page
    that reads it from there shows it)."""
    owner, asker, item = await _item_chat(chat_client, smtp_sink)
    session_id = f"r_{item['_id']}_{asker.id}"
    first_at = await _sent_at(asker, session_id, "the first")
    await asyncio.gather(
        *(_send(owner, session_id, f"n{n}") for n in range(SESSION_BUFFER_MESSAGES + 1))
    )
    status, reply = await _edit(asker, session_id, first_at, "the first, edited")
    assert status == 200, reply
    page = await asker.call(
        "/session/messages", {"session_id": session_id, "less_than_timestamp": first_at + 1}
    )
    assert page["inbox_messages"][-1]["payload"] == "the first, edited"
