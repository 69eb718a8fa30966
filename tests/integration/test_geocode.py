"""Reverse geocoding from the local cities dataset, through a real edge."""


async def _reverse(client, status: int, **query) -> dict:
    reply = await client.get("/api/geocode/reverse", params=query)
    body = await reply.json()
    assert reply.status == status, body
    return body


async def test_a_point_is_named_after_the_nearest_city_and_keeps_its_coordinates(client):
    body = await _reverse(client, 200, latitude="-1.3", longitude="36.8")
    assert body == {"location": {"address": "Nairobi, Kenya", "latitude": -1.3, "longitude": 36.8}}


async def test_a_point_far_from_any_city_has_no_address(client):
    # The middle of the South Pacific, thousands of km from land.
    body = await _reverse(client, 404, latitude="-40", longitude="-130")
    assert body == {"errors": {"location": "Address not found"}}


async def test_bad_numbers_are_refused(client):
    for query, field in (
        ({"latitude": "north", "longitude": "36.8"}, "latitude"),
        ({"latitude": "-1.3"}, "longitude"),
        ({"latitude": "91", "longitude": "36.8"}, "latitude"),
        ({"latitude": "-1.3", "longitude": "-181"}, "longitude"),
        ({"latitude": "nan", "longitude": "36.8"}, "latitude"),
        ({"latitude": "-1.3", "longitude": "inf"}, "longitude"),
    ):
        body = await _reverse(client, 400, **query)
        assert field in body["errors"], query
