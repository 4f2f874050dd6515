"""What the second blind batch (tests/corpora/conversations/fresh2/, h-conv13) showed missing: each
class on the mechanism that holds it, with the readings that must stay as they were.

Whole turns run through the replay runner (a fresh SQLite file, the rules backend, the clock pinned
by `now:`), so a class is checked where users meet it, not only on its reader.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.authoring.replay import ScriptResult, replay
from engine.authoring.script import Script
from engine.extract import declines
from flows.fitness.limits import parse_limitations
from flows.language_buddy.languages import native_in
from flows.study_pal.reading import _REVEAL

NOW = "2026-11-25T10:00"


def run(bot: str, turns: list[dict[str, Any]], **extra: Any) -> ScriptResult:
    result = replay(Script.model_validate({"bot": bot, "now": NOW, "turns": turns, **extra}))
    assert result.passed, [f.describe() for f in result.failures]
    return result


# -- none said of a slot beside other facts ----------------------------------------------------


@pytest.mark.parametrize("text", ["nothing really", "nothing wrong with me", "no limitations", "none really"])
def test_none_said_with_a_shrug_or_of_oneself(text: str) -> None:
    assert declines(text)


@pytest.mark.parametrize(
    ("first", "level"),
    [
        ("advanced, no limitations", "advanced"),
        ("intermediate, nothing wrong with me, muscle gain", "intermediate"),
    ],
)
def test_a_clause_that_names_a_slot_and_declines_it_is_its_none(first: str, level: str) -> None:
    # the injuries question is not asked: its own reader reads the clause as "none"
    result = run(
        "fitness-coach", [{"user": first, "expect": {"flow": "onboarding", "slots": {"fitness_level": level}}}]
    )
    last = result.results[-1]
    assert last.state != "limitations" and last.slots["limitations"] == "none"


def test_a_bare_no_beside_the_level_names_no_slot() -> None:
    run("fitness-coach", [{"user": "advanced, no", "expect": {"flow": "onboarding", "state": "limitations"}}])


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("nothing really, my knees are fine", "none"),
        ("none, my back is fine but my knee hurts", "none, my back is fine but my knee hurts"),
        ("my knees are fine", "my knees are fine"),  # said alone it is no "none": kept in the user's words
    ],
)
def test_a_body_part_said_to_be_well_names_no_injury_beside_a_none(text: str, read: str) -> None:
    assert parse_limitations(text) == read


# -- a contrast that qualifies a value said ahead ----------------------------------------------


def test_a_contrast_after_a_value_said_ahead_qualifies_it() -> None:
    turns = [
        {"user": "intermediate, no injuries, muscle gain"},
        {"user": "I don't eat meat but I eat fish", "expect": {"flow": "onboarding", "slots": {"diet": "pescatarian"}}},
    ]
    assert run("fitness-coach", turns).results[-1].state == "target_weight"


def test_a_contrast_that_changes_nothing_leaves_the_value() -> None:
    turns = [
        {"user": "intermediate, no injuries, muscle gain"},
        {
            "user": "vegetarian but I don't like mushrooms",
            "expect": {"flow": "onboarding", "slots": {"diet": "vegetarian"}},
        },
    ]
    run("fitness-coach", turns)


# -- a person asked for in the user's language, in support's main conversation ---------------


@pytest.mark.parametrize(
    "text", ["je peux parler à quelqu'un ?", "¿puedo hablar con alguien?", "kann ich mit jemandem sprechen?"]
)
def test_a_person_asked_for_abroad_in_the_main_conversation(text: str) -> None:
    run(
        "support",
        [{"user": text, "expect": {"flow": "main", "reply_contains": ["Connecting you to an agent"]}}],
        expect_end={"records": {"escalation": [{"reason": "asked for a person"}]}},
    )


# -- a request kept during a run, whose article has questions of its own -----------------------


def test_a_kept_request_with_questions_starts_them_after_the_answer() -> None:
    run(
        "support",
        [
            {"user": "I want to cancel my premium subscription", "expect": {"flow": "clarification"}},
            {
                "user": "oh and also my reminders come late",
                "expect": {"slots": {"doc": "cancel-subscription"}, "flow": "clarification"},
            },
            # the first article's answer, then the kept request's first question: nobody types it again
            {
                "user": "app store",
                "expect": {
                    "flow": "clarification",
                    "state": "choice",
                    "slots": {"doc": "reminders-wrong-time"},
                    "reply_contains": ["Cancel Subscription", "Which device shows the late reminders?"],
                    "reply_not_contains": ["send your question again"],
                },
            },
            {"user": "on my iphone", "expect": {"flow": "clarification", "state": "number"}},
        ],
    )


# -- a language said alone beside the one to learn ---------------------------------------------


@pytest.mark.parametrize(
    ("text", "native"),
    [
        ("hey there, I'm Sven, Swedish, and I want to learn English", "sv"),
        ("Paula, spanish and I want to learn french", "es"),
        ("english, I want to learn english", None),  # the one learnt is never the user's own
        ("Max, German, Polish, and I want to learn English", None),  # two alone: not guessed
    ],
)
def test_a_language_said_alone_beside_the_one_to_learn_is_the_users_own(text: str, native: str | None) -> None:
    assert native_in(text, weak=True) == native


def test_a_language_alone_is_no_native_without_a_language_to_learn() -> None:
    assert native_in("Max, German", weak=True) is None


# -- feedback: the complaint after a contrast says the area ------------------------------------


@pytest.mark.parametrize(
    ("comment", "category"),
    [
        ("lessons are nice but the app freezes every time I play the audio", "bug"),
        ("the lessons repeat too much", "content"),
        ("great app, but the lessons take forever to load", "latency"),
    ],
)
def test_the_complaint_after_a_contrast_says_the_category(comment: str, category: str) -> None:
    run(
        "language-buddy",
        [{"user": "I'd like to leave some feedback"}, {"user": "4"}, {"user": comment, "expect": {"flow": "main"}}],
        profile={
            "name": "Kemal",
            "native_language": "tr",
            "target_language": "en",
            "timezone": "Europe/Istanbul",
            "level": "B1",
        },
        expect_end={"records": {"feedback": [{"rating": 4, "category": category}]}},
    )


# -- study-pal: the answer asked for loosely, and in the learners' languages -------------------


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("no idea, just show me", True),
        ("ugh just show me!", True),
        ("dime la respuesta", True),
        ("zeig mir die Lösung", True),
        ("montre-moi la réponse", True),
        ("just show me how limits work", False),  # another request, not this exercise's answer
        ("show me an example", False),
    ],
)
def test_the_answer_asked_for(text: str, asks: bool) -> None:
    assert (_REVEAL.search(text) is not None) is asks


def test_at_the_category_question_what_went_wrong_says_the_area_over_where() -> None:
    from flows.shared.feedback import read_category

    assert read_category("the app freezes every time i open my vocabulary list") == "bug"
    assert read_category("the lessons are slow to load") == "latency"
    assert read_category("content") == "content"
