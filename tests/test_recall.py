"""A question about a saved record, or one fact of it, is told from the latest record (engine/amend.py
`recalled`, the flow's `Amends.describe` and `shown`): "what's my plan again?" got the capabilities."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bench.amend import BOT, BUDDY, BUDDY_FEEDBACK, BUDDY_PROFILE, CLOCK, SAVED
from engine import Engine, MemoryStore, RecordDraft
from flows.fitness.changes import PROFILE


def asked(text: str) -> tuple[str, int]:
    """The reply to `text` from a user whose profile is bench/amend.py's, and how many versions it has after."""
    store = MemoryStore()
    [draft] = PROFILE.records(SAVED)
    store.add_record(BOT, "u", "seed", RecordDraft(kind=draft.kind, data=draft.data))
    engine = Engine(store, clock=lambda: datetime(2026, 11, 25, 20, tzinfo=UTC))
    reply = engine.turn(BOT, "u", text).reply
    return reply, len(store.records("fitness_profile", bot=BOT, user="u"))


@pytest.mark.parametrize(
    ("text", "told"),
    [
        ("what are my training days?", "Your training days: Mon, Wed, Fri."),
        ("what's my goal again?", "Your goal: fat loss."),
        ("remind me of my target weight", "Your target weight: 72.6 kg."),
        ("what diet did i say?", "Your diet: vegetarian."),
        ("which days did i pick?", "Your training days: Mon, Wed, Fri."),  # the days, not how many
        ("how many days a week do i train?", "Your days a week: 3."),
    ],
)
def test_a_fact_asked_about_is_told_and_nothing_changes(text: str, told: str) -> None:
    assert asked(text) == (told, 1)


def test_the_whole_profile_is_told_when_the_plan_is_asked_for() -> None:
    reply, versions = asked("what's my plan again?")
    assert reply.startswith("Your fitness profile: beginner level, planning around") and versions == 1
    assert "3 days a week (Mon, Wed, Fri), 45 minutes, morning" in reply


@pytest.mark.parametrize(
    "text",
    [
        "is it ok to train with a sore knee?",
        "what's a good vegetarian protein?",
        "how long should I rest?",
        "what equipment do i need for pushups?",
    ],
)
def test_a_question_about_anything_else_is_not_a_recall(text: str) -> None:
    reply, versions = asked(text)
    assert not reply.startswith("Your ") and versions == 1


def test_a_change_is_still_a_change() -> None:
    reply, versions = asked("switch me to tuesdays and thursdays")
    assert reply.startswith("Updated your fitness profile") and versions == 2


# -- language-buddy: the profile onboarding saves, and the feedback entry (bench/amend.py's learner) ----


def buddy(text: str) -> tuple[str, dict[str, int]]:
    """The reply to `text` from bench/amend.py's learner, and how many records of each kind they have after."""
    store = MemoryStore()
    store.add_record(BUDDY, "u", "seed", RecordDraft(kind="profile", data=BUDDY_PROFILE))
    store.add_record(BUDDY, "u", "seed", RecordDraft(kind="feedback", data=BUDDY_FEEDBACK))
    reply = Engine(store, clock=lambda: CLOCK).turn(BUDDY, "u", text).reply
    return reply, {k: len(store.records(k, bot=BUDDY, user="u")) for k in ("profile", "feedback")}


@pytest.mark.parametrize(
    ("text", "told"),
    [
        ("what level am I?", "Your level: B1."),
        ("what's my timezone again?", "Your timezone: Europe/Berlin."),
        ("which language am I learning?", "Your target language: English."),
        ("was ist meine Muttersprache?", "Your native language: German."),  # the cue table's "my native language"
        ("¿cuál es mi nivel?", "Your level: B1."),
        ("qual é o meu nível?", "Your level: B1."),  # read as typed too: the cue table makes "é" an "and"
        ("what rating did I give?", "Your rating: 4."),
    ],
)
def test_a_learner_asking_about_a_saved_fact_is_told_and_nothing_changes(text: str, told: str) -> None:
    assert buddy(text) == (told, {"profile": 1, "feedback": 1})


def test_a_learner_asking_for_the_profile_is_told_all_of_it() -> None:
    reply, saved = buddy("what's my profile?")
    assert reply.startswith("Your profile: name: Max; native language: German; target language: English;")
    assert saved == {"profile": 1, "feedback": 1}
