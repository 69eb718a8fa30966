import asyncio
import io

import pytest
from bson import ObjectId
from PIL import Image

from tests.integration.helpers import bearer, member, new_group, visitor_call

AMSTERDAM = [52.370216, 4.895168]


@pytest.fixture
def client(chat_client):
    """An edge of the chat tests' deployment. Joins post notices, and edits have the group's
    shard read it again: on a worker where the Ray tests have started Ray, an edge of a
    deployment of its own started a shard process for that. Nothing here counts what other
    tests do under the shared Redis prefix; the tests of limits have edges of their own."""
    return chat_client


TAGS = ["Help", "For sale", "Jobs"]


async def _public_group(owner) -> str:
    """Each test posts in a group of its own, so counts and pages are its own."""
    return await new_group(owner, is_public=True, tags=TAGS)


async def test_location_picks_the_nearest_city_group_and_creates_it_once(client):
    first = await visitor_call(client, "/api/group", {"lat_long": AMSTERDAM})
    again = await visitor_call(client, "/api/group", {"lat_long": [52.3731, 4.8922]})
    assert first["group"]["_id"] == again["group"]["_id"] == "amsterdam-nl"
    assert first["group"]["title"] == "Amsterdam"
    assert first["group"]["is_public"] is True
    cities = await (await client.get("/api/cities?q=amst")).json()
    assert cities["cities"][0]["group_id"] == "amsterdam-nl"
    bad = await visitor_call(client, "/api/group", {"lat_long": [123, 4]}, status=400)
    assert "lat_long" in bad["errors"]


async def test_unknown_group_and_missing_city_are_flagged(client):
    missing = await visitor_call(client, "/api/feed", {"group_id": "no-such-group"}, status=404)
    assert missing["errors"] == {"invalid_group": "Cannot view group, not authorized or invalid"}
    no_city = await visitor_call(client, "/api/feed", {"identify_city": True}, status=400)
    assert "select_city" in no_city["errors"]


async def test_paging_never_repeats_or_skips_while_others_post(client, smtp_sink):
    poster = await member(client, smtp_sink)
    group_id = await _public_group(poster)
    for n in range(45):
        await poster.post_item(group_id, f"Post {n}")
    expected = [f"Post {n}" for n in reversed(range(45))]

    seen: list[str] = []
    cursor = None
    while True:
        page = await poster.call("/api/feed", {"group_id": group_id, "cursor": cursor})
        seen += [item["title"] for item in page["items"]]
        # Others keep posting between page loads.
        await asyncio.gather(*(poster.post_item(group_id, "Newer") for _ in range(3)))
        if not page["has_more"]:
            break
        cursor = page["next_cursor"]
    assert seen == expected
    # The first page, kept warm while those posts came in, shows them all on top.
    first = await poster.call("/api/feed", {"group_id": group_id})
    assert [item["title"] for item in first["items"]] == ["Newer"] * 9 + expected[:11]


async def test_search_matches_all_words_and_tags_filter(client, smtp_sink):
    poster = await member(client, smtp_sink)
    group_id = await _public_group(poster)
    await poster.post_item(group_id, "Bike repair needed", description="Flat tyre", tags=["Help"])
    await poster.post_item(group_id, "Selling a bike", tags=["For sale"])
    await poster.post_item(group_id, "Garden help", description="Weekend work", tags=["Jobs"])

    async def titles(**query) -> list[str]:
        page = await poster.call("/api/feed", {"group_id": group_id, **query})
        return [item["title"] for item in page["items"]]

    assert await titles(search_text="bike") == ["Selling a bike", "Bike repair needed"]
    assert await titles(search_text="bike tyre") == ["Bike repair needed"]
    assert await titles(search_text="weekend") == ["Garden help"]
    assert await titles(tags=["For sale"]) == ["Selling a bike"]
    assert await titles(search_text="bike", tags=["Jobs"]) == []


async def test_visitors_never_receive_content_that_needs_a_login(client, smtp_sink):
    poster = await member(client, smtp_sink)
    group_id = await _public_group(poster)
    secret = await poster.post_item(
        group_id, "Members only", description="hidden words", need_user_to_view=True
    )
    feed = await visitor_call(client, "/api/feed", {"group_id": group_id})
    [shown] = feed["items"]
    assert shown["need_user_to_view"] is True
    assert "title" not in shown and "description" not in shown and "files" not in shown
    direct = await visitor_call(client, "/api/item", {"item_id": secret["_id"]})
    assert "title" not in direct["item"]
    routed = await (await client.get(f"/api/r/{secret['route_id']}")).json()
    assert "hidden words" not in str(routed)
    searched = await visitor_call(
        client, "/api/feed", {"group_id": group_id, "search_text": "hidden"}
    )
    assert "Members only" not in str(searched)
    as_member = await poster.call("/api/feed", {"group_id": group_id})
    assert as_member["items"][0]["title"] == "Members only"


async def test_only_the_owner_edits_or_deletes_and_deleted_posts_disappear(client, smtp_sink):
    owner, other = await member(client, smtp_sink), await member(client, smtp_sink, "Eve")
    group_id = await _public_group(owner)
    item = await owner.post_item(group_id, "Original", offer_amount=10, offer_currency="POINTS")
    update = {"item_id": item["_id"], "title": "Hacked"}
    await other.call("/api/item?action=update", update, status=403)
    await other.call("/api/item?action=delete", {"item_id": item["_id"]}, status=403)
    await owner.call("/api/item?action=update", {"item_id": "nope", "title": "x"}, status=404)
    assert (await owner.call("/api/item", {"item_id": item["_id"]}))["item"]["title"] == "Original"
    warm = await owner.call("/api/feed", {"group_id": group_id})
    assert [item["title"] for item in warm["items"]] == ["Original"]

    edited = await owner.call(
        "/api/item?action=update",
        {**update, "title": "Edited", "offer_amount": "12.50", "offer_currency": "POINTS"},
    )
    assert (edited["item"]["offer_amount"], edited["item"]["offer_currency"]) == (12.5, "POINTS")
    shown = await owner.call("/api/feed", {"group_id": group_id})
    assert [item["title"] for item in shown["items"]] == ["Edited"]
    deleted = await owner.call("/api/item?action=delete", {"item_id": item["_id"]})
    assert deleted["item"]["sort_order"] == -1
    feed = await owner.call("/api/feed", {"group_id": group_id})
    assert feed["items"] == []
    assert feed["group"]["data"]["num_posts"] == 0
    await owner.call("/api/item", {"item_id": item["_id"]}, status=404)
    assert (await owner.call("/api/user/items"))["items"] == []


async def test_post_validation_explains_each_field(client, smtp_sink):
    poster = await member(client, smtp_sink)
    group_id = await _public_group(poster)
    cases = [
        ({"title": "  "}, "title"),
        ({"title": "x" * 121}, "title"),
        ({"title": "ok", "offer_amount": -5, "offer_currency": "EUR"}, "offer_amount"),
        ({"title": "ok", "offer_amount": "ten", "offer_currency": "EUR"}, "offer_amount"),
        ({"title": "ok", "offer_amount": 1.234, "offer_currency": "EUR"}, "offer_amount"),
        ({"title": "ok", "offer_amount": 5, "offer_currency": "BTC"}, "offer_currency"),
        ({"title": "ok", "offer_amount": 5}, "offer_currency"),
        ({"title": "ok", "tags": ["Not a group tag"]}, "tags"),
        ({"title": "ok", "files": ["/uploads/a.jpg", "/uploads/b.jpg", "/uploads/c.jpg"]}, "files"),
        ({"title": "ok", "files": ["/uploads/not-mine.jpg"]}, "files"),
        ({"title": "ok", "secret": True}, "secret"),
    ]
    for body, field in cases:
        reply = await poster.call(
            "/api/item?action=create", {"group_id": group_id, **body}, status=400
        )
        assert field in reply["errors"], (body, reply)
    assert (await poster.call("/api/feed", {"group_id": group_id}))["items"] == []


async def test_private_groups_are_read_by_members_or_when_allowed(client, smtp_sink):
    admin, outsider = await member(client, smtp_sink), await member(client, smtp_sink, "Eve")
    group_id = await new_group(admin)
    await admin.post_item(group_id, "Club news", tags=["Books"])
    await outsider.call("/api/feed", {"group_id": group_id}, status=404)
    await visitor_call(client, "/api/feed", {"group_id": group_id}, status=404)

    joined = await outsider.call("/api/group?action=join", {"group_id": group_id})
    assert joined["group_membership"]["session_user_type"] == 30
    # Asking to join shows the asker nothing of the group yet.
    assert joined["group"] is None
    # One who asked knows of the group: refused, not told it does not exist.
    await outsider.call("/api/feed", {"group_id": group_id}, status=403)
    await outsider.call(
        "/api/item?action=create", {"group_id": group_id, "title": "Spam"}, status=403
    )

    await outsider.call(
        "/api/group?action=update", {"group_id": group_id, "is_read_allowed": True}, status=403
    )
    await admin.call("/api/group?action=update", {"group_id": group_id, "is_read_allowed": True})
    feed = await visitor_call(client, "/api/feed", {"group_id": group_id})
    assert [item["title"] for item in feed["items"]] == ["Club news"]
    assert feed["group"]["is_public"] is False


async def _answer(client, person, path: str, body: dict) -> tuple[int, dict]:
    headers = bearer(person.key) if person else {}
    reply = await client.post(path, json=body, headers=headers)
    return reply.status, await reply.json()


async def test_a_private_group_answers_those_who_may_not_see_it_as_a_missing_one(client, smtp_sink):
    """Group ids are time-ordered: scanning ids near a known group must not tell a private
    group from none. Members, and anyone once the group lets non-members read, see it."""
    admin, stranger = await member(client, smtp_sink), await member(client, smtp_sink, "Eve")
    group_id = await new_group(admin)
    missing = str(ObjectId())  # the next id of the same kind, naming nothing
    calls = [
        ("/api/group", lambda g: {"group_id": g}),
        ("/api/feed", lambda g: {"group_id": g}),
        ("/api/group?action=update", lambda g: {"group_id": g, "title": "Ours"}),
        ("/api/item?action=create", lambda g: {"group_id": g, "title": "Hello"}),
        ("/session/messages", lambda g: {"session_id": g}),
        ("/session/users", lambda g: {"session_id": g}),
        ("/session/update", lambda g: {"session_id": g, "title": "Ours"}),
        ("/session/send", lambda g: {"dest_session_id": g, "payload": "hi", "local_id": "x"}),
        ("/get_by_ids", lambda g: {"session_ids": [g], "session_with_user_ids": [g]}),
    ]
    for path, body in calls:
        for person in (stranger, None):
            hidden = await _answer(client, person, path, body(group_id))
            assert hidden == await _answer(client, person, path, body(missing)), path
            assert "Club" not in str(hidden), path
    assert (await _answer(client, admin, "/api/group", {"group_id": group_id}))[0] == 200
    await admin.call("/api/group?action=update", {"group_id": group_id, "is_read_allowed": True})
    assert (await _answer(client, stranger, "/api/group", {"group_id": group_id}))[0] == 200


async def test_a_private_groups_link_shows_its_invitation_to_signed_in_people_only(
    client, smtp_sink
):
    """Someone invited by link sees which group it is and may ask to join; nothing of what
    the group keeps to its members (description, posts, members, counts) reaches them."""
    admin, invited = await member(client, smtp_sink), await member(client, smtp_sink, "Eve")
    group_id = await new_group(admin, description="Secret plans", image="")
    await admin.post_item(group_id, "Club news")
    invitation = {"group_id": group_id}
    shown = await invited.call("/api/group?action=invitation", invitation)
    assert shown == {
        "group": {
            "_id": group_id,
            "title": shown["group"]["title"],
            "image": "",
            "is_public": False,
            "is_read_allowed": False,
        },
        "group_membership": None,
    }
    assert shown["group"]["title"].startswith("Club ")
    # The group's own reads stay refused as for a missing group until they may read it.
    await invited.call("/api/group", invitation, status=404)
    await invited.call("/session/users", {"session_id": group_id}, status=404)
    # Visitors log in first; an id naming nothing is the spec's not-viewable group to all.
    refused = await visitor_call(client, "/api/group?action=invitation", invitation, status=401)
    assert refused["need_user"] is True
    missing = await invited.call("/api/group?action=invitation", {"group_id": "0" * 24}, status=404)
    assert missing == {"errors": {"invalid_group": "Cannot view group, not authorized or invalid"}}

    await invited.call("/api/group?action=join", invitation)
    asked = await invited.call("/api/group?action=invitation", invitation)
    assert asked["group_membership"]["session_user_type"] == 30
    assert asked["group_membership"]["unseen_count"] == 0
    assert "Secret plans" not in str(asked) and "Club news" not in str(asked)


async def test_new_group_ids_tell_nothing_of_each_other(client, smtp_sink):
    """An ObjectId made by the same edge a moment later differs from the last one only in its
    counter: a group's id, which is its invitation, must not be guessed from another's."""
    admin = await member(client, smtp_sink)
    first, second = await new_group(admin), await new_group(admin)
    assert len(first) == len(second) == 24
    assert first[:18] != second[:18]


async def test_only_admins_edit_tags_and_members_are_listed(client, smtp_sink):
    admin, other = await member(client, smtp_sink), await member(client, smtp_sink, "Eve")
    group_id = await new_group(admin, is_read_allowed=True)
    await other.call("/api/group?action=update", {"group_id": group_id, "tags": ["X"]}, status=403)
    updated = await admin.call(
        "/api/group?action=update", {"group_id": group_id, "tags": ["Books", " Films ", "books"]}
    )
    assert updated["group"]["data"]["tags"] == ["Books", "Films"]
    await other.call("/api/group?action=join", {"group_id": group_id})
    listed = await admin.call("/session/users", {"session_id": group_id})
    assert listed["session_users_count"] == 2
    types = {m["user"]["name"]: m["session_user_type"] for m in listed["session_users"]}
    assert types == {"Ada": 10, "Eve": 30}


async def test_recent_groups_leave_out_groups_strangers_may_not_read(client, smtp_sink):
    admin = await member(client, smtp_sink)
    hidden = await new_group(admin)
    readable = await new_group(admin)
    await admin.call("/api/group?action=update", {"group_id": readable, "is_read_allowed": True})
    public = await new_group(admin, is_public=True)

    reply = await client.get("/api/groups/recent")
    shown = [group["_id"] for group in (await reply.json())["groups"]]
    assert public in shown and readable in shown
    assert hidden not in shown


async def test_a_burst_beyond_the_redis_pool_waits_for_a_connection(client_for, smtp_sink):
    # Five connections, three of them held by the edge's change subscriptions (users, posts,
    # groups and memberships), for 40 readers at once: each waits its turn instead of failing
    # with 503.
    client = await client_for(redis_max_connections=5)
    owner = await member(client, smtp_sink)
    group_id = await new_group(owner, is_public=True)
    await owner.post_item(group_id, "Lamp for sale")
    replies = await asyncio.gather(
        *(
            client.post("/api/feed", json={"group_id": group_id, "search_text": f"lamp {n}"})
            for n in range(40)
        )
    )
    assert [r.status for r in replies] == [200] * 40


async def test_posting_and_group_creation_are_limited_per_person(client_for, smtp_sink):
    client = await client_for(posts_per_user=3, groups_per_user=2)
    spammer = await member(client, smtp_sink)
    neighbour = await member(client, smtp_sink, "Bea")
    first_group = await _public_group(spammer)
    await _public_group(spammer)
    refused_group = await spammer.call(
        "/api/group?action=create", {"title": "One more", "tags": TAGS}, status=429
    )
    assert refused_group["errors"] == "You have created many groups lately, please try again later"

    # A post sent back for a fix costs no attempt.
    unfit = {"group_id": first_group, "title": " "}
    await spammer.call("/api/item?action=create", unfit, status=400)
    for n in range(3):
        await spammer.post_item(first_group, f"Post {n}")
    limited = await client.post(
        "/api/item?action=create",
        json={"group_id": first_group, "title": "Post 3"},
        headers=bearer(spammer.key),
    )
    assert limited.status == 429
    assert 0 < int(limited.headers["Retry-After"]) <= 3600
    refused_post = await limited.json()
    assert refused_post["errors"] == "You have posted a lot lately, please try again later"

    # Nothing refused was stored, and other people post and create groups as before.
    feed = await spammer.call("/api/feed", {"group_id": first_group})
    assert sorted(item["title"] for item in feed["items"]) == ["Post 0", "Post 1", "Post 2"]
    await neighbour.post_item(first_group, "Lamp for sale")
    await _public_group(neighbour)


async def _uploaded_picture(person) -> str:
    out = io.BytesIO()
    Image.new("RGB", (40, 40), "teal").save(out, "PNG")
    body = out.getvalue()
    link = await person.call(
        "/get_upload_url", {"file_mime_type": "image/png", "file_size": len(body)}
    )
    reply = await person.client.put(
        link["upload_data"]["url"], data=body, headers={"Content-Type": "image/png"}
    )
    assert reply.status == 200, await reply.text()
    return link["file_url"]


async def test_a_new_group_has_its_picture_and_says_who_may_write(client, smtp_sink):
    admin, other = await member(client, smtp_sink), await member(client, smtp_sink, "Eve")
    picture = await _uploaded_picture(admin)
    refused = await admin.call(
        "/api/group?action=create", {"title": "Choir", "write_permission": 5}, status=400
    )
    assert "write_permission" in refused["errors"]
    created = await admin.call(
        "/api/group?action=create",
        {"title": "Choir", "image": picture, "is_public": True, "write_permission": 10},
    )
    group = created["group"]
    assert (group["image"], group["write_permission"], group["can_write"]) == (picture, 10, True)
    assert created["group_membership"]["session_user_type"] == 10
    group_id = group["_id"]

    # Only admins write: a stranger may not post (it would make them a member), nor a member.
    assert (await other.call("/api/group", {"group_id": group_id}))["group"]["can_write"] is False
    await other.call("/api/item?action=create", {"group_id": group_id, "title": "Hi"}, status=403)
    await other.call("/api/group?action=join", {"group_id": group_id})
    await other.call("/api/item?action=create", {"group_id": group_id, "title": "Hi"}, status=403)
    await admin.post_item(group_id, "Rehearsal on Monday")

    opened = await admin.call(
        "/api/group?action=update", {"group_id": group_id, "write_permission": 20}
    )
    assert opened["group"]["write_permission"] == 20
    await other.post_item(group_id, "Can I bring a friend?")
