"""A feedback comment told before the rating ("the lessons are too easy honestly") is kept as the
comment and the rating asked; it was dropped, and the rating asked again with nothing said."""

from __future__ import annotations

import pytest

from engine.authoring.testing import dialogue
from flows.shared.feedback_answers import comment_anywhere


@pytest.mark.parametrize(
    ("text", "comment"),
    [("the lessons are too easy honestly", "the lessons are too easy honestly"),
     ("3 - the audio keeps cutting out", "the audio keeps cutting out"),
     ("honestly it's wonderful", None),  # how it went, not what: the details question asks
     ("I want to complain", None), ("bonjour, j'ai une réclamation à faire", None),
     ("why do you want to know that anyway", None),
     # another rating after the rating qualifies it, no comment (h-prec); a number counting something does not
     ("3, maybe 4 when the audio works", None), ("4, 5 on a good day", None), ("2 - or 3 on weekends", None),
     ("3, it crashed 3 times today", "it crashed 3 times today"), ("2, 5 lessons froze", "5 lessons froze")],
)  # fmt: skip
def test_what_counts_as_the_comment(text: str, comment: str | None) -> None:
    assert comment_anywhere(text) == comment


def test_a_comment_before_the_rating_is_kept_and_the_rating_asked() -> None:
    with dialogue("language-buddy") as chat:
        for text in ("hi", "Max", "german", "spanish", "berlin", "skip the test", "yes", "i want to give feedback"):
            chat.say(text)
        chat.say("the lessons are too easy honestly")
        assert chat.state == "rating" and chat.slots["comment"] == "the lessons are too easy honestly"
        assert chat.reply.startswith("Noted (comment: the lessons are too easy honestly).")
        chat.say("3")
        (entry,) = chat.records("feedback")
        assert entry["rating"] == 3 and entry["comment"] == "the lessons are too easy honestly"


@pytest.mark.parametrize("rated", ["hmm like a 4 i guess", "honestly i'd say 4 i think"])
def test_a_rating_said_in_a_sentence_is_the_rating_not_also_the_comment(rated: str) -> None:
    # the any-time comment reader takes a sentence that says how it went; where the open question
    # reads its answer in the same words, a reader that copies the whole message back takes nothing
    with dialogue("language-buddy") as chat:
        for text in ("hi", "Max", "german", "spanish", "berlin", "skip the test", "yes", "i want to give feedback"):
            chat.say(text)
        chat.say(rated)
        assert chat.state == "details" and chat.slots["rating"] == 4 and chat.slots["comment"] is None


@pytest.mark.parametrize(
    ("text", "comment"),
    [
        ("un 2, la app se cuelga mucho", "la app se cuelga mucho"),
        ("nota 1. tudo trava o tempo todo", "tudo trava o tempo todo"),
        ("ich gebe eine 3, die Übungen wiederholen sich", "die Übungen wiederholen sich"),
        ("je mets 4, les leçons sont super", "les leçons sont super"),
        # a rating and no more than two words after it: no comment
        ("un 2, vale?", None),
    ],
)
def test_a_rating_led_in_the_users_language_and_then_the_comment(text: str, comment: str | None) -> None:
    assert comment_anywhere(text) == comment


@pytest.mark.parametrize(
    ("text", "comment"),
    [
        ("4 but the lessons are too easy", "the lessons are too easy"),
        ("hmm 4 i guess, but the lessons are a bit too easy", "the lessons are a bit too easy"),
        ("4 i guess, the lessons are a bit too easy", "the lessons are a bit too easy"),
        ("un 4 pero las lecciones son demasiado fáciles", "las lecciones son demasiado fáciles"),
        ("3 aber die Übungen wiederholen sich", "die Übungen wiederholen sich"),
        # a number inside a sentence is no rating clause: the sentence says how it went, whole
        ("my son is 4 but he loves the lessons", "my son is 4 but he loves the lessons"),
        # two words after a rating are no comment, nor a hedge after it
        ("4 but why?", None),
        ("vier Sterne, würde ich sagen", None),
        ("4, i guess", None),
    ],
)
def test_a_rating_joined_by_but_or_hedged_and_then_the_comment(text: str, comment: str | None) -> None:
    # the engine's clauses split where the rating ends, in the six languages: the leads above need a
    # comma or "because" right after the number
    assert comment_anywhere(text) == comment
