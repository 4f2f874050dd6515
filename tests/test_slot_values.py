"""Slot values said among other facts (issue 23, classes 1 and 6; h-values11): each class a reader got wrong
on the commands corpus's dev split, tested at the reader that owns it, and the engine saying every fact
it keeps beside an answer."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engine import Engine, MemoryStore
from engine.clock import pinned_clock
from engine.corrections import correction_commands
from engine.fill import read_ahead
from engine.gloss import in_english
from engine.takeback import self_repaired
from flows.fitness.limits import limitation_in
from flows.fitness.onboarding import fitness_onboarding
from flows.fitness.profile import FitnessSlots
from flows.fitness.weights import weigh


@pytest.mark.parametrize(
    ("typed", "english"),
    [
        # not knowing said with the word for none: the phrase, never "none" and a word beside it
        ("keine Ahnung, ehrlich", "no idea, ehrlich"),
        ("aucune idée", "no idea"),
        ("nessuna idea", "no idea"),
        ("keine Allergien", "none Allergien"),  # none of a thing stays none
        ("mittel würde ich sagen", "intermediate würde ich sagen"),
    ],
)
def test_not_knowing_and_a_middle_level_in_other_languages(typed: str, english: str) -> None:
    assert in_english(typed) == english


def _roles(text: str, unit: str | None = None) -> list[tuple[str, float]]:
    return [(w.role, w.kg) for w in weigh(text, unit).mentions]


@pytest.mark.parametrize(
    ("text", "roles"),
    [
        # a smiley after a number is no time ("7:30" is)
        ("je pèse 75 kg et je vise 68 :)", [("current", 75.0), ("target", 68.0)]),
        ("at 7:30 i weigh 80 kg", [("current", 80.0)]),
        # the target named in the other languages
        ("Anfänger, 28 Jahre, 75 kg, Ziel 70 kg", [("current", 75.0), ("target", 70.0)]),
        ("peso 80 kg, mi objetivo es 72", [("current", 80.0), ("target", 72.0)]),
        ("objectif 65 kg, je fais 72 kg", [("target", 65.0), ("current", 72.0)]),
        # an arrow points at the target
        ("lose weight, 100kg -> 90kg", [("current", 100.0), ("target", 90.0)]),
        ("95 → 85 kg", [("current", 95.0), ("target", 85.0)]),
        # a number said as now beside a weight with a unit near it is a weight; far from it, an age
        ("75kg, i'm 82 at the moment", [("target", 75.0), ("current", 82.0)]),
        ("i'm 30 now, 80kg", [("unmarked", 80.0)]),
        ("i'm 30 now", []),
    ],
)
def test_weights_among_other_facts(text: str, roles: list[tuple[str, float]]) -> None:
    assert _roles(text) == roles


@pytest.mark.parametrize(
    ("text", "limitation"),
    [
        ("i have a dodgy left knee", "dodgy left knee"),
        ("a sore lower back", "sore lower back"),
        ("no injuries but a dodgy left knee!", "dodgy left knee"),
        ("no injuries", "none"),
        ("no injuries, all good", "none"),
    ],
)
def test_an_injury_keeps_its_side_and_a_but_after_none(text: str, limitation: str) -> None:
    assert limitation_in(text) == limitation


def test_a_phrase_of_time_takes_nothing_back() -> None:
    # German "Moment" is "wait": "3, moment, 4" is 4; "at the moment" is now, and 82 is no number meant instead of 75
    assert self_repaired("75kg, i'm 82 at the moment") == "75kg, i'm 82 at the moment"
    slots = FitnessSlots(fitness_level="beginner", limitations="none", completed=["assessment"], goal="fat_loss")
    text = "75kg, i'm 82 at the moment"
    assert correction_commands(fitness_onboarding, "target_weight", slots.model_dump(mode="json"), text, slots) == (
        [],
        text,
    )
    assert self_repaired("3 days, moment, 4") == "4 days"


def test_the_unit_of_a_weight_said_plainly_is_kept_with_it() -> None:
    level = fitness_onboarding.named["level"]
    found = read_ahead(fitness_onboarding, level, FitnessSlots(), "beginner, 29, 80kg")  # type: ignore[arg-type]
    assert {s.slot: (s.value, s.noted) for s in found.sets} == {
        "current_weight_kg": (80.0, True),
        "weight_unit": ("kg", False),  # kept, not said: a later number without a unit is read in it
    }


_NOW = datetime(2026, 11, 27, 9, 0)


def _turn(bot: str, first: str, text: str) -> str:
    """The reply to `text`, the second message of a conversation with `bot`, on a pinned clock."""
    engine = Engine(MemoryStore(), clock=lambda: _NOW.replace(tzinfo=UTC))
    with pinned_clock(_NOW):
        engine.turn(bot, "u", first)
        return engine.turn(bot, "u", text).reply


def test_a_fact_no_question_asks_is_said_beside_the_answer() -> None:
    # the body weight has no question of its own: kept beside the level, and said
    reply = _turn("fitness-coach", "hi", "beginner, oh and im 29 and 80kg")
    assert reply.startswith("Noted (current weight: 80.0 kg).")
    assert "injuries" in reply


def test_facts_the_any_time_readers_read_beside_the_answer_are_said_in_one_line() -> None:
    reply = _turn("language-buddy", "hi", "Lena, 32, from Berlin, I speak German and want to learn Italian")
    noted = reply.split("\n")[0]
    assert noted.startswith("Noted (") and noted.count("Noted") == 1
    for fact in ("native language: German", "target language: Italian", "timezone: Europe/Berlin"):
        assert fact in noted


def test_a_level_said_before_the_placement_test_is_read_ahead() -> None:
    from flows.language_buddy.onboarding import onboarding
    from flows.language_buddy.profile import OnboardingSlots

    slots = OnboardingSlots(name="Ana", native_language="es")
    text = "english, i'm in Madrid, and i'd say B1 level"
    found = read_ahead(onboarding, onboarding.named["ask_target"], slots, text)  # type: ignore[arg-type]
    assert {s.slot: s.value for s in found.sets} == {"timezone": "Europe/Madrid", "level": "B1"}
    # a level in the clause that names the language learnt is left to the languages' readers, whole
    text = "I'm Sam, learning Spanish at B1"
    found = read_ahead(onboarding, onboarding.named["ask_name"], OnboardingSlots(), text)  # type: ignore[arg-type]
    assert "level" not in {s.slot for s in found.sets}
