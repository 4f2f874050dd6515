"""What a fitness message fills beside the asked question (flows/fitness/ahead.py through engine/fill.py)."""

from __future__ import annotations

import pytest

from engine.fill import read_ahead
from flows.fitness.anytime import read_anytime
from flows.fitness.onboarding import fitness_onboarding
from flows.fitness.profile import FitnessSlots
from flows.fitness.weights import weigh


def ahead(state: str, text: str) -> dict[str, object]:
    found = read_ahead(fitness_onboarding, fitness_onboarding.named[state], FitnessSlots(), text)  # type: ignore[arg-type]
    return {s.slot: s.value for s in found.sets}


@pytest.mark.parametrize(
    ("state", "text", "found"),
    [
        # the unit a weight was written in is kept beside it (quietly), so a later number without one is read in it
        ("level", "im 29, 175 cm and 80 kg, beginner i guess", {"current_weight_kg": 80.0, "weight_unit": "kg"}),
        ("level", "intermediate, 3 days a week, 40 min, i have dumbbells",
         {"days_per_week": 3, "minutes_per_session": 40, "equipment": ["dumbbells"]}),
        ("level", "advanced lifter, want to bulk, vegan diet", {"goal": "muscle_gain", "diet": "vegan"}),
        ("goal", "lose weight, im 90kg now and want 80",
         {"current_weight_kg": 90.0, "target_weight_kg": 80.0, "weight_unit": "kg"}),
        ("diet", "vegetarian, and gluten intolerant", {"allergies": ["gluten"]}),
        ("diet", "vegan und laktoseintolerant", {"allergies": ["lactose"]}),
        ("diet", "vegetariano, niente allergie", {"allergies": []}),
        # the equipment question takes any words, but words it only copies back are another slot's when
        # that slot reads them: the weekdays and the time of day
        ("equipment", "dumbbells and a bench, and im free tue thu sat evenings",
         {"preferred_days": ["Tue", "Thu", "Sat"], "time_of_day": "evening"}),
        ("equipment", "Monday, Wednesday and Friday", {"preferred_days": ["Mon", "Wed", "Fri"]}),
        ("limitations", "abnehmen", {"goal": "fat_loss"}),
        ("diet", "plant based mostly, some chicken on weekends", {}),
        ("days", "3x a week, an hour and a half each", {"minutes_per_session": 90}),
        # what names no slot, or another question, is no fact said ahead
        ("level", "hey! good morning :)", {}),
        ("minutes", "45. can you also log my weight every week?", {}),
        ("minutes", "is 15 minutes even worth it?", {}),
        ("target_weight", "80 kg", {}),
        # an injury beside the level, by what is wrong with which part of the body
        ("level", "advanced. pulled left hamstring last month", {"limitations": "pulled left hamstring last month"}),
        # a question taking any words leaves a message that plainly answers others, unless its own reader reads it
        ("limitations", "a bench plus resistance bands", {"equipment": ["resistance bands", "bench"]}),
        ("limitations", "sore shoulder from the bench", {}),
        ("equipment", "vegtarian", {"diet": "vegetarian"}),
        ("allergies", "tue and fri", {"preferred_days": ["Tue", "Fri"]}),
        ("goal", "abnehmen, 64 kg wäre schön", {"target_weight_kg": 64.0, "weight_unit": "kg"}),
        # none, said as the equipment's; a bare "nothing" is no one slot's
        ("days", "4 days, 20 min, bodyweight only", {"minutes_per_session": 20, "equipment": []}),
        ("days", "4, nothing", {}),
        # a food's name that is a common word of the message's language is that word: Spanish "soy" is "I am"
        ("limitations", "como de todo, soy alérgica a los frutos secos", {"diet": "omnivore", "allergies": ["nuts"]}),
        ("level", "beginner, soy allergy", {"allergies": ["soy"]}),
    ],
)  # fmt: skip
def test_facts_beside_the_answer(state: str, text: str, found: dict[str, object]) -> None:
    assert ahead(state, text) == found


def test_an_age_said_with_im_is_no_weight() -> None:
    assert [w.kg for w in weigh("im 29, 175 cm and 80 kg").mentions] == [80.0]
    assert [w.role for w in weigh("i'm 200, want to get to 180 lbs").mentions] == ["current", "target"]


@pytest.mark.parametrize(
    "text",
    [
        "peso 90 kilos y quiero llegar a 80",
        "je pèse 90 kg et je veux descendre à 80",
        "ich wiege 90 kg und will auf 80",
        "peso 90 kg e voglio arrivare a 80",
        "peso 90 kg e quero chegar a 80",
    ],
)
def test_a_current_and_a_wished_weight_in_five_languages(text: str) -> None:
    # "peso 90 kilos y quiero llegar a 80" was "I read more than one weight there"
    found = weigh(text)
    assert (found.current and found.current.kg, found.target and found.target.kg) == (90.0, 80.0)


@pytest.mark.parametrize(
    ("text", "unit", "current"),
    [
        ("i'm 92 now so 82 i guess", "kg", 92.0),
        ("Peso 95 ahora, me gustaría llegar a 85", "kg", 95.0),
        ("im at 200 now, 180 would be nice", "lb", 90.7),
    ],
)
def test_a_weight_of_now_needs_no_unit_once_the_unit_is_known(text: str, unit: str, current: float) -> None:
    s = FitnessSlots(weight_unit=unit)
    found = read_ahead(fitness_onboarding, fitness_onboarding.named["target_weight"], s, text)  # type: ignore[arg-type]
    assert {x.slot: x.value for x in found.sets} == {"current_weight_kg": current}
    # a bare number at another question is no weight, unit known or not
    assert read_ahead(fitness_onboarding, fitness_onboarding.named["minutes"], s, "45").sets == []  # type: ignore[arg-type]


def test_the_unit_of_an_amount_to_lose_is_kept_for_a_later_weight() -> None:
    assert read_anytime("i wanna lose like 10 kilos", FitnessSlots(), "goal")["weight_unit"] == "kg"


@pytest.mark.parametrize(
    "text",
    [
        "intermediate i think, i run twice a week",
        "intermedio, corro tre volte a settimana",
        "advanced, i play tennis on saturdays",
    ],
)
def test_a_habit_told_at_the_level_question_fills_no_plan(text: str) -> None:
    assert ahead("level", text) == {}


@pytest.mark.parametrize(
    ("text", "foods"),
    [
        ("soy alérgica a los frutos secos", ["nuts"]),
        ("je suis allergique aux noix", ["nuts"]),
        ("sono allergica alla frutta secca", ["nuts"]),
        ("ich bin allergisch gegen nüsse und soja", ["nuts", "soy"]),
        ("sou alérgica a camarão", ["shellfish"]),
    ],
)
def test_allergies_said_as_learners_say_them(text: str, foods: list[str]) -> None:
    s = fitness_onboarding.new_slots({})
    assert fitness_onboarding.named["allergies"].parser(s)(text) == foods  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "text",
    [
        "Principiante total, nunca he pisado un gimnasio",
        "débutant, jamais allé à la salle de sport",
        "Anfänger, war noch nie im Fitnessstudio",
        "beginner, never been to a gym",
    ],
)
def test_a_place_never_been_to_is_no_equipment(text: str) -> None:
    assert "equipment" not in ahead("level", text)
    # a thing the user has, said beside the level, still is ("ho i manubri")
    assert ahead("level", "principiante, ho i manubri").get("equipment") == ["dumbbells"]


@pytest.mark.parametrize(
    "text", ["végétarienne, pas d'allergies", "vegetariana, sin alergias", "vegetarian, no allergies"]
)
def test_no_allergies_said_beside_the_diet(text: str) -> None:
    assert ahead("diet", text).get("allergies") == []
