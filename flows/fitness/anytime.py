"""Reading fitness answers that depend on what is known already: weekdays as many as the
plan has, and the few answers given out of turn that the engine's reading ahead (`AHEAD` in
flows/fitness/ahead.py, read by engine/fill.py) does not give.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from engine.extract import Invalid, Parser, fold, optional
from flows.fitness.food import read_diet
from flows.fitness.limits import limitation_cued
from flows.fitness.profile import WEEKDAYS, FitnessSlots, Weekday, accumulated
from flows.fitness.qualified import (
    days_answer,
    days_asked,
    diet_said,
    level_beside_limitations,
    minutes_answer,
)
from flows.fitness.readers import (
    TIME_EXPECTS,
    WEIGHT_EXPECTS,
    parse_time_of_day,
    parse_weight,
    read_goal,
    read_level,
    weekdays_in,
)
from flows.fitness.weights import unit_alone, unit_of, weigh

# days said as a set to choose from, not picked one by one: "any day except sunday", "weekdays", "every day but"
_OPEN_SET = re.compile(
    r"\b(?:any ?day|every ?day|daily|all week|each day|whichever day|whatever day|weekdays?|weekends?|except|but not"
    r"|apart from|other than|excluding)\b"
)


def _span(days: Sequence[Weekday]) -> str:
    """ "Mon–Sat" for days that follow each other in the week, else the days listed."""
    at = [WEEKDAYS.index(d) for d in days]
    return f"{days[0]}–{days[-1]}" if len(days) > 2 and at == list(range(at[0], at[0] + len(at))) else ", ".join(days)


def days_parser(s: FitnessSlots) -> Parser:
    """Weekdays, as many as the workout stage planned per week."""
    want = accumulated(s).workout
    per_week = want.days_per_week if want else None

    def rule(text: str) -> object:
        days = weekdays_in(text)
        if not days:
            return None
        if per_week is not None and len(days) > per_week and _OPEN_SET.search(fold(text)):
            # "any day except sunday" for 2 a week: the days allowed, of which to pick, with days spread over them
            spread = [days[int(i * len(days) / per_week)] for i in range(per_week)]
            return Invalid(
                f"Any {per_week} of {_span(days)}, then: which {per_week}? For example {', '.join(spread[:-1])} "
                f"and {spread[-1]}."
                if per_week > 1
                else f"Any one of {_span(days)}, then: which one?"
            )
        if per_week is not None and len(days) != per_week:
            picked = ", ".join(days)
            return Invalid(
                f"You picked {len(days)} day(s) ({picked}) but planned {per_week} a week; please name {per_week}."
            )
        return days

    expects = f"{per_week} weekdays" if per_week else "the weekdays you prefer"
    return Parser(rule, f"{expects}, e.g. Mon, Wed, Fri")


# -- reading answers given out of turn ----------------------------------------------------


def read_anytime(text: str, s: FitnessSlots, asking: str | None = None) -> dict[str, object]:
    """What the engine's reading ahead (`AHEAD`, engine/fill.py) does not give: an injury said after a
    cue at any question, a weight said again, the diet's exceptions kept beside it, and a level said beside
    the injuries."""
    if asking == "review":
        return {}  # the review reads changes with the questions' own parsers (flows/fitness/changes.py)
    found: dict[str, object] = {}
    # any message, at any question: only an injury said after a cue ("I have a bad knee"), never
    # words that merely mention the body ("my knee hurts in the morning" at the time question)
    if limit := limitation_cued(text):
        found["limitations"] = limit
    # a weight said again replaces the one kept ("bad knee, and i'm 80 kg" after "I'm 200 lbs"), where the
    # engine's reading ahead fills only an empty slot
    # at the weight question itself, numbers said without a unit are read in the one they can only be in
    # ("i'm 88 now, want to get to 80": kg), the target and the weight of now alike
    weights = weigh(text, unit_alone(text) if asking == "target_weight_kg" and s.weight_unit is None else None)
    if (target := weights.target) is not None:
        found["target_weight_kg"] = target.kg
        # a current weight is kept beside its target ("I weigh 95 kg and want to get to 85")
        # (the slots refuse a weight outside 30-300 kg: it is then not taken)
        if (current := weights.current) is not None:
            found["current_weight_kg"] = current.kg
    elif (current := weights.current) is not None:
        # said alone it is kept too (a user who told it expects it known) and the target question
        # still comes: "I'm 70 kg" is no target
        found["current_weight_kg"] = current.kg
    # an amount to lose or gain is written in the user's unit too ("i just wanna lose like 10 kilos")
    amount = next((w for w in weights.mentions if w.role == "relative"), None) if s.weight_unit is None else None
    kept = target or current or amount
    if kept is not None and (unit := unit_of(kept)) is not None:
        found["weight_unit"] = unit  # a later number without a unit is read in it
    # "mostly plant-based but I eat eggs": the diet word and, kept beside it, the exceptions
    found.update(diet_said(text, asking == "diet", s.diet_detail))
    if asking == "limitations":
        found.update(level_beside_limitations(text))
    return {k: v for k, v in found.items() if v is not None and not isinstance(v, Invalid)}


# The questions with a closed set of answers; a free-text one (injuries, equipment, allergies)
# would take any clause as its answer, so it is only answered on its own.
CLOSED: dict[str, Callable[[FitnessSlots], Parser]] = {
    "fitness_level": lambda s: read_level,
    "goal": lambda s: read_goal,
    "target_weight_kg": lambda s: optional(Parser(lambda text: parse_weight(text, s.weight_unit), WEIGHT_EXPECTS)),
    "days_per_week": lambda s: Parser(days_answer, "a number of days from 1 to 7"),
    "minutes_per_session": lambda s: Parser(minutes_answer, "minutes per session, from 10 to 240"),
    "diet": lambda s: read_diet,
    "preferred_days": days_parser,
    "time_of_day": lambda s: Parser(parse_time_of_day, TIME_EXPECTS),
}
# the days question's own reader: the weekdays named count as the answer there ("mon wed fri" is 3),
# never in a change of the days said later, which names which days (the correction reader reads CLOSED)
ASKED_DAYS = Parser(days_asked, "a number of days from 1 to 7")
