"""An answer said unsure (engine/hedges.py): the hedge is no part of the value and no question back, in six
languages; a yes or a no said in doubt stays unclear."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import default_registry
from engine.errors import DataFileError
from engine.extract import choice, integer
from engine.hedges import load_hedges, unhedged
from engine.yesno import yes_no
from tests.test_askback import asked

fitness_bot = default_registry().get("fitness-coach")
language_bot = default_registry().get("language-buddy")
SCHEDULE = {
    "fitness_level": "intermediate",
    "limitations": "none",
    "goal": "fat_loss",
    "days_per_week": 3,
    "minutes_per_session": 45,
    "equipment": ["dumbbells"],
    "diet": "vegetarian",
    "allergies": [],
}


@pytest.mark.parametrize(
    ("text", "words", "doubt"),
    [
        ("maybe 4?", "4?", True),
        ("beginner I guess", "beginner", False),
        ("je crois que oui ?", "oui?", False),
        ("Paris, ça marche ?", "Paris?", True),
        ("Montag, Mittwoch, Freitag vielleicht?", "Montag, Mittwoch, Freitag?", True),
        ("segunda, quarta e sexta, pode ser?", "segunda, quarta e sexta?", True),
        ("¿creo que sí?", "sí?", False),
        ("tomorrow 4pm to 6pm, is that ok?", "tomorrow 4pm to 6pm?", True),
        # what is left keeps the message's question: "is that normal" is no comment
        ("I'd say 4, is that normal?", "4, is that normal?", False),
    ],
)
def test_an_answer_without_its_hedges(text: str, words: str, doubt: bool) -> None:
    got = unhedged(text)
    assert got is not None and (got.words, got.doubt) == (words, doubt)


@pytest.mark.parametrize("text", ["maybe", "I think", "Pixel 7", "is 4 ok?", "okay", "pode ser?", "4 days"])
def test_a_message_with_no_hedge_or_only_one_is_left_alone(text: str) -> None:
    assert unhedged(text) is None


def test_a_parser_reads_the_answer_without_its_hedge() -> None:
    days = integer(1, 7)
    assert days("forse 4?") == 4
    level = choice({"beginner": ["beginner", "principiante"], "advanced": ["advanced"]})
    assert level("principiante, supongo?") == "beginner"
    assert yes_no()("je crois que oui ?") is True
    assert yes_no()("credo di sì?") is True
    # a yes said in doubt is unclear, as "maybe" alone is
    assert yes_no()("maybe yes") is None


@pytest.mark.parametrize(
    ("state", "text"),
    [
        ("preferred_days", "Montag, Mittwoch, Freitag vielleicht?"),
        ("preferred_days", "segunda, quarta e sexta, pode ser?"),
        ("preferred_days", "lunedì, mercoledì e venerdì va bene?"),
    ],
)
def test_an_answer_in_parts_said_unsure_is_the_answer(state: str, text: str) -> None:
    assert asked(fitness_bot, "onboarding", state, text, **SCHEDULE) is None


def test_a_hedged_value_is_no_question_back() -> None:
    assert asked(fitness_bot, "onboarding", "goal", "perdre du gras je crois ?", fitness_level="beginner") is None
    at = {"name": "Ana", "native_language": "es", "target_language": "en"}
    assert asked(language_bot, "onboarding", "ask_timezone", "Paris, ça marche ?", **at) is None


def test_a_broken_table_says_what_to_fix(tmp_path: Path) -> None:
    bad = tmp_path / "hedges.yaml"
    bad.write_text("before: {belief: ['(unclosed'], doubt: []}\nafter: {belief: [], doubt: []}\n", encoding="utf-8")
    with pytest.raises(DataFileError, match="does not compile"):
        load_hedges(bad)


@pytest.mark.parametrize(
    ("text", "yes"),
    [
        ("sí, ¿por qué no?", True),
        ("ja, warum nicht?", True),
        ("oui, pourquoi pas ?", True),
        ("sì, perché no?", True),
        ("yes please?", True),  # courtesy after a yes asks nothing
        ("ja, gerne?", True),
        ("I guess not?", False),
        ("yes, what now?", None),  # a question of its own after the yes
    ],
)
def test_a_yes_or_no_said_as_a_question_is_read(text: str, yes: bool | None) -> None:
    from engine.yesno import read_yes_no

    assert read_yes_no(text) is yes


def test_a_yes_no_question_of_the_users_own_is_no_yes() -> None:
    study = default_registry().get("study-pal")
    weak = [{"concept": "derivatives", "title": "Derivatives", "severity": "severe", "score": 0.3}]
    got = asked(study, "analysis", "offer_plan", "does the plan include derivatives?", exercises=6, weak=weak)
    assert got is not None
    assert asked(study, "analysis", "offer_plan", "yes please?", exercises=6, weak=weak) is None
