"""Study windows: reading "14-16 tomorrow" or "from 2pm to 4pm on Friday" into a typed window.

`now()` is the scheduler's only clock; tests fix it with monkeypatch. Times are local
wall-clock times, as the user says them.

Reading rules, in the order they apply:
* a range is `H[:MM][am|pm]` then `-`, `–`, `to`, `until`, `till` or `and` then another time,
  optionally after `from` or `between`; `noon`, `now` (as a start) and `midnight` (as an end)
  are understood;
* without a range, a single start ("at 3pm", "from 15:00") or a length ("for 90 minutes",
  "2 hours") or both; the missing part is the default (`DEFAULT_START`, `DEFAULT_HOURS`);
* `2-4pm`: an unmarked start takes the end's pm when that keeps it before the end;
* "morning" marks unmarked hours am; "afternoon", "evening", "tonight" mark them pm;
* otherwise an unmarked hour from 1 to 7 is read as afternoon (nobody plans study at 3 am),
  a start only when that keeps it before the end ("7-9" stays morning);
* "1-2 hours" is a vague length, not a window;
* the day is `today`, `tonight`, `tomorrow` (`tmrw`), `day after tomorrow`, a weekday (`on
  Friday`, `fri`: its next occurrence, today included while the window is still ahead; `next
  Friday`: strictly after today) or an ISO date; without one, today if the window is still
  ahead, else tomorrow;
* a window must fit in one day and hold one Pomodoro (`MIN_MINUTES`).
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta

from pydantic import BaseModel, ConfigDict, model_validator

from engine.extract import Invalid, Parser

MIN_MINUTES = 25  # one Pomodoro must fit
DEFAULT_START = time(16, 0)
DEFAULT_HOURS = 2
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def now() -> datetime:
    """The current local time; the one place the study-pal flows read the clock."""
    return datetime.now()


class Window(BaseModel):
    """A study window on one day."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    day: date
    start: time
    end: time

    @model_validator(mode="after")
    def _ordered(self) -> Window:
        if self.minutes <= 0:
            raise ValueError("the window must end after it starts")
        return self

    @property
    def minutes(self) -> int:
        return (self.end.hour * 60 + self.end.minute) - (self.start.hour * 60 + self.start.minute)

    def label(self) -> str:
        return f"{self.day.strftime('%A')} {self.day.isoformat()}, {hhmm(self.start)}-{hhmm(self.end)}"


def hhmm(t: time) -> str:
    return t.strftime("%H:%M")


_TIME = r"(\d{1,2})(?:[:.h](\d{2}))?\s*(a\.?m\.?|p\.?m\.?)?"
_RANGE = re.compile(
    rf"(?<![\d:/.-])(?:\b(?:from|between)\s+)?(?:{_TIME}|(noon|now))\s*(?:-|–|—|\bto\b|\buntil\b|\btill\b|\band\b)\s*"
    rf"(?:{_TIME}|(noon|midnight))(?![\d:/])(?!\s*(?:hours?|hrs?|minutes?|mins?)\b)",
    re.IGNORECASE,
)
# a lone start needs a lead word, or an am/pm or minutes, so "chapter 3" is not a time
_START = re.compile(
    rf"\b(?:at|from|starting(?: at)?|after)\s+(?:{_TIME}|(noon))(?![\d:/])(?!\s*(?:hours?|hrs?|minutes?|mins?)\b)"
    rf"|(?<![\d:/.-])(\d{{1,2}})(?::(\d{{2}})\s*(a\.?m\.?|p\.?m\.?)?|\s*(a\.?m\.?|p\.?m\.?))(?![\w:/])",
    re.IGNORECASE,
)
_LENGTH = re.compile(
    r"(?<![\d.,-])(?<!-\s)\b(\d+(?:[.,]\d+)?|an?|one|two|three|four|five|six|half an?)\s*"
    r"(hours?|hrs?|h|minutes?|mins?)\b",
    re.IGNORECASE,
)
_WORD_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_AM = re.compile(r"\bmorning\b", re.IGNORECASE)
_PM = re.compile(r"\b(?:afternoon|evening|tonight|night)\b", re.IGNORECASE)
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_ABBREVIATIONS = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4, "sat": 5,
                  "sun": 6}  # fmt: skip
# "sat" and "sun" are words too: only after on / next / this
_DAY = re.compile(
    r"\b(day after (?:tomorrow|tmrw)|today|tonight|tomorrow|tomorow|tommorow|tmrw|tmr|"
    r"(?:(next|this|on)\s+)?("
    + "|".join([*WEEKDAYS, *(a for a in _ABBREVIATIONS if a not in ("sat", "sun"))])
    + r")|(next|this|on)\s+(sat|sun))\b",
    re.IGNORECASE,
)


def _hour(h: str, m: str | None, ampm: str | None) -> tuple[int, int, str | None]:
    mark = ampm.lower().replace(".", "") if ampm else None
    return int(h), int(m or 0), mark


def _to_24(h: int, mark: str | None) -> int:
    if mark == "pm" and h < 12:
        return h + 12
    if mark == "am" and h == 12:
        return 0
    return h


def _day_part(text: str) -> str | None:
    """am / pm when the message says which part of the day; None otherwise."""
    if _AM.search(text):
        return "am"
    return "pm" if _PM.search(text) else None


def _minutes(t: time) -> int:
    return t.hour * 60 + t.minute


def read_times(text: str, at: datetime) -> tuple[time, time] | Invalid | None:
    """The first time range in `text` as (start, end); Invalid when it cannot be a window."""
    m = _RANGE.search(_ISO_DATE.sub(" ", text))
    if not m:
        return None
    part = _day_part(text)
    a1: str | None
    a2: str | None
    if m.group(4):  # noon or now as the start
        h1, m1, a1 = (12, 0, "pm") if m.group(4).lower() == "noon" else (*_rounded_up(at), None)
    else:
        h1, m1, a1 = _hour(m.group(1), m.group(2), m.group(3))
    if m.group(8):
        h2, m2, a2 = (12, 0, "pm") if m.group(8).lower() == "noon" else (24, 0, None)
    else:
        h2, m2, a2 = _hour(m.group(5), m.group(6), m.group(7))
    unreadable = Invalid(f"I can't read {m.group(0).strip()!r} as a time range.")
    if m1 > 59 or m2 > 59 or h1 > 24 or h2 > 24 or (a1 and not 1 <= h1 <= 12) or (a2 and not 1 <= h2 <= 12):
        return unreadable
    if part and not m.group(4):
        a1 = a1 or (part if 1 <= h1 <= 12 else None)
        a2 = a2 or (part if 1 <= h2 <= 12 else None)
    end = _to_24(h2, a2) if a2 or part else (h2 + 12 if 1 <= h2 <= 7 else h2)
    if a1 or part or m.group(4):
        start = _to_24(h1, a1)
    elif a2 == "pm" and h1 < 12 and h1 + 12 < end:
        start = h1 + 12
    else:
        start = h1 + 12 if 1 <= h1 <= 7 and h1 + 12 < end else h1
    if end == 24:
        if m2:
            return Invalid("A study window has to end by midnight.")
        end, m2 = 23, 59
    if start >= 24:
        return unreadable
    a, b = time(start, m1), time(end, m2)
    if a == b:
        return Invalid(f"That window starts and ends at {hhmm(a)}; give a start and a later end.")
    if b < a:
        if a2 == "am" and start >= 12:
            return Invalid(f"A study window has to end by midnight; {hhmm(a)}-{hhmm(b)} runs into the next day.")
        return Invalid(f"That window ends ({hhmm(b)}) before it starts ({hhmm(a)}).")
    return a, b


def _rounded_up(at: datetime) -> tuple[int, int]:
    """`at` moved up to the next 5 minutes, as (hour, minute); "now" means from about now."""
    total = min(-(-(at.hour * 60 + at.minute) // 5) * 5, 23 * 60 + 55)
    return total // 60, total % 60


def read_start(text: str) -> time | None:
    """A lone start time ("at 3pm", "from 15:00"), outside any range."""
    m = _START.search(_ISO_DATE.sub(" ", text))
    if not m:
        return None
    if m.group(4):
        return time(12, 0)
    if m.group(1):
        h, mm, mark = _hour(m.group(1), m.group(2), m.group(3))
    else:
        h, mm, mark = _hour(m.group(5), m.group(6), m.group(7) or m.group(8))
    mark = mark or (_day_part(text) if 1 <= h <= 12 else None)
    if mm > 59 or h > 23 or (mark and not 1 <= h <= 12):
        return None
    hour = _to_24(h, mark) if mark else (h + 12 if 1 <= h <= 7 else h)
    return time(hour, mm)


def read_length(text: str) -> int | None:
    """A study length in minutes ("2 hours", "for 90 minutes", "half an hour")."""
    m = _LENGTH.search(text)
    if not m:
        return None
    amount, unit = m.group(1).lower(), m.group(2).lower()
    if amount.startswith("half"):
        value = 0.5
    else:
        value = _WORD_NUMBERS[amount] if amount in _WORD_NUMBERS else float(amount.replace(",", "."))
    minutes = round(value * (1 if unit.startswith("m") else 60))
    return minutes if minutes > 0 else None


def read_day(text: str, today: date) -> tuple[date, bool] | None:
    """The day `text` names and whether it was explicit about *which* one ("next Friday", a date)."""
    iso = _ISO_DATE.search(text)
    if iso:
        try:
            return date(int(iso.group(1)), int(iso.group(2)), int(iso.group(3))), True
        except ValueError:
            return None
    m = _DAY.search(text)
    if not m:
        return None
    word = m.group(1).lower()
    if word in ("today", "tonight"):
        return today, True
    if word in ("tomorrow", "tomorow", "tommorow", "tmrw", "tmr"):
        return today + timedelta(days=1), True
    if word.startswith("day after"):
        return today + timedelta(days=2), True
    lead = (m.group(2) or m.group(4) or "").lower()
    name = (m.group(3) or m.group(5)).lower()
    weekday = WEEKDAYS.index(name) if name in WEEKDAYS else _ABBREVIATIONS[name]
    ahead = (weekday - today.weekday()) % 7
    if lead == "next" and ahead == 0:
        ahead = 7
    # a bare weekday may still mean today; the caller moves it a week on if the window has passed
    return today + timedelta(days=ahead), ahead != 0 or lead == "next"


def parse_window(text: str, at: datetime) -> Window | Invalid | None:
    """The study window `text` names, relative to `at`; None when it names no time or day."""
    times = read_times(text, at)
    if isinstance(times, Invalid):
        return times
    found = read_day(text, at.date())
    if times is None:
        start, length = read_start(text), read_length(text)
        if start is None and length is None and found is None:
            return None
        start = start or DEFAULT_START
        until = _minutes(start) + (length or DEFAULT_HOURS * 60)
        if until >= 24 * 60:
            return Invalid(f"A study window has to end by midnight; from {hhmm(start)} that is too long.")
        times = (start, time(until // 60, until % 60))
    start, end = times
    minute = at.time().replace(second=0, microsecond=0)  # a window starting this minute is still ahead
    if found is None:
        day = at.date() if start >= minute else at.date() + timedelta(days=1)
    else:
        day, fixed = found
        if day == at.date() and start < minute:
            if fixed:
                return Invalid(f"{hhmm(start)} has already passed today; pick a later time or another day.")
            day += timedelta(days=7)
    window = Window(day=day, start=start, end=end)
    if window.minutes < MIN_MINUTES:
        return Invalid(f"{hhmm(start)}-{hhmm(end)} is too short; one study session needs {MIN_MINUTES} minutes.")
    return window


def default_window(at: datetime) -> Window:
    """The next `DEFAULT_START` window that has not begun yet."""
    day = at.date() if at.time() < DEFAULT_START else at.date() + timedelta(days=1)
    return Window(day=day, start=DEFAULT_START, end=time(DEFAULT_START.hour + DEFAULT_HOURS, DEFAULT_START.minute))


_ANY_TIME = re.compile(
    r"\b(whenever|any ?time|you (?:pick|choose|decide)|up to you|(?:it )?doesn'?t matter|no preference|"
    r"the default|default (?:time|window)|whatever)\b",
    re.IGNORECASE,
)


def window_parser() -> Parser:
    """Ask parser for a window, read against the clock at the moment of the answer; "whenever"
    takes the default window."""

    def rule(text: str) -> object:
        at = now()
        found = parse_window(text, at)
        if found is None and _ANY_TIME.search(text):
            return default_window(at)
        return found

    return Parser(rule, "a time window such as '14-16 tomorrow' or 'from 2pm to 4pm on Friday'")
