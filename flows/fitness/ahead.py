"""What a fitness message may fill before its question is asked (engine/fill.py): the declarations,
and the readers that are truly the coach's own (body weights, allergies, equipment by name).

"im 29, 175 cm and 80 kg, beginner i guess" at the level question: the level, and 80 kg as the
body weight (a weight said at another question is what the user weighs, unless they say it is
their target); "vegetarian, and gluten intolerant" at the diet question: the diet, and the
allergies question is not asked.
"""

from __future__ import annotations

import re

from wordfreq import zipf_frequency

from engine import Ahead
from engine.extract import Parser, fold
from engine.guard import detect_language
from engine.smalltalk import greets
from flows.fitness.anytime import CLOSED
from flows.fitness.food import FOOD_WORDS, FOODS
from flows.fitness.limits import limitation_in
from flows.fitness.profile import FitnessSlots
from flows.fitness.readers import EQUIPMENT, goal_named, parse_equipment, weekdays_said
from flows.fitness.weights import unit_of, weigh

_UNITS = ("kg", "kgs", "kilo", "kilos", "kilogram", "kilograms", "lb", "lbs", "pound", "pounds", "stone")


def _body_weight(text: str) -> object:
    """The weight a clause says the user is: marked as now ("I weigh 80 kg"), or said plainly ("80 kg")."""
    mentions = [w for w in weigh(text).mentions if w.role in ("current", "unmarked")]
    return mentions[-1].kg if len(mentions) == 1 else None


def _body_weight_in(s: FitnessSlots) -> Parser:
    """`_body_weight`, and once the user's unit is known (`weight_unit`) a number without one marked as the
    weight of now ("i'm 92 now so 82"): a bare number alone is no weight ("45" at the minutes question)."""

    def rule(text: str) -> object:
        found = _body_weight(text)
        if found is not None or s.weight_unit is None:
            return found
        marked = [w for w in weigh(text, s.weight_unit).mentions if w.role == "current"]
        return marked[0].kg if len(marked) == 1 else None

    return Parser(rule, "your weight")


def _target_weight(text: str) -> object:
    found = weigh(text).target
    return found.kg if found is not None else None


def _weight_unit(text: str) -> dict[str, object]:
    """The unit the weights were written in, kept with them (flows/fitness/anytime.py reads a later
    number without a unit in it); not a fact the user is told was noted."""
    weights = weigh(text)
    # a weight said plainly ("beginner, 29, 80kg") is the body weight read here: its unit is kept too
    unmarked = weights.of("unmarked")
    kept = weights.target or weights.current or (unmarked[0] if len(unmarked) == 1 else None)
    unit = unit_of(kept) if kept is not None else None
    return {"weight_unit": unit} if unit is not None else {}


# "log my weight", "lose weight": out of turn a weight is no equipment unless it is "free weights"
_NOT_KIT = re.compile(r"(?<!free )\bweights?\b")


# "no equipment", "bodyweight only": none, said as the equipment's (a bare "nothing" is no one slot's)
_NO_KIT = re.compile(
    r"^(?:(?:and|but|just|only|i have|i've got)\s+)*(?:no (?:equipment|gear|kit)(?: at all)?|(?:only |just )?"
    r"(?:my )?(?:bodyweight|body weight)(?: only| stuff| exercises)?)$"
)


# "never" in the six languages: a clause that says the user never did something with a thing says they have none
_NEVER = re.compile(r"\b(?:never|nunca|jamas|jamais|nie|niemals|mai)\b")


def _equipment(text: str) -> object:
    """Equipment a clause names (a known name: "resistance bands", "a bench"), never any words;
    [] for a clause that says there is none ("no equipment")."""
    if _NO_KIT.match(fold(text).strip(" .!")):
        return []
    if _NEVER.search(fold(text)):
        return None  # "nunca he pisado un gimnasio", "war noch nie im Fitnessstudio": no equipment the user has
    found = parse_equipment(_NOT_KIT.sub(" ", fold(text)))
    return found if isinstance(found, list) and found and all(f in EQUIPMENT for f in found) else None


_ALLERGY = re.compile(
    r"(?<!\w)(?:all?erg\w*|intoleran\w*|\w+intolerant|unvertr\w*|sensitive to|celiac|coeliac|can'?t (?:eat|have))"
)
_NO_ALLERGY = re.compile(
    # "pas d'allergies": the elided article runs into the word
    r"^(?:(?:no|nope|none|zero|sin|ninguna|keine|pas de|aucune|niente|nessuna|nenhuma|sem)\s+|pas d'\s*)(?:\w+\s+)?"
    r"(?:all?erg\w*|intoleran\w*)$"
)


def _allergies(text: str) -> object:
    """The foods a clause says the user cannot eat ("gluten intolerant", "allergic to shrimp",
    "laktoseintolerant"); [] for "no allergies". Only a clause that says allergy or intolerance."""
    t = fold(text).strip(" .!")
    if _NO_ALLERGY.match(t):
        return []
    if not _ALLERGY.search(t):
        return None
    found = [
        food for food, names in FOODS.items() if any(re.search(_food(n), t) and not _a_word_of(n, t) for n in names)
    ]
    return found or None


def _a_word_of(name: str, text: str) -> bool:
    """Whether a food's name is one of the common words of the language the rest of the message is in ("soy
    alérgica a los frutos secos": Spanish "I am", no soy), far commoner there than as the food in English."""
    rest = " ".join(w for w in re.findall(r"[^\W\d_]+", text) if w != fold(name))
    language = detect_language(rest, least_words=1, margin=1.0)
    if language in (None, "en"):
        return False
    there = zipf_frequency(fold(name), language)
    return there >= _COMMON_THERE and there > zipf_frequency(fold(name), "en") + _COMMONER_BY


# a word this common in a language is one of its own words (Spanish "soy" 6.4; English "soy" 3.7)
_COMMON_THERE = 5.0
_COMMONER_BY = 1.5


def _food(name: str) -> str:
    return rf"(?<!\w){re.escape(fold(name))}"


def _time_of_day(s: FitnessSlots) -> Parser:
    asked = CLOSED["time_of_day"](s)
    # "good morning", "buenas noches": a greeting names no time to train
    return Parser(lambda text: None if greets(text) else asked(text), asked.expects)


AHEAD = (
    "fitness_level",
    # the injury by what is wrong with which body part: its own reader also keeps a copied answer the
    # question's ("sore shoulder from the bench" is no equipment, engine/fill.py)
    # its cue words let a clause that declines it name it ("nothing wrong with me", "no injuries" beside the
    # level): the engine reads such a clause as the question's own none (engine/fill.py)
    Ahead(
        "limitations",
        parser=Parser(limitation_in, "an injury"),
        alone=True,
        cues=("injury", "injuries", "limitation", "wrong with me", "hurts"),
    ),
    # what the plan holds (goal, days, minutes, days and time to train) is never read from a habit of now:
    # "intermediate, i run twice a week" gives the level, not the days a week (engine/fact_clauses.py `habit`)
    # "i want to get in shape" is why the user came, not the goal: general health is asked, not guessed
    Ahead("goal", parser=Parser(goal_named, "a goal"), alone=True, plan=True, catch_all=("general_health",)),
    # a weight's role comes from the clauses around it ("90kg now and want 80"): read in the whole message
    # once a unit was said (`weight_unit`), a weight marked as now needs none ("i'm 92 now so 82")
    Ahead(
        "current_weight_kg",
        parser=_body_weight_in,
        cues=_UNITS,
        whole=True,
        beside=_weight_unit,
        named_by=("weight_unit",),
    ),
    Ahead(
        "target_weight_kg",
        parser=Parser(_target_weight, "a target weight"),
        cues=_UNITS,
        whole=True,
        beside=_weight_unit,
    ),
    Ahead(
        "days_per_week",
        parser=CLOSED["days_per_week"],
        plan=True,
        cues=(
            "days",
            "day",
            "times a week",
            "x a week",
            "a week",
            "per week",
            "días",
            "dias",
            "jours",
            "tage",
            "giorni",
            "veces",
            "fois",
            "mal",
            "volte",
            "vezes",
        ),
    ),
    Ahead(
        "minutes_per_session",
        parser=CLOSED["minutes_per_session"],
        plan=True,
        cues=(
            "min",
            "mins",
            "minute",
            "minutes",
            "hour",
            "hours",
            "hr",
            "hrs",
            "h",
            "minutos",
            "minuten",
            "minuti",
            "stunde",
            "hora",
            "heure",
            # Italian "ora" alone is also "now" ("ora ne peso novanta"): the hour only with its article
            "un'ora",
            "mezz'ora",
            "ore",
        ),
    ),
    Ahead("equipment", parser=Parser(_equipment, "equipment"), alone=True),
    # eating names the diet: "i eat anything" is one, "haven't done anything in years" is none
    Ahead(
        "diet",
        parser=CLOSED["diet"],
        alone=True,
        cues=(
            "eat",
            "eating",
            "food",
            "foods",
            "comer",
            "manger",
            "mange",
            "essen",
            "esse",
            "mangio",
            "mangiare",
            "como",
        ),
    ),
    Ahead("allergies", parser=Parser(_allergies, "allergies", known=FOOD_WORDS), alone=True),
    Ahead(
        "preferred_days",
        parser=Parser(lambda text: weekdays_said(text) or None, "weekdays"),
        alone=True,
        plan=True,
    ),
    Ahead(
        "time_of_day",
        parser=_time_of_day,
        plan=True,
        cues=(
            "morning",
            "mornings",
            "midday",
            "noon",
            "lunchtime",
            "lunch",
            "afternoon",
            "afternoons",
            "evening",
            "evenings",
            "night",
            "nights",
            "am",
            "pm",
            "mañana",
            "mañanas",
            "tarde",
            "tardes",
            "noche",
            "morgens",
            "abends",
            "nachmittags",
            "matin",
            "soir",
            "mattina",
            "sera",
            "manhã",
            "noite",
        ),
    ),
)
