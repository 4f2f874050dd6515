"""The area of a comment is what went wrong, said as users say it: an area word raised to a superlative
("la app va lentísima", "è lentissima", "está lentíssimo") beside the exercises or lessons where it happened
(flows/shared/feedback.py `sense_category`, engine/gloss.py `without_superlatives`). "The audio keeps cutting
out" is left to the area question, as tests/replays/messy/feedback/ asks it."""

from __future__ import annotations

import pytest

from engine.authoring.testing import DialogueFactory
from engine.gloss import without_superlatives

PROFILE = {"name": "Sam", "native_language": "es", "target_language": "en", "timezone": "Europe/Madrid", "level": "A2"}


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("la app va lentísima", "la app va lenta"),
        ("l'app è lentissima", "l'app è lenta"),
        ("o app está lentíssimo", "o app está lento"),
        ("muchísimas lecciones", "muchas lecciones"),
        ("the app is slow", "the app is slow"),  # no superlative: as typed
        ("Isimo is a name", "Isimo is a name"),
    ],
)
def test_a_superlative_is_written_as_its_adjective(text: str, plain: str) -> None:
    assert without_superlatives(text) == plain


@pytest.mark.parametrize(
    ("comment", "category"),
    [
        ("la app va lentísima, tarda en abrir cada lección", "latency"),
        ("todo va lentísimo en las lecciones", "latency"),
        ("me encantan las rachas pero el audio va lentísimo en los ejercicios", "latency"),
        ("the lessons repeat the same words", "content"),  # nothing went wrong but the content
    ],
)
def test_what_went_wrong_says_the_area(dialogue: DialogueFactory, comment: str, category: str) -> None:
    chat = dialogue("language-buddy", profile=PROFILE)
    chat.say("I want to give feedback").expect(flow="feedback")
    chat.say("2").expect(flow="feedback", slots={"rating": 2})
    chat.say(comment).expect(flow="main")
    assert [r["category"] for r in chat.records("feedback")] == [category]
    # the comment is kept as typed: the superlative is read, never stored
    assert [r["comment"] for r in chat.records("feedback")] == [comment]
