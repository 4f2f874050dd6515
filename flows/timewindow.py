"""Study windows: reading "14-16 tomorrow" or "from 2pm to 4pm on Friday" into a typed window.

`now()` is the scheduler's only clock; tests fix it with monkeypatch. Times are local
wall-clock times, as the user says them.

Reading rules, in the order they apply:
* a range is `H[:MM][am|pm]` then `-`, `–`, `to`, `until`, `till` or `and` then another time,
  optionally after `from` or `between`; `noon` and `midnight` (as an end) are understood;
* `2-4pm`: an unmarked start takes the end's pm when that keeps it before the end;
* an unmarked hour from 1 to 7 is read as afternoon (nobody plans study at 3 am), a start
  only when that keeps it before the end ("7-9" stays morning);
* "1-2 hours" is a duration, not a window;
* the day is `today`, `tonight`, `tomorrow`, `day after tomorrow`, a weekday (`on Friday`:
  its next occurrence, today included while the window is still ahead; `next Friday`:
  strictly after today) or an ISO date; without one, today if the window is still ahead,
  else tomorrow;
* a day with no times gets the default hours (`DEFAULT_START` for `DEFAULT_HOURS`).
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
    rf"(?<![\d:/.-])(?:\b(?:from|between)\s+)?(?:{_TIME}|(noon))\s*(?:-|–|—|\bto\b|\buntil\b|\btill\b|\band\b)\s*"
    rf"(?:{_TIME}|(noon|midnight))(?![\d:/])(?!\s*(?:hours?|hrs?|minutes?|mins?)\b)",
    re.IGNORECASE,
)
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_DAY = re.compile(
    r"\b(day after tomorrow|today|tonight|tomorrow|(?:(next|this|on)\s+)?(" + "|".join(WEEKDAYS) + r"))\b",
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


def read_times(text: str) -> tuple[time, time] | Invalid | None:
    """The first time range in `text` as (start, end); Invalid when it cannot be a window."""
    m = _RANGE.search(_ISO_DATE.sub(" ", text))
    if not m:
        return None
    a1: str | None
    a2: str | None
    if m.group(4):  # noon as the start
        h1, m1, a1 = 12, 0, "pm"
    else:
        h1, m1, a1 = _hour(m.group(1), m.group(2), m.group(3))
    if m.group(8):
        h2, m2, a2 = (12, 0, "pm") if m.group(8).lower() == "noon" else (24, 0, None)
    else:
        h2, m2, a2 = _hour(m.group(5), m.group(6), m.group(7))
    if m1 > 59 or m2 > 59 or h1 > 24 or h2 > 24 or (a1 and not 1 <= h1 <= 12) or (a2 and not 1 <= h2 <= 12):
        return Invalid(f"I can't read {m.group(0).strip()!r} as a time range.")
    end = _to_24(h2, a2) if a2 else (h2 + 12 if 1 <= h2 <= 7 else h2)
    if a1:
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
        return Invalid(f"I can't read {m.group(0).strip()!r} as a time range.")
    a, b = time(start, m1), time(end, m2)
    if (b.hour, b.minute) <= (a.hour, a.minute):
        return Invalid(f"That window ends ({hhmm(b)}) before it starts ({hhmm(a)}).")
    return a, b


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
    if word == "tomorrow":
        return today + timedelta(days=1), True
    if word == "day after tomorrow":
        return today + timedelta(days=2), True
    ahead = (WEEKDAYS.index(m.group(3).lower()) - today.weekday()) % 7
    if (m.group(2) or "").lower() == "next" and ahead == 0:
        ahead = 7
    # a bare weekday may still mean today; the caller moves it a week on if the window has passed
    return today + timedelta(days=ahead), ahead != 0 or (m.group(2) or "").lower() == "next"


def parse_window(text: str, at: datetime) -> Window | Invalid | None:
    """The study window `text` names, relative to `at`; None when it names no time or day."""
    times = read_times(text)
    if isinstance(times, Invalid):
        return times
    found = read_day(text, at.date())
    if times is None and found is None:
        return None
    if times is None:
        start = DEFAULT_START
        times = (start, time(start.hour + DEFAULT_HOURS, start.minute))
    start, end = times
    if found is None:
        day = at.date() if start > at.time() else at.date() + timedelta(days=1)
    else:
        day, fixed = found
        if day == at.date() and start <= at.time():
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


def window_parser() -> Parser:
    """Ask parser for a window, read against the clock at the moment of the answer."""

    def rule(text: str) -> object:
        return parse_window(text, now())

    return Parser(rule, "a time window such as '14-16 tomorrow' or 'from 2pm to 4pm on Friday'")
