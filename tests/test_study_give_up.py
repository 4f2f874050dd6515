"""Giving up on an exercise ("i give up", "idk, just tell me") shows the answer with its short
explanation and moves to the next step, scored as not solved; encouragement stays for
discouragement that gives nothing up ("this is too hard") and outside an exercise. Before the
fix a bare "i give up" got the motivator's encouragement and the same exercise again."""

from __future__ import annotations

from datetime import datetime

import pytest

from engine import Engine, MemoryStore, TurnResult
from engine.clock import pinned_clock
from engine.models import JsonObject
from flows.study_pal.reading import _REVEAL
from flows.study_pal.texting import plain

AT = datetime(2025, 3, 12, 9, 0)
FIRST_SOLUTION = "The answer is 7. 2x + 1 is a polynomial"


class Lesson:
    def __init__(self) -> None:
        self.engine = Engine(MemoryStore())

    def say(self, text: str) -> TurnResult:
        with pinned_clock(AT):
            return self.engine.turn("study-pal", "u", text)

    def records(self, kind: str) -> list[JsonObject]:
        return [r.data for r in self.engine.store.records(kind)]


GIVING_UP = ["i give up", "I give up!", "ugh i give up", "i give up on this one", "im giving up",
             "I give up, what's the answer?", "idk, just tell me", "show me the answer",
             "gimme the answer"]  # fmt: skip


@pytest.mark.parametrize("text", GIVING_UP)
def test_giving_up_asks_for_the_answer(text: str) -> None:
    assert _REVEAL.search(plain(text))


@pytest.mark.parametrize("text", ["this is too hard", "i'm so lost", "i'll never get this", "7", "give me a hint"])
def test_discouragement_and_answers_are_no_request_for_the_answer(text: str) -> None:
    assert not _REVEAL.search(plain(text))


@pytest.mark.parametrize("text", GIVING_UP)
def test_giving_up_shows_the_answer_and_goes_on_to_the_next_part(text: str) -> None:
    lesson = Lesson()
    lesson.say("teach me limits")
    r = lesson.say(text)
    assert r.reply.startswith(FIRST_SOLUTION)
    assert "completely normal" not in r.reply  # not the motivator's encouragement
    assert "Exercise 2/3" in r.reply
    assert (r.flow, r.state, r.slots["chunk"], r.slots["attempts"]) == ("tutoring", "exercise", 2, 0)
    # not solved: scored as revealed (0), with the attempts made so far (none)
    assert [{k: e[k] for k in ("concept", "chunk", "correct", "attempts")} for e in lesson.records("exercise")] == [
        {"concept": "limits", "chunk": 1, "correct": False, "attempts": 0}
    ]
    assert lesson.records("mastery") == [{"concept": "limits", "score": 0.0}]


def test_giving_up_after_a_wrong_answer_counts_that_attempt() -> None:
    lesson = Lesson()
    lesson.say("teach me limits")
    assert "Not quite. Hint" in lesson.say("6").reply
    r = lesson.say("i give up")
    assert r.reply.startswith(FIRST_SOLUTION) and r.slots["chunk"] == 2
    assert lesson.records("exercise")[0]["attempts"] == 1 and lesson.records("exercise")[0]["correct"] is False


def test_giving_up_on_the_last_exercise_completes_the_concept() -> None:
    lesson = Lesson()
    lesson.say("teach me limits")
    lesson.say("7")
    lesson.say("4")
    r = lesson.say("i give up")
    assert r.reply.startswith("The answer is c)") and "Limits is complete! Your mastery of Limits: 67%." in r.reply
    assert r.state == "next_topic"


def test_discouragement_that_gives_nothing_up_still_gets_encouragement() -> None:
    lesson = Lesson()
    lesson.say("teach me limits")
    r = lesson.say("this is too hard")
    assert "completely normal" in r.reply and (r.slots["chunk"], r.slots["attempts"]) == (1, 0)
    assert lesson.records("exercise") == []


def test_giving_up_outside_an_exercise_is_encouraged_and_for_today_ends() -> None:
    assert "completely normal" in Lesson().say("i give up").reply  # the main conversation: nothing to reveal
    lesson = Lesson()
    lesson.say("teach me limits")
    r = lesson.say("i give up for today")
    assert r.flow != "tutoring"  # an exit, as before: the lesson ends and hands over to analysis
