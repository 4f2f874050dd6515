"""The time-window corpus (tests/corpora/time_windows/): loading its splits and reading them as the
bots do.

Study windows are read as study-pal's window question reads an answer (`window_parser`, through
`Parser`, so typos and the five other languages are read as the flow reads them), on the entry's
clock, and then spread over the days the plan repeats on as the flow's `plan` step does
(`repeat_days` on the message). Training days are read as fitness-coach's "which days?" question
reads them (`days_parser`, nothing planned yet). The split rule is in the corpus README: the phrases
of the corpus before the split are dev, the blind set written for it is test, later phrases go to dev.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from engine.clock import pinned_clock
from flows.fitness.anytime import days_parser
from flows.fitness.profile import FitnessSlots
from flows.study_pal.repeats import repeat_days
from flows.study_pal.timewindow import Window, window_parser
from tests.yaml_file import safe_load

CORPUS = Path(__file__).parent / "corpora" / "time_windows"
Split = Literal["dev", "test"]
SPLITS: tuple[Split, ...] = ("dev", "test")
# what a plan reads: its days, start and end ("HH:MM")
Plan = tuple[tuple[str, ...], str, str]


class WindowCase(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    lang: str = "en"
    now: datetime | None = None
    day: date | None = None
    days: tuple[date, ...] = ()
    start: str
    end: str

    def want(self) -> Plan:
        days = self.days or ((self.day,) if self.day else ())
        return tuple(d.isoformat() for d in days), self.start, self.end


class DaysCase(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    lang: str = "en"
    days: tuple[str, ...]


class Corpus(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    now: datetime
    windows: tuple[WindowCase, ...]
    training_days: tuple[DaysCase, ...] = ()

    def at(self, case: WindowCase) -> datetime:
        return case.now or self.now


def load(split: Split) -> Corpus:
    return Corpus.model_validate(safe_load((CORPUS / f"{split}.yaml").read_text(encoding="utf-8")))


def read_plan(text: str, at: datetime) -> Plan | None:
    """The study plan `text` gives at the window question on the clock `at`: None when it gives none."""
    with pinned_clock(at):
        found = window_parser()(text)
    if not isinstance(found, Window):
        return None
    days = repeat_days(text, at.date(), at.time(), found.start) or [found.day]
    return tuple(d.isoformat() for d in days), f"{found.start:%H:%M}", f"{found.end:%H:%M}"


def read_training_days(text: str) -> tuple[str, ...] | None:
    """The weekdays fitness-coach's "which days?" question reads from `text` (no days planned yet)."""
    found = days_parser(FitnessSlots())(text)
    return tuple(found) if isinstance(found, list) else None


@dataclass
class Score:
    """Right answers out of all, by language, and the misses (text, got, want)."""

    right: int = 0
    total: int = 0
    by_lang: Counter[str] | None = None
    of_lang: Counter[str] | None = None
    misses: list[tuple[str, object, object]] | None = None

    def add(self, text: str, lang: str, got: object, want: object) -> None:
        self.by_lang = self.by_lang if self.by_lang is not None else Counter()
        self.of_lang = self.of_lang if self.of_lang is not None else Counter()
        self.misses = self.misses if self.misses is not None else []
        self.total += 1
        self.of_lang[lang] += 1
        if got == want:
            self.right += 1
            self.by_lang[lang] += 1
        else:
            self.misses.append((text, got, want))

    def line(self) -> str:
        langs = " ".join(f"{k} {(self.by_lang or Counter())[k]}/{n}" for k, n in sorted((self.of_lang or {}).items()))
        return f"{self.right}/{self.total} ({langs})" if self.total else "0/0"


def score(split: Split) -> tuple[Score, Score]:
    """The split's study windows and training days, each scored."""
    corpus = load(split)
    windows, days = Score(), Score()
    for case in corpus.windows:
        windows.add(case.text, case.lang, read_plan(case.text, corpus.at(case)), case.want())
    for d in corpus.training_days:
        days.add(d.text, d.lang, read_training_days(d.text), d.days)
    return windows, days
