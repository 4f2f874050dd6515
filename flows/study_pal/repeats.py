"""The days a study window repeats on: "weekdays after 6pm", "mon wed fri 7-9", "every evening".

A time said with a set of days is a plan for each of them in the coming week, not for one day
("weekdays after 6pm" was one session on the next evening). The set: weekdays (Monday to
Friday, "weeknights", "mon-fri", "monday through friday"), the weekend ("weekends", "every
weekend": Saturday and Sunday, not its Saturday alone), every day ("daily", "each evening"; not
"in the evenings", which may be one evening), or
weekdays named in the plural or after "every" ("mondays and thursdays", "every tue and thu")
or two or more named together ("mon wed fri"; not "monday or tuesday"). One weekday alone is one
day (days.py).

The dates are the next seven days' that fall on the set, from today while the window is still
ahead today, else from tomorrow.
"""

from __future__ import annotations

import re
from datetime import date, time, timedelta

from flows.study_pal.days import WEEKDAYS

_SHORT = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "weds": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4,
          "sat": 5, "sun": 6}  # fmt: skip
_DAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|weds?|thu(?:rs?)?|fri|sat|sun)"
WORKDAYS = frozenset(range(5))
WEEKEND = frozenset({5, 6})
EVERY_DAY = frozenset(range(7))

_SETS: tuple[tuple[re.Pattern[str], frozenset[int]], ...] = (
    (re.compile(r"\b(?:every\s+|on\s+|all\s+)?(?:week\s?days|week\s?nights|work\s?days|school\s?(?:days|nights))\b"
                r"|\b(?:every|each)\s+(?:week\s?day|week\s?night|work\s?day|school\s?(?:day|night))\b"
                # the day as an adjective of a part of day said in the plural: "weekday evenings"
                r"|\b(?:week|work|school)\s?day\s+(?:mornings|afternoons|evenings|nights)\b"
                r"|\b(?:mon(?:day)?)\s*(?:-|–|to|through|thru|till|until)\s*(?:fri(?:day)?)\b", re.I), WORKDAYS),
    (re.compile(r"\b(?:every|each|all)\s+weekends?\b|\b(?:on\s+)?weekends\b"
                r"|\bweekend\s+(?:mornings|afternoons|evenings|nights)\b"
                r"|\b(?:sat(?:urday)?s?)\s*(?:and|&|\+)\s*(?:sun(?:day)?s?)\b", re.I), WEEKEND),
    (re.compile(r"\b(?:every|each)\s+(?:single\s+)?(?:day|morning|afternoon|evening|night)\b|\bdaily\b"
                r"|\ball\s+week(?:\s+long)?\b", re.I), EVERY_DAY),
)  # fmt: skip
# a weekday in the plural ("mondays") or after "every"/"each" says the day recurs
_RECURRING_DAY = re.compile(rf"\b(?:every|each)\s+({_DAY})\b|\b({_DAY}(?<!s))s\b", re.I)
# weekdays named side by side: "mon wed fri", "tuesday and thursday", "tue/thu"
_DAY_LIST = re.compile(rf"\b{_DAY}(?:\s*(?:,|/|&|\+|and|\s)\s*{_DAY})+\b", re.I)
_ONE_DAY = re.compile(rf"\b({_DAY})\b", re.I)
# days taken out of a set: "weekdays except friday", "every day but not sunday"
# (the weekend among them: "every day except the weekend" was every day, "daily except weekends" the weekend)
_TAKEN = rf"(?:{_DAY}s?|(?:the\s+)?week-?ends?)"
_EXCEPT = re.compile(rf"\b(?:except(?:\s+for)?|but\s+not|apart\s+from|other\s+than|not\s+on|minus|without)\s+"
                     rf"(?:on\s+)?({_TAKEN}(?:\s*(?:,|/|&|and|or)\s*{_TAKEN})*)", re.I)  # fmt: skip
_WEEKEND_WORD = re.compile(r"\bweek-?ends?\b", re.I)


def _index(name: str) -> int:
    word = name.lower()
    return WEEKDAYS.index(word) if word in WEEKDAYS else _SHORT[word]


def _named(text: str) -> frozenset[int]:
    """Weekdays named so that they recur: "mondays", "every tue", or two or more side by side."""
    found = {_index(m.group(1) or m.group(2)) for m in _RECURRING_DAY.finditer(text)}
    for m in _DAY_LIST.finditer(text):
        listed = {_index(d) for d in _ONE_DAY.findall(m.group(0))}
        if len(listed) > 1:
            found |= listed
    return frozenset(found)


def weekdays(text: str) -> frozenset[int]:
    """The set of weekdays (0 = Monday) `text` says a plan repeats on; empty for a day named alone
    (days.py reads it), one day when a set leaves one ("weekends but not sunday"). Not the fitness bot's
    `weekdays_in` (the days one is free to train on), which counts every day named."""
    taken_out: set[int] = set()
    for m in _EXCEPT.finditer(text):
        taken_out |= {_index(d) for d in _ONE_DAY.findall(m.group(1))}
        if _WEEKEND_WORD.search(m.group(1)):
            taken_out |= WEEKEND
    kept = _EXCEPT.sub(" ", text)
    found: set[int] = set(_named(kept))
    recurring = bool(found)
    for pattern, days in _SETS:
        # every day only when no narrower set is said ("saturday and sunday, every morning")
        if pattern.search(kept) and not (days is EVERY_DAY and found):
            found |= days
            recurring = True
            # a day named beside a set joins it ("weekdays and saturday mornings")
            found |= {_index(d) for d in _ONE_DAY.findall(kept)}
    # what is left of a set may be one day ("weekends but not sunday" is Saturday)
    return frozenset(found - taken_out) if recurring else frozenset()


def repeat_days(text: str, now_day: date, now_time: time, start: time) -> list[date]:
    """The dates of the coming week the plan in `text` is for: none when it names a day alone."""
    days = weekdays(text)
    if not days:
        return []
    first = now_day if start > now_time else now_day + timedelta(days=1)
    return [d for d in (first + timedelta(days=i) for i in range(7)) if d.weekday() in days]
