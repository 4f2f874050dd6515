"""A statement about a thing is no answer (engine/others.py, engine/reading.py; issue 23, set_slot precision): at
a question, a clause whose subject is a thing, with its "my" or article ("my commute is 50 minutes", "la piscine
ferme dans 25 minutes", "o autocarro demora 35 minutos"), tells of the thing: the number or day it names is the
thing's, and the question is asked again as at any small talk, with nothing stored. Controls stay answers: the
thing is what the question asks about ("the sessions are 40 minutes", "la sessione è di 40 minuti"), a value of it
("the evening works"), the user beside it ("the best for me is 30 minutes"), and a thing's clause beside the user's
own answer ("45, the pool closes at 9"; a rating's comment, "3, the sound is too quiet").

The messages are written for these tests, six languages."""

from __future__ import annotations

import pytest

from engine import Engine, MemoryStore, default_registry
from engine.commands import AnswerFlow, Chitchat, Command
from engine.others import own_words
from tests.test_askback import reading

fitness_bot = default_registry().get("fitness-coach")
language_bot = default_registry().get("language-buddy")
AT_MINUTES = {
    "fitness_level": "intermediate",
    "limitations": "none",
    "goal": "fat_loss",
    "target_weight_kg": 72,
    "days_per_week": 3,
    "completed": ["assessment", "goals"],
}


def _stored(got: list[Command]) -> bool:
    """Whether the read stage gives the flow words to read as the answer (an AnswerFlow) rather than small talk."""
    return any(isinstance(c, AnswerFlow) for c in got)


@pytest.mark.parametrize(
    "text",
    [
        "the pool closes in 40 minutes",
        "my commute is 50 minutes each way",
        "el gimnasio cierra en 30 minutos",
        "die Mittagspause dauert 45 Minuten",
        "die Halle schließt in 20 Minuten",
        "la piscine ferme dans 25 minutes",
        "o autocarro demora 35 minutos",
        "il treno parte tra 15 minuti",
        "la mia pausa pranzo è di 60 minuti",
    ],
)
def test_a_things_minutes_are_no_session_length(text: str) -> None:
    got = reading(fitness_bot, "onboarding", "minutes", text, **AT_MINUTES)
    assert [type(c) for c in got] == [Chitchat], got


@pytest.mark.parametrize(
    ("text", "words"),
    [
        # the thing is what the question asks about (its slot's words, the question's, its reason's)
        ("the sessions are 40 minutes", "the sessions are 40 minutes"),
        ("la sessione è di 40 minuti", "la sessione è di 40 minuti"),
        ("my workouts are 35 minutes", "my workouts are 35 minutes"),
        # the user in the clause
        ("the best for me is 30 minutes", "the best for me is 30 minutes"),
        ("lo mejor para mí son 30 minutos", "lo mejor para mí son 30 minutos"),
        # the user's own answer beside a thing's clause: the message stays as the flow reads it where the clause
        # changes nothing of the answer, else the user's clause is read alone ("at 9" is no second number)
        ("45, the pool closes at 9", "45"),
        ("30 Minuten, die Halle schließt früh", "30 Minuten, die Halle schließt früh"),
    ],
)
def test_an_answer_about_the_asked_thing_stays_an_answer(text: str, words: str) -> None:
    got = reading(fitness_bot, "onboarding", "minutes", text, **AT_MINUTES)
    assert _stored(got), got
    assert next(c for c in got if isinstance(c, AnswerFlow)).words == words


def test_a_value_of_the_question_as_the_subject_is_an_answer() -> None:
    at = {**AT_MINUTES, "minutes_per_session": 30, "equipment": ["dumbbells"], "diet": "omnivore", "allergies": []}
    at["completed"] = ["assessment", "goals", "workout", "diet"]
    at["preferred_days"] = ["Mon", "Wed", "Fri"]
    got = reading(fitness_bot, "onboarding", "time_of_day", "the evening works", **at)
    assert _stored(got), got


@pytest.mark.parametrize(
    "text",
    ["the old design deserved a 2", "la versión anterior merecía un 3", "das alte Layout hatte eine 5 verdient"],
)
def test_a_rating_of_something_else_is_no_rating(text: str) -> None:
    got = reading(language_bot, "feedback", "rating", text)
    assert [type(c) for c in got] == [Chitchat], got


def test_a_rating_beside_a_comment_about_a_thing_keeps_both() -> None:
    got = reading(language_bot, "feedback", "rating", "3, the sound is too quiet")
    assert _stored(got) and next(c for c in got if isinstance(c, AnswerFlow)).words == "3, the sound is too quiet"


@pytest.mark.parametrize(
    ("text", "own"),
    [
        ("my commute is 50 minutes each way", ""),
        ("the pool closes in 40 minutes, so 30", "so 30"),
        ("il y a trois jours", "il y a trois jours"),  # an Italian article, a French verb: no thing
        ("mon wed fri works", "mon wed fri works"),  # a French "my", an English verb
        ("the best for me is 30 minutes", "the best for me is 30 minutes"),
    ],
)
def test_a_things_clause_is_left_out_by_the_clause_reader(text: str, own: str) -> None:
    assert own_words(text) == own


def test_through_turns_nothing_is_stored_and_the_question_is_asked_again() -> None:
    engine = Engine(MemoryStore())
    for text in ("hi", "intermediate", "no injuries", "lose weight"):
        engine.turn("fitness-coach", "u", text)
    # at the target weight question a thing's minutes are no session length said ahead either
    r = engine.turn("fitness-coach", "u", "la piscine ferme dans 25 minutes")
    assert r.state == "target_weight" and r.slots.get("minutes_per_session") is None
    engine.turn("fitness-coach", "u", "none")
    r = engine.turn("fitness-coach", "u", "the gym opens 6 days a week")
    assert r.state == "days" and r.slots.get("days_per_week") is None
    assert "How many days a week can you train" in r.reply
    session = engine.store.load("fitness-coach", "u")
    assert session is not None and session.active is not None and session.active.attempts == 0
    r = engine.turn("fitness-coach", "u", "3")
    assert r.state == "minutes" and r.slots.get("days_per_week") == 3


def test_a_things_clause_that_would_change_the_answer_is_left_out() -> None:
    at = {k: v for k, v in AT_MINUTES.items() if k != "days_per_week"}
    got = reading(fitness_bot, "onboarding", "days", "3 days, the pool is open every day", **at)
    assert next(c for c in got if isinstance(c, AnswerFlow)).words == "3 days"


@pytest.mark.parametrize("text", ["my scale says 82 kg", "la báscula marca 80 kilos", "die Waage zeigt 85 kg"])
def test_what_a_thing_shows_is_no_target(text: str) -> None:
    at = {k: AT_MINUTES[k] for k in ("fitness_level", "limitations", "goal")} | {"completed": ["assessment"]}
    got = reading(fitness_bot, "onboarding", "target_weight", text, **at)
    assert [type(c) for c in got] == [Chitchat], got
