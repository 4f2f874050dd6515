"""A move told, a place near a city, and a problem to report, in the learner's own language: the engine's
cue words (engine/data/cues.yaml) write "me mudei pra", "je vis du côté de", "signaler un problème" as the
English cues language-buddy's readers and intents look for, so every bot reading cues gets them."""

from __future__ import annotations

import pytest

from engine.authoring.testing import DialogueFactory
from engine.cues import in_english_cues
from engine.registry import default_registry

PROFILE = {"name": "Ana", "native_language": "pt", "target_language": "en", "timezone": "America/Sao_Paulo",
           "level": "B1"}  # fmt: skip


@pytest.mark.parametrize(
    ("said", "zone"),
    [
        ("me mudei pra Lisboa semana passada", "Europe/Lisbon"),
        ("mi sono trasferita a Milano", "Europe/Rome"),
        ("j'ai déménagé à Nantes le mois dernier", "Europe/Paris"),
        ("ich bin umgezogen nach Wien", "Europe/Vienna"),
        ("me he mudado a Valparaíso", "America/Santiago"),
    ],
)
def test_a_move_told_abroad_changes_the_saved_timezone(dialogue: DialogueFactory, said: str, zone: str) -> None:
    chat = dialogue("language-buddy", profile=PROFILE)
    chat.say(said).expect(flow="main", reply_contains=["Updated your profile"])
    assert chat.records("profile")[-1]["timezone"] == zone


@pytest.mark.parametrize(
    ("said", "zone"),
    [
        ("je vis du côté de Lyon", "Europe/Paris"),
        ("vivo cerca de Sevilla", "Europe/Madrid"),
        ("abito vicino a Torino", "Europe/Rome"),
        ("ich wohne in der Nähe von Köln", "Europe/Berlin"),
        ("moro perto de Curitiba", "America/Sao_Paulo"),
        ("i live just outside Denver", "America/Denver"),
    ],
)
def test_a_place_near_a_city_is_on_its_clock(dialogue: DialogueFactory, said: str, zone: str) -> None:
    chat = dialogue("language-buddy")
    chat.say("hi, I'm Noa, native Hebrew speaker, learning Italian").expect(flow="onboarding", state="ask_timezone")
    chat.say(said).expect(flow="onboarding", state="confirm", slots={"timezone": zone})


@pytest.mark.parametrize(
    "said",
    ["je peux signaler un problème ?", "quiero reportar un error", "vorrei segnalare un problema",
     "kann ich ein Problem melden?", "posso relatar um problema?"],
)  # fmt: skip
def test_a_problem_to_report_abroad_asks_for_feedback(said: str) -> None:
    assert in_english_cues(said) != said
    assert default_registry().get("language-buddy").intent_for(said) == "feedback"


def test_moving_a_plan_is_no_move_of_home() -> None:
    # "move it" words (a plan moved) and "I moved to" (a home moved) are apart: the plan's pronoun stays
    assert "I moved to" not in in_english_cues("spostalo a venerdì")
