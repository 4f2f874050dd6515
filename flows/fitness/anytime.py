"""Reading fitness answers that depend on what is known already: weekdays as many as the
plan has, and answers (or corrections of earlier stages) given out of turn.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.extract import Invalid, Parser, fold
from flows.fitness.profile import FitnessSlots, accumulated
from flows.fitness.readers import (
    DIET_CUE,
    GOAL_CUE,
    TARGET_CUE,
    TIME_CUE,
    TIME_EXPECTS,
    WEIGHT_EXPECTS,
    allergies_in,
    days_in,
    days_per_week_rule,
    limitation_in,
    minutes_in,
    parse_minutes,
    parse_time_of_day,
    parse_weight,
    read_diet,
    read_goal,
    read_level,
    read_time,
    weekdays_in,
)


def days_parser(s: FitnessSlots) -> Parser:
    """Weekdays, as many as the workout stage planned per week."""
    want = accumulated(s).workout
    per_week = want.days_per_week if want else None

    def rule(text: str) -> object:
        days = weekdays_in(text)
        if not days:
            return None
        if per_week is not None and len(days) != per_week:
            picked = ", ".join(days)
            return Invalid(
                f"You picked {len(days)} day(s) ({picked}) but planned {per_week} a week; please name {per_week}."
            )
        return days

    expects = f"{per_week} weekdays" if per_week else "the weekdays you prefer"
    return Parser(rule, f"{expects}, e.g. Mon, Wed, Fri")


# -- reading answers given out of turn ----------------------------------------------------


_LEVEL_CUE = re.compile(
    r"\b(?:i'm|i am|i'd say i'm|my (?:fitness )?level is)\s+(?:a |an |pretty |fairly |quite |a complete |an absolute )?"
    r"(beginner|intermediate|advanced|novice|newbie|expert)\b"
)


def read_anytime(text: str, s: FitnessSlots, asking: str | None = None) -> dict[str, object]:
    """Answers (and corrections of earlier stages) a message states with an explicit cue."""
    t = fold(text)
    found: dict[str, object] = {}
    if m := _LEVEL_CUE.search(t):
        found["fitness_level"] = read_level(m.group(1))
    if limit := limitation_in(text):
        found["limitations"] = limit
    if m := GOAL_CUE.search(t):
        goal = read_goal(m.group(1))
        if isinstance(goal, str):
            found["goal"] = goal
    if m := TARGET_CUE.search(t):
        kg = parse_weight(m.group(1))
        if isinstance(kg, float):
            found["target_weight_kg"] = kg
    found["days_per_week"] = days_in(text)
    if (minutes := minutes_in(text)) is not None and re.search(r"\b(?:session|workout|train|each|per)\b", t):
        found["minutes_per_session"] = minutes
    if m := DIET_CUE.search(t):
        found["diet"] = read_diet(m.group(1))
    if allergies := allergies_in(text):
        found["allergies"] = allergies
    if m := TIME_CUE.search(t):
        found["time_of_day"] = read_time(m.group(1))
    found = {k: v for k, v in found.items() if v is not None and not isinstance(v, Invalid)}
    slot = asking
    if found and slot in CLOSED and slot not in found:
        # "beginner, and I have a bad knee": what else the message says must not hide the answer itself
        answer = CLOSED[slot](s)(re.split(r"[,;.!?]|\s(?:and|but)\s", text.strip())[0])
        if answer is not None and not isinstance(answer, Invalid):
            found[slot] = answer
    return found


# The questions with a closed set of answers; a free-text one (injuries, equipment, allergies)
# would take any clause as its answer, so it is only answered on its own.
CLOSED: dict[str, Callable[[FitnessSlots], Parser]] = {
    "fitness_level": lambda s: read_level,
    "goal": lambda s: read_goal,
    "target_weight_kg": lambda s: Parser(parse_weight, WEIGHT_EXPECTS),
    "days_per_week": lambda s: Parser(days_per_week_rule, "a number of days from 1 to 7"),
    "minutes_per_session": lambda s: Parser(parse_minutes, "minutes per session, from 10 to 240"),
    "diet": lambda s: read_diet,
    "preferred_days": days_parser,
    "time_of_day": lambda s: Parser(parse_time_of_day, TIME_EXPECTS),
}
