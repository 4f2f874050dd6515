"""fitness-coach readers on answers as people type them (issue 13): each case failed before its fix.

Grouped by class: the injuries answer (yes/no forms, refusals, questions back, trailing
words), weights (stone and pounds, heights, number words, a current weight said alone),
minutes and days (number words, "between", "every other day"), diets, allergies, equipment,
and goals or levels said out of turn.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Engine, MemoryStore
from engine.errors import DataFileError
from engine.extract import Invalid
from flows.fitness.anytime import read_anytime
from flows.fitness.food import parse_allergies, read_diet
from flows.fitness.profile import FitnessSlots
from flows.fitness.qualified import days_answer, limitations_answer, minutes_answer
from flows.fitness.readers import days_in, parse_equipment, parse_weight, weekdays_in
from flows.fitness.weights import weigh
from flows.fitness.words import WORDS_FILE, load_words

# -- the injuries answer ------------------------------------------------------------------


@pytest.mark.parametrize("text", ["not yet", "nope, not really", "nah not really", "nada"])
def test_a_no_in_any_form_is_no_injuries(text: str) -> None:
    assert limitations_answer(text) == "none"


@pytest.mark.parametrize("text", ["i guess so", "yes", "yeah i think so"])
def test_a_bare_yes_asks_which_injury(text: str) -> None:
    out = limitations_answer(text)
    assert isinstance(out, Invalid) and "Which injury" in out.reason


@pytest.mark.parametrize("text", ["yes but not sure", "maybe, not sure", "is that important?"])
def test_an_unclear_answer_is_undecided_never_an_injury(text: str) -> None:
    assert limitations_answer(text) is None


@pytest.mark.parametrize("text", ["rather not say", "i'd prefer not to say", "that's private"])
def test_a_refusal_is_asked_again_with_a_reason(text: str) -> None:
    out = limitations_answer(text)
    assert isinstance(out, Invalid) and "No need for details" in out.reason


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        ("bad left knee so no running pls", "bad left knee, no running"),
        ("i have asthma lol", "asthma"),
        ("yeah, dodgy shoulder tbh", "dodgy shoulder"),
        ("i have a bad knee and asthma", "bad knee and asthma"),
        ("sore lower back from sitting, nothing serious", "sore lower back from sitting, nothing serious"),
    ],
)
def test_the_injury_is_kept_clean_with_its_meaning(text: str, stored: str) -> None:
    assert limitations_answer(text) == stored


def test_an_injury_that_names_a_sport_is_no_goal() -> None:
    # "running" is an endurance word, but the clause is about a knee
    assert limitations_answer("bad knee, can't do running") == "bad knee, can't do running"
    out = limitations_answer("i want to run a marathon")
    assert isinstance(out, Invalid) and "goal" in out.reason


def _filled(*messages: str) -> tuple[str | None, dict[str, object]]:
    """The state and the filled slots after `messages`: read ahead by the engine (engine/fill.py) from what
    the flow declares (`Flow.ahead`, flows/fitness/ahead.py)."""
    e = Engine(MemoryStore())
    for text in messages:
        r = e.turn("fitness-coach", "u", text)
    return r.state, {k: v for k, v in r.slots.items() if v not in (None, [], {}) and k != "completed"}


def test_a_bare_injury_clause_is_read_out_of_turn() -> None:
    assert _filled("hey im a total beginner, bad back") == (
        "goal",
        {"fitness_level": "beginner", "limitations": "bad back"},
    )


# -- weights ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kg"), [("12 stone 4", 78.0), ("12st 4", 78.0), ("11 stone 10lbs", 74.4), ("eighty kilos", 80.0)]
)
def test_stone_with_its_pounds_and_number_words(text: str, kg: float) -> None:
    assert parse_weight(text) == kg


@pytest.mark.parametrize(
    "text", ["im 5'10 and 70kg, want to hit 78", "5 ft 10, 70 kg, want 78", "178cm 70kg, aiming for 78"]
)
def test_a_height_is_no_weight(text: str) -> None:
    found = weigh(text)
    assert [(w.role, w.kg) for w in found.mentions] == [("current", 70.0), ("target", 78.0)]


def test_a_current_weight_said_alone_is_kept_and_the_target_asked() -> None:
    s = FitnessSlots(goal="muscle_gain")
    assert read_anytime("i'm 70kg", s, "target_weight_kg") == {"current_weight_kg": 70.0, "weight_unit": "kg"}
    assert isinstance(parse_weight("i'm 70kg"), Invalid)


# -- minutes and days ---------------------------------------------------------------------


@pytest.mark.parametrize(("text", "minutes"), [("forty five mins", 45), ("half hour-ish", 30), ("a half hour", 30)])
def test_minutes_in_words(text: str, minutes: int) -> None:
    assert minutes_answer(text) == minutes


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("between 30 and 45", "30 to 45 minutes"),
        ("30 to 45 mins", "30 to 45 minutes"),
        ("forty five to sixty minutes", "45 to 60 minutes"),
    ],
)
def test_minute_ranges_in_any_form_are_asked(text: str, asked: str) -> None:
    out = minutes_answer(text)
    assert isinstance(out, Invalid) and asked in out.reason


@pytest.mark.parametrize(
    ("text", "asked"), [("every other day", "3 to 4 days"), ("three or four", "3 to 4 days"), ("4-5x", "4 to 5")]
)
def test_day_ranges_in_any_form_are_asked(text: str, asked: str) -> None:
    out = days_answer(text)
    assert isinstance(out, Invalid) and asked in out.reason


def test_days_in_words() -> None:
    assert days_answer("five days") == 5
    assert days_answer("3x a week") == 3


# -- diets, allergies, equipment ----------------------------------------------------------


def _diet(text: str) -> dict[str, object]:
    found = read_anytime(text, FitnessSlots(), "diet")
    return {k: found[k] for k in ("diet", "diet_detail") if k in found}


def test_no_red_meat_is_an_omnivore_with_an_exception() -> None:
    assert _diet("no red meat") == {"diet": "omnivore", "diet_detail": "no red meat"}
    assert _diet("i eat anything but pork") == {"diet": "omnivore", "diet_detail": "i eat anything but pork"}
    # "no meat" is still a diet of its own
    assert read_diet("no meat") == "vegetarian" and read_diet("i don't eat red meat") == "omnivore"


def test_a_flexible_diet_keeps_its_word() -> None:
    assert _diet("flexitarian") == {"diet": "vegetarian", "diet_detail": "flexitarian"}


@pytest.mark.parametrize(
    "text", ["mostly veggie, fish sometimes", "veggie but I eat fish", "vegetarian + seafood", "no meat except fish"]
)
def test_a_vegetarian_who_eats_fish_is_pescatarian(text: str) -> None:
    assert _diet(text) == {"diet": "pescatarian", "diet_detail": text}
    assert read_diet(text) == "pescatarian"


def test_meat_beside_a_plant_based_diet_now_and_then_or_as_a_rule() -> None:
    # now and then: a flexitarian, which the word tables read as a vegetarian with exceptions
    said = "plant based mostly, some chicken on weekends"
    assert _diet(said) == {"diet": "vegetarian", "diet_detail": said}
    assert _diet("veggie but i eat chicken") == {"diet": "omnivore", "diet_detail": "veggie but i eat chicken"}
    assert read_diet("no meat or fish") == "vegetarian" and read_diet("vegetarian, no fish") == "vegetarian"


# a food left out that is no meat ("gluten free", "no dairy") is no diet: tests/test_user_misreadings.py
@pytest.mark.parametrize("text", ["I don't eat pork", "no pork or beef"])
def test_a_restriction_alone_is_an_omnivore_with_it_kept(text: str) -> None:
    assert _diet(text) == {"diet": "omnivore", "diet_detail": text}


def test_a_restriction_beside_a_diet_keeps_the_diet() -> None:
    assert _diet("dairy free vegetarian") == {"diet": "vegetarian", "diet_detail": "dairy free vegetarian"}
    assert _diet("no dairy or meat") == {"diet": "vegetarian", "diet_detail": "no dairy or meat"}


def test_fish_alone_asks_whether_meat_is_eaten_too() -> None:
    out = read_diet("I eat fish")
    assert isinstance(out, Invalid) and "meat too" in out.reason and out.suggestion == "pescatarian"
    assert read_diet("just fish") == "pescatarian" and read_diet("meat too") == "omnivore"


def test_a_diet_out_of_turn_is_read_with_the_foods_beside_it() -> None:
    found = read_anytime("I'm vegetarian but eat fish sometimes", FitnessSlots())
    assert found["diet"] == "pescatarian"


@pytest.mark.parametrize(
    ("text", "diet"),
    [("vegan-ish", "vegan"), ("keto-ish low carb", "keto"), ("i eat most things", "omnivore"),
     ("mostly plant-based but I eat eggs", "vegetarian"), ("vegan but I have honey", "vegan"),
     ("vegetarian, I do eat cheese", "vegetarian"), ("vegan, no eggs obviously", "vegan")],
)  # fmt: skip
def test_hedged_diets_keep_their_diet(text: str, diet: str) -> None:
    # eggs or dairy make a vegan diet vegetarian, honey does not; refused ("no eggs") they change nothing
    assert read_diet(text) == diet


def test_spellings_of_pescatarian() -> None:
    assert read_diet("pescetarian") == "pescatarian" and read_diet("pescaterian") == "pescatarian"


def test_the_diet_table_must_name_every_diet(tmp_path: Path) -> None:
    text = WORDS_FILE.read_text(encoding="utf-8").replace("  paleo: [paleolithic]\n", "")
    (tmp_path / "words.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError, match="must list each diet once"):
        load_words(tmp_path / "words.yaml")


def test_allergies_without_their_lead_words() -> None:
    assert parse_allergies("lactose intolerant and allergic to peanuts") == ["lactose", "peanuts"]
    assert parse_allergies("gluten intolerance, shellfish allergy") == ["gluten", "shellfish"]
    assert parse_allergies("i'm lactose intolerant and allergic to peanuts") == ["lactose", "peanuts"]


def test_allergies_joined_by_plus_and_closed_by_thats_it() -> None:
    assert parse_allergies("tree nuts + shellfish") == ["tree nuts", "shellfish"]
    assert parse_allergies("lactose intolerant, that's it") == ["lactose"]


@pytest.mark.parametrize(
    ("text", "allergies"),
    [
        # a none in the list is no item of it: the no before it, the nothing closing it
        ("não, nenhuma", []),
        ("nein, keine", []),
        # (closed with nothing more, "Laktose, sonst nichts": every phrase of the engine's table in test_word_tables.py)
        # the food inside what the user says they are, in their language
        ("soy celíaca", ["gluten"]),
        ("ich habe Zöliakie", ["gluten"]),
        ("soy alérgico al maní", ["peanuts"]),
        # another language's "and" between foods the table knows; "soy" alone is the food
        ("noci e arachidi", ["nuts", "peanuts"]),
        ("soy", ["soy"]),
        ("milk", ["milk"]),
    ],
)
def test_allergies_said_loosely_and_abroad(text: str, allergies: list[str]) -> None:
    assert parse_allergies(text) == allergies


def test_equipment_in_french() -> None:
    assert parse_equipment("des haltères et un banc") == ["dumbbells", "bench"]


@pytest.mark.parametrize("text", ["nada, solo mi cuerpo :)", "rien, juste mon corps", "só o meu corpo", "Eigengewicht"])
def test_the_body_alone_is_no_equipment_in_six_languages(text: str) -> None:
    assert parse_equipment(text) == []


def test_equipment_named_beside_nothing_is_that_equipment() -> None:
    assert parse_equipment("I have a pull up bar, otherwise nothing") == ["pull-up bar"]
    assert parse_equipment("nothing, bodyweight only") == []
    assert parse_equipment("não, nada") == []


def test_equipment_typos_are_read() -> None:
    assert parse_equipment("just a pair of dumbells and a yoga mat") == ["dumbbells", "yoga mat"]
    assert parse_equipment("kettlebel") == ["kettlebell"]
    assert parse_equipment("nada") == []


def test_a_home_gym_is_no_full_gym_and_trx_and_racks_are_named() -> None:
    assert parse_equipment("home gym w/ barbell & rack") == ["barbell", "squat rack", "home gym"]
    assert parse_equipment("my apartment gym has a treadmill") == ["treadmill", "home gym"]
    assert parse_equipment("trx straps and a pullup bar") == ["pull-up bar", "suspension trainer"]
    assert parse_equipment("no gym, just bands") == ["resistance bands"]


# -- goals and levels said out of turn ----------------------------------------------------


def test_a_goal_out_of_turn_is_never_a_spelling_guess() -> None:
    # "stone" is spelled like "tone" (muscle gain); "drop to 11 stone" is about weight
    state, found = _filled("i wanna drop to 11 stone")
    assert state == "level" and found.get("goal") != "muscle_gain" and found["target_weight_kg"] == 69.9


@pytest.mark.parametrize("text", ["im a total beginner", "i'm kind of a beginner", "i'm a bit of a newbie"])
def test_a_level_with_its_qualifier_out_of_turn(text: str) -> None:
    assert _filled(text) == ("limitations", {"fitness_level": "beginner"})


def test_a_number_without_a_unit_is_read_in_the_unit_of_an_earlier_weight() -> None:
    assert parse_weight("180", "lb") == 81.6
    assert parse_weight("about 12", "st") == 76.2
    assert isinstance(parse_weight("180"), Invalid)  # no earlier weight: the unit is asked for
    out = parse_weight("3", "kg")
    assert isinstance(out, Invalid) and "outside 30-300 kg" in out.reason
    assert parse_weight("80 kg", "lb") == 80.0  # a unit written now wins
    slots = FitnessSlots(goal="fat_loss")
    assert read_anytime("I weigh 200 lbs", slots, "target_weight_kg").get("weight_unit") == "lb"
    # an amount is no weight, but its unit is the user's: a later bare weight is read in it ("lose like 10 kilos",
    # then "i'm 92 now so 82"); a unit already known is not changed by an amount
    assert read_anytime("lose 10 kg", slots, "target_weight_kg").get("weight_unit") == "kg"
    assert "target_weight_kg" not in read_anytime("lose 10 kg", slots, "target_weight_kg")
    known = FitnessSlots(goal="fat_loss", weight_unit="lb")
    assert read_anytime("lose 10 kg", known, "target_weight_kg").get("weight_unit") is None


@pytest.mark.parametrize(
    ("text", "days"),
    [("mwf", ["Mon", "Wed", "Fri"]), ("m/w/f mornings", ["Mon", "Wed", "Fri"]), ("t/th after work", ["Tue", "Thu"]),
     ("mw and sat", ["Mon", "Wed", "Sat"]), ("tree", []), ("mwfs", [])],
)  # fmt: skip
def test_timetable_letters_name_their_days(text: str, days: list[str]) -> None:
    assert weekdays_in(text) == days


@pytest.mark.parametrize(
    ("text", "count", "days"),
    [
        ("every day except sunday", 6, ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]),
        ("every day but not on friday", 6, ["Mon", "Tue", "Wed", "Thu", "Sat", "Sun"]),
        ("daily apart from the weekend", 5, ["Mon", "Tue", "Wed", "Thu", "Fri"]),
        ("every day", 7, ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]),
    ],
)
def test_days_left_out_are_left_out(text: str, count: int, days: list[str]) -> None:
    assert days_in(text) == count
    assert weekdays_in(text) == days
