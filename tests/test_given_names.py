"""A name after a cue that may say anything: a given name (Faker's locales) or a word in use (engine/given_names.py)."""

from __future__ import annotations

import json
from importlib import metadata

import pytest

from engine.authoring.testing import dialogue
from engine.given_names import NAMES_FILE, faker_names_as_words, may_be_a_name
from engine.names import person_name


@pytest.mark.parametrize(
    "word",
    [
        "mia",
        "joão",
        "chiara",
        "grace",
        "rosa",
        "jonas",
        "chloé",
        "lucía",
        "max",
        "zeynep",
        "xochitl",
        "wei",
        "chen",
        "li",
        "akira",
        "kenji",
        "nguyen",
    ],
)
def test_given_names_and_words_every_language_writes_may_be_names(word: str) -> None:
    assert may_be_a_name(word)


@pytest.mark.parametrize(
    "word",
    ["stuck", "exhausted", "bored", "confused", "lost", "cold", "confuso", "triste", "perdida", "verwirrt", "épuisé"],
)
def test_states_in_use_are_no_names(word: str) -> None:
    assert not may_be_a_name(word)


def test_a_name_of_one_locale_that_is_a_common_word_is_the_word() -> None:
    # "sad" is given in en_PK alone; English words are written everywhere, as names are, but less
    assert not may_be_a_name("sad")
    assert not may_be_a_name("happy")


@pytest.mark.parametrize(
    ("text", "name"),
    [("im stuck", None), ("i'm exhausted lol", None), ("im mia", "Mia"), ("i'm joão", "João"), ("I'm Sam", "Sam")],
)
def test_the_engine_name_reader(text: str, name: str | None) -> None:
    assert person_name().rule(text) == name


@pytest.mark.parametrize(
    ("text", "name"),
    [("im stuck", None), ("Im exhausted", None), ("sono stanca", None), ("im mia", "Mia"), ("sono chiara", "Chiara"),
     ("i'm grace", "Grace")],
)  # fmt: skip
def test_language_buddy_reads_a_state_as_no_name(text: str, name: str | None) -> None:
    with dialogue("language-buddy") as chat:
        chat.say("hi").say(text)
        if name is None:
            chat.expect(flow="onboarding", state="ask_name")
            assert "name" not in chat.slots or chat.slots["name"] is None
        else:
            chat.expect(state="ask_native", slots={"name": name})


def test_the_written_file_is_what_the_installed_faker_gives() -> None:
    doc = json.loads(NAMES_FILE.read_text(encoding="utf-8"))
    if doc["faker"] != metadata.version("faker"):
        pytest.skip(f"written by faker {doc['faker']}, {metadata.version('faker')} installed: the names are built")
    assert doc["names"] == faker_names_as_words(), "run `python -m engine.given_names --write`"
