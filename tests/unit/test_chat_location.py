import math

import pytest

from agora.core.chat.checks import CHAT_MESSAGE_KINDS, check_location, check_outgoing
from agora.core.chat.constants import LOCATION_ADDRESS_MAX_LENGTH, MESSAGE_TYPE_BANNER
from agora.core.errors import InvalidInput
from agora.core.geo import check_coordinate
from agora.core.message_kinds import ChatKinds

NAIROBI = {"address": "Kenyatta Avenue, Nairobi", "latitude": -1.286, "longitude": 36.817}


def _outgoing(**fields):
    message = {
        "session_id": "s1",
        "src_id": "u1",
        "local_id": "l1",
        "message_type": 1003,
        "payload": "",
        "attachments": [],
        "client_created_at": None,
        **fields,
    }
    return check_outgoing(ChatKinds(CHAT_MESSAGE_KINDS), **message)


def test_a_location_keeps_its_trimmed_address_and_coordinates_as_floats():
    location = check_location({"address": "  Moi Avenue \n", "latitude": -1, "longitude": 36.8})
    assert location == {"address": "Moi Avenue", "latitude": -1.0, "longitude": 36.8}
    assert isinstance(location["latitude"], float)


def test_the_ends_of_each_range_are_places():
    for latitude, longitude in ((90, 180), (-90, -180), (0, 0)):
        location = check_location({"address": "Edge", "latitude": latitude, "longitude": longitude})
        assert (location["latitude"], location["longitude"]) == (latitude, longitude)


@pytest.mark.parametrize(
    "location",
    [
        None,
        "Nairobi",
        [NAIROBI],
        {"latitude": -1.286, "longitude": 36.817},
        {**NAIROBI, "address": "   "},
        {**NAIROBI, "address": 42},
        {**NAIROBI, "address": "x" * (LOCATION_ADDRESS_MAX_LENGTH + 1)},
        {**NAIROBI, "address": "bell\x07"},
        {**NAIROBI, "latitude": 91},
        {**NAIROBI, "latitude": -90.0001},
        {**NAIROBI, "longitude": -181},
        {**NAIROBI, "longitude": 180.5},
        {**NAIROBI, "latitude": "-1.286"},
        {**NAIROBI, "longitude": True},
        {**NAIROBI, "latitude": False},
        {**NAIROBI, "latitude": math.nan},
        {**NAIROBI, "longitude": math.inf},
        {**NAIROBI, "latitude": None},
        {"address": "Nairobi", "latitude": -1.286},
        {**NAIROBI, "zoom": 14},
    ],
)
def test_anything_but_an_address_and_a_point_on_earth_is_refused(location):
    with pytest.raises(InvalidInput) as refused:
        check_location(location)
    assert set(refused.value.errors) == {"location"}


def test_an_address_of_the_longest_length_is_kept():
    address = "x" * LOCATION_ADDRESS_MAX_LENGTH
    assert check_location({**NAIROBI, "address": address})["address"] == address


def test_a_location_message_needs_no_text():
    outgoing = _outgoing(location=NAIROBI)
    assert outgoing.payload == ""
    assert outgoing.location == NAIROBI


def test_a_message_without_text_files_or_location_is_refused():
    with pytest.raises(InvalidInput) as refused:
        _outgoing()
    assert "payload" in refused.value.errors


def test_only_chat_messages_carry_a_location():
    with pytest.raises(InvalidInput) as refused:
        _outgoing(message_type=MESSAGE_TYPE_BANNER, payload="Sale!", location=NAIROBI)
    assert set(refused.value.errors) == {"location"}


def test_a_bad_location_refuses_the_whole_message_even_with_text():
    with pytest.raises(InvalidInput):
        _outgoing(payload="Meet here", location={**NAIROBI, "latitude": 91})


def test_coordinate_refusals_name_the_field_they_are_given():
    with pytest.raises(InvalidInput) as refused:
        check_coordinate("longitude", 200, "lat_long")
    assert refused.value.errors == {"lat_long": "The longitude must be a number from -180 to 180"}
