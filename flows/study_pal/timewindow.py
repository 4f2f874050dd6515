"""Study windows: reading "14-16 tomorrow" or "from 2pm to 4pm on Friday" into a typed window.

`now()` is the flows' only clock: tests pin it with monkeypatch, a run (a replay in a
subprocess, the chat) with the `INNERLOOP_NOW` environment variable. Times are local
wall-clock times, as the user says them. Which day is meant is read in flows/study_pal/days.py.

Reading rules, in the order they apply:
* a range is `H[:MM][am|pm]` then `-`, `–`, `to`, `until`, `till` or `and` then another time,
  optionally after `from` or `between`; `noon`, `now` (as a start) and `midnight` (as an end)
  are understood;
* without a range, a start ("at 3pm", "from 15:00", "from now", "in 20 minutes", "after
  lunch") or a length ("for 90 minutes", "two hours", "an hour and a half") or both; a part
  of day alone ("Sunday afternoon", "tonight") is that part's window (`days.PARTS`); what is
  still missing is the default (`DEFAULT_START`, `DEFAULT_HOURS`);
* `2-4pm`: an unmarked start takes the end's pm when that keeps it before the end;
* "morning" marks unmarked hours am; "afternoon", "evening", "tonight" mark them pm;
* otherwise an unmarked hour from 1 to 7 is read as afternoon (nobody plans study at 3 am),
  a start only when that keeps it before the end ("7-9" stays morning);
* "1-2 hours" is a vague length, not a window;
* a part of today that has begun starts now ("tonight" at 21:30 is 21:30-23:30);
* a window must fit in one day and hold one Pomodoro (`MIN_MINUTES`).

A plan can be revised (`revise_window`): what the message names replaces that part of the
old window ("move it to Saturday" keeps the hours, "make it 5pm" keeps the length), and
"an hour later" / "30 minutes earlier" shift it.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta

from pydantic import BaseModel, ConfigDict, model_validator

from engine.clock import local_now
from engine.extract import Invalid, Parser
from flows.study_pal.days import PARTS, read_day, read_part

MIN_MINUTES = 25  # one Pomodoro must fit
DEFAULT_START = time(16, 0)
DEFAULT_HOURS = 2
LAST_MINUTE = 23 * 60 + 59


def now() -> datetime:
    """The current local time; the one place the study-pal flows read the clock (pinned by
    a replay's `now:` key or INNERLOOP_NOW)."""
    return local_now()


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
        return _minutes(self.end) - _minutes(self.start)

    def label(self) -> str:
        return f"{self.day.strftime('%A')} {self.day.isoformat()}, {hhmm(self.start)}-{hhmm(self.end)}"


def hhmm(t: time) -> str:
    return t.strftime("%H:%M")


def _minutes(t: time) -> int:
    return t.hour * 60 + t.minute


def _clock(total: int) -> time:
    return time(total // 60, total % 60)


_TIME = r"(\d{1,2})(?:[:.h](\d{2}))?\s*(a\.?m\.?|p\.?m\.?)?"
_RANGE = re.compile(
    rf"(?<![\d:/.-])(?:\b(?:from|between)\s+)?(?:{_TIME}|(noon|now))\s*(?:-|–|—|\bto\b|\buntil\b|\btill\b|\band\b)\s*"
    rf"(?:{_TIME}|(noon|midnight))(?![\d:/])(?!\s*(?:hours?|hrs?|minutes?|mins?|days?|weeks?)\b)",
    re.IGNORECASE,
)
# a lone start needs a lead word, or an am/pm or minutes, so "chapter 3" is not a time
_START = re.compile(
    rf"\b(?:at|from|starting(?: at)?|start(?:ing)? at|after|around|about|by)\s+(?:{_TIME}|(noon|midday))"
    r"(?:\s*o'?clock)?(?![\d:/])(?!\s*(?:hours?|hrs?|minutes?|mins?|days?|weeks?)\b)"
    rf"|(?<![\d:/.-])(\d{{1,2}})(?::(\d{{2}})\s*(a\.?m\.?|p\.?m\.?)?|\s*(a\.?m\.?|p\.?m\.?)|\s*o'?clock)(?![\w:/])",
    re.IGNORECASE,
)
_AMOUNT = r"(\d+(?:[.,]\d+)?|an?|one|two|three|four|five|six|half an?|a couple of|couple of)"
# a one-letter unit only after digits: "ah" is no hour
_LENGTH = re.compile(
    rf"(?<![\d.,-])(?<!-\s)(?<!\bin\s)\b(?:{_AMOUNT}\s*(hours?|hrs?|minutes?|mins?)|(\d+(?:[.,]\d+)?)\s*(h|m))\b"
    r"(\s+and\s+a\s+half)?",
    re.IGNORECASE,
)
_AND_A_HALF = re.compile(r"\b(an?|one|two|three)\s+and\s+a\s+half\s+hours?\b", re.IGNORECASE)
_WORD_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
                 "a couple of": 2, "couple of": 2}  # fmt: skip
_AM = re.compile(r"\bmornings?\b", re.IGNORECASE)
_PM = re.compile(r"\b(?:afternoons?|evenings?|tonight|nights?|arvo)\b", re.IGNORECASE)
_ISO_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_FROM_NOW = re.compile(
    r"\b(?:from|starting|start|right|begin(?:ning)?)\s+now\b|\bnow\s+(?:for|until|till|to)\b|^\W*now\W*$|"
    r"\b(?:study|studying|start|begin)\s+(?:right\s+)?now\b",
    re.IGNORECASE,
)
_IN = re.compile(rf"\bin\s+{_AMOUNT}\s*(hours?|hrs?|h|minutes?|mins?)\b", re.IGNORECASE)
_MEALS = {"breakfast": time(9, 0), "lunch": time(13, 0), "school": time(15, 0), "class": time(15, 0),
          "classes": time(15, 0), "work": time(18, 0), "dinner": time(19, 0), "supper": time(19, 0)}  # fmt: skip
_AFTER_MEAL = re.compile(r"\bafter\s+(?:my\s+|the\s+)?(" + "|".join(_MEALS) + r")\b", re.IGNORECASE)


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


def _rounded_up(at: datetime) -> int:
    """`at` moved up to the next 5 minutes, in minutes of the day; "now" means from about now."""
    return min(-(-(at.hour * 60 + at.minute) // 5) * 5, 23 * 60 + 55)


def _amount(word: str) -> float:
    w = word.lower()
    if w.startswith("half"):
        return 0.5
    return _WORD_NUMBERS[w] if w in _WORD_NUMBERS else float(w.replace(",", "."))


def _in_minutes(value: float, unit: str) -> int:
    return round(value * (1 if unit.lower().startswith("m") else 60))


_HOUR_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
               "ten": 10, "eleven": 11, "twelve": 12}  # fmt: skip
_HOUR_WORD = "|".join(_HOUR_WORDS)
_SPOKEN = re.compile(rf"\b(half past|quarter past|quarter to)\s+(\d{{1,2}}|{_HOUR_WORD})\b", re.I)
_WORD_HOUR = re.compile(
    rf"\b(at|from|to|till|until|between|and|around|about|after)\s+({_HOUR_WORD})\b(?!\s+(?:hours?|minutes?|more)\b)|"
    rf"\b({_HOUR_WORD})(?=\s*(?:am|pm|a\.m\.|p\.m\.|o'?clock)\b)",
    re.I,
)


def spoken_times(text: str) -> str:
    """Clock times said in words as digits: "half past four" 4:30, "quarter to six" 5:45, "at
    three" at 3, "seven pm" 7 pm."""

    def hour(word: str) -> int:
        return int(word) if word.isdigit() else _HOUR_WORDS[word.lower()]

    def said(m: re.Match[str]) -> str:
        h, how = hour(m.group(2)), m.group(1).lower()
        if how == "quarter to":
            return f"{(h - 2) % 12 + 1}:45"
        return f"{h}:{'30' if how == 'half past' else '15'}"

    text = _SPOKEN.sub(said, text)
    return _WORD_HOUR.sub(lambda m: f"{m.group(1)} {hour(m.group(2))}" if m.group(1) else str(hour(m.group(3))), text)


def find_range(text: str) -> re.Match[str] | None:
    return _RANGE.search(_ISO_DATE.sub(" ", text))


def read_times(text: str, at: datetime) -> tuple[time, time] | Invalid | None:
    """The first time range in `text` as (start, end); Invalid when it cannot be a window."""
    m = find_range(text)
    if not m:
        return None
    part = _day_part(text)
    a1: str | None
    a2: str | None
    if m.group(4):  # noon or now as the start
        h1, m1, a1 = (12, 0, "pm") if m.group(4).lower() == "noon" else (*divmod(_rounded_up(at), 60), None)
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
        a1 = a1 or (part if 1 <= h1 <= 11 else None)
        a2 = a2 or (part if 1 <= h2 <= 11 else None)
        if h2 == 12 and not a2 and part == "pm":
            h2 = 24  # "tonight 10-12" ends at midnight; "morning 10-12" at noon
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


def read_start(text: str, at: datetime | None = None) -> time | None:
    """A lone start ("at 3pm", "from 15:00", "after lunch"; with `at`, "from now", "in 20 minutes")."""
    if at is not None:
        soon = _IN.search(text)
        if soon:
            total = _rounded_up(at + timedelta(minutes=_in_minutes(_amount(soon.group(1)), soon.group(2))))
            return _clock(total) if total // 60 == at.hour or total > _minutes(at.time()) else None
        if _FROM_NOW.search(text):
            return _clock(_rounded_up(at))
    m = _START.search(_ISO_DATE.sub(" ", text))
    if not m:
        meal = _AFTER_MEAL.search(text)
        return _MEALS[meal.group(1).lower()] if meal else None
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
    """A study length in minutes ("2 hours", "for 90 minutes", "an hour and a half")."""
    half = _AND_A_HALF.search(text)
    if half:
        return round((_amount(half.group(1)) + 0.5) * 60)
    m = _LENGTH.search(_IN.sub(" ", text))
    if not m:
        return None
    amount, unit = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    minutes = _in_minutes(_amount(amount) + (0.5 if m.group(5) else 0), unit)
    return minutes if minutes > 0 else None


def _fits(start: int, length: int) -> Invalid | None:
    if start + length > LAST_MINUTE + 1:
        return Invalid(f"A study window has to end by midnight; from {hhmm(_clock(start))} that is too long.")
    return None


def _end(start: int, length: int) -> time:
    """Where a window of `length` minutes from `start` ends; one that ends at midnight ends at 23:59."""
    return _clock(min(start + length, LAST_MINUTE))


def parse_window(
    text: str, at: datetime, base: Window | None = None, on: date | None = None
) -> Window | Invalid | None:
    """The study window `text` names, relative to `at`; None when it names no time or day.

    With `base` (revising a plan), what the message leaves out is kept from it; with `on` (the day
    an earlier message named), hours said without a day are on that day."""
    text = spoken_times(text)
    times = read_times(text, at)
    if isinstance(times, Invalid):
        return times
    span = find_range(text)
    found = read_day(text, at.date(), near=span.start() if span else None)
    part = read_part(text)
    from_now = times is None and bool(_FROM_NOW.search(text) or _IN.search(text))
    clipped = False
    if times is None:
        start, length = read_start(text, at), read_length(text)
        if start is None and length is None and found is None and part is None:
            return None
        if start is None and part is not None:
            start = PARTS[part][0]
            length = length or _minutes(PARTS[part][1]) - _minutes(start)
            clipped = True  # a part of day may start later than named, when it is under way
        start = start or (base.start if base else DEFAULT_START)
        length = length or (base.minutes if base else DEFAULT_HOURS * 60)
        problem = _fits(_minutes(start), length)
        if problem is not None:
            return problem
        times = (start, _end(_minutes(start), length))
    start, end = times
    minute = at.time().replace(second=0, microsecond=0)  # a window starting this minute is still ahead
    if from_now:
        day = at.date()
    elif found is None and on is not None:
        day = on
        if day == at.date() and start < minute and not clipped:
            return Invalid(f"{hhmm(start)} has already passed today; pick a later time or another day.")
    elif found is None:
        day = base.day if base else (at.date() if start >= minute or clipped else at.date() + timedelta(days=1))
    else:
        day, fixed = found
        if day == at.date() and start < minute and not clipped:
            if fixed:
                return Invalid(f"{hhmm(start)} has already passed today; pick a later time or another day.")
            day += timedelta(days=7)
    if clipped and day == at.date() and start < minute:
        moved = _under_way(part, start, end, at)
        if isinstance(moved, Invalid):
            return moved
        start, end = moved
    window = Window(day=day, start=start, end=end)
    if window.minutes < MIN_MINUTES:
        return Invalid(f"{hhmm(start)}-{hhmm(end)} is too short; one study session needs {MIN_MINUTES} minutes.")
    return window


def _under_way(part: str | None, start: time, end: time, at: datetime) -> tuple[time, time] | Invalid:
    """A part of today that has begun: from now to its end; an evening or night runs on up to
    the default length, until midnight."""
    begin = _rounded_up(at)
    until = _minutes(end)
    if part in ("evening", "night"):
        until = max(until, min(begin + DEFAULT_HOURS * 60, LAST_MINUTE))
    if until - begin < MIN_MINUTES:
        return Invalid(f"The {part or 'time'} is nearly over today; pick another time or another day.")
    return _clock(begin), _clock(until)


def names_no_time(text: str, at: datetime) -> bool:
    """Whether `text` says nothing of when in the day ("a study plan for saturday"): no range,
    start, length, part of day, nor "now"; a plan for such a day is asked its hours, not given
    the default ones."""
    t = spoken_times(text)
    return (
        read_times(t, at) is None
        and read_start(t, at) is None
        and read_length(t) is None
        and read_part(t) is None
        and not (_FROM_NOW.search(t) or _IN.search(t))
    )


def default_window(at: datetime, on: date | None = None) -> Window:
    """The next `DEFAULT_START` window that has not begun yet (on the day `on`, when given)."""
    day = at.date() if at.time() < DEFAULT_START else at.date() + timedelta(days=1)
    day = on if on is not None and on >= day else day
    return Window(day=day, start=DEFAULT_START, end=time(DEFAULT_START.hour + DEFAULT_HOURS, DEFAULT_START.minute))


_ANY_TIME = re.compile(
    r"\b(whenever|any ?time|you (?:pick|choose|decide)|up to you|(?:it )?doesn'?t matter|no preference|"
    r"the default|default (?:time|window)|whatever)\b",
    re.IGNORECASE,
)


def window_parser(on: date | None = None) -> Parser:
    """Ask parser for a window, read against the clock at the moment of the answer; "whenever"
    takes the default window. `on`: the day already named, which hours alone are on."""

    def rule(text: str) -> object:
        at = now()
        found = parse_window(text, at, on=on)
        if found is None and _ANY_TIME.search(text):
            return default_window(at, on)
        return found

    return Parser(rule, "a time window such as '14-16 tomorrow' or 'from 2pm to 4pm on Friday'")
