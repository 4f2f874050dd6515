"""Answers that are more than one plain value: a range where one number is asked for
("45-60 min", "3 to 4 days"), a diet with its exceptions ("vegetarian except fish"), and a
fitness level said at the injuries question ("no injuries, I'm pretty advanced though").

Ranges follow one policy, everywhere: the coach asks which end to plan with, and never
rounds or picks one itself; a range said out of turn fills nothing (the question comes in
its turn).
"""

from __future__ import annotations

import re

from engine.extract import Invalid, fold
from flows.fitness.food import DIET_CUE, DietAnswer, diet_answer, excluded
from flows.fitness.limits import BODY, parse_limitations
from flows.fitness.profile import NONE, Diet
from flows.fitness.readers import days_named, days_per_week_rule, is_none, parse_minutes, read_level
from flows.fitness.weights import with_digits

# "45-60", "45 – 60", "3 to 4", "3 or 4", each optionally with its unit after the second number
_RANGE = re.compile(
    r"(?<![\w.])(?:between\s+)?(\d{1,3}(?:[.,]\d)?)\s*(?:-|–|—|to|or|and)\s*(\d{1,3}(?:[.,]\d)?)"
    r"(?:\s*(min|mins|minutes?|h|hrs?|hours?|days?|times?|x)\b|(?![\w.]))"
)
# every other day is three or four days a week, depending on the week: which, is asked
_EVERY_OTHER_DAY = re.compile(r"\b(?:every (?:other|second) day|alternate days|on and off days)\b")


def range_in(text: str, unit: str) -> tuple[float, float] | None:
    """The two ends of a range `text` gives, in `unit` ("minutes" or "days"); a range in hours
    is in minutes. None when there is no range of that kind."""
    t = fold(with_digits(text))
    if unit == "days" and _EVERY_OTHER_DAY.search(t):
        return 3.0, 4.0
    for m in _RANGE.finditer(t):
        lo, hi = (float(g.replace(",", ".")) for g in m.group(1, 2))
        said = m.group(3) or ""
        if said.startswith("h") and unit == "minutes":
            lo, hi = lo * 60, hi * 60
        elif said and not said.startswith(unit[0]) and not (unit == "days" and said[0] in "tx"):
            continue  # "3-4 hours" is no range of days
        if lo < hi:
            return lo, hi
    return None


def ask_which_end(text: str, unit: str, label: str, bounds: tuple[int, int]) -> Invalid | None:
    """The question a range answer gets back ("45 to 60 minutes: shall I plan 45 or 60?"); None
    for no range, or one not within `bounds` (the reader's own out-of-range reply says why)."""
    found = range_in(text, unit)
    if found is None or not bounds[0] <= found[0] < found[1] <= bounds[1]:
        return None
    lo, hi = (f"{n:g}" for n in found)
    return Invalid(f"{lo} to {hi} {label}: shall I plan with {lo} or {hi}? I'd rather ask than round.")


# -- diets with exceptions ----------------------------------------------------------------


def diet_detail(text: str, named: Diet | None = None) -> str | None:
    """The answer as typed when it says more than its diet's name ("mostly plant-based but I eat
    eggs", "veggie + seafood"); else None. `named`: a diet said out of turn, which the text qualifies."""
    answer = diet_answer(text, named)
    if not isinstance(answer, DietAnswer) or not answer.qualified:
        return None
    detail = " ".join(text.split()).strip(" .!")
    return detail[:200] if len(detail) >= 2 else None


# the foods left out, said in two messages, are kept as one detail, a part each
_PARTS = ";"


def _parts(kept: str | None) -> list[str] | None:
    """The parts of `kept` when it only says what is left out ("no dairy for me", or two such said apart)."""
    parts = [p.strip() for p in kept.split(_PARTS)] if kept is not None else []
    return parts if parts and all(excluded(p) for p in parts) else None


def diet_said(text: str, asking: bool, kept: str | None = None) -> dict[str, object]:
    """The diet slots a message fills: at the diet question (`asking`), a diet with its words kept
    beside it; out of turn, a diet named after a cue ("I'm vegetarian, fish sometimes"), as the
    rest of the message makes it. A plain diet at its question is left to the question's reader.
    `kept`: the diet detail kept so far; the foods it leaves out stay beside what this message adds
    ("no dairy", then "kein Zucker": neither is eaten, the second takes nothing back)."""
    found = _diet_said(text, asking)
    before = _parts(kept)
    detail = found.get("diet_detail")
    if before is not None and isinstance(detail, str):
        # one said again is not doubled
        parts = before if fold(detail) in {fold(p) for p in before} else [*before, detail]
        found["diet_detail"] = f"{_PARTS} ".join(parts)[:200]
    return found


def _diet_said(text: str, asking: bool) -> dict[str, object]:
    if asking and excluded(text):
        return {"diet_detail": text}  # "no dairy for me": kept for the diet answered next, no diet of its own
    m = DIET_CUE.search(fold(text))
    cued = diet_answer(m.group(1)) if m else None
    named = cued.diet if isinstance(cued, DietAnswer) else None
    if named is None and not asking:
        return {}
    answer = diet_answer(text, named)
    if not isinstance(answer, DietAnswer):
        return {}
    detail = diet_detail(text, named)
    if detail is None:
        return {"diet": answer.diet} if named is not None else {}
    return {"diet": answer.diet, "diet_detail": detail}


# -- a level said at the injuries question ------------------------------------------------

_CLAUSES = re.compile(r"[,;.!?]+|\s(?:but|though|tho|although|and|however)\b")


_NEGATED = re.compile(r"\b(?:not|non|nicht|pas|nao|no)\s+(?:an?\s+|un\s+|una\s+|ein\s+)?\w+")


def level_beside_limitations(text: str) -> dict[str, object]:
    """The level a clause of the answer states, and the injuries the other clauses state
    ("none" when they say none); {} when no clause states a level."""
    level: str | None = None
    rest: list[str] = []
    for clause in (c.strip() for c in _CLAUSES.split(text)):
        if not clause:
            continue
        # "principiante non intermedio": a level said as not being one is no level
        kept = _NEGATED.sub("", fold(clause))
        said = read_level(kept) if len(clause.split()) <= 6 and not BODY.search(fold(clause)) else None
        if isinstance(said, str):
            level = said
        else:
            rest.append(clause)
    if level is None:
        return {}
    found: dict[str, object] = {"fitness_level": level}
    if rest and all(is_none(c) for c in rest):
        found["limitations"] = NONE
    elif rest:
        injuries = parse_limitations(", ".join(rest))
        if isinstance(injuries, str):
            found["limitations"] = injuries
    return found


def limitations_answer(text: str) -> object:
    """The injuries answer with a level said beside it taken out: a level alone is not an injury."""
    found = level_beside_limitations(text)
    if not found:
        return parse_limitations(text)
    if "limitations" in found:
        return found["limitations"]
    return Invalid("That's your fitness level, thanks. And injuries: do you have any, or “none”?")


def days_answer(text: str) -> object:
    return ask_which_end(text, "days", "days a week", (1, 7)) or days_per_week_rule(text)


def days_asked(text: str) -> object:
    """The answer to "how many days a week?": a number, or the weekdays named counted ("mon wed fri")."""
    found = days_answer(text)
    if found is None or isinstance(found, Invalid):
        return days_named(text) or found
    return found


def minutes_answer(text: str) -> object:
    return ask_which_end(text, "minutes", "minutes", (10, 240)) or parse_minutes(text)
