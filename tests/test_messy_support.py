"""Messy support and feedback input: free-text answers read ahead by their cues, messages that
say nothing at a free-text question, a new request at a question, questions about past feedback."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import DataFileError
from flows.shared.no_answer import load_no_answer, says_nothing
from flows.support.ahead import given_reader, read_answer
from flows.support.kb import Question
from flows.support.questions import ClarificationSlots, read_text

VERSION = Question(text="Which Android version?", type="number", min=5, max=16)
MODEL = Question(text="Which phone model do you use?", cues=["pixel", "samsung", "galaxy", "nothing phone"])


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("notifications dont come on my samsung galaxy s21 ultra, android 14", "samsung galaxy s21 ultra"),
        ("my Pixel 7 Pro never rings", "pixel 7 pro"),
        ("its a nothing phone 2", "nothing phone 2"),
        ("android 14, no idea what model", None),
        ("nothing works on my phone", None),
    ],
)
def test_a_free_text_question_with_cues_is_read_ahead_by_them(text: str, value: str | None) -> None:
    assert read_answer(MODEL, text) == value
    assert read_answer(Question(text="Which phone model do you use?"), text) is None  # no cues: never read ahead


def test_the_phone_model_said_at_an_earlier_question_is_noted() -> None:
    s = ClarificationSlots(questions=[VERSION, MODEL], current_index=0, opened=True)
    assert given_reader(s)("14 on my samsung s21") == {MODEL.text: "samsung s21"}


def test_cues_belong_to_free_text_questions_only() -> None:
    with pytest.raises(ValueError, match="cues are only for type 'text'"):
        Question(text="Which Android version?", type="number", cues=["pixel"])


@pytest.mark.parametrize(
    ("text", "nothing"),
    [
        ("yes", True),
        ("Yeah sure!", True),
        ("nope.", True),
        ("hello??", True),
        ("hi there", True),
        ("??", True),
        ("👍", True),
        ("hmm", True),
        ("are you there?", True),
        ("no sound", False),
        ("no error, they just never arrive", False),
        ("pixel 7", False),
        ("no idea", False),
        ("nothing", False),
    ],
)
def test_a_message_that_says_nothing_answers_no_free_text_question(text: str, nothing: bool) -> None:
    assert says_nothing(text) is nothing
    assert (read_text(text) is None) is nothing


def test_the_no_answer_tables_are_checked_on_load(tmp_path: Path) -> None:
    bad = tmp_path / "no_answer.yaml"
    bad.write_text("greetings: [Hello]\nfillers: [hm]\nreplies: [yes, yes]\n", encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_no_answer(bad)
    assert "greetings" in str(info.value) and "replies" in str(info.value)
