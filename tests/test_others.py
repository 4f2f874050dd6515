"""Clauses that are no answer of the user's own (engine/others.py): about someone else, someone's words, a time
gone by, a condition, a time the user is busy, in six languages; the read stage gives the open question what is
left, and small talk when nothing is. Controls keep their words: the user beside someone else, a past verb that
tells of now, a time chosen after work, a yes said "si"."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import default_registry
from engine.commands import AnswerFlow, Chitchat
from engine.echo import read_yes_no_to
from engine.errors import DataFileError
from engine.others import load_others, own_words
from tests.test_askback import reading

fitness_bot = default_registry().get("fitness-coach")
language_bot = default_registry().get("language-buddy")
GOALS = {"fitness_level": "intermediate", "limitations": "none", "goal": "fat_loss", "target_weight_kg": 72}


@pytest.mark.parametrize(
    ("text", "own"),
    [
        ("my sister is 12 and trains 5 days a week for swimming", ""),
        ("my coach says 4 days is the minimum", ""),
        ("last year I did 5 days and burned out", ""),
        ("last year I did 5 days and burned out, so 3 this time", "so 3 this time"),
        ("my old app forced 5 days on me, I want 2", "I want 2"),
        ("you asked how many days, do rest days count?", "do rest days count?"),
        ("if it's 4 days then fine, but what if I miss one?", "but what if I miss one?"),
        ("mi hermano es avanzado, yo principiante", "yo principiante"),
        ("en el iPhone de mi madre llegan bien, en mi Android no", "en mi Android no"),
        ("das Handy meiner Tochter hatte das auch", ""),
        ("wenn es 5 Tage sein müssen, dann lieber gar nicht", "dann lieber gar nicht"),
        ("meine Tochter heißt Lena, ich heiße Sabine", "ich heiße Sabine"),
        ("ma sœur a raté la continuité, moi je veux les dérivées", "moi je veux les dérivées"),
        ("l'an dernier je pesais 75", ""),
        ("o Android do meu pai também tinha esse problema", ""),
        ("no ano passado eu fazia 5 dias por semana", ""),
        ("de manhã eu trabalho", ""),
        ("3 giorni, come mia sorella", "3 giorni"),
        ("il prof ha detto che le derivate sono facili", ""),
        ("domani ho la partita dalle 4 alle 6", ""),
        # kept: the user beside someone else, a verb in the past that tells of now, a question, a time chosen
        ("my wife and I train 3 days a week", "my wife and I train 3 days a week"),
        ("hi, sorry, I was away", "hi, sorry, I was away"),
        ("yes i tried logging out", "yes i tried logging out"),
        ("a month ago maybe", "a month ago maybe"),
        ("si, 3 días", "si, 3 días"),
        ("evenings after work", "evenings after work"),
        ("se reinstallo perdo le liste?", "se reinstallo perdo le liste?"),
        ("is my sister allowed to join?", "is my sister allowed to join?"),
        ("4 days", "4 days"),
    ],
)
def test_a_message_without_the_clauses_that_are_not_its_own(text: str, own: str) -> None:
    assert own_words(text) == own


def test_a_time_gone_by_stays_where_the_question_asks_about_it() -> None:
    assert (
        own_words("tive uma cirurgia no joelho há dois anos", past=lambda clause: False)
        == "tive uma cirurgia no joelho há dois anos"
    )
    assert own_words("i had to stop running because of my knee 2 years ago") == ""


def test_the_read_stage_takes_the_users_own_clause_and_no_value_from_the_others() -> None:
    at = {**GOALS, "completed": ["assessment", "goals"]}
    mine = reading(fitness_bot, "onboarding", "days", "my old app forced 5 days on me, I want 2", **at)
    assert [type(c) for c in mine] == [AnswerFlow] and isinstance(mine[0], AnswerFlow)
    assert mine[0].words == "I want 2"
    theirs = reading(fitness_bot, "onboarding", "days", "my sister is 12 and trains 5 days a week for swimming", **at)
    assert [type(c) for c in theirs] == [Chitchat]
    # a name of someone else at the name question is no name refused either: small talk
    assert [type(c) for c in reading(language_bot, "onboarding", "ask_name", "il mio gatto si chiama Luna")] == [
        Chitchat
    ]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("my brother is Tom, and me Sara", "Sara"),
        ("mi hermana se llama Lucía, yo Carmen", "Carmen"),
        ("ma sœur s'appelle Julie, et moi Claire", "Claire"),
        # the reader reads past the pronoun: the clause stays as typed
        ("meine Schwester heißt Lena, ich heiße Sabine", "ich heiße Sabine"),
    ],
)
def test_the_user_set_against_someone_else_is_no_word_of_the_answer(text: str, words: str) -> None:
    got = reading(language_bot, "onboarding", "ask_name", text)
    assert isinstance(got[-1], AnswerFlow) and got[-1].words == words


def test_any_text_questions_keep_the_words_as_typed() -> None:
    at = {"rating": 2, "sentiment": "negative", "sentiment_from": "rating"}
    got = reading(language_bot, "feedback", "details", "my kids love the lessons but the audio cuts out", **at)
    assert isinstance(got[-1], AnswerFlow) and got[-1].words == "my kids love the lessons but the audio cuts out"


@pytest.mark.parametrize(
    ("text", "yes"),
    [("yes, do not disturb is on", True), ("no, do not disturb is off", False), ("yes but not really", None)],
)
def test_a_name_holding_a_not_takes_no_yes_back(text: str, yes: bool | None) -> None:
    assert read_yes_no_to("Is a Focus mode (such as Do Not Disturb or Sleep) turned on?", text) is yes


def test_a_broken_table_says_what_to_fix(tmp_path: Path) -> None:
    bad = tmp_path / "others.yaml"
    bad.write_text((Path("engine/data/others.yaml").read_text(encoding="utf-8")).replace("  it: [se,", "  xx: [se,"))
    with pytest.raises(DataFileError, match="others table"):
        load_others(bad)
