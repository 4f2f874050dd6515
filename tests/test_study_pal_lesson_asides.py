"""What a lesson does with a message that is about something besides its exercise: a question on the lesson's
own topic put as a request (answered now, `Aside.owns`), "later" in a clause about something else (no exit),
and a plan asked for mid-lesson (made now, the lesson's place kept)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from engine.authoring.testing import Dialogue, dialogue
from engine.clock import pinned_clock
from flows.study_pal.exits import asks_plan_instead, exit_by_rules, may_exit


@pytest.fixture
def lesson() -> Iterator[Dialogue]:
    """A lesson on limits at its first exercise."""
    with pinned_clock(datetime(2026, 11, 25, 20, 0)), dialogue("study-pal") as d:
        d.say("teach me limits")
        assert (d.flow, d.state, d.slots["chunk"]) == ("tutoring", "exercise", 1)
        yield d


@pytest.mark.parametrize("text", ["i dont get it", "im confused", "i don't understand", "no entiendo"])
def test_not_understanding_at_an_exercise_has_the_part_explained_not_the_bots_help(lesson: Dialogue, text: str) -> None:
    # the engine read these as help (how to use the bot); the lesson's own reading comes first (engine/reading.py):
    # "Let me explain." and the part at hand, no attempt used. "help" itself is still the engine's help
    lesson.say("2")
    lesson.say(text)
    assert lesson.reply.startswith("Let me explain. A limit describes")
    assert "approaches" in lesson.reply and "Type your answer" not in lesson.reply
    assert (lesson.state, lesson.slots["chunk"], lesson.slots["attempts"]) == ("exercise", 1, 1)
    lesson.say("help")
    assert "Type your answer to the exercise" in lesson.reply


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("by the way could you remind me what a limit is", "approaches"),
        ("btw can u remind me what a limit is", "approaches"),
        ("sorry could you remind me what continuity means", "continuous"),
    ],
)
def test_a_question_on_the_course_put_as_a_request_is_answered_in_the_lesson(
    lesson: Dialogue, text: str, says: str
) -> None:
    lesson.say(text)
    assert "Noted" not in lesson.reply and says in lesson.reply
    at = (lesson.flow, lesson.state, lesson.slots["chunk"], lesson.slots["attempts"])
    assert at == ("tutoring", "exercise", 1, 0)


@pytest.mark.parametrize(
    "text", ["before that, how do i export my tasks?", "also could you remind me how to export my notes"]
)
def test_a_request_about_something_else_is_still_kept_for_after_the_lesson(lesson: Dialogue, text: str) -> None:
    lesson.say(text)
    assert lesson.reply.startswith("Noted: I'll come back to that")
    assert (lesson.flow, lesson.state, lesson.slots["attempts"]) == ("tutoring", "exercise", 0)


def test_later_in_a_clause_about_something_else_does_not_end_the_lesson(lesson: Dialogue) -> None:
    lesson.say("oh also i want to give feedback later")
    assert "stop here" not in lesson.reply and "analys" not in lesson.reply
    assert (lesson.flow, lesson.state) == ("tutoring", "exercise")


@pytest.mark.parametrize(
    "text", ["oh also i want to give feedback later", "remind me later to review", "we can talk about my plan later"]
)
def test_later_of_something_else_is_no_exit(text: str) -> None:
    assert not may_exit(text) and exit_by_rules(text) is None


@pytest.mark.parametrize(
    "text", ["later", "maybe later", "ok later then", "let's do this later", "can we do the rest later?",
             "catch you later", "be back later", "let's continue later", "nah, later"],
)  # fmt: skip
def test_later_said_of_the_lesson_still_ends_it(text: str) -> None:
    assert may_exit(text) and exit_by_rules(text) == "END"


def test_a_plan_asked_for_mid_lesson_is_made_and_the_lesson_kept(lesson: Dialogue) -> None:
    lesson.say("7")  # part 1 right: the lesson is at part 2
    assert lesson.slots["chunk"] == 2
    lesson.say("actually can you make me a study plan first")
    assert "kept your place" in lesson.reply and "Limits, part 2 of 3" in lesson.reply
    assert "Your study plan" in lesson.reply
    lesson.say("let's continue")
    assert (lesson.flow, lesson.state, lesson.slots["chunk"]) == ("tutoring", "exercise", 2)


def test_a_plan_asked_for_before_any_answer_skips_the_empty_analysis(lesson: Dialogue) -> None:
    lesson.say("actually can you make me a study plan first")
    assert "nothing to analyse" not in lesson.reply and "Try a lesson first" not in lesson.reply
    assert "kept your place" in lesson.reply and "Your study plan" in lesson.reply


@pytest.mark.parametrize(
    ("text", "instead"),
    [("actually can you make me a study plan first", True), ("Let's schedule a study plan", False),
     ("wait, schedule my study for friday 4-6 first", True), ("can you make me a study plan for tomorrow", False),
     ("I'm done, can you plan my week?", False), ("that's all, schedule my study for tomorrow", False),
     ("7", False)],
)  # fmt: skip
def test_a_plan_asked_for_instead_of_going_on_and_one_after_finishing(text: str, instead: bool) -> None:
    assert asks_plan_instead(text) is instead


@pytest.mark.parametrize(
    "text",
    [
        "7. oh and do i have anything planned this week?",
        "7, btw what's a pomodoro?",
        "its 7. what does the arrow mean?",
    ],
)
def test_an_answer_before_an_aside_is_taken_after_it(lesson: Dialogue, text: str) -> None:
    # the aside is answered and the exercise's answer in the clauses before it counts
    lesson.say(text)
    assert (lesson.state, lesson.slots["chunk"]) == ("exercise", 2)
    assert "Correct" in lesson.reply


@pytest.mark.parametrize("text", ["ok, what does the arrow mean?", "wait, do i have anything planned?"])
def test_fillers_before_an_aside_answer_nothing(lesson: Dialogue, text: str) -> None:
    lesson.say(text)
    assert (lesson.state, lesson.slots["chunk"], lesson.slots["attempts"]) == ("exercise", 1, 0)
