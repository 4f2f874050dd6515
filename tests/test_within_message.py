"""A correction inside the same message (issue 23, h-within): the answer after the words that take one back is the
one meant, for the slot it names, in six languages; the other facts of the message stay (engine/corrections.py,
the words in engine/data/corrections.yaml). Measured on tests/corpora/commands/within/ ("dev within", "test within")."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Ask
from engine.commands import CorrectSlot
from engine.corrections import correction_commands
from engine.extract import Parser
from engine.takeback import instead_of, list_taken_back, self_repaired, words_taken_back
from flows.fitness.onboarding import fitness_onboarding
from flows.shared.feedback import feedback

AT_TARGET: dict[str, Any] = {"fitness_level": "beginner", "limitations": "none", "goal": "fat_loss"}
AT_DAYS = {**AT_TARGET, "target_weight_kg": 72, "weight_unit": "kg", "completed": ["assessment", "goals"]}
AT_MINUTES = {**AT_DAYS, "days_per_week": 3}
AT_PREFERRED = {**AT_MINUTES, "minutes_per_session": 45, "equipment": ["dumbbells"], "diet": "vegan", "allergies": []}


def parser_at(state: str, values: dict[str, Any]) -> Parser:
    asking = fitness_onboarding.state(state)
    assert isinstance(asking, Ask)
    return asking.parser(fitness_onboarding.new_slots(values))


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        # the number taken back is the last one of the same kind: the minutes said between stay
        ("4 days, 40 min, no wait make it 3 days", "3 days, 40 min"),
        ("4 jours, 30 minutes, euh non, 45 minutes", "4 jours, 45 minutes"),
        # "no wait 88" is its own clause, no old value said as wrong ("Ana, no Anna")
        ("im 95 now and want 85, no wait 88", "im 95 now and want 88"),
        # words that take back in the other languages
        ("il y a 3 jours, enfin 4", "il y a 4 jours"),
        ("peso 90 y quiero 80, rectifico, 82", "peso 90 y quiero 82"),
        ("vor 5 Tagen, äh, vor 6", "vor 6 Tagen"),
        ("3, sorry 4", "4"),
        # nothing taken back
        ("I'm 90 and want 80", "I'm 90 and want 80"),
        ("3 days, I mean it", "3 days, I mean it"),
    ],
)
def test_a_number_taken_back_is_the_last_one_of_its_kind(text: str, meant: str) -> None:
    assert self_repaired(text) == meant


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        ("beginner, well intermediate I guess", "intermediate I guess"),
        ("dimagrire, o meglio, resistenza", "resistenza"),
        ("les limites, enfin non, les intégrales", "les intégrales"),
        ("principiante, anzi no, intermedio", "intermedio"),
        # the article is part of the value: "une heure" is an hour, "heure" alone none
        ("45 minutes, ou plutôt une heure", "une heure"),
        # a no after the words that take a yes back is the answer
        ("ja, äh nein, nur einmal", "nein, nur einmal"),
        ("sí, perdón, quiero decir no", "no"),
        # nothing to take back: a no that answers stays as typed, a number of another kind, a fact added
        ("no, 3 days ago like I said", "no, 3 days ago like I said"),
        ("4 days, ah, 30 minutes", "4 days, ah, 30 minutes"),
        ("45, ah and 3 days", "45, ah and 3 days"),
    ],
)
def test_an_answer_taken_back_in_six_languages(text: str, meant: str) -> None:
    assert words_taken_back(text) == meant


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        ("lunes, miércoles y viernes, no, martes, jueves y sábado", "martes, jueves y sábado"),
        ("lunedì, mercoledì e venerdì, anzi martedì, giovedì e sabato", "martedì, giovedì e sabato"),
        ("Montag Mittwoch Freitag, äh nein, Dienstag Donnerstag Samstag", "Dienstag Donnerstag Samstag"),
        # one day taken back is no list said again: the short answer's own rule replaces that day only
        ("monday, wednesday, sorry, thursday", None),
        ("mon, wed and fri", None),
    ],
)
def test_a_list_said_again_is_the_list_meant(text: str, meant: str | None) -> None:
    assert list_taken_back(text, parser_at("preferred_days", AT_PREFERRED)) == meant


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        ("not 3 but 4", "4"),
        ("nicht 5 sondern 4", "4"),
        ("no 3 sino 4 días", "4 días"),
        ("3 but not 4", None),  # the first value is the answer
    ],
)
def test_not_one_value_but_another(text: str, meant: str | None) -> None:
    assert instead_of(text, parser_at("days", AT_DAYS)) == meant


def test_i_mean_after_an_answer_in_the_message_corrects_no_earlier_answer() -> None:
    # "30 minutes, I mean 45" at the minutes question: the target weight (72) is not what "I mean 45" is about
    commands, rest = correction_commands(fitness_onboarding, "minutes", AT_MINUTES, "30 minutes, I mean 45")
    assert commands == []
    assert parser_at("minutes", AT_MINUTES)(rest) == 45
    # said alone, "I mean" still points back at an earlier answer
    commands, _ = correction_commands(feedback, "details", {"rating": 2}, "wait, I meant 3")
    assert [(c.slot, c.value) for c in commands if isinstance(c, CorrectSlot)] == [("rating", 3)]


def test_what_is_taken_back_to_must_answer_the_question() -> None:
    # "bueno" is a hesitation here: "casi siempre" answers no diet question, so the vegan said first stays
    commands, rest = correction_commands(fitness_onboarding, "diet", AT_MINUTES, "vegan, bueno, casi siempre")
    assert commands == []
    assert parser_at("diet", AT_MINUTES)(rest) == "vegan"
    # a value after it does: the first is taken back
    _, rest = correction_commands(fitness_onboarding, "diet", AT_MINUTES, "vegetariano, bueno, vegano")
    assert parser_at("diet", AT_MINUTES)(rest) == "vegan"
