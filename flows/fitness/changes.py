"""The facts of a fitness profile a message may change, before it is saved (the review) and
after (the amend path): the words that name each fact and the parser its question uses.

A change is read by its question's own parser (engine/amend.py), so "days should be 4" is
read as the answer "4" to the days question. The days per week and the days named follow
each other: naming other days changes the count; a new count the named days do not fit is
asked about ("which 4 days?"), never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from engine import Amendable, Amends, RecordDraft
from engine.extract import Invalid, Parser, fold
from engine.weekdays import DAY
from flows.fitness.anytime import CLOSED
from flows.fitness.food import parse_allergies
from flows.fitness.limits import BODY, BODY_PART, limitation_in
from flows.fitness.profile import NONE, STAGES, WEEKDAYS, FitnessContext, FitnessSlots, accumulated
from flows.fitness.readers import EQUIPMENT, GOAL_NAMES, is_none, parse_equipment, weekdays_in
from flows.fitness.weights import weigh

LABELS = {
    "target_weight_kg": "target weight",
    "current_weight_kg": "current weight",
    "days_per_week": "days a week",
    "minutes_per_session": "minutes",
    "diet_detail": "diet, as you put it",
}


def show(slot: str, value: object) -> str:
    """How an answer reads when it is acknowledged: "target weight: 80.0 kg", "goal: fat loss"."""
    return f"{LABELS.get(slot, slot.replace('_', ' '))}: {_show(slot, value)}"


def show_change(slot: str, value: object) -> str:
    """How a changed fact reads in a review or an update: "training days: Mon, Wed, Fri"."""
    label = next((f.label for f in FIELDS if f.slot == slot), "") or LABELS.get(slot, slot.replace("_", " "))
    return f"{label}: {_show(slot, value)}"


def _show(slot: str, value: object) -> str:
    if isinstance(value, list):
        return listed(value)
    if slot in ("target_weight_kg", "current_weight_kg") and isinstance(value, float | int):
        return f"{value} kg"
    names: dict[str, str] = {str(k): v for k, v in GOAL_NAMES.items()}
    return names.get(value, value) if isinstance(value, str) else str(value)


def listed(items: Sequence[str] | None) -> str:
    if items is None:
        return "not given"
    return ", ".join(items) if items else NONE


# -- the facts and their readers -------------------------------------------------------------

_EQUIPMENT_NAMES = sorted({w for words in EQUIPMENT.values() for w in words} | {"equipment", "gear"}, key=len)
_BODY_WORDS = re.compile(rf"(?<!\w)(?:{BODY.pattern})")
_GENERIC_INJURY = frozenset({"injury", "injuries", "injured", "pain", "condition", "limitation", "limitations"})


def _limitations(s: FitnessSlots) -> Parser:
    """An injury a sentence states ("I have a bad shoulder"), "none"; a body part the noted
    injury does not name is refused, so "my back is fine now" cannot remove a bad knee."""
    noted = set(re.findall(r"\w+", fold(s.limitations or "")))

    def rule(text: str) -> object:
        if is_none(text):
            return NONE
        found = limitation_in(text)  # "I have a bad shoulder", "i hurt my knee last week"
        if found is not None:
            return found
        parts = {m.group(0) for m in _BODY_WORDS.finditer(fold(text))} - _GENERIC_INJURY
        words = {w for p in parts for w in p.split()}
        if noted and s.limitations != NONE and words and not words & noted:
            return Invalid(f"Your injuries are noted as “{s.limitations}”; say “remove the injury” to drop it.")
        return None

    return Parser(rule, "your injuries or limitations, or “none”")


def _current_weight(s: FitnessSlots) -> Parser:
    def rule(text: str) -> object:
        found = weigh(text, s.weight_unit).current
        return found.kg if found is not None else None

    return Parser(rule, "your weight with its unit (80 kg or 176 lb)")


def _weekdays(s: FitnessSlots) -> Parser:
    return Parser(lambda text: weekdays_in(text) or None, "the weekdays you train, e.g. Mon, Wed, Fri")


def _named(*patterns: str) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(patterns) + r")\b")


FIELDS: list[Amendable[FitnessSlots]] = [
    Amendable("fitness_level", _named("beginner", "intermediate", "advanced", "novice", "expert", "level"),
              CLOSED["fitness_level"], "level",
              called=("nivel", "niveau", "Niveau", "Fitnesslevel", "livello", "nível")),
    # a letter first: the many alternatives are not tried at every digit and colon of "1:1:1:…"
    Amendable("limitations",
              re.compile(rf"(?=[^\W\d_])(?:\b(?:limitations?|injur\w*)\b|(?<!\w)(?:{BODY.pattern})|{BODY_PART})"),
              _limitations, "injuries", called=("lesiones", "blessures", "Verletzungen", "infortuni", "lesões")),
    Amendable("goal", _named("goal", "fat loss", "lose weight", "muscle", "endurance", "general health"),
              CLOSED["goal"], "goal", called=("objetivo", "meta", "objectif", "but", "Ziel", "obiettivo")),
    Amendable("target_weight_kg", _named("target", "goal weight", "aim(?:ing)? for", "get (?:down )?to"),
              CLOSED["target_weight_kg"], "target weight",
              called=("peso objetivo", "poids cible", "Zielgewicht", "peso obiettivo", "peso ideal")),
    # the number within a sentence's reach of the cue: an unbounded ".*\d" rescans to the end from every cue
    Amendable("current_weight_kg", re.compile(r"\b(?:i'?m|i am|i weigh|weigh(?:ing)?|my weight)\b\D{0,80}\d"),
              _current_weight, "current weight", called=("peso", "poids", "Gewicht", "weight", "my weight")),
    Amendable("days_per_week", re.compile(r"\b(?:days?|times)\b(?!\s+of)"), CLOSED["days_per_week"], "days a week",
              called=("días", "dias", "jours", "Tage", "giorni", "days")),
    Amendable("minutes_per_session", _named("min", "mins", "minutes", "hours?", "hrs?", "sessions?"),
              CLOSED["minutes_per_session"], "minutes", called=("minutos", "Minuten", "minuti", "durée", "duración")),
    Amendable("equipment", _named(*(re.escape(w) for w in _EQUIPMENT_NAMES)),
              lambda s: Parser(parse_equipment, "your equipment"), "equipment",
              called=("equipo", "equipamiento", "équipement", "matériel", "Ausrüstung", "attrezzatura", "equipamento")),
    Amendable("diet", _named("diet", "omnivore", "vegetarian", "vegan", "pescatarian", "keto", "paleo",
                             "mediterranean", "veggie", "plant[- ]based"), CLOSED["diet"], "diet",
              called=("dieta", "régime", "alimentation", "Ernährung", "Diät", "alimentación", "alimentação")),
    Amendable("allergies", _named(r"allerg\w*", r"intoleran\w*"), lambda s: Parser(parse_allergies, "your allergies"),
              "allergies", called=("alergias", "allergies", "Allergien", "allergie")),
    Amendable("preferred_days", _named(rf"{DAY}s?", "weekends?", "weekdays"), _weekdays, "training days", adds=False,
              called=("días de entrenamiento", "jours d'entraînement", "Trainingstage", "giorni di allenamento",
                      "dias de treino")),
    # "this morning" says when something happened, not when the user trains
    Amendable("time_of_day", _named(r"(?<!this )(?<!last )(?<!yesterday )(?<!tomorrow )mornings?", "midday",
                                    "noon", "lunchtime", "afternoons?", "evenings?", "nights?",
                                    r"\d{1,2}\s*(?:am|pm)", "any ?time"), CLOSED["time_of_day"], "time of day",
              called=("hora", "heure", "Uhrzeit", "orario", "horário", "time")),
]  # fmt: skip


_EXAMPLE_DAYS = {
    1: "Sat", 2: "Tue, Sat", 3: "Mon, Wed, Fri", 4: "Mon, Tue, Thu, Sat",
    5: "Mon to Fri", 6: "Mon to Sat", 7: "every day",
}  # fmt: skip


def settle(before: FitnessSlots, after: FitnessSlots) -> FitnessSlots | str:
    """The days named set the count; a count the named days do not fit is asked about. Days are kept
    in the week's order ("tuesday too" with Mon, Wed, Fri is Mon, Tue, Wed, Fri)."""
    if after.preferred_days:
        ordered = sorted(after.preferred_days, key=WEEKDAYS.index)
        if ordered != after.preferred_days:
            after = after.model_copy(update={"preferred_days": ordered})
    days, count = after.preferred_days, after.days_per_week
    if not days or count == len(days):
        return after
    if days != before.preferred_days and count == before.days_per_week:
        return after.model_copy(update={"days_per_week": len(days)})
    example = _EXAMPLE_DAYS.get(count or 1, "Mon, Wed, Fri")
    return f"You train on {listed(days)}: which {count} days should it be? Name them, e.g. “switch me to {example}”."


def from_profile(data: dict[str, Any]) -> FitnessSlots:
    """A saved `fitness_profile` record read back into the onboarding's slots."""
    c = FitnessContext.model_validate(data)
    a, g, w, d, sc = c.assessment, c.goals, c.workout, c.diet, c.schedule
    done = [stage for stage, part in zip(STAGES, (a, g, w, d, sc), strict=True) if part is not None]
    return FitnessSlots.model_validate(
        {
            "fitness_level": a.level if a else None,
            "limitations": a.limitations if a else None,
            "goal": g.goal if g else None,
            "target_weight_kg": g.target_weight_kg if g else None,
            "current_weight_kg": g.current_weight_kg if g else None,
            "days_per_week": w.days_per_week if w else None,
            "minutes_per_session": w.minutes_per_session if w else None,
            "equipment": w.equipment if w else None,
            "diet": d.diet if d else None,
            "diet_detail": d.detail if d else None,
            "allergies": d.allergies if d else None,
            "preferred_days": sc.days if sc else None,
            "time_of_day": sc.time_of_day if sc else None,
            "completed": done,
        }
    )


def fitness_profile(s: FitnessSlots) -> list[RecordDraft]:
    return [RecordDraft(kind="fitness_profile", data=accumulated(s).model_dump(mode="json"))]


PROFILE: Amends[FitnessSlots] = Amends(
    kind="fitness_profile", fields=FIELDS, load=from_profile, records=fitness_profile, settle=settle, show=show_change
)
