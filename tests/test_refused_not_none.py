"""Declining to say is no none (issue 23, set_slot precision): where a question has a none of its own (fitness's
"no target weight", an allergy list's []), a refusal, a none said beside a skip asked for, and going on beside not
knowing are a skip, not the none stored as the answer; a none said alone stays the none. The user set against
someone else ("moi au gluten") is read without the preposition the left-out verb leaves behind."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from engine import default_registry
from engine.beside import later_beside, skip_beside
from engine.commands import AnswerFlow, Cancel, Command, Skip
from engine.models import CarryOver, FlowFrame, SessionState
from engine.others import without_user
from engine.reading import read
from engine.said import says_refusal, says_skip

AT = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
BEFORE_TARGET: dict[str, Any] = {"fitness_level": "intermediate", "limitations": "none", "goal": "fat_loss",
                                 "completed": ["assessment"]}  # fmt: skip


def commands(state: str, text: str, slots: dict[str, Any]) -> list[Command]:
    bot = default_registry().get("fitness-coach")
    active = FlowFrame(flow="onboarding", version=1, state=state, started_at=AT, slots=slots)
    session = SessionState(id="s", bot=bot.name, user="u", active=active)
    return read(bot, session, CarryOver(), text, lambda: None).commands


@pytest.mark.parametrize(
    "text",
    [
        "Dont want to say",
        "I'd rather not share my weight tbh",
        "No quiero decirlo",
        "je préfère ne pas le dire",
        "preferisco non dirlo",
        "não quero dizer meu peso",
        "ich möchte nicht sagen",
        "No aplica en mi caso",
    ],
)
def test_a_refusal_where_the_question_reads_its_none_is_a_skip(text: str) -> None:
    assert commands("target_weight", text, BEFORE_TARGET) == [Skip(words=text)]


@pytest.mark.parametrize(
    "text",
    ["No target really, move on", "non ho un peso obiettivo, vai avanti", "no tengo, siguiente"],
)
def test_a_none_beside_a_skip_asked_for_is_a_skip(text: str) -> None:
    assert commands("target_weight", text, BEFORE_TARGET) == [Skip(words=text)]


@pytest.mark.parametrize("text", ["no target really", "n/a", "none", "kein Zielgewicht", "pas d'objectif"])
def test_a_none_said_alone_stays_the_answer(text: str) -> None:
    got = commands("target_weight", text, BEFORE_TARGET)
    assert not any(isinstance(c, Skip) for c in got), got
    assert any(isinstance(c, AnswerFlow) for c in got), got


def test_a_value_beside_a_skip_is_no_none() -> None:
    # the words beside the skip read as a weight: no none, so the beside-rule says nothing of them
    got = commands("target_weight", "70 kg, next", BEFORE_TARGET)
    assert not any(isinstance(c, Skip) for c in got), got


@pytest.mark.parametrize(
    ("text", "skips"),
    [
        ("non saprei, andiamo avanti", True),  # not knowing, and going on: past the question
        ("no sé, sigamos adelante", True),
        ("andiamo avanti", False),  # alone it resumes a paused run; the flow reads it at an open one
        ("machen wir weiter", False),
    ],
)
def test_going_on_beside_not_knowing_skips(text: str, skips: bool) -> None:
    assert says_skip(text) is skips


@pytest.mark.parametrize(
    ("text", "refuses"),
    [
        ("i'd rather not share my weight", True),
        ("no quiero decirlo", True),
        ("je ne veux pas le dire", True),
        ("non voglio dirlo", True),
        ("prefiro não dizer isso", True),
        ("i don't want to run", False),  # not wanting, but no telling
        ("share my weight", False),  # a telling verb with no word of not wanting
        ("no quiero correr", False),
    ],
)
def test_a_refusal_said_as_a_verb_of_telling(text: str, refuses: bool) -> None:
    assert says_refusal(text) is refuses


def test_skip_beside_gives_the_other_clauses_only_around_a_skip() -> None:
    assert skip_beside("No target really, move on") == ("No target really",)
    assert skip_beside("next, 70 kg") == ("70 kg",)
    assert skip_beside("skip please") == ()  # a skip alone is `says_skip`'s
    assert skip_beside("no target really") == ()


@pytest.mark.parametrize(
    ("text", "bare"),
    [
        ("moi au gluten", "gluten"),
        ("yo a los frutos secos", "frutos secos"),
        ("io al glutine", "glutine"),
        ("eu ao glúten", "glúten"),
        ("and me to peanuts", "peanuts"),
        ("ich gegen Nüsse", "Nüsse"),
        ("io Marco", "Marco"),
        ("moi, Chloé", "Chloé"),
    ],
)
def test_the_user_set_against_someone_else_is_read_without_the_left_verbs_preposition(text: str, bare: str) -> None:
    assert without_user(text) == bare


def test_the_allergy_of_the_user_set_against_someone_elses() -> None:
    slots = {**BEFORE_TARGET, "target_weight_kg": 72.0, "weight_unit": "kg", "days_per_week": 3,
             "minutes_per_session": 45, "equipment": ["dumbbells"], "diet": "vegetarian",
             "completed": ["assessment", "goals", "workout"]}  # fmt: skip
    got = commands("allergies", "mon fils est allergique aux arachides, moi au gluten", slots)
    assert got == [AnswerFlow(words="gluten", flow="onboarding", state="allergies")], got


BEFORE_EQUIPMENT: dict[str, Any] = {**BEFORE_TARGET, "target_weight_kg": 72.0, "weight_unit": "kg", "days_per_week": 3,
                                    "minutes_per_session": 45, "completed": ["assessment", "goals"]}  # fmt: skip


@pytest.mark.parametrize(
    "text",
    [
        "gonna finish this later, gotta cook",
        "dinner is ready, lets do the rest tomorrow",
        "hay que cocinar, lo termino luego",
    ],
)
def test_a_put_off_beside_its_reason_is_no_item_of_a_list(text: str) -> None:
    assert commands("equipment", text, BEFORE_EQUIPMENT) == [Cancel(words=text, later=True)]


@pytest.mark.parametrize(
    "text", ["dumbbells, finish later", "none, let's finish tomorrow", "hold on, someone's at the door, brb"]
)
def test_a_value_or_asking_to_wait_beside_a_put_off_is_no_put_off(text: str) -> None:
    # a value answers; asking to wait beside a reason keeps the question open (small talk)
    got = commands("equipment", text, BEFORE_EQUIPMENT)
    assert not any(isinstance(c, Cancel) for c in got), got


def test_later_beside_gives_a_few_words_said_beside_a_put_off() -> None:
    assert later_beside("gonna finish this later, gotta cook") == ("gotta cook",)
    assert later_beside("3 days, finish later") == ("3 days",)
    assert later_beside("let's do it tomorrow") == ()  # a put-off alone is `says_later`'s
    # a long statement beside it is no reason given in passing
    assert later_beside("the audio is broken and the app crashes all the time, i will write more later") == ()
