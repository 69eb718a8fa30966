async def test_the_demo_city_is_seeded_once_with_offers_and_a_members_only_post(client_for):
    client = await client_for(seed_demo=True, mongo_db="agora_seed_test")
    await client_for(seed_demo=True, mongo_db="agora_seed_test")
    feed = await (await client.post("/api/feed", json={"group_id": "amsterdam-nl"})).json()
    items = feed["items"]
    assert feed["group"]["data"]["num_posts"] == len(items) == 6
    assert any(i.get("offer_currency") == "POINTS" for i in items)
    hidden = [i for i in items if i["need_user_to_view"]]
    assert len(hidden) == 1 and "title" not in hidden[0]
