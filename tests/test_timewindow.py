"""study-pal's day-and-time reading: the phrase corpus (tests/corpora/time_windows/: every dev phrase
read right, the test split's figure printed and held), declined days, parts of day, plan revisions,
subjects read anywhere, and the clock taken from INNERLOOP_NOW (in a subprocess too)."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import date, datetime, time
from pathlib import Path

import pytest

from engine.clock import CLOCK_ENV
from engine.errors import DefinitionError
from engine.extract import Invalid
from flows.study_pal import timewindow
from flows.study_pal.course import DEFAULT_COURSE, load_course
from flows.study_pal.days import read_day, read_part
from flows.study_pal.revise import is_revision, revise_window
from flows.study_pal.subjects import read_subjects
from flows.study_pal.timewindow import Window, parse_window
from tests.time_corpus import DaysCase, WindowCase, load, read_plan, read_training_days, score

ROOT = Path(__file__).resolve().parent.parent
DEV = load("dev")
NOW = DEV.now  # Wednesday 2025-03-12 09:00
# the test split's figures (windows of 98, training days of 28), printed and never let fall (the split is
# never tuned on: its misses are not looked at): the untouched code's were 73 and 24 (2026-11-28, before
# any fix); 93 and 27 with the engine's reading of the days of the week (engine/weekdays.py)
TEST_FLOOR = (93, 27)


def window(day: str, a: str, b: str) -> Window:
    return Window(day=date.fromisoformat(day), start=time.fromisoformat(a), end=time.fromisoformat(b))


def test_the_corpus_is_large_enough_to_compare_parsers() -> None:
    assert len(DEV.windows) >= 40
    assert len(load("test").windows) >= 80


# dev phrases read wrong, known and left (a fix would cost more than it brings): four-digit clock times
# ("0900", which a year such as "2019-2020" also looks like), and "mornin", which wordfreq counts as an
# English word and so is not respelled; strict, so a fix that reads them says so here
KNOWN_DEV_MISSES = {"tomorrow 0900-1100", "next sunday mornin"}


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(c, marks=pytest.mark.xfail(strict=True, reason="known dev miss"))
        if c.text in KNOWN_DEV_MISSES
        else c
        for c in DEV.windows
    ],
    ids=[c.text for c in DEV.windows],
)
def test_dev_phrase(case: WindowCase) -> None:
    assert read_plan(case.text, DEV.at(case)) == case.want()


@pytest.mark.parametrize("case", DEV.training_days, ids=[c.text for c in DEV.training_days])
def test_dev_training_days(case: DaysCase) -> None:
    assert read_training_days(case.text) == case.days


def test_the_test_split_is_reported_and_held() -> None:
    windows, days = score("test")
    print(f"time windows test split: windows {windows.line()}; training days {days.line()}")
    assert windows.right >= TEST_FLOOR[0] and days.right >= TEST_FLOOR[1]


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("not today - can we do Thursday", date(2025, 3, 13)),
        ("today doesn't work, friday?", date(2025, 3, 14)),
        ("Monday's bad, tuesday then", date(2025, 3, 18)),
        ("instead of friday, saturday", date(2025, 3, 15)),
        ("tomorrow isn't possible, sunday", date(2025, 3, 16)),
        ("friday, not thursday", date(2025, 3, 14)),
    ],
)
def test_a_declined_day_is_not_the_plan_day(text: str, day: date) -> None:
    found = read_day(text, NOW.date())
    assert found is not None and found[0] == day


def test_only_declined_days_name_no_day() -> None:
    assert read_day("not today", NOW.date()) is None


def test_of_several_days_the_one_next_to_the_time_wins() -> None:
    text = "tomorrow I have class, but saturday 10-12 is free"
    span = timewindow.find_range(text)
    assert span is not None
    assert read_day(text, NOW.date(), near=span.start()) == (date(2025, 3, 15), True)


def test_parts_of_day_are_distinct_windows() -> None:
    got = {p: parse_window(f"tomorrow {p}", NOW) for p in ("morning", "afternoon", "evening", "night")}
    assert len({(w.start, w.end) for w in got.values() if isinstance(w, Window)}) == 4
    assert read_part("tonight") == "evening" and read_part("this arvo") == "afternoon"
    # in the plural too ("tuesday evenings" was 16:00-18:00, and "evenings at 7" 07:00)
    assert read_part("tuesday evenings") == "evening" and read_part("weekend mornings") == "morning"
    assert parse_window("tuesday evenings at 7", NOW) == parse_window("tuesday evening at 7", NOW)


@pytest.mark.parametrize(
    ("at", "text", "reason"),
    [
        (datetime(2025, 3, 12, 23, 45), "tonight", "nearly over"),
        (datetime(2025, 3, 12, 16, 50), "this afternoon", "nearly over"),
        (NOW, "today 7-8:30am", "already passed"),
        (NOW, "from now for 16 hours", "end by midnight"),
    ],
)
def test_windows_that_cannot_be_say_why(at: datetime, text: str, reason: str) -> None:
    found = parse_window(text, at)
    assert isinstance(found, Invalid) and reason in found.reason


def test_the_weekend_on_a_weekend_is_today() -> None:
    saturday = datetime(2025, 3, 15, 9, 0)
    assert parse_window("on the weekend", saturday) == window("2025-03-15", "16:00", "18:00")
    assert parse_window("next weekend", saturday) == window("2025-03-22", "16:00", "18:00")


# -- revisions ------------------------------------------------------------------------------

BASE = window("2025-03-14", "16:00", "18:00")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("make it an hour later", window("2025-03-14", "17:00", "19:00")),
        ("30 minutes earlier please", window("2025-03-14", "15:30", "17:30")),
        ("push it back 2 hours", window("2025-03-14", "18:00", "20:00")),
        ("bring it forward an hour", window("2025-03-14", "15:00", "17:00")),
        ("make it a bit later", window("2025-03-14", "16:30", "18:30")),
        ("move it to Saturday", window("2025-03-15", "16:00", "18:00")),
        ("make it 10am instead", window("2025-03-14", "10:00", "12:00")),
        ("actually 5-7", window("2025-03-14", "17:00", "19:00")),
        ("make it 3 hours", window("2025-03-14", "16:00", "19:00")),
        ("an hour longer", window("2025-03-14", "16:00", "19:00")),
        ("make it shorter", window("2025-03-14", "16:00", "17:30")),
        ("move it to saturday and an hour later", window("2025-03-15", "17:00", "19:00")),
        ("saturday morning instead", window("2025-03-15", "09:00", "12:00")),
    ],
)
def test_revisions(text: str, expected: Window) -> None:
    assert is_revision(text)
    assert revise_window(text, NOW, BASE) == expected


@pytest.mark.parametrize(
    ("text", "reason"),
    [("make it 7 hours later", "within one day"), ("make it 100 minutes shorter", "less than 25")],
)
def test_revisions_that_cannot_work_say_why(text: str, reason: str) -> None:
    found = revise_window(text, NOW, BASE)
    assert isinstance(found, Invalid) and reason in found.reason


def test_a_revision_into_the_past_is_refused() -> None:
    today = window("2025-03-12", "10:00", "12:00")
    found = revise_window("2 hours earlier", NOW, today)
    assert isinstance(found, Invalid) and "already passed" in found.reason


@pytest.mark.parametrize(
    "text", ["teach me limits", "see you later", "talk later!", "it took longer than I thought", "thanks, sounds good"]
)
def test_a_message_without_a_change_is_no_revision(text: str) -> None:
    assert not is_revision(text)
    assert revise_window(text, NOW, BASE) is None


# -- subjects ------------------------------------------------------------------------------

COURSE = load_course(DEFAULT_COURSE)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("plan chemistry and biology on Friday at 4", ["Chemistry", "Biology"]),
        ("schedule derivitives and physics tomorrow", ["Derivatives", "Physics"]),
        ("schedule this Friday at 5 for two hours", []),
        ("schedule study from 14-15 tomorrow for Math", ["Math"]),
        ("plan 2 hours for my thesis on Friday", ["Thesis"]),
        ("schedule 3 hours for linear algebra on Friday", ["Linear algebra"]),
        ("schedule my calculus revision tomorrow", ["Calculus basics"]),
        ("study plan for these topics please", []),
    ],
)
def test_subjects_are_read_anywhere(text: str, expected: list[str]) -> None:
    assert read_subjects(text, COURSE) == expected


# -- the clock -----------------------------------------------------------------------------


def test_the_clock_can_be_pinned_by_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CLOCK_ENV, "2025-03-12T21:30")
    assert timewindow.now() == datetime(2025, 3, 12, 21, 30)
    monkeypatch.setenv(CLOCK_ENV, "half past nine")
    with pytest.raises(DefinitionError, match="not an ISO date-time"):
        timewindow.now()
    monkeypatch.delenv(CLOCK_ENV)
    assert abs((timewindow.now() - datetime.now()).total_seconds()) < 60


def test_a_replay_in_a_subprocess_runs_on_the_pinned_clock(tmp_path: Path) -> None:
    script = ROOT / "tests" / "replays" / "messy" / "study_pal" / "times_tonight_late.yaml"
    unpinned = tmp_path / "unpinned.yaml"
    unpinned.write_text(script.read_text(encoding="utf-8").replace("now: 2025-03-12T21:30\n", ""), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != CLOCK_ENV}

    def run(path: Path, when: str) -> subprocess.CompletedProcess[str]:
        cli = [sys.executable, "-m", "cli", "replay", str(path)]
        return subprocess.run(cli, env={**env, CLOCK_ENV: when}, capture_output=True, text=True, cwd=ROOT)

    # the script's own `now:` wins over the environment
    assert run(script, "2025-03-13T21:30").returncode == 0
    pinned = run(unpinned, "2025-03-12T21:30")
    assert pinned.returncode == 0, pinned.stdout + pinned.stderr
    # the same script on another evening plans another day, so its expectations fail
    other = run(unpinned, "2025-03-13T21:30")
    assert other.returncode == 1 and "2025-03-13" in other.stdout
