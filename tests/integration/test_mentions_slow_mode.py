"""Mentions and slow mode against real edges, a real local Ray cluster, the MongoDB-wire server
and Redis."""

import uuid

import pytest

from agora.core.mentions import EVERYONE_ONLY_FOR_MODERATORS, MENTIONS_MAX
from tests.integration.helpers import member, new_group
from tests.integration.helpers import send_text as _send

pytestmark = pytest.mark.usefixtures("ray_cluster")


async def _group(client, sink):
    """A public group of an admin (Gita) with two members (Ravi, Rania) and a stranger."""
    admin = await member(client, sink, "Gita")
    ravi = await member(client, sink, "Ravi Kumar")
    rania = await member(client, sink, "Rania")
    stranger = await member(client, sink, "Ravel")
    group_id = await new_group(admin, is_public=True)
    for person in (ravi, rania):
        await person.call("/api/group?action=join", {"group_id": group_id})
    return admin, ravi, rania, stranger, group_id


async def _row(person, session_id: str) -> dict:
    chats = await person.call("/user/chats", {})
    [row] = [s for s in chats["sessions"] if s["_id"] == session_id]
    return row


def _mentioning(*mentions: str) -> dict:
    return {"data": {"mentions": list(mentions)}}


async def test_a_message_keeps_the_members_it_mentions_and_counts_for_them_until_read(
    chat_client, smtp_sink
):
    admin, ravi, rania, stranger, group_id = await _group(chat_client, smtp_sink)
    names = (ravi.id, stranger.id, admin.id, "someone-else", ravi.id)
    sent = await _send(admin, group_id, "@Ravi see this", **_mentioning(*names))
    # Only members who read the chat are kept, each once, never the sender.
    assert sent["inbox_message"]["data"]["mentions"] == [ravi.id]
    await _send(admin, group_id, "@Ravi and this", **_mentioning(ravi.id))
    await _send(admin, group_id, "and nobody")

    row = await _row(ravi, group_id)
    # Unseen: the three, and Rania's joining's notice.
    assert (row["unseen_count"], row["mention_count"]) == (4, 2)
    assert (await _row(rania, group_id))["mention_count"] == 0
    page = await ravi.call("/session/messages", {"session_id": group_id})
    assert [m["data"].get("mentions") for m in page["inbox_messages"][-3:]] == [
        [ravi.id],
        [ravi.id],
        None,
    ]
    # Reading the newest page marks the chat read: both counts are zero.
    row = await _row(ravi, group_id)
    assert (row["unseen_count"], row["mention_count"]) == (0, 0)
    await _send(admin, group_id, "@Ravi again", **_mentioning(ravi.id))
    assert (await _row(ravi, group_id))["mention_count"] == 1


async def test_a_muted_chat_lights_the_red_dot_only_for_its_mentions(chat_client, smtp_sink):
    """Muted means "only mentions": for the red dot on Chats as for pushes."""
    admin, ravi, _, _, group_id = await _group(chat_client, smtp_sink)
    await ravi.call("/session/user/update", {"session_id": group_id, "notification_flag": 30})
    await ravi.call("/user/chats", {})  # opening Chats: what came before is seen

    async def red_dot() -> int:
        return (await ravi.get("/user/me"))["user"]["data"]["notifications_unseen_count"]

    await _send(admin, group_id, "news for all")
    assert await red_dot() == 0
    await _send(admin, group_id, "@Ravi look", **_mentioning(ravi.id))
    await _send(admin, group_id, "@all meeting at six", **_mentioning("all"))
    assert await red_dot() == 2
    await ravi.call("/user/chats", {})
    assert await red_dot() == 0


async def test_everyone_is_mentioned_only_by_admins_and_moderators(chat_client, smtp_sink):
    admin, ravi, rania, _, group_id = await _group(chat_client, smtp_sink)
    for everyone in ("all", "here"):
        refused = await _send(ravi, group_id, f"@{everyone} hi", **_mentioning(everyone))
        assert refused == {"type": -1, "errors": {"mentions": EVERYONE_ONLY_FOR_MODERATORS}}
    assert (await _row(rania, group_id))["unseen_count"] == 0

    sent = await _send(admin, group_id, "@all meeting", **_mentioning("all", ravi.id))
    assert sent["inbox_message"]["data"]["mentions"] == ["all", ravi.id]
    assert (await _row(rania, group_id))["mention_count"] == 1
    assert (await _row(ravi, group_id))["mention_count"] == 1  # one message, counted once
    assert (await _row(admin, group_id))["mention_count"] == 0  # the sender read their own

    body = {"session_id": group_id, "for_user_id": ravi.id, "action": "make_moderator"}
    await admin.call("/session/user/update", body)
    sent = await _send(ravi, group_id, "@here lunch", **_mentioning("here"))
    assert sent["type"] == 13
    assert (await _row(rania, group_id))["mention_count"] == 2


async def test_mentions_are_checked(chat_client, smtp_sink):
    admin, _, _, _, group_id = await _group(chat_client, smtp_sink)
    too_many = [uuid.uuid4().hex for _ in range(MENTIONS_MAX + 1)]
    for mentions, field in ((too_many, "mentions"), ("all", "mentions"), ([7], "mentions")):
        refused = await _send(admin, group_id, "hi", data={"mentions": mentions})
        assert refused["type"] == -1 and field in refused["errors"], refused
    sent = await _send(admin, group_id, "hi", data={"mentions": []})
    assert "mentions" not in sent["inbox_message"]["data"]


async def test_the_picker_finds_the_chats_readers_by_name(chat_client, smtp_sink):
    _, ravi, rania, stranger, group_id = await _group(chat_client, smtp_sink)
    found = await rania.call("/session/users", {"session_id": group_id, "search": "ra"})
    names = [m["user"]["name"] for m in found["session_users"]]
    # Names starting with it first; the stranger (Ravel) is no member.
    assert names == ["Rania", "Ravi Kumar"]
    assert {m["user_id"] for m in found["session_users"]} == {rania.id, ravi.id}
    found = await rania.call("/session/users", {"session_id": group_id, "search": "KUM"})
    assert [m["user"]["name"] for m in found["session_users"]] == ["Ravi Kumar"]
    body = {"session_id": group_id, "search": "x" * 65}
    await stranger.call("/session/users", body, status=400)


async def test_slow_mode_refuses_a_members_early_message_but_not_an_admins_or_a_resend(
    chat_client, smtp_sink
):
    admin, ravi, rania, _, group_id = await _group(chat_client, smtp_sink)
    first = await _send(ravi, group_id, "before slow mode", local_id="ravi-1")
    # Set after Ravi wrote: the shard reads the chat again, and Ravi's last message from
    # the store.
    updated = await admin.call("/session/update", {"session_id": group_id, "slow_mode_seconds": 30})
    assert updated["session"]["slow_mode_seconds"] == 30
    assert (await _row(ravi, group_id))["slow_mode_seconds"] == 30

    early = await _send(ravi, group_id, "too soon")
    assert early["type"] == -1
    assert early["errors"]["slow_mode"].startswith("Slow mode is on: you can send again in ")
    assert 0 < early["retry_after_ms"] <= 30_000
    again = await _send(ravi, group_id, "before slow mode", local_id="ravi-1")
    assert again["inbox_message"]["id"] == first["inbox_message"]["id"]

    # Another member's first message, and then not their second; admins are not slowed.
    assert (await _send(rania, group_id, "one"))["type"] == 13
    assert (await _send(rania, group_id, "two"))["type"] == -1
    for text in ("admin one", "admin two"):
        assert (await _send(admin, group_id, text))["type"] == 13

    await admin.call("/session/update", {"session_id": group_id, "slow_mode_seconds": 0})
    assert (await _send(ravi, group_id, "off again"))["type"] == 13


async def test_slow_mode_is_an_admins_choice_among_the_offered_ones(chat_client, smtp_sink):
    admin, ravi, _, _, group_id = await _group(chat_client, smtp_sink)
    body = {"session_id": group_id, "slow_mode_seconds": 30}
    await ravi.call("/session/update", body, status=403)
    for wrong in (7, -1, True, "30"):
        reply = await admin.call(
            "/session/update", {**body, "slow_mode_seconds": wrong}, status=400
        )
        assert "slow_mode_seconds" in reply["errors"], reply
    assert (await _row(ravi, group_id))["slow_mode_seconds"] == 0
