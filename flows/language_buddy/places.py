"""The place names the timezone reader knows beyond zoneinfo's own, loaded from data/places.yaml.

Checked on load: every zone must be an IANA name this Python has and every key lower case,
so a typo in the data file is a `DataFileError` naming the file and the entry, not a user
silently placed in the wrong zone.
"""

from __future__ import annotations

import zoneinfo
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator

from engine import DataFileError
from flows.shared.datafile import load_yaml

PLACES_FILE = Path(__file__).parent / "data" / "places.yaml"


def check_zone(value: str) -> str:
    if value not in zoneinfo.available_timezones():
        raise ValueError(f"{value!r} is not an IANA timezone")
    return value


def check_key(value: str) -> str:
    if value != value.lower().strip():
        raise ValueError(f"{value!r} must be lower case, without surrounding spaces")
    return value


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class MultiZoneCountry(_Strict):
    name: str
    example: str


class Subdivision(_Strict):
    names: list[str] = Field(min_length=1)
    zones: list[str] = Field(min_length=1)

    @field_validator("names")
    @classmethod
    def _names(cls, v: list[str]) -> list[str]:
        return [check_key(n) for n in v]

    @field_validator("zones")
    @classmethod
    def _zones(cls, v: list[str]) -> list[str]:
        return [check_zone(z) for z in v]


class Places(_Strict):
    cities: dict[str, str]
    ambiguous_cities: dict[str, dict[str, str]]
    qualifiers: dict[str, list[str]]
    countries: dict[str, str]
    multi_zone_countries: dict[str, MultiZoneCountry]
    us_states: list[Subdivision]
    canadian_provinces: list[Subdivision]
    word_postal_codes: list[str]

    @field_validator("cities", "countries")
    @classmethod
    def _zone_table(cls, v: dict[str, str]) -> dict[str, str]:
        return {check_key(k): check_zone(z) for k, z in v.items()}

    @field_validator("ambiguous_cities")
    @classmethod
    def _ambiguous(cls, v: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
        for city, options in v.items():
            check_key(city)
            if len(options) < 2:
                raise ValueError(f"ambiguous city {city!r} needs at least two places")
            for zone in options.values():
                check_zone(zone)
        return v

    @field_validator("multi_zone_countries", "word_postal_codes")
    @classmethod
    def _keys(cls, v: dict[str, MultiZoneCountry] | list[str]) -> object:
        for k in v:
            check_key(k)
        return v


def load_places(path: Path = PLACES_FILE) -> Places:
    """The place tables of `path`; DataFileError names the file and each problem."""
    places = load_yaml(path, Places)
    qualified = {place for options in places.ambiguous_cities.values() for place in options}
    missing = sorted(qualified - set(places.qualifiers))
    if missing:
        raise DataFileError(str(path), [f"qualifiers: no entry for {m!r}" for m in missing])
    return places
