"""A short sentence about the conversation is nobody's name, in each language the engine reads
(engine/names.py `reads_as_a_sentence`): "das ist falsch" at a name question was the name "Das Ist".
A name that is also a common word stays a name when typed as one; a judgement said of "that" is a
yes or a no (at language-buddy's confirmation "das ist falsch" is a no)."""

from __future__ import annotations

import pytest

from engine.extract import Invalid
from engine.names import SENTENCE_NOT_NAME, person_name, reads_as_a_sentence
from engine.yesno import read_yes_no
from flows.language_buddy.names import parse_name

SENTENCES = [
    "das ist falsch",  # de
    "Das ist falsch",
    "das stimmt nicht",
    "ist falsch",
    "eso está mal",  # es
    "esto es incorrecto",
    "c'est faux",  # fr
    "c’est faux",
    "questo è sbagliato",  # it
    "è sbagliato",
    "isso está errado",  # pt
    "não é isso",
    "that is wrong",  # en
    "it's wrong",
]

NAMES = {
    "Will": "Will",
    "Mal": "Mal",
    "Das": "Das",
    "Grace": "Grace",
    "Faith": "Faith",
    "Rose": "Rose",
    "Fifi": "Fifi",
    "Ana": "Ana",
    "Will Young": "Will Young",  # typed with capitals, as a name is
    "will smith": "Will Smith",  # "will" is among English's most used words, "smith" is a name everywhere
    "ana maria": "Ana Maria",
    "hans peter": "Hans Peter",
    "maria das dores": "Maria Das Dores",
    "Ana de la Cruz": "Ana de la Cruz",
    "le thi mai": "Le Thi Mai",  # "le" and "mai" are Italian's most used words, "le" only as a particle here
    "ma long": "Ma Long",
    "jean françois": "Jean François",
}


@pytest.mark.parametrize("text", SENTENCES)
def test_a_short_sentence_is_no_name(text: str) -> None:
    assert reads_as_a_sentence(text.split())
    # refused with a reason, not left undecided: a model asked would propose one of its words as the name
    assert person_name()(text) in (None, Invalid(SENTENCE_NOT_NAME))  # None after a cue ("c’est" read "I’m")
    # language-buddy's reader, which its confirmation corrects through: no name either (None where a first
    # word is no name on its own, "ist falsch")
    assert parse_name(text) in (None, Invalid(SENTENCE_NOT_NAME))


@pytest.mark.parametrize(("text", "name"), NAMES.items())
def test_a_name_that_is_a_word_stays_a_name(text: str, name: str) -> None:
    assert not reads_as_a_sentence(text.split())
    assert person_name()(text) == name


@pytest.mark.parametrize("text", ["Rose", "Mal", "Grace", "hans peter", "ana maria", "le thi mai"])
def test_language_buddy_reads_the_same_names(text: str) -> None:
    assert parse_name(text) == NAMES[text]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("das ist falsch", False),
        ("eso está mal", False),
        ("questo è sbagliato", False),
        ("isso está errado", False),
        ("that is wrong", False),
        ("it is not right", False),
        ("das ist richtig", True),
        ("esto es correcto", True),
        ("that is right", True),
    ],
)
def test_a_judgement_said_of_that_is_a_yes_or_no(text: str, expected: bool) -> None:
    assert read_yes_no(text) is expected


@pytest.mark.parametrize("text", ["berlin wrong", "my name wrong", "Rose", "das ist nicht"])
def test_words_before_a_judgement_must_be_a_subject_and_verb(text: str) -> None:
    # "berlin wrong" names what is wrong: not a plain no
    assert read_yes_no(text) is None
