"""A value put forward as a question or with a hedge is the answer, whatever reader takes it (issue 23, class 4).

"Sam?" at the name question, "gluten?" or "Erdnüsse vielleicht?" at the allergies: one word asked alone, or the
words a hedge leaves, name a value the question takes, and ask nothing but whether it will do. A reader that
takes any words (a name, an allergy) read them as copies of the message, so the read stage took them for a
question back and the answer reader kept the question mark ("gluten?" was the allergy "gluten?", "Sam?" no name).
Played through the commands bench at dev entries' states (engine/askback.py `_put_forward`, engine/extract.py
`_asked_mark`).
"""

from __future__ import annotations

import sys
from datetime import UTC
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.commands_corpus import Case, shipped  # noqa: E402
from bench.understanding import CORPUS_NOW, label_slots, play  # noqa: E402
from engine import Engine, MemoryStore  # noqa: E402


def _observed(where: str, text: str) -> list[str]:
    label_slots(c for split in ("dev", "test") for c in shipped(split))
    at = [c for c in shipped("dev") if f"{c.entry.bot}/{c.entry.flow}.{c.entry.state}" == where and not c.entry.paused]
    case: Case = next((c for c in at if c.entry.text == text), at[0])  # the entry itself where the text is one
    case = case.model_copy(update={"entry": case.entry.model_copy(update={"text": text})})
    return [str(o) for o in play(_pinned(), case, "u").observed]


@pytest.mark.parametrize(("text", "name"), [("Lena?", "Lena"), ("Jean-Luc?", "Jean-Luc"), ("Chloé ?", "Chloé")])
def test_a_name_asked_alone_is_the_name(text: str, name: str) -> None:
    assert _observed("language-buddy/onboarding.ask_name", text) == [f"set_slot name={name!r}"]


@pytest.mark.parametrize(
    ("text", "item"),
    [("eggs?", "eggs"), ("peanuts maybe?", "peanuts"), ("soja vielleicht?", "soy"), ("lactosa creo?", "lactose")],
)
def test_an_allergy_put_forward_unsure_is_the_allergy(text: str, item: str) -> None:
    assert _observed("fitness-coach/onboarding.allergies", text) == [f"set_slot allergies={[item]!r}"]


@pytest.mark.parametrize(
    ("where", "text"),
    [
        ("fitness-coach/onboarding.allergies", "allergies?"),
        ("fitness-coach/onboarding.allergies", "allergy?"),
        ("language-buddy/onboarding.ask_name", "name?"),
        ("language-buddy/onboarding.ask_name", "nickname?"),
        ("language-buddy/onboarding.ask_name", "why?"),
    ],
)
def test_a_word_of_the_question_asked_alone_still_asks(where: str, text: str) -> None:
    assert _observed(where, text) == ["ask_back"]


def test_a_question_beside_the_answer_is_no_comment() -> None:
    """A reader of comments leaves a question alone: only a value of a few words sheds its question mark."""
    assert _observed("language-buddy/feedback.rating", "I'd say 4, is that normal?") == ["set_slot rating=4"]


def _pinned() -> Engine:
    """An engine on the corpus's clock (its dates are relative to it), as the bench plays it."""
    return Engine(MemoryStore(), clock=lambda: CORPUS_NOW.replace(tzinfo=UTC))


@pytest.fixture(autouse=True)
def _corpus_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INNERLOOP_NOW", CORPUS_NOW.isoformat())
