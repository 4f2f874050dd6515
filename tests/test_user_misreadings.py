"""Misreadings met by the team trying the four bots as users (eighteenth session), one class each, with new
messages in several languages; each class's replay is under tests/replays/users/."""

from __future__ import annotations

import pytest

from engine.extract import Invalid, person_name, reads_as_a_sentence, with_apostrophe
from flows.language_buddy.names import parse_name

# -- contractions typed without the apostrophe, wherever a reader tells a sentence from a name ---------------


@pytest.mark.parametrize(
    "text",
    [
        "thats wrong",
        "Thats not it",
        "youre wrong",
        "Dont care",
        "whats this",
        "isnt it obvious",
        "Cest faux",  # French "c'est faux"
        "nest pas vrai",  # French "n'est pas vrai"
        "lho detto",  # Italian "l'ho detto"
    ],
)
def test_a_contraction_typed_without_its_apostrophe_reads_as_a_sentence_not_a_name(text: str) -> None:
    assert reads_as_a_sentence(text.split())
    for reader in (parse_name, person_name()):
        read = reader(text)
        assert read is None or isinstance(read, Invalid), (reader, read)


@pytest.mark.parametrize(
    ("typed", "written"),
    [("thats", "that's"), ("dont", "don't"), ("youre", "you're"), ("cest", "c'est"), ("nest", "n'est"),
     ("lho", "l'ho")],
)  # fmt: skip
def test_the_contraction_a_word_stands_for(typed: str, written: str) -> None:
    assert with_apostrophe(typed) == written


@pytest.mark.parametrize("word", ["its", "were", "well", "ill", "im", "ines", "noe", "anna", "dove", "dans"])
def test_a_word_that_is_a_word_as_typed_keeps_its_spelling(word: str) -> None:
    # "its", "were", "well" are used about as much as "it's", "we're", "we'll"; German "im" is a word as typed;
    # "noe" is no Italian elision ("no'e")
    assert with_apostrophe(word) == word


@pytest.mark.parametrize("name", ["Anna Lena", "anna lena", "Ana de la Cruz", "Jony Ive", "Darcy Obrien", "Hes Ali"])
def test_names_stay_names(name: str) -> None:
    assert isinstance(parse_name(name), str)
    assert isinstance(person_name()(name), str)
