"""Places on the map: coordinates as people send them, and how a place is named."""

import math
from typing import Any

from agora.core.errors import InvalidInput

# The product spec's numbers for geo (those the web app shares are written out by
# `python -m agora constants`, agora/generate/web_constants.py).
CITY_SEARCH_RESULTS = 10
# Reverse geocoding names the nearest city of the local dataset only this close to the point:
# farther away, a city's name would mislead more than no address at all.
GEOCODE_RADIUS_KM = 50


COORDINATE_LIMITS = {"latitude": 90, "longitude": 180}


def check_coordinate(name: str, value: Any, field: str) -> float:
    """`name` is latitude or longitude; a refusal is reported under `field`."""
    limit = COORDINATE_LIMITS[name]
    # JSON true is an int to Python, and json.loads reads NaN and Infinity: neither is a place.
    is_number = isinstance(value, int | float) and not isinstance(value, bool)
    if not is_number or not math.isfinite(value) or abs(value) > limit:
        raise InvalidInput({field: f"The {name} must be a number from -{limit} to {limit}"})
    return float(value)


def city_address(city: str, country: str) -> str:
    """The address reverse geocoding gives: the nearest city and its country."""
    return f"{city}, {country}"
