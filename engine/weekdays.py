"""The days of the week a message names, as a set, and how it names them.

One reader for every bot that asks about days: study-pal's plan over a set of days ("weekdays after
6pm", flows/study_pal/repeats.py) and fitness-coach's days to train on ("mon wed fri", flows/fitness/
readers.py) read the same words the same way. What it reads:

* day names and their abbreviations ("tuesday", "tue", "thurs"), in the plural ("mondays");
* a range of days ("mon-thu", "wed through fri", "von Montag bis Freitag", "du lundi au vendredi");
* a list of days ("mon wed fri", "tuesday and thursday", "il lunedì e il mercoledì");
* a set: the weekdays ("weekdays", "weeknights", "workdays", "school days"), the weekend, every day
  ("daily", "every evening", "all week"); a set said as an adjective ("weekday evenings", "weekend
  mornings");
* days taken out ("every day except sunday", "weekdays but thursday", "each evening except fridays",
  "every day but the weekend", "tutti i giorni tranne il sabato").

And how: `recurring` when the days come back each week (a day in the plural or after "every" / "los" /
"jeden", two or more named together, a range, a set in the plural, after "every" or as an adjective of
a part of day in the plural), not for one day named alone, "this weekend", "monday or tuesday"; `one`
when one day of a set is meant ("a weekday evening", "one weekend morning"): the first of them.

The message is read in English: the caller writes the other languages' day words in English first
(engine/gloss.py's `in_english`: "los martes y jueves" -> "los tuesdays and thursdays", "außer" ->
"except"); the words around the days that stay as typed (a range's "bis" and "au", the articles "el"
and "am", the "los" and "jeden" that make a day recur) are read in six languages from
engine/data/day_words.yaml.
"""

from __future__ import annotations

import re
from functools import cache

from pydantic import BaseModel, ConfigDict

from engine.cues import fold_same_length
from engine.tables import alternation, and_words, day_words

WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_SHORT = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "weds": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4,
          "sat": 5, "sun": 6}  # fmt: skip
# a name before its abbreviations, so "friday" is not read as "fri" and a stray "day"
DAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|weds?|thu(?:rs?)?|fri|sat|sun)"
# when something is, named by a day or a part of one, as a bot's intent reads it: in English, a message of
# another language read glossed (engine/bot.py `intent_for`: "domani sera" is "tomorrow evening")
WHEN = rf"(?:{DAY}s?|today|tonight|tomorrow|tmrw|weekends?|mornings?|afternoons?|evenings?)"
WORKDAYS = frozenset(range(5))
WEEKEND = frozenset({5, 6})
EVERY_DAY = frozenset(range(7))


class DaySet(BaseModel):
    """The days of the week a message names (0 = Monday), what it took out already removed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    days: frozenset[int] = frozenset()
    recurring: bool = False  # said as days that come back each week
    one: bool = False  # one day of a set is meant ("a weekday evening"): the first of `days` ahead


def day_index(name: str) -> int:
    """0 for "monday" or "mon", ... 6 for "sunday"."""
    word = name.lower()
    return WEEKDAY_NAMES.index(word) if word in WEEKDAY_NAMES else _SHORT[word]


@cache
def _patterns() -> dict[str, re.Pattern[str]]:
    words = day_words()
    the = alternation(words.the.all())
    art = rf"(?:{the}\s+)?"
    through = alternation(words.through.all())
    every = alternation(words.every.all())
    one = alternation(words.one.all())
    joined = alternation(and_words().all())
    sep = rf"(?:\s*[,/&+]\s*(?:{joined}\s+)?|\s+(?:{joined}\s+)?)"
    taken = rf"{art}(?:{DAY}s?|week-?\s?ends?)"
    set_words = r"week\s?days?|week\s?nights?|work\s?days?|school\s?(?:days?|nights?)"
    lead = rf"\b(?:({every}|all|on)\s+|({one})\s+)?"
    parts = r"(\s+(?:mornings|afternoons|evenings|nights)\b)?"
    return {
        # "except sunday", "but not friday or saturday", "but the weekend", "außer samstags" (glossed "except")
        "except": re.compile(
            r"\b(?:except(?:\s+for|\s+on)?|but\s+not(?:\s+on)?|apart\s+from|other\s+than|excluding|besides|minus"
            rf"|without|not\s+on|but)\s+({taken}(?:\s*(?:,|/|&|\band\b|\bor\b|\bnor\b)\s*{taken})*)\b"
        ),
        "range": re.compile(rf"\b({DAY})s?\s*(?:-|–|\b{through}\b)\s*{art}({DAY})s?\b"),
        "day": re.compile(rf"\b({DAY})s?\b"),
        # only a whole name in the plural: "thus" is no Thursdays, "tues" no plural of "tue"
        "plural": re.compile(rf"\b(?:{'|'.join(WEEKDAY_NAMES)})s\b"),
        "every_day": re.compile(rf"\b{every}\s+{art}{DAY}\b"),
        "list": re.compile(rf"\b{DAY}s?(?:{sep}{art}{DAY}s?)+\b"),
        # a set, with what says it recurs (1: "every", 3: a plural, 4: a part of day in the plural) or is
        # one day of it (2: "a weekday evening")
        "workdays": re.compile(rf"{lead}({set_words})\b{parts}"),
        "weekend": re.compile(rf"{lead}(week-?\s?ends?)\b{parts}"),
        # every day of the week: "daily", "every evening", "all week"; "any day" allows all without repeating
        "all": re.compile(
            r"\b(?:(?:every|each)\s+(?:single\s+)?(?:day|morning|afternoon|evening|night)|everyday|daily"
            r"|all\s+week(?:\s+long)?|all\s+(?:the\s+)?days)\b"
        ),
        "any": re.compile(r"\b(?:any\s?day|whichever\s+day|whatever\s+day)\b"),
    }


def _span(a: int, b: int) -> set[int]:
    """The days from `a` to `b`, over the week's end when `b` comes first ("fri-mon")."""
    return {(a + i) % 7 for i in range((b - a) % 7 + 1)}


def day_set(text: str) -> DaySet:
    """The days of the week `text` (in English, engine/gloss.py) names, and whether they recur."""
    p = _patterns()
    t = fold_same_length(text)
    taken: set[int] = set()
    for m in p["except"].finditer(t):
        taken |= {day_index(d.group(1)) for d in p["day"].finditer(m.group(1))}
        if re.search(r"week-?\s?ends?", m.group(1)):
            taken |= WEEKEND
    t = p["except"].sub(" ", t)
    days: set[int] = set()
    recurring = one = False
    for m in p["range"].finditer(t):
        days |= _span(day_index(m.group(1)), day_index(m.group(2)))
        recurring = True
    days |= {day_index(m.group(1)) for m in p["day"].finditer(t)}
    if p["plural"].search(t) or p["every_day"].search(t):
        recurring = True
    for m in p["list"].finditer(t):
        if len({day_index(d.group(1)) for d in p["day"].finditer(m.group(0))}) > 1:
            recurring = True
    for key, members in (("workdays", WORKDAYS), ("weekend", WEEKEND)):
        for m in p[key].finditer(t):
            days |= members
            if m.group(2) and not m.group(3).endswith("s"):
                one = True  # "a weekday evening", "one weekend morning"
            elif m.group(1) or m.group(3).endswith("s") or m.group(4):
                recurring = True  # "every weekday", "weekends", "weekday evenings"
    # every day only when no narrower set is said ("saturday and sunday, every morning")
    if p["all"].search(t) and (not days or not recurring):
        days, recurring = set(EVERY_DAY), True
    if p["any"].search(t) and not days:
        days = set(EVERY_DAY)  # "any day": each allowed, none said to repeat
    return DaySet(days=frozenset(days - taken), recurring=recurring and not one, one=one)
