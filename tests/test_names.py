"""The name question: real names in their many shapes pass, answers that are no name get a reprompt saying why."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel, ValidationError

from engine import DataFileError, Invalid
from flows.language_buddy.names import PersonName, name_in, parse_name
from flows.language_buddy.non_names import NON_NAMES_FILE, TABLES, keyboard_mash, load_non_names


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Jo", "Jo"),
        ("Ng", "Ng"),
        ("María José", "María José"),
        ("O'Brien", "O'Brien"),
        ("Jean-Luc", "Jean-Luc"),
        ("jean-luc", "Jean-Luc"),
        ("o'brien", "O'Brien"),
        ("my name is anna", "Anna"),
        ("its sam", "Sam"),
        ("Peter", "Peter"),
        ("Kjell", "Kjell"),
        ("Sasha", "Sasha"),
        ("Nguyễn Văn An", "Nguyễn Văn An"),
        ("李", "李"),
    ],
)
def test_real_names_still_pass(text: str, name: str) -> None:
    assert parse_name(text) == name


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("quit", "type “cancel”"),
        ("exit", "type “cancel”"),
        ("end the flow", "type “cancel”"),
        ("leave", "type “cancel”"),
        ("null", "doesn't look like a name"),
        ("none", "doesn't look like a name"),
        ("idk", "doesn't look like a name"),
        ("no", "doesn't look like a name"),
        ("skip", "doesn't look like a name"),
        ("n/a", "doesn't look like a name"),
        ("asdf", "doesn't look like a name"),
        ("sdfsdf", "doesn't look like a name"),
        ("aaaa", "doesn't look like a name"),
        ("42", "digits"),
        ("max@example.com", "email address"),
        ("I don't want to tell you", "nickname"),
        ("prefer not to say", "nickname"),
        ("none of your business", "nickname"),
    ],
)
def test_answers_that_are_no_name_are_refused_with_what_would_work(text: str, said: str) -> None:
    out = parse_name(text)
    assert isinstance(out, Invalid), out
    assert said in out.reason


def test_a_question_back_is_left_to_the_help_text() -> None:
    assert parse_name("why do you need it?") is None


def test_a_cue_followed_by_a_placeholder_names_nobody() -> None:
    assert name_in("call me null", weak=True) is None
    assert name_in("my name is asdf", weak=False) is None


def test_the_name_type_refuses_a_placeholder_a_model_might_hand_over() -> None:
    class M(BaseModel):
        name: PersonName

    assert M(name="Sam").name == "Sam"
    with pytest.raises(ValidationError, match="not a name"):
        M(name="Null")


@pytest.mark.parametrize("word", ["asdf", "qwerty", "jkjkjk", "hjkl", "zxcvb", "aaaa"])
def test_keyboard_mash(word: str) -> None:
    assert keyboard_mash(word)


@pytest.mark.parametrize("word", ["Peter", "Tory", "Sasha", "Kjell", "Jo", "Ng", "Hannah", "Aaron", "Dasha", "Wert"])
def test_names_are_not_keyboard_mash(word: str) -> None:
    assert not keyboard_mash(word)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("commands: [Quit]\nplaceholders: [x]\nnon_answers: [a]\nrefusals: [b]\n", "lower-case"),
        ("commands: [quit, quit]\nplaceholders: [x]\nnon_answers: [a]\nrefusals: [b]\n", "listed twice"),
        ("commands: [quit]\nplaceholders: [null]\nnon_answers: [a]\nrefusals: [b]\n", "lower-case"),
        ("commands: []\nplaceholders: [x]\nnon_answers: [a]\nrefusals: [b]\n", "non-empty"),
        ("commands: [quit]\nplaceholders: [x]\nnon_answers: [a]\n", "refusals"),
    ],
)
def test_a_broken_non_names_file_names_the_problem(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "non_names.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError, match=problem):
        load_non_names(path)


def test_the_shipped_file_loads() -> None:
    assert load_non_names(NON_NAMES_FILE) == TABLES
