"""A correction of an answered clarifying question reaches the answers the flow keeps by question
(`parsed`) in the turn that confirms it, not one turn later: the step that folds the noted answers
in (`route`, flows/support/ahead.py `settle`) declares that it reads them, so the engine's
correction runs it again (engine/answers.py `rerun`)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from engine.authoring.testing import DialogueFactory
from engine.clock import pinned_clock

DEVICE = "Which device shows the late reminders?"
MINUTES = "About how many minutes late do they arrive?"
APP = "Which app crashes?"


@pytest.fixture(autouse=True)
def _clock() -> Iterator[None]:
    with pinned_clock(datetime(2026, 11, 27, 8, 45)):
        yield


def test_a_number_corrected_at_the_next_question_is_in_the_answers_at_once(dialogue: DialogueFactory) -> None:
    chat = dialogue("support")
    chat.say("reminders show up late on my android phone").expect(
        flow="clarification", state="number", slots={"parsed": {DEVICE: "Android"}}
    )
    chat.say("about twenty minutes").expect(state="yes_no", slots={"parsed": {DEVICE: "Android", MINUTES: 20}})
    chat.say("wait, more like half an hour actually").expect(
        state="yes_no",
        reply_contains=["30"],
        reply_not_contains=["yes or no"],
        # the answer is in `parsed` and `answers` now, and no longer waits in `given`
        slots={"parsed": {DEVICE: "Android", MINUTES: 30}, "answers": {DEVICE: "Android", MINUTES: "30"}, "given": {}},
    )
    trace = chat.last.trace if chat.last else None
    assert trace is not None and [n.detail for n in trace.notices if n.kind == "rerun"] == ["route (given corrected)"]
    chat.say("no battery saver").expect(flow="main")


def test_a_choice_said_ahead_then_corrected_at_the_first_question_is_in_the_answers_at_once(
    dialogue: DialogueFactory,
) -> None:
    chat = dialogue("support")
    chat.say("tasklane keeps crashing on my pc").expect(
        flow="clarification", state="text", slots={"doc": "app-crashes", "parsed": {APP: "Windows"}}
    )
    chat.say("sorry, I mean my macbook, not the pc").expect(state="text", slots={"parsed": {APP: "Mac"}, "given": {}})
    # the question asked is still the one it was: the correction moved no question on
    chat.say("just opening a project").expect(
        state="yes_no",
        slots={"parsed": {APP: "Mac", "What were you doing right before it crashed?": "just opening a project"}},
    )
