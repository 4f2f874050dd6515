"""A message that answers nothing and only says again what the run holds is told so, the question
asked again, no attempt used (engine/fill.py `restated`, the read stage's `Restated` command)."""

from __future__ import annotations

from datetime import datetime

from engine.authoring.testing import DialogueFactory
from engine.clock import pinned_clock
from engine.fill import restated
from flows.fitness.onboarding import fitness_onboarding
from flows.language_buddy.onboarding import onboarding

AT = datetime(2026, 11, 25, 20, 0)


def test_a_value_held_said_again_is_restated() -> None:
    slots = onboarding.new_slots({"name": "Lucía", "native_language": "es", "target_language": "en"})
    at_timezone = onboarding.named["ask_timezone"]
    assert restated(onboarding, at_timezone, slots, "inglés, obviamente") == ["target_language"]
    assert restated(onboarding, at_timezone, slots, "Lucía") == ["name"]
    assert restated(onboarding, at_timezone, slots, "madrid") == []  # an answer
    assert restated(onboarding, at_timezone, slots, "french") == []  # another value: not said again


def test_a_refusal_with_its_own_reason_is_not_a_restatement() -> None:
    # German is the native language: "german" at the target question is refused for that reason, which says more
    slots = onboarding.new_slots({"name": "Jonas", "native_language": "de"})
    assert restated(onboarding, onboarding.named["ask_target"], slots, "german") == []


def test_a_number_alone_restates_nothing() -> None:
    slots = fitness_onboarding.new_slots({"fitness_level": "beginner", "days_per_week": 3})
    minutes = next(s for s in fitness_onboarding.states if getattr(s, "slot", None) == "minutes_per_session")
    assert restated(fitness_onboarding, minutes, slots, "3") == []


def test_the_question_is_asked_again_without_using_an_attempt(dialogue: DialogueFactory) -> None:
    with pinned_clock(AT):
        chat = dialogue("language-buddy")
        for line in ("hola! quiero practicar inglés", "me llamo Lucía", "español"):
            chat.say(line)
        assert chat.state == "ask_timezone"
        chat.say("inglés, obviamente")
        assert chat.reply.startswith("I have that already (target language: English). What's your timezone?")
        assert chat.state == "ask_timezone" and chat.session is not None and chat.session.active is not None
        assert chat.session.active.attempts == 0
        chat.say("Madrid")
        assert chat.slots["timezone"] == "Europe/Madrid"
