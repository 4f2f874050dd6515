"""What is no value of a list or free-text question (issue 23, h-setp): a none said with an exception answers with
the exception ("none except shellfish" is shellfish), the user's mood said at a list question is small talk ("ich
bin so genervt", "che stanchezza"), and a question about the question itself asks even where any text is an answer
("wie lang darf das sein?"). Six languages each; measured on tests/corpora/commands/nonanswers/."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from engine import Bot, default_registry
from engine.commands import AnswerFlow, AskBack, Chitchat, Command
from engine.extract import none_but
from engine.models import CarryOver, FlowFrame, SessionState
from engine.reading import read

AT = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
FITNESS = default_registry().get("fitness-coach")
LANGUAGE = default_registry().get("language-buddy")
SUPPORT = default_registry().get("support")
EQUIPMENT = {"fitness_level": "intermediate", "limitations": "none", "goal": "fat_loss", "target_weight_kg": 72,
             "days_per_week": 3, "minutes_per_session": 45}  # fmt: skip
ALLERGIES = {**EQUIPMENT, "equipment": ["dumbbells"], "diet": "vegetarian"}


def _parse(state: str, text: str, slots: dict[str, Any]) -> object:
    flow = FITNESS.flow("onboarding")
    return flow.state(state).parser(flow.new_slots(slots))(text)  # type: ignore[union-attr]


def _reading(bot: Bot, flow: str, state: str, text: str, slots: dict[str, Any]) -> list[Command]:
    frame = FlowFrame(flow=flow, version=bot.flow(flow).version, state=state, slots=dict(slots), started_at=AT)
    session = SessionState(id="s", bot=bot.name, user="u", active=frame)
    return read(bot, session, CarryOver(), text, lambda: None).commands


@pytest.mark.parametrize(
    ("text", "exception"),
    [
        ("none except shellfish", "shellfish"),
        ("nothing really, apart from peanuts", "peanuts"),
        ("ninguna salvo los cacahuetes", "los cacahuetes"),
        ("keine, außer Laktose", "Laktose"),
        ("aucune sauf le gluten", "le gluten"),
        ("pas vraiment, à part les fruits de mer", "les fruits de mer"),
        ("nenhuma exceto amendoim", "amendoim"),
        ("nessuna, tranne un po' di mal di schiena", "un po' di mal di schiena"),
    ],
)
def test_a_none_said_with_an_exception_is_the_exception(text: str, exception: str) -> None:
    assert none_but(text) == exception


@pytest.mark.parametrize(
    "text",
    [
        "none",  # a none alone
        "none so far",  # no exception after it
        "no target but I want to tone up",  # no none of the question: "target" is no kind a none is said of
        "nothing special, it just crashes",  # "nothing special" says no none
        "dumbbells only",  # no none before the word
        "peanuts, nothing else",  # the none closes the list (engine/extract.py `without_closing`)
    ],
)
def test_what_is_no_none_with_an_exception_keeps_its_reading(text: str) -> None:
    assert none_but(text) is None


@pytest.mark.parametrize(
    ("state", "text", "value"),
    [
        ("allergies", "none except shellfish", ["shellfish"]),
        ("allergies", "keine, außer Laktose", ["lactose"]),
        ("allergies", "nenhuma exceto amendoim", ["peanuts"]),
        ("equipment", "nothing but a yoga mat", ["yoga mat"]),
        ("equipment", "rien à part des haltères", ["dumbbells"]),
        ("equipment", "nada más que unas mancuernas", ["dumbbells"]),
        ("limitations", "nessuna, tranne un po' di mal di schiena", "un po' di mal di schiena"),
        # one word the question does not know, copied back, is no exception: "just curious" is read as before
        ("allergies", "no, just curious", ["just curious"]),
    ],
)
def test_every_question_reads_the_exception_as_its_answer(state: str, text: str, value: object) -> None:
    slots = ALLERGIES if state == "allergies" else EQUIPMENT if state == "equipment" else {"fitness_level": "beginner"}
    assert _parse(state, text, slots) == value


@pytest.mark.parametrize(
    ("state", "text"),
    [
        ("allergies", "che stanchezza oggi"),
        ("allergies", "qué sueño tengo"),
        ("allergies", "j'ai la flemme"),
        ("equipment", "ich bin so genervt"),
        ("equipment", "que bom, estou animado"),
        ("equipment", "je suis trop content de commencer"),
        ("limitations", "sono di buon umore oggi"),
        ("limitations", "I'm in a good mood today"),
    ],
)
def test_a_mood_at_a_list_or_text_question_that_reads_values_is_small_talk(state: str, text: str) -> None:
    slots = ALLERGIES if state == "allergies" else EQUIPMENT if state == "equipment" else {"fitness_level": "beginner"}
    assert [type(c) for c in _reading(FITNESS, "onboarding", state, text, slots)] == [Chitchat]


def test_a_value_beside_a_mood_is_still_the_answer() -> None:
    got = _reading(FITNESS, "onboarding", "equipment", "que bom, tenho halteres", EQUIPMENT)
    assert isinstance(got[-1], AnswerFlow)


FEEDBACK = {"rating": 2, "sentiment": "negative", "sentiment_from": "rating"}


@pytest.mark.parametrize(
    "text",
    [
        "will someone actually read this?",
        "how long should my comment be?",
        "¿es importante?",
        "wie lang darf das sein?",
        "pourquoi c'est important ?",
        "ma è importante?",
        "como eu vou saber isso?",
    ],
)
def test_a_question_about_the_question_asks_where_any_text_is_an_answer(text: str) -> None:
    assert [type(c) for c in _reading(LANGUAGE, "feedback", "details", text, FEEDBACK)] == [AskBack]


@pytest.mark.parametrize(
    "text", ["the app doesn't matter to me anymore", "why does the app crash?", "it's important to fix the audio"]
)
def test_a_comment_that_asks_or_weighs_something_else_is_the_comment(text: str) -> None:
    got = _reading(LANGUAGE, "feedback", "details", text, FEEDBACK)
    assert not any(isinstance(c, AskBack | Chitchat) for c in got)


@pytest.mark.parametrize(
    ("state", "text"),
    [
        ("equipment", "mein Nachbar hat einen ganzen Kraftraum im Keller"),
        ("allergies", "te lo digo mañana, que ahora no me acuerdo"),
    ],
)
def test_a_clause_of_the_message_is_no_item_of_a_list(state: str, text: str) -> None:
    # a list reader that keeps words it does not know would keep the whole clause as one item
    slots = ALLERGIES if state == "allergies" else EQUIPMENT
    assert _parse(state, text, slots) is None


@pytest.mark.parametrize(
    ("state", "text", "value"),
    [
        ("equipment", "a rowing machine and dumbbells", ["dumbbells", "rowing machine"]),
        ("equipment", "nada, solo mi cuerpo :)", []),  # the body alone is no exception to the none
        ("equipment", "just my running shoes", ["just my running shoes"]),  # two words besides the little ones
        ("allergies", "allergic to the skin of peaches", ["the skin of peaches"]),
    ],
)
def test_items_of_a_few_words_stay_items(state: str, text: str, value: object) -> None:
    slots = ALLERGIES if state == "allergies" else EQUIPMENT
    assert _parse(state, text, slots) == value
