"""Study plans asked for, moved and asked about in the words users type, in six languages.

A bot's intents read a message as typed, then with the engine's cue words in English, then with its answer
words too (engine/bot.py `intent_for`): "organizzami lo studio per domani dalle 15 alle 17" is a planning
verb, a day and a clock range once "organizzami", "domani" and "dalle ... alle" are read. A study session
asked for by its name and when ("a study block saturday morning") is a request for a plan with no clock;
a revision ("spostalo a venerdì", "eine Stunde später") and a question about the plans ("cosa ho in
programma?") are read in English the same way; a question about a span ("this weekend", "tue and thu")
tells every day of it.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime

import pytest

from engine.authoring.testing import DialogueFactory
from engine.clock import pinned_clock
from engine.cues import in_english_cues
from engine.gloss import in_english
from engine.registry import default_registry
from flows.study_pal.plans import asked_days, asks_for_plans

NOW = datetime(2026, 11, 26, 20, 0)  # a Thursday evening


@pytest.fixture(autouse=True)
def _clock() -> Iterator[None]:
    with pinned_clock(NOW):
        yield


@pytest.mark.parametrize(
    ("text", "day", "window"),
    [
        ("can you set up a study block saturday morning?", "2026-11-28", "09:00-12:00"),
        ("i need a study session tomorrow evening", "2026-11-27", "18:00-21:00"),
        ("sunday afternoon study time please", "2026-11-29", "14:00-17:00"),
        ("organizzami lo studio per domani dalle 15 alle 17", "2026-11-27", "15:00-17:00"),
        ("organízame el estudio para el sábado de 10 a 12", "2026-11-28", "10:00-12:00"),
        ("planifie mes révisions samedi de 14h à 16h", "2026-11-28", "14:00-16:00"),
        ("planeja meus estudos para domingo das 9 às 11", "2026-11-29", "09:00-11:00"),
        ("plane mein Lernen für Samstag von 10 bis 12", "2026-11-28", "10:00-12:00"),
    ],
)
def test_a_plan_asked_for_in_other_words_is_made(dialogue: DialogueFactory, text: str, day: str, window: str) -> None:
    chat = dialogue("study-pal")
    chat.say(text).expect(flow="main")
    assert [(r["date"], r["window"]) for r in chat.records("study_plan")] == [(day, window)]


@pytest.mark.parametrize(
    "text",
    [
        "the study session yesterday went well",  # a session told about, with no day ahead
        "how long is a study session?",
        "i studied all weekend",
    ],
)
def test_a_study_session_talked_about_asks_for_no_plan(text: str) -> None:
    assert default_registry().get("study-pal").intent_for(text) != "scheduling"


@pytest.mark.parametrize(
    ("move", "day", "window"),
    [
        ("spostalo a sabato", "2026-11-28", "14:00-16:00"),
        ("muévelo al sábado", "2026-11-28", "14:00-16:00"),
        ("déplace-le à samedi", "2026-11-28", "14:00-16:00"),
        ("verschieb es auf Samstag", "2026-11-28", "14:00-16:00"),
        ("eine Stunde später bitte", "2026-11-27", "15:00-17:00"),
        ("una hora más tarde", "2026-11-27", "15:00-17:00"),
    ],
)
def test_a_plan_moved_in_other_words_is_revised(dialogue: DialogueFactory, move: str, day: str, window: str) -> None:
    chat = dialogue("study-pal")
    chat.say("schedule study friday 14-16").expect(flow="main")
    chat.say(move).expect(flow="main", reply_contains=["Moved from"])
    last = chat.records("study_plan")[-1]
    assert (last["date"], last["window"]) == (day, window)
    assert last["revises"] == {"date": "2026-11-27", "window": "14:00-16:00"}


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("cosa ho in programma venerdì?", True),
        ("¿qué tengo planeado para el domingo?", True),
        ("quels sont mes plans ?", True),
        ("was hab ich geplant?", True),
        ("o que eu tenho marcado pra sexta?", True),
        ("so what have i got on this weekend?", True),
        ("organizzami lo studio per venerdì dalle 15 alle 17", False),
    ],
)
def test_a_question_about_the_plans_in_other_words_is_told(text: str, asks: bool) -> None:
    assert asks_for_plans(text) is asks


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("what's on my schedule this weekend?", [date(2026, 11, 28), date(2026, 11, 29)]),
        ("plans for mon and wed?", [date(2026, 11, 30), date(2026, 12, 2)]),
        ("anything on sat?", [date(2026, 11, 28)]),
        ("whats my plan", []),
    ],
)
def test_a_plan_question_names_every_day_of_a_span(text: str, days: list[date]) -> None:
    assert asked_days(text, NOW.date()) == days


def test_the_glossed_reading_is_tried_only_when_the_typed_and_cued_ones_name_no_intent() -> None:
    bot = default_registry().get("study-pal")
    text = "organizzami lo studio per domani pomeriggio"  # the day and its part in English: the gloss's
    assert bot._intent_in(text, None) is None and bot._intent_in(in_english_cues(text), None) is None
    assert bot._intent_in(in_english(in_english_cues(text)), None) == "scheduling"
    assert bot.intent_for(text) == "scheduling"
