"""Readers for messy answers: weights with their roles and units (pint), ranges, diets with
exceptions, a level said at the injuries question, and support answers said out of turn."""

from __future__ import annotations

import pytest

from engine import Ask
from engine.corrections import read_corrections
from engine.extract import Invalid
from flows.fitness.anytime import read_anytime
from flows.fitness.profile import FitnessSlots
from flows.fitness.qualified import days_answer, diet_detail, limitations_answer, minutes_answer, range_in
from flows.fitness.readers import parse_weight
from flows.fitness.weights import to_kg, weigh
from flows.support.ahead import given_reader, read_answer, settle
from flows.support.clarification import clarification
from flows.support.kb import Question
from flows.support.questions import ClarificationSlots


@pytest.mark.parametrize(
    ("text", "current", "target"),
    [
        ("I weigh 95 kg and want to get to 85", 95.0, 85.0),
        ("currently 210 lbs, aiming for 180", 95.3, 81.6),
        ("from 14 stone down to 12", 88.9, 76.2),
        ("from 95 to 85 kg", 95.0, 85.0),
        ("im 90kg, target 80kg", 90.0, 80.0),
        ("95 kilos now, want to be 85", 95.0, 85.0),
    ],
)
def test_current_and_target_weights_in_kg(text: str, current: float, target: float) -> None:
    found = weigh(text)
    assert found.current is not None and found.current.kg == current
    assert found.target is not None and found.target.kg == target
    found_any = read_anytime(text, FitnessSlots())
    assert (found_any["current_weight_kg"], found_any["target_weight_kg"]) == (current, target)


def test_pint_converts_and_knows_the_spellings_people_use() -> None:
    assert to_kg(11, "st", 4) == 71.7
    assert to_kg(160, "lbs") == 72.6
    assert to_kg(80, "kilos") == 80.0


@pytest.mark.parametrize("text", ["3 days a week and 95", "maybe 80", "i train 5x, 45 min"])
def test_numbers_without_a_weight_unit_beside_them_are_no_weights(text: str) -> None:
    assert weigh(text).mentions == []


def test_a_goal_sentence_at_the_target_question_keeps_the_goal() -> None:
    s = FitnessSlots(goal="muscle_gain")
    assert "goal" not in read_anytime("I just want to lose some weight, maybe 80", s, "target_weight_kg")
    # 80 lb is 36 kg: the one unit that makes it a body weight (tests/test_user_misreadings.py)
    assert parse_weight("I just want to lose some weight, maybe 80") == 80.0
    # a goal given before changes only as a correction, which the engine reads (test_correction_reader.py)
    assert "goal" not in read_anytime("actually my goal is to lose weight", s, "target_weight_kg")


@pytest.mark.parametrize(
    ("text", "unit", "ends"),
    [
        ("45-60 min", "minutes", (45, 60)),
        ("3 to 4 days", "days", (3, 4)),
        ("1-2 hours", "minutes", (60, 120)),
        ("3 or 4 times a week", "days", (3, 4)),
        ("45 minutes", "minutes", None),
        ("3-4 hours", "days", None),
    ],
)
def test_ranges(text: str, unit: str, ends: tuple[float, float] | None) -> None:
    assert range_in(text, unit) == ends


def test_a_range_is_asked_about_never_rounded() -> None:
    for out in (days_answer("3 to 4 days"), minutes_answer("45-60 min")):
        assert isinstance(out, Invalid) and "shall I plan with" in out.reason
    assert days_answer("3") == 3 and minutes_answer("45") == 45
    # out of turn a range fills nothing
    assert "days_per_week" not in read_anytime("i can do 3-4 days a week", FitnessSlots())


@pytest.mark.parametrize(
    ("text", "detail"),
    [
        ("mostly plant-based but I eat eggs", "mostly plant-based but I eat eggs"),
        ("vegetarian except fish", "vegetarian except fish"),
        ("no dairy, otherwise anything", "no dairy, otherwise anything"),
        ("vegan", None),
        ("no restrictions", None),
        ("I don't eat meat", None),
    ],
)
def test_diet_exceptions_are_kept(text: str, detail: str | None) -> None:
    assert diet_detail(text) == detail


def test_a_qualified_diet_fills_the_diet_and_its_detail() -> None:
    found = read_anytime("mostly plant-based but I eat eggs", FitnessSlots(), "diet")
    assert found == {"diet": "vegetarian", "diet_detail": "mostly plant-based but I eat eggs"}


@pytest.mark.parametrize(
    ("text", "level", "limitations"),
    [
        ("no injuries, I'm pretty advanced though", "advanced", "none"),
        ("nope, pretty advanced tho", "advanced", "none"),
        ("none but im intermediate i guess", "intermediate", "none"),
        ("bad knee but im advanced", "advanced", "bad knee"),
    ],
)
def test_a_level_at_the_injuries_question(text: str, level: str, limitations: str) -> None:
    found = read_anytime(text, FitnessSlots(fitness_level="beginner"), "limitations")
    assert found["fitness_level"] == level and found["limitations"] == limitations
    assert limitations_answer(text) == limitations


def test_a_level_alone_is_never_the_injury() -> None:
    out = limitations_answer("id say advanced")
    assert isinstance(out, Invalid) and "fitness level" in out.reason
    # a clause about the body is the injury even with a level's word in it
    assert limitations_answer("sore knees from being a pro") == "sore knees from being a pro"


# -- support: answers said out of turn ----------------------------------------------------

STORE = Question(
    text="Where did you buy Premium?",
    type="choice",
    choices=["App Store", "Google Play", "Tasklane website"],
    synonyms={"Tasklane website": ["web", "website"], "Google Play": ["play store", "android"]},
)
DAYS = Question(text="How many days ago were you charged?", type="number", min=0, max=365)
ORDER = Question(text="What is your order number?", type="number", min=1000, max=999999999)
VERSION = Question(text="Which Android version?", type="number", min=5, max=16)
AGAIN = Question(text="Were you charged more than once?", type="yes_no")


@pytest.mark.parametrize(
    ("q", "text", "value"),
    [
        (VERSION, "my Android 13 phone crashes", 13),
        (VERSION, "android 25", None),
        (DAYS, "charged me 3 days ago", 3),
        (DAYS, "i paid 2 times", None),
        (ORDER, "order #48213007", 48213007),
        (ORDER, "order no. 5521", 5521),
        (STORE, "bought it on the website", "Tasklane website"),
        (STORE, "on the web or play store", None),
        (AGAIN, "yes", None),
    ],
)
def test_read_answer_only_reads_what_is_stated(q: Question, text: str, value: object) -> None:
    assert read_answer(q, text) == value


def test_the_asked_question_is_left_to_its_parser_and_corrections_need_a_cue() -> None:
    s = ClarificationSlots(
        questions=[STORE, DAYS, AGAIN],
        current_index=1,
        opened=True,
        parsed={STORE.text: "Google Play"},
        answers={STORE.text: "google play"},
    )
    reader = given_reader(s)
    assert reader("5 days ago") is None  # the question being asked
    assert reader("I bought it on the website") is None  # no correction said
    # a correction of an answered question is the engine's to read (engine/corrections.py, `corrects`)
    assert reader("wait, I actually bought it on the website") is None
    asking = clarification.state("number")
    assert isinstance(asking, Ask)
    found = read_corrections(clarification, asking, s, "wait, I actually bought it on the website")
    assert [(c.key, c.value) for c in found.commands] == [(STORE.text, {STORE.text: "Tasklane website"})]
    s.given = {STORE.text: "Tasklane website"}
    assert settle(s) == [STORE.text]
    assert s.parsed[STORE.text] == "Tasklane website" and s.given == {} and s.current_index == 1


def test_settled_questions_ahead_are_skipped() -> None:
    s = ClarificationSlots(questions=[STORE, DAYS, AGAIN])
    found = given_reader(s)("refund pls, google play 3 days ago")
    assert found == {STORE.text: "Google Play", DAYS.text: 3}
    s.given = found  # type: ignore[assignment]
    assert settle(s) == [STORE.text, DAYS.text] and s.current_index == 2


def test_a_noted_answer_must_fit_its_question() -> None:
    with pytest.raises(ValueError, match="not one of"):
        ClarificationSlots(questions=[STORE], given={STORE.text: "Amazon"})
    with pytest.raises(ValueError, match="not a question"):
        ClarificationSlots(questions=[STORE], given={"Who are you?": "x"})
