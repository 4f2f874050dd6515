"""An option picked from a listed menu (engine/options.py): by letter, text, place or as the last."""

from __future__ import annotations

import pytest

from engine import listed_choice, picked

EXERCISE = {"a": "1/5", "b": "1/6", "c": "2/5"}
TOPICS = ["limits", "continuity", "derivatives"]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("b", "b"), ("(b)", "b"), ("B)", "b"), ("option b", "b"), ("I'd go with b", "b"), ("answer: c", "c"),
        ("it's a", "a"), ("a", "a"), ("1/6", "b"), ("b) 1/6", "b"), ("opción c", "c"),
        ("the second one", "b"), ("second", "b"), ("the 2nd one", "b"), ("i think the first", "a"),
        ("number 3", "c"), ("#2", "b"), ("option 2", "b"), ("número 2", "b"), ("the last one", "c"),
        ("la segunda", "b"), ("el tercero", "c"), ("la última", "c"), ("la deuxième", "b"),
        ("la dernière", "c"), ("die zweite", "b"), ("die letzte", "c"), ("la seconda", "b"),
        ("l'ultima", "c"), ("a segunda", "b"), ("a primeira", "a"),
        ("b supongo", "b"), ("c je pense", "c"), ("a, credo", "a"),
        # a pick, then why
        ("c, the two are different", "c"), ("b because 1/6 is smaller", "b"), ("maybe c? not sure", "c"),
        ("the last one, since it is smaller", "c"), ("c, a is wrong", "c"),
    ],
)  # fmt: skip
def test_a_pick_is_read_by_letter_text_or_place(text: str, key: str) -> None:
    assert picked(text, EXERCISE) == key


@pytest.mark.parametrize(
    "text",
    [
        "a half",  # "a" is an article before a word that says something
        "I train the second week",  # a place word inside a sentence about something else
        "the fourth one",  # there are three
        "option 7",
        "b) 1/5",  # the letter of one option with the text of another
        "b or c",
        "a, or maybe b",  # the reason picks another
        "",
    ],
)
def test_what_picks_nothing(text: str) -> None:
    assert picked(text, EXERCISE) is None


def test_a_menu_without_letters_is_picked_by_place_only() -> None:
    assert picked("the second one", TOPICS) == "continuity"
    assert picked("number 3", TOPICS) == "derivatives"
    assert picked("c", TOPICS) is None


def test_a_listed_choice_reads_a_named_option_first() -> None:
    parser = listed_choice({"android": ["samsung"], "iphone": ["ios"], "web": ["browser"]})
    assert parser("samsung galaxy") == "android"
    assert parser("the last one") == "web"
    assert parser("the second one") == "iphone"
    assert parser("no idea") is None
