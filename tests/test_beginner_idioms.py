"""A beginner said as an idiom, in the six languages read ("sono alle prime armi", "recién empiezo", "je
débute", "ich fange gerade erst an", "tô começando agora"): the level question's answer, through the engine's
answer words (engine/data/gloss.yaml "beginner"), for every flow that asks a level."""

from __future__ import annotations

import pytest

from engine.authoring.testing import DialogueFactory
from engine.gloss import in_english


@pytest.mark.parametrize(
    "said",
    ["sono alle prime armi", "recién empiezo, nunca he entrenado", "je débute à peine", "ich fange gerade erst an",
     "tô começando agora", "recién estoy empezando, la verdad"],
)  # fmt: skip
def test_a_beginner_said_as_an_idiom_answers_the_level(dialogue: DialogueFactory, said: str) -> None:
    chat = dialogue("fitness-coach")
    chat.say("quiero empezar a entrenar").expect(flow="onboarding", state="level")
    chat.say(said).expect(flow="onboarding", state="limitations", slots={"fitness_level": "beginner"})


def test_the_idiom_beside_other_facts_is_read_with_them(dialogue: DialogueFactory) -> None:
    chat = dialogue("fitness-coach")
    read = {"fitness_level": "beginner", "goal": "fat_loss", "days_per_week": 3}
    chat.say("ciao, sono alle prime armi e voglio dimagrire, 3 volte a settimana").expect(
        flow="onboarding", state="limitations", slots=read
    )


@pytest.mark.parametrize("said", ["empiezo a las 9", "je commence lundi", "fange um 8 an"])
def test_starting_at_a_time_is_no_beginner(said: str) -> None:
    assert "beginner" not in in_english(said)
