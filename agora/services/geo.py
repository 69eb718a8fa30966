"""Geocoding for the chat's address picker, from the local cities dataset (no outside service).

Forward search is the city search (`GroupService.search_cities`); this module turns a point
into an address.
"""

from collections.abc import Awaitable, Callable
from typing import Any

from agora.core.errors import NotFound
from agora.core.geo import GEOCODE_RADIUS_KM, check_coordinate, city_address
from agora.integrations.geonames import CityIndex

ADDRESS_NOT_FOUND = "Address not found"


class GeoService:
    def __init__(self, cities: Callable[[], Awaitable[CityIndex]]) -> None:
        # The groups' city index, loaded once on first use by whichever feature needs it first.
        self.cities = cities

    async def reverse(self, latitude: float, longitude: float) -> dict[str, Any]:
        """The nearest city within GEOCODE_RADIUS_KM names the place; the point stays as asked."""
        latitude = check_coordinate("latitude", latitude, "latitude")
        longitude = check_coordinate("longitude", longitude, "longitude")
        city = (await self.cities()).nearest_within(latitude, longitude, GEOCODE_RADIUS_KM)
        if city is None:
            raise NotFound({"location": ADDRESS_NOT_FOUND})
        return {
            "location": {
                "address": city_address(city.name, city.country_name),
                "latitude": latitude,
                "longitude": longitude,
            }
        }
