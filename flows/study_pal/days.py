"""Which day a message plans for, and which part of that day.

A message may name several days ("not today - can we do Thursday 10-12?"); the one that
belongs to the plan wins: days the message turns down ("not today", "tomorrow is busy",
"instead of Monday") are dropped, and of the rest the one nearest the time range is taken
(without a time, the first). Day forms: today, tonight, tomorrow (and its typos), the day
after tomorrow, a weekday (`on Friday`, `fri`, `this Friday`: its next occurrence, today
included while the window is still ahead; `next Friday`: strictly after today), the
weekend (its Saturday, or today while it is the weekend), "in 3 days", "a week from now",
an ISO date, "March 14" / "14th of March", "the 14th".

Parts of day without hours map to their own windows (`PARTS`); "tonight" is the evening.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, time, timedelta
from typing import Literal

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ABBREVIATIONS = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4, "sat": 5,
                  "sun": 6}  # fmt: skip
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")  # fmt: skip

Part = Literal["morning", "afternoon", "evening", "night"]
# Distinct windows for a part of day named without hours; a study session fits in each.
PARTS: dict[Part, tuple[time, time]] = {
    "morning": (time(9, 0), time(12, 0)),
    "afternoon": (time(14, 0), time(17, 0)),
    "evening": (time(18, 0), time(21, 0)),
    "night": (time(20, 0), time(23, 0)),
}


@dataclass(frozen=True)
class DayMention:
    """A day named in a message; `fixed` when it says *which* one (a weekday alone may slide a week)."""

    day: date
    fixed: bool
    start: int
    end: int
    vague: bool = False  # "the weekend": a weekday named beside it says which day


_COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10, "a couple of": 2, "a few": 3, "couple of": 2}  # fmt: skip
_COUNT = r"(\d{1,2}|a couple of|couple of|a few|an?|one|two|three|four|five|six|seven|eight|nine|ten)"
_RELATIVE = re.compile(
    rf"\bin\s+{_COUNT}\s+(days?|weeks?)\b|\b{_COUNT}\s+(days?|weeks?)\s+from\s+(?:now|today)\b|\bin\s+a\s+fortnight\b",
    re.I,
)
_WEEKDAY_NAMES = "|".join([*WEEKDAYS, *(a for a in _ABBREVIATIONS if a not in ("sat", "sun"))])
# tomorrow as typed: tomorow, tommorrow, tomorro, 2moro, 2morrow, tmrw, tmr, tmrow, tomoz
_TOMORROW = r"(?:to|2)m+or+o+w*|tmr(?:o?w)?|tomoz"
# "sat" and "sun" are words too ("I sat", "the sun"): a day only after a lead word or before a time
_NAMED = re.compile(
    rf"\b(day after (?:tomorrow|{_TOMORROW})|today|tonight|{_TOMORROW}|"
    rf"(?:(next|this|on|coming|this coming)\s+)?({_WEEKDAY_NAMES})s?|(next|this|on|coming|do)\s+(sat|sun)|"
    r"(sat|sun)(?=\s+(?:at\s+|from\s+)?\d|\s+(?:morning|afternoon|evening|night|arvo))|"
    r"(?:(next|this|on|at|over|for)\s+)?(?:the\s+)?(weekend))\b",
    re.I,
)
_NEXT_WEEK = re.compile(
    rf"\b({_WEEKDAY_NAMES}|sat|sun)s?\s+(?:of\s+)?next week\b|\bnext week(?:'s)?\s+(?:on\s+)?({_WEEKDAY_NAMES})\b", re.I
)
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_MONTH = "|".join(m[:3] + (m[3:] and f"(?:{m[3:]})?") for m in MONTHS)
_MONTH_DATE = re.compile(
    rf"\b(?:({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?|(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH}))\b",
    re.I,
)
_ORDINAL = re.compile(r"\b(?:on\s+)?the\s+(\d{1,2})(?:st|nd|rd|th)\b", re.I)

# A day the message turns down: "not today", "can't do Monday", "instead of Friday" ...
_DECLINED_BEFORE = re.compile(
    r"(?:\bnot|\bno|\bnever|can'?t(?: do| make it| make)?|cannot(?: do| make it| make)?|won'?t(?: work)?|"
    r"instead of|rather than|other than|except|apart from|but not|busy)\s+(?:on\s+|this\s+|next\s+)?$",
    re.I,
)
# ... or "today doesn't work", "tomorrow is busy", "Monday's bad", "tomorrow isn't possible"
_DECLINED_AFTER = re.compile(
    r"^(?:'s|\s+is|\s+looks|\s+seems)?\s+(?:really |pretty |a bit |too |kind of |kinda )?"
    r"(?:bad|busy|full|out|booked|packed|no good|not good|impossible|a no)\b|"
    r"^\s+(?:doesn'?t|does not|won'?t|wont|will not|isn'?t going to) work\b|"
    r"^(?:'s|\s+is)?\s+(?:not|isn'?t)\s+(?:possible|good|great|ideal|an option|free)\b|"
    r"^,?\s+i(?:'m| am) (?:busy|out|away|not free)\b|^,?\s+i can(?:'?t|not)\b",
    re.I,
)


def _count(word: str) -> int:
    w = word.lower()
    return int(w) if w.isdigit() else _COUNTS[w]


def _weekday(today: date, weekday: int, lead: str) -> tuple[date, bool]:
    ahead = (weekday - today.weekday()) % 7
    if lead == "next" and ahead == 0:
        ahead = 7
    # a bare weekday may still mean today; the caller moves it a week on if the window has passed
    return today + timedelta(days=ahead), ahead != 0 or lead == "next"


def _named(m: re.Match[str], today: date) -> tuple[date, bool] | None:
    word = m.group(1).lower()
    if word in ("today", "tonight"):
        return today, True
    if re.fullmatch(_TOMORROW, word):
        return today + timedelta(days=1), True
    if word.startswith("day after"):
        return today + timedelta(days=2), True
    if m.group(8):  # the weekend: its Saturday, or today while it is the weekend
        if today.weekday() >= 5:
            return (today + timedelta(days=7 - today.weekday() + 5), True) if m.group(7) == "next" else (today, True)
        return today + timedelta(days=5 - today.weekday()), True
    lead = (m.group(2) or m.group(4) or "").lower()
    name = (m.group(3) or m.group(5) or m.group(6)).lower()
    weekday = WEEKDAYS.index(name) if name in WEEKDAYS else _ABBREVIATIONS[name]
    return _weekday(today, weekday, lead.split()[0] if lead else "")


def _month_day(month: str, day: int, today: date) -> date | None:
    number = next(i for i, m in enumerate(MONTHS, start=1) if m.startswith(month.lower()[:3]))
    for year in (today.year, today.year + 1):
        try:
            found = date(year, number, day)
        except ValueError:
            return None
        if found >= today:
            return found
    return None


def _ordinal_day(n: int, today: date) -> date | None:
    """ "the 14th": this month's, or next month's once it has passed."""
    first = today.replace(day=1)
    for month_start in (first, (first + timedelta(days=32)).replace(day=1)):
        try:
            found = month_start.replace(day=n)
        except ValueError:
            continue
        if found >= today:
            return found
    return None


def mentions(text: str, today: date) -> list[DayMention]:
    """Every day `text` names, in order, with where it is named."""
    out: list[DayMention] = []
    taken: list[tuple[int, int]] = []

    def add(day: date | None, fixed: bool, m: re.Match[str], vague: bool = False) -> None:
        if day is not None and not any(a < m.end() and m.start() < b for a, b in taken):
            out.append(DayMention(day, fixed, m.start(), m.end(), vague))
            taken.append((m.start(), m.end()))

    for m in _ISO.finditer(text):
        try:
            add(date(int(m.group(1)), int(m.group(2)), int(m.group(3))), True, m)
        except ValueError:
            continue
    for m in _MONTH_DATE.finditer(text):
        month, number = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        add(_month_day(month, int(number), today), True, m)
    for m in _ORDINAL.finditer(text):
        add(_ordinal_day(int(m.group(1)), today), True, m)
    for m in _RELATIVE.finditer(text):
        if m.group(0).lower().endswith("fortnight"):
            add(today + timedelta(days=14), True, m)
            continue
        count, unit = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        add(today + timedelta(days=_count(count) * (7 if unit.lower().startswith("week") else 1)), True, m)
    for m in _NEXT_WEEK.finditer(text):
        name = (m.group(1) or m.group(2)).lower()
        weekday = WEEKDAYS.index(name) if name in WEEKDAYS else _ABBREVIATIONS[name]
        add(today + timedelta(days=7 - today.weekday() + weekday), True, m)
    for m in _NAMED.finditer(text):
        named = _named(m, today)
        if named is not None:
            add(named[0], named[1], m, vague=bool(m.group(8)))
    return sorted(out, key=lambda d: d.start)


# the day of an event the studying is for, in the same clause before it ("my exam is in 3 weeks",
# "the test on friday", "due monday"): a deadline, not the day to study on
EXAMS = r"(?:exams?|tests?|quiz(?:zes)?|midterms?|finals?)"
_EVENT_BEFORE = re.compile(
    rf"\b(?:{EXAMS}|deadline|due|assignment|presentation|interview|defen[cs]e)\b[^,.;!?]{{0,25}}$", re.I
)


def declined(text: str, mention: DayMention) -> bool:
    """Does the message turn this day down ("not today", "Monday is busy"), or name it as the day of
    an exam or a deadline rather than a day to study ("I have a calculus exam in 3 weeks")?"""
    before = text[max(0, mention.start - 30) : mention.start]
    after = text[mention.end : mention.end + 30]
    return bool(_DECLINED_BEFORE.search(before[-20:]) or _DECLINED_AFTER.search(after) or _EVENT_BEFORE.search(before))


def read_day(text: str, today: date, near: int | None = None) -> tuple[date, bool] | None:
    """The day the plan is for and whether it is fixed; `near`: where the time range is named."""
    found = [d for d in mentions(text, today) if not declined(text, d)]
    if not found:
        return None
    found = [d for d in found if not d.vague] or found  # "this weekend, sunday morning" is Sunday
    best = found[0] if near is None else min(found, key=lambda d: min(abs(d.start - near), abs(d.end - near)))
    return best.day, best.fixed


# the plural too: "tuesday evenings" is the evening of each
_PART = re.compile(r"\b(morning|afternoon|evening|tonight|night|this arvo|arvo)s?\b", re.I)


def read_part(text: str) -> Part | None:
    """The part of the day a message names ("Sunday afternoon", "tonight" is the evening)."""
    m = _PART.search(text)
    if not m:
        return None
    word = m.group(1).lower()
    if word in ("tonight", "evening"):
        return "evening"
    if word.endswith("arvo"):
        return "afternoon"
    return "night" if word == "night" else "morning" if word == "morning" else "afternoon"
