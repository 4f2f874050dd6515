"""Readers' classes found on the commands corpus's blind dev halves (docs/understanding.md, "Readers' classes from
the blind batches' dev halves"): a question about the open question's own options is a question back, a value the
question knows typed wrong reads as that value, a close spelling keeps its first letter, a question whether two
things are the same asks, and a value ruled out beside the one chosen corrects nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engine import default_registry
from engine.askback import question_back
from engine.commands import AnswerFlow, AskBack, Command, CorrectSlot, NewRequest
from engine.extract import Parser
from engine.models import CarryOver, FlowFrame, SessionState
from engine.reading import read
from flows.fitness.food import FOOD_WORDS, parse_allergies, read_diet
from flows.language_buddy.field_parsers import read_amend
from flows.language_buddy.languages import parse_language
from flows.language_buddy.names import parse_name
from flows.language_buddy.timezones import timezone

AT = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
registry = default_registry()
FITNESS = {
    "fitness_level": "intermediate",
    "limitations": "none",
    "goal": "fat_loss",
    "target_weight_kg": 72,
    "weight_unit": "kg",
    "completed": ["assessment", "goals"],
}


def reading(bot_name: str, flow: str, state: str, text: str, slots: dict[str, object]) -> list[Command]:
    bot = registry.get(bot_name)
    frame = FlowFrame(flow=flow, version=bot.flow(flow).version, state=state, slots=dict(slots), started_at=AT)
    session = SessionState(id="s", bot=bot.name, user="u", active=frame)
    return read(bot, session, CarryOver(), text, lambda: None).commands


@pytest.mark.parametrize(
    ("bot", "state", "text", "slots"),
    [
        ("fitness-coach", "days", "é melhor treinar 3 ou 4 dias?", FITNESS),
        ("fitness-coach", "time_of_day", "is morning better for fat loss?", FITNESS),
        ("language-buddy", "ask_native", "é melhor responder em inglês?", {"name": "Anna"}),
        ("language-buddy", "ask_target", "which ones do you have?", {"name": "Ana", "native_language": "es"}),
    ],
)
def test_a_question_weighing_the_questions_own_options_is_a_question_back(
    bot: str, state: str, text: str, slots: dict[str, object]
) -> None:
    got = reading(bot, "onboarding", state, text, slots)
    assert [type(c) for c in got] == [AskBack], got


@pytest.mark.parametrize(
    ("state", "text"),
    [
        # what it weighs is not a value the question reads (weekdays are asked), or it judges doing it
        ("preferred_days", "è meglio allenarsi la mattina o la sera??"),
        ("days", "Is it bad to work out every day?"),
        ("diet", "what recipes do you have?"),
    ],
)
def test_a_question_beside_the_question_stays_a_request(state: str, text: str) -> None:
    got = reading("fitness-coach", "onboarding", state, text, FITNESS)
    assert [type(c) for c in got] == [NewRequest], got


def test_a_value_the_parser_declares_typed_wrong_reads_as_it() -> None:
    assert Parser(parse_allergies, "your allergies", known=FOOD_WORDS)("penuts") == ["peanuts"]
    assert Parser(parse_allergies, "your allergies", known=FOOD_WORDS)("shelfish") == ["shellfish"]
    # without the declaration the list reader keeps the word as typed: the declaration is what reads it
    assert Parser(parse_allergies, "your allergies")("penuts") == ["penuts"]
    assert timezone()("i moved to Lodnon") == "Europe/London"
    assert timezone()("im in Lisbn now") == "Europe/Lisbon"
    assert read_diet("vegeterian") == "vegetarian"


def test_a_close_spelling_keeps_its_first_letter() -> None:
    assert read_amend("no, está mal") is None  # "está" is no "test"
    assert read_amend("timezon") == "timezone"
    assert read_amend("lvel") == "level"
    assert read_diet("¿vegano?") == "vegan"


def test_a_question_whether_two_things_are_the_same_asks() -> None:
    zone = "Etc/GMT-1"
    assert question_back("UTC+1, c'est pareil que Paris ?", lambda t: zone, free_text=False) is not None
    assert question_back("è lo stesso per iPhone e iPad?", lambda t: "iPhone", free_text=False) is not None
    # an answer put forward unsure still answers
    assert question_back("Paris, ça marche ?", lambda t: "Europe/Paris", free_text=False) is None


def test_a_value_ruled_out_beside_the_one_chosen_corrects_nothing() -> None:
    slots = {"name": "Ana", "native_language": "es"}
    for text in ("not Spanish, German", "German, not Spanish"):
        got = reading("language-buddy", "onboarding", "ask_target", text, slots)
        assert not any(isinstance(c, CorrectSlot) for c in got), got
        assert isinstance(got[-1], AnswerFlow)
    # an old value the open question does not read is still corrected ("Ana not Anna" at the timezone)
    got = reading("language-buddy", "onboarding", "ask_timezone", "Ana not Anna", {**slots, "name": "Anna"})
    assert [(c.slot, c.value) for c in got if isinstance(c, CorrectSlot)] == [("name", "Ana")]
    assert parse_language("nicht Englisch, sondern Französisch") == "fr"


@pytest.mark.parametrize("text", ["it's wrong", "its wrong", "c'est faux", "it's faux"])
def test_words_saying_the_profile_is_wrong_name_nobody(text: str) -> None:
    # language-buddy's confirmation reads a no's words as a new name ("no, it's wrong" renamed the user "It'S");
    # no name: undecided, or refused as a sentence (engine/names.py reads_as_a_sentence)
    assert not isinstance(parse_name(text), str)


def test_a_name_after_its_cue_is_still_read() -> None:
    assert parse_name("it's Anna") == "Anna"
