from pymongo import AsyncMongoClient, monitoring

from agora.store import mongo
from tests.integration.helpers import member, new_group, visitor_call


async def test_a_three_hop_share_chain_is_recorded_exactly(client, smtp_sink):
    poster = await member(client, smtp_sink, "Poster")
    first, second, third = [await member(client, smtp_sink, n) for n in ("One", "Two", "Three")]
    group_id = await new_group(poster, is_public=True)
    item = await poster.post_item(
        group_id, "Need a plumber", offer_amount=20, offer_currency="POINTS"
    )
    root = item["route_id"]
    assert item["route"] == {"_id": root, "user_id": poster.id, "prev_user_ids": []}

    async def share(sharer, route_id: str) -> str:
        reply = await sharer.get(f"/api/r/{route_id}?action=share")
        assert reply["url"].endswith(f"/r/{reply['route_id']}")
        return reply["route_id"]

    one = await share(first, root)
    two = await share(second, one)
    three = await share(third, two)

    seen = await third.get(f"/api/r/{three}")
    assert seen["item"]["route"]["user_id"] == third.id
    assert seen["item"]["route"]["prev_user_ids"] == [poster.id, first.id, second.id]
    assert [u["name"] for u in seen["route_users"]] == ["Poster", "One", "Two", "Three"]
    assert "email_id" not in str(seen["route_users"])

    # Sharing again, even from another link, gives the same link; nobody is in a chain twice.
    assert await share(second, root) == two
    assert await share(first, three) == one
    assert await share(poster, three) == root


async def test_sharing_needs_a_login_and_a_real_route(client, smtp_sink):
    poster = await member(client, smtp_sink)
    item = await poster.post_item(await new_group(poster, is_public=True), "Lamp for sale")
    visitor = await client.get(f"/api/r/{item['route_id']}?action=share")
    assert visitor.status == 401
    assert (await visitor.json())["need_user"] is True
    await poster.get("/api/r/doesnotexist?action=share", status=404)
    await poster.get("/api/r/doesnotexist", status=404)
    public = await (await client.get(f"/api/r/{item['route_id']}")).json()
    assert public["item"]["title"] == "Lamp for sale"


async def test_the_feed_shows_a_new_share_at_once(client, smtp_sink):
    poster, sharer = [await member(client, smtp_sink, n) for n in ("Poster", "Sharer")]
    group_id = await new_group(poster, is_public=True)
    item = await poster.post_item(group_id, "Lamp for sale")

    async def feed_counts() -> list[int]:
        page = await poster.call("/api/feed", {"group_id": group_id})
        return [card["share_count"] for card in page["items"]]

    # The first page is cached (the plain feed's head) before the share.
    assert await feed_counts() == [0]
    await sharer.get(f"/api/r/{item['route_id']}?action=share")
    assert await feed_counts() == [1]
    await sharer.get(f"/api/r/{item['route_id']}?action=share")
    assert await feed_counts() == [1]


class FeedReads(monitoring.CommandListener):
    """How many pages of posts an edge computed from the store."""

    def __init__(self) -> None:
        self.count = 0

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        command = event.command
        if event.command_name == "find" and command["find"] == "items":
            self.count += "feed_key" in command.get("sort", {})

    def succeeded(self, event) -> None:
        pass

    def failed(self, event) -> None:
        pass


async def test_a_share_shows_on_every_cached_page_without_computing_it_again(
    client_for, smtp_sink, monkeypatch
):
    """A share moves its post's share count, which every card of the post shows: it made
    every cached page of the group be computed again (most of the feed's reads of the store
    at 300 people). The cards take the count from the edge's copies of their posts, which
    every share announces."""
    watch = FeedReads()

    def watched(*args, event_listeners=(), **options) -> AsyncMongoClient:
        return AsyncMongoClient(*args, event_listeners=[*event_listeners, watch], **options)

    monkeypatch.setattr(mongo, "AsyncMongoClient", watched)
    client = await client_for()
    poster, sharer = [await member(client, smtp_sink, n) for n in ("Poster", "Sharer")]
    group_id = await new_group(poster, is_public=True)
    lamp = await poster.post_item(group_id, "Lamp for sale")
    chair = await poster.post_item(group_id, "Chair for sale", need_user_to_view=True)

    async def counts(**body) -> list[int]:
        page = await poster.call("/api/feed", {"group_id": group_id, **body})
        return [card["share_count"] for card in page["items"]]

    assert await counts() == [0, 0]
    assert await counts(search_text="lamp") == [0]
    before = watch.count
    await sharer.get(f"/api/r/{lamp['route_id']}?action=share")
    assert await counts() == [0, 1]
    assert await counts(search_text="lamp") == [1]
    assert watch.count == before
    # A visitor's card of a post that needs a login shows no count, shared or not.
    await sharer.get(f"/api/r/{chair['route_id']}?action=share")
    page = await visitor_call(client, "/api/feed", {"group_id": group_id})
    assert [card.get("share_count") for card in page["items"]] == [None, 1]
