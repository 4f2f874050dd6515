"""Timezones named by their clock ("Pacific time", "EST", "CET"): IANA zones with summer time, ambiguity asked."""

from __future__ import annotations

import zoneinfo
from datetime import datetime
from pathlib import Path

import pytest
from pydantic import BaseModel

from engine import DataFileError, Invalid
from flows.language_buddy.timezones import TimeZoneName, parse_timezone, timezone_in, timezone_moved
from flows.language_buddy.zone_names import NAMES, ZONE_NAMES_FILE, load_zone_names, zone_name_in


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("Pacific time", "America/Los_Angeles"),
        ("pacific", "America/Los_Angeles"),
        ("PST", "America/Los_Angeles"),
        ("pdt", "America/Los_Angeles"),
        ("Eastern", "America/New_York"),
        ("eastern standard time", "America/New_York"),
        ("EST", "America/New_York"),
        ("est.", "America/New_York"),
        ("Central time", "America/Chicago"),
        ("Mountain", "America/Denver"),
        ("CET", "Europe/Berlin"),
        ("CEST", "Europe/Berlin"),
        ("central european summer time", "Europe/Berlin"),
        ("BST", "Europe/London"),
        ("UK time", "Europe/London"),
        ("Japan time", "Asia/Tokyo"),
        ("my timezone is pst", "America/Los_Angeles"),
        ("it's AEST", "Australia/Sydney"),
    ],
)
def test_a_zone_named_by_its_clock_is_its_region_s_iana_zone(text: str, zone: str) -> None:
    assert parse_timezone(text) == zone


@pytest.mark.parametrize("abbreviation", ["EST", "MST", "HST", "CET", "EET", "WET"])
def test_an_abbreviation_is_never_zoneinfo_s_fixed_offset_zone_of_that_name(abbreviation: str) -> None:
    # zoneinfo has "EST" (always UTC-5); a New Yorker saying "EST" in July is on UTC-4
    zone = parse_timezone(abbreviation)
    assert isinstance(zone, str) and zone != abbreviation and "/" in zone


def test_est_follows_summer_time() -> None:
    zone = parse_timezone("EST")
    assert isinstance(zone, str)
    july, january = datetime(2025, 7, 1, 12), datetime(2025, 1, 1, 12)
    offsets = {d.replace(tzinfo=zoneinfo.ZoneInfo(zone)).utcoffset() for d in (july, january)}
    assert len(offsets) == 2


@pytest.mark.parametrize(("text", "options"), [("IST", ["India", "Ireland", "Israel"]), ("GMT", ["UK time", "UTC"])])
def test_an_ambiguous_abbreviation_is_asked_back_with_its_options(text: str, options: list[str]) -> None:
    out = parse_timezone(text)
    assert isinstance(out, Invalid) and "Which one" in out.reason
    for option in options:
        assert option in out.reason


def test_every_option_of_an_ambiguous_name_answers_its_own_question() -> None:
    for options in NAMES.ambiguous.values():
        for label, zone in options.items():
            assert parse_timezone(label) == zone, label


def test_every_listed_zone_exists_in_zoneinfo() -> None:
    for zone in [*NAMES.zones.values(), *(z for o in NAMES.ambiguous.values() for z in o.values())]:
        zoneinfo.ZoneInfo(zone)


def test_in_a_sentence_a_name_needs_a_cue_capitals_or_time() -> None:
    assert zone_name_in("I'm Max, on PST") == "America/Los_Angeles"
    assert zone_name_in("im on pst") == "America/Los_Angeles"
    assert zone_name_in("we're on central time here") == "America/Chicago"
    assert zone_name_in("c'est la vie") is None  # a lower-case "est" is a French word
    assert zone_name_in("I live near central park") is None
    assert zone_name_in("my pt session") is None
    assert timezone_in("from Berlin but on EST now") == "America/New_York"
    assert timezone_moved("my timezone is cet") == "Europe/Berlin"


def test_a_model_handing_over_an_abbreviation_gets_the_region_s_zone() -> None:
    class M(BaseModel):
        tz: TimeZoneName

    assert M(tz="EST").tz == "America/New_York"
    assert M(tz="Etc/GMT+5").tz == "Etc/GMT+5"
    with pytest.raises(ValueError, match="several timezones"):
        M(tz="IST")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("zones: {pst: America/Los_Angelos}\nambiguous: {}\nwhole_answer_only: []\n", "not an IANA timezone"),
        ("zones: {PST: America/Los_Angeles}\nambiguous: {}\nwhole_answer_only: []\n", "lower case"),
        ("zones: {}\nambiguous: {ist: {India: Asia/Kolkata}}\nwhole_answer_only: []\n", "at least two"),
        ("zones: {ist: Asia/Kolkata}\nambiguous: {ist: {a: UTC, b: UTC}}\nwhole_answer_only: []\n", "both"),
        ("zones: {}\nambiguous: {}\nwhole_answer_only: [pt]\n", "names no listed name"),
    ],
)
def test_a_broken_zone_names_file_names_the_problem(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "zone_names.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError, match=problem):
        load_zone_names(path)


def test_the_shipped_file_loads() -> None:
    assert load_zone_names(ZONE_NAMES_FILE) == NAMES
