"""Timezones named by their region's clock rather than a place: "Pacific time", "EST", "CET", "IST".

The names come from data/zone_names.yaml, checked on load (every zone must be an IANA name
this Python has, keys lower case, no name both plain and ambiguous), so a typo there is a
`DataFileError` naming the file and the entry. An abbreviation is stored as its region's
IANA zone, summer time included: zoneinfo's own "EST" or "MST" are fixed offsets and would
put a New Yorker an hour off all summer. A name that means several regions ("IST": India,
Ireland, Israel) is asked back with its options, never guessed.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

from engine.extract import Invalid, fold
from flows.language_buddy.places import check_key, check_zone
from flows.shared.datafile import load_yaml

ZONE_NAMES_FILE = Path(__file__).parent / "data" / "zone_names.yaml"


class ZoneNames(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    zones: dict[str, str]
    ambiguous: dict[str, dict[str, str]]
    whole_answer_only: list[str]

    @field_validator("zones")
    @classmethod
    def _zones(cls, v: dict[str, str]) -> dict[str, str]:
        return {check_key(k): check_zone(z) for k, z in v.items()}

    @field_validator("ambiguous")
    @classmethod
    def _ambiguous(cls, v: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
        for name, options in v.items():
            check_key(name)
            if len(options) < 2:
                raise ValueError(f"ambiguous name {name!r} needs at least two regions")
            for zone in options.values():
                check_zone(zone)
        return v

    @model_validator(mode="after")
    def _consistent(self) -> ZoneNames:
        both = sorted(set(self.zones) & set(self.ambiguous))
        if both:
            raise ValueError(f"listed both as a zone and as ambiguous: {', '.join(both)}")
        unknown = sorted(set(self.whole_answer_only) - set(self.zones) - set(self.ambiguous))
        if unknown:
            raise ValueError(f"whole_answer_only names no listed name: {', '.join(unknown)}")
        return self


def load_zone_names(path: Path = ZONE_NAMES_FILE) -> ZoneNames:
    """The zone-name tables of `path`; DataFileError names the file and each problem."""
    return load_yaml(path, ZoneNames)


NAMES = load_zone_names()
_WHOLE_ONLY = frozenset(NAMES.whole_answer_only)
# "Pacific Standard Time", "central european summer time", "EST timezone"
_SUFFIX = re.compile(r"(?<!\s)\s++(?:(?:standard|daylight|summer)\s++)?(?:time(?:\s*+zone)?|timezone|zone)$")


def _ambiguous(name: str) -> Invalid:
    options = NAMES.ambiguous[name]
    listed = ", ".join(f"{label} ({zone})" for label, zone in options.items())
    return Invalid(f"“{name.upper()}” is used for several timezones: {listed}. Which one do you mean?")


def zone_named(text: str, *, whole: bool = True) -> str | Invalid | None:
    """The zone a name like "Pacific time", "EST" or "CET" stands for; None when it is no such name.

    `whole` says `text` is the whole answer to the timezone question; otherwise a name that
    is also an everyday word or a two-letter code ("central", "et") counts only before "time".
    """
    key = fold(text).strip(" .!?,;:")
    key = key[4:] if key.startswith("the ") else key
    bare = _SUFFIX.sub("", key)
    if not whole and bare == key and bare in _WHOLE_ONLY:
        return None
    if bare in NAMES.zones:
        return NAMES.zones[bare]
    if bare in NAMES.ambiguous:
        return _ambiguous(bare)
    return None


@cache
def _names_pattern() -> re.Pattern[str]:
    names = sorted({*NAMES.zones, *NAMES.ambiguous}, key=len, reverse=True)
    return re.compile(r"(?<![\w/])(" + "|".join(re.escape(n) for n in names) + r")(?![\w/+\-−])")


# Where a lower-case name in a sentence is meant as a timezone: "i'm on pst", "in cet", "my timezone is est".
_CUED = re.compile(r"\b(?:on|in|is|use|using|it's|its)\s+(?:the\s+)?$")
_TIMED = re.compile(r"^\s+(?:(?:standard|daylight|summer)\s+)?time\b")


_CAPITALS = re.compile(r"(?<![\w/])([A-Z]{3,5})(?![\w/+\-−])")


def zone_name_in(text: str) -> str | Invalid | None:
    """A zone name inside a sentence: before "time", after a cue ("on pst"), or an abbreviation in capitals."""
    folded = fold(text)
    for m in _names_pattern().finditer(folded):
        name = m.group(1)
        timed = _TIMED.match(folded[m.end() :]) is not None
        if name in _WHOLE_ONLY and not timed:
            continue
        if timed or " " in name or _CUED.search(folded[: m.start()]):
            return zone_named(name)
    # an abbreviation typed in capitals is one ("EST"); in lower case it may be a word ("c'est")
    for m in _CAPITALS.finditer(text):
        name = m.group(1).lower()
        if name not in _WHOLE_ONLY and (found := zone_named(name)) is not None:
            return found
    return None
