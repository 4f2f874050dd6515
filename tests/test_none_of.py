"""A "no" before a noun naming something other than what the question asks about (engine/none_of.py): no
answer to the question, at every flow's yes/no and optional questions; a "no" alone, in an idiom, or before the
thing asked about keeps its meaning. Whole turns run through the replay runner (the rules backend, the clock
pinned), so the class is checked where users meet it."""

from __future__ import annotations

from typing import Any

import pytest

from engine.authoring.replay import ScriptResult, replay
from engine.authoring.script import Script
from engine.extract import EMPTY
from engine.none_of import about_other, none_of, reads_as_no

NOW = "2026-11-25T10:00"
TARGET = "For fat loss, do you have a target weight? Give it in kg or lb (e.g. 72 kg or 160 lb), or say “none”."
INJURIES = "Do you have any injuries or physical limitations I should plan around? Say “none” if not."


def run(bot: str, turns: list[dict[str, Any]]) -> ScriptResult:
    result = replay(Script.model_validate({"bot": bot, "now": NOW, "turns": turns}))
    assert result.passed, [f.describe() for f in result.failures]
    return result


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ("no dairy for me", "dairy for me"),
        ("no restrictions, I eat everything", "restrictions"),
        ("keine Einschränkungen, ich esse alles", "einschrankungen"),
        ("pas de restrictions, je mange de tout", "restrictions"),
        ("sin restricciones", "restricciones"),
        ("no target", "target"),
    ],
)
def test_the_thing_a_no_before_a_noun_says_there_is_none_of(text: str, what: str) -> None:
    assert none_of(text) == what


@pytest.mark.parametrize(
    "text",
    [
        "no",
        "no, 7782",
        "no I don't",
        "no not really",
        "no thanks",
        "no way",
        "no problem",
        "no sorry, it's Ana not Anna",
        "no quiero continuar",  # Spanish: "I don't want to go on"
        "no navegador",  # Portuguese: "in the browser"
        "no carne",  # not an English word after the "no": its old reading stays
        "nein danke",
        "kein Problem",
    ],
)
def test_a_no_alone_or_in_an_idiom_names_nothing(text: str) -> None:
    assert none_of(text) is None


@pytest.mark.parametrize(
    ("text", "asked", "other"),
    [
        ("no dairy for me", TARGET, True),
        ("no restrictions", TARGET, True),
        ("keine Einschränkungen", TARGET, True),
        ("no target", TARGET, False),
        ("no target weight for now", TARGET, False),
        ("no gym close by", INJURIES, True),
        ("no injuries", INJURIES, False),
        ("keine Verletzungen", INJURIES, False),  # a kind of thing the engine knows in the six languages
        ("pas de blessure", INJURIES, False),
        ("keine Milchprodukte", TARGET, False),  # a word the engine cannot compare: the no stays a no
        ("no double charge", "Were you charged more than once for the same period?", False),
        ("no receipt though", "Were you charged more than once for the same period?", True),
        # a no that echoes an outcome question (engine/echo.py), and the words naming any answer
        ("no luck", "Did reinstalling the app help?", False),
        ("no change at all", "Did reinstalling the app help?", False),
        ("no specific number in mind", TARGET, False),
        ("no particular preference", TARGET, False),
    ],
)
def test_a_none_of_what_the_question_does_not_ask_about(text: str, asked: str, other: bool) -> None:
    assert about_other(text, asked) is other


def test_a_reading_as_a_plain_no_is_the_questions_no_of_each_kind() -> None:
    assert reads_as_no(False, False) and reads_as_no(EMPTY, EMPTY) and reads_as_no("none", "none")
    assert reads_as_no([], [])
    assert not reads_as_no(True, False) and not reads_as_no(72.0, EMPTY) and not reads_as_no(0, False)
    assert not reads_as_no(None, None)


def _at_target(text: str, expect: dict[str, Any]) -> ScriptResult:
    return run(
        "fitness-coach",
        [
            {"user": "hey, I want to start working out", "expect": {"state": "level"}},
            {"user": "beginner", "expect": {"state": "limitations"}},
            {"user": "none", "expect": {"state": "goal"}},
            {"user": "lose weight", "expect": {"state": "target_weight"}},
            {"user": text, "expect": expect},
        ],
    )


@pytest.mark.parametrize("text", ["no dairy for me", "no sugar for me please", "no meat"])
def test_at_the_target_weight_a_none_of_a_food_is_no_answer(text: str) -> None:
    result = _at_target(text, {"state": "target_weight", "slots": {"target_weight_kg": None}})
    assert "target weight" in result.results[-1].reply
    assert "Please give" not in result.results[-1].reply  # no reprompt: the question was not answered wrong


@pytest.mark.parametrize(
    "text",
    [
        "no restrictions, I eat everything",
        "keine Einschränkungen, ich esse alles",
        "pas de restrictions, je mange de tout",
    ],
)
def test_at_the_target_weight_the_diet_said_with_a_none_is_kept_and_the_question_asked_again(text: str) -> None:
    result = _at_target(text, {"state": "target_weight", "slots": {"diet": "omnivore", "target_weight_kg": None}})
    assert "target weight" in result.results[-1].reply


@pytest.mark.parametrize(
    "text", ["no target", "no thanks", "no I don't", "no not really", "nope", "none", "kein Zielgewicht"]
)
def test_at_the_target_weight_a_no_to_it_is_still_no_target(text: str) -> None:
    _at_target(text, {"state": "days", "slots": {"target_weight_kg": None}})


@pytest.mark.parametrize(
    ("text", "state"), [("no gym close by", "limitations"), ("no injuries", "goal"), ("keine Verletzungen", "goal")]
)
def test_at_the_injuries_question_only_a_none_of_injuries_is_its_none(text: str, state: str) -> None:
    run(
        "fitness-coach",
        [
            {"user": "hey, I want to start working out", "expect": {"state": "level"}},
            {"user": "beginner", "expect": {"state": "limitations"}},
            {"user": text, "expect": {"state": state}},
        ],
    )


@pytest.mark.parametrize(
    ("text", "answered"), [("no receipt though", False), ("no double charge, just once", True), ("no, 7782", True)]
)
def test_at_a_support_yes_no_question(text: str, answered: bool) -> None:
    result = run(
        "support",
        [
            {"user": "i want my money back, bought it in the app store", "expect": {"state": "number"}},
            {"user": "3", "expect": {"state": "yes_no"}},
            {"user": text},
        ],
    )
    last = result.results[-1]
    assert (last.state != "yes_no") is answered
