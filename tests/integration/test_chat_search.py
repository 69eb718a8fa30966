"""Searching a chat's history (`/session/search`) and opening a chat at one of its messages
(`/session/messages` with `around_timestamp`), against a real edge, Ray, the MongoDB-wire
server and Redis. Who may search is in the authorization matrix and the read rule's walk."""

import pytest
from pymongo import AsyncMongoClient

from agora.core.chat_search import (
    AROUND_BEFORE,
    AROUND_FROM,
    CHAT_SEARCH_MAX_WORDS,
    CHAT_SEARCH_NO_WORDS,
    CHAT_SEARCH_PAGE,
    CHAT_SEARCH_TOO_MANY_WORDS,
)
from agora.http.chat import AROUND_ALONE
from tests.integration.helpers import member, new_group, send_text, visitor_call

pytestmark = pytest.mark.usefixtures("ray_cluster")


async def _search(user, session_id: str, q: str, before: int | None = None) -> dict:
    body = {"session_id": session_id, "q": q, "less_than_timestamp": before}
    return await user.call("/session/search", body)


def _texts(page: dict) -> list[str]:
    return [m["payload"] for m in page["inbox_messages"]]


async def _messages(db, session_id: str) -> dict[str, dict]:
    return {m["payload"]: m async for m in db.messages.find({"dest_session_id": session_id})}


async def test_a_search_finds_the_messages_of_its_chat_holding_every_word_newest_first(
    chat_client, smtp_sink, settings_for
):
    owner = await member(chat_client, smtp_sink, "Owner")
    reader = await member(chat_client, smtp_sink, "Reader")
    group_id = await new_group(owner, is_public=True)
    other_id = await new_group(owner)
    for text in (
        "Bike for sale, barely used",
        "Who has a BIKE pump?",
        "The café on Main street sells bikes",
        "Selling my old bike: cheap",
        "Nothing to see here",
    ):
        await send_text(owner, group_id, text)
    await send_text(owner, other_id, "Bike for sale in another chat")

    # Whole words, any case, newest first; another chat's messages never.
    found = await _search(owner, group_id, "bike")
    assert _texts(found) == [
        "Selling my old bike: cheap",
        "Who has a BIKE pump?",
        "Bike for sale, barely used",
    ]
    assert found["words"] == ["bike"] and found["has_more"] is False
    assert found["refs"]["users"][owner.id]["name"] == "Owner"
    # Every word is required; accents and case do not matter.
    assert _texts(await _search(owner, group_id, "bike SALE")) == ["Bike for sale, barely used"]
    assert _texts(await _search(owner, group_id, "cafe")) == ["The café on Main street sells bikes"]
    assert _texts(await _search(owner, group_id, "motorbike")) == []
    # A signed-in reader of a public group who is not in it may search what they may read.
    assert _texts(await _search(reader, group_id, "pump")) == ["Who has a BIKE pump?"]

    # An edited message is found by its new text, not its old; a deleted one not at all.
    settings = settings_for()
    async with AsyncMongoClient(settings.mongo_url) as mongo:
        db = mongo[settings.mongo_db]
        stored = await _messages(db, group_id)
        await db.messages.update_one(
            {"_id": stored["Who has a BIKE pump?"]["_id"]},
            {"$set": {"payload": "Who has a tyre pump?", "edited_at": 1}},
        )
        await db.messages.update_one(
            {"_id": stored["Selling my old bike: cheap"]["_id"]}, {"$set": {"deleted_at": 1}}
        )
        # Answered from the full-text index, not by reading the chat's messages.
        plan = await db.command(
            "explain",
            {
                "find": "messages",
                "filter": {"dest_session_id": group_id, "$text": {"$search": "x"}},
            },
        )
        assert "messages_payload_fts" in str(plan["queryPlanner"]["winningPlan"]), plan
    assert _texts(await _search(owner, group_id, "bike")) == ["Bike for sale, barely used"]
    assert _texts(await _search(owner, group_id, "tyre pump")) == ["Who has a tyre pump?"]


async def test_a_search_pages_back_through_its_results(chat_client, smtp_sink):
    owner = await member(chat_client, smtp_sink, "Owner")
    group_id = await new_group(owner)
    sent = [
        (await send_text(owner, group_id, f"offer number {n}"))["inbox_message"]
        for n in range(CHAT_SEARCH_PAGE + 3)
    ]
    await send_text(owner, group_id, "unrelated")

    first = await _search(owner, group_id, "offer")
    assert _texts(first) == [m["payload"] for m in sent[::-1][:CHAT_SEARCH_PAGE]]
    assert first["has_more"] is True
    assert first["next_less_than_timestamp"] == sent[3]["created_at"]
    second = await _search(owner, group_id, "offer", first["next_less_than_timestamp"])
    assert _texts(second) == ["offer number 2", "offer number 1", "offer number 0"]
    assert second["has_more"] is False and second["next_less_than_timestamp"] is None


async def test_a_search_needs_words_and_a_signed_in_reader(chat_client, smtp_sink):
    owner = await member(chat_client, smtp_sink, "Owner")
    group_id = await new_group(owner, is_public=True)
    refused = await owner.call("/session/search", {"session_id": group_id, "q": " ?! "}, status=400)
    assert refused == {"errors": {"q": CHAT_SEARCH_NO_WORDS}}
    many = " ".join(f"w{n}" for n in range(CHAT_SEARCH_MAX_WORDS + 1))
    refused = await owner.call("/session/search", {"session_id": group_id, "q": many}, status=400)
    assert refused == {"errors": {"q": CHAT_SEARCH_TOO_MANY_WORDS}}
    refused = await owner.call(
        "/session/search", {"session_id": group_id, "q": "x" * 201}, status=400
    )
    assert "q" in refused["errors"]
    await owner.call("/session/search", {"session_id": group_id}, status=400)
    # A visitor without an account is asked to sign in, even for a public group.
    await visitor_call(chat_client, "/session/search", {"session_id": group_id, "q": "x"}, 401)
    await owner.call("/session/search", {"session_id": "nope", "q": "x"}, status=404)


async def test_a_chat_opens_at_a_message_with_some_before_and_after_it(chat_client, smtp_sink):
    owner = await member(chat_client, smtp_sink, "Owner")
    group_id = await new_group(owner)
    total = AROUND_BEFORE + AROUND_FROM + 10
    sent = [
        (await send_text(owner, group_id, f"m{n}"))["inbox_message"]["created_at"]
        for n in range(total)
    ]

    async def around(at: int, **extra) -> dict:
        body = {"session_id": group_id, "around_timestamp": at, **extra}
        return await owner.call("/session/messages", body)

    def times(page: dict) -> list[int]:
        return [m["created_at"] for m in page["inbox_messages"]]

    # In the middle: a page's half before it, the rest from it on, more both ways.
    middle = AROUND_BEFORE + 5
    page = await around(sent[middle])
    assert times(page) == sent[middle - AROUND_BEFORE : middle + AROUND_FROM]
    assert page["has_more"] is page["has_more_before"] is True
    assert page["has_more_after"] is True
    assert page["next_less_than_timestamp"] == sent[middle - AROUND_BEFORE]
    assert page["next_greater_than_timestamp"] == sent[middle + AROUND_FROM - 1]
    # The cursors continue it without a gap or an overlap, each way.
    older = await owner.call(
        "/session/messages",
        {"session_id": group_id, "less_than_timestamp": page["next_less_than_timestamp"]},
    )
    newer = await owner.call(
        "/session/messages",
        {"session_id": group_id, "greater_than_timestamp": page["next_greater_than_timestamp"]},
    )
    assert times(older)[-1] == sent[middle - AROUND_BEFORE - 1]
    assert times(newer)[0] == sent[middle + AROUND_FROM]

    # The group's first messages (its notices) lie before the first sent here: at the very
    # first message of the chat there is nothing before.
    first_stored = (await around(0))["inbox_messages"][0]["created_at"]
    page = await around(first_stored)
    assert page["has_more_before"] is False and page["next_less_than_timestamp"] is None
    assert times(page)[0] == first_stored and len(times(page)) == AROUND_FROM
    # At the newest message: nothing after it.
    page = await around(sent[-1])
    assert times(page) == sent[-AROUND_BEFORE - 1 :]
    assert page["has_more_after"] is False and page["next_greater_than_timestamp"] is None
    # Just after a message (between two, or at the next): the page from the next one on.
    page = await around(sent[middle] + 1)
    assert times(page)[AROUND_BEFORE] == sent[middle + 1]
    # Beyond the newest: the newest messages, nothing after.
    page = await around(sent[-1] + 1)
    assert times(page) == sent[-AROUND_BEFORE:] and page["has_more_after"] is False

    refused = await owner.call(
        "/session/messages",
        {"session_id": group_id, "around_timestamp": sent[0], "less_than_timestamp": sent[3]},
        status=400,
    )
    assert refused == {"errors": {"around_timestamp": AROUND_ALONE}}
