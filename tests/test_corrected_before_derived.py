"""What a flow works out from an answer follows a correction of that answer made at a later question.

study-pal's scheduling: the subjects read from the request, corrected at the time question, are the
plan's and the run's (`subject`, the subjects as told, was left as `read` found them). language-buddy's
onboarding: the steps behind its questions that touch a correctable slot (`settle_timezone`, `prepare`,
`grade`, `reopen`) make it or react to it once, and are not run again by a correction: a level corrected
before `prepare` is placed by it, one corrected after the test is kept as said, with no test again, and
a timezone corrected after it was settled to UTC is the profile's.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from engine.authoring.testing import DialogueFactory
from engine.clock import pinned_clock


@pytest.fixture(autouse=True)
def _clock() -> Iterator[None]:
    with pinned_clock(datetime(2026, 11, 27, 9, 0)):
        yield


def test_subjects_corrected_at_the_time_question_are_the_plans_and_the_runs(dialogue: DialogueFactory) -> None:
    chat = dialogue("study-pal")
    chat.say("plan chemistry and biology on friday").expect(
        flow="scheduling", state="window", slots={"subjects": ["Chemistry", "Biology"]}
    )
    chat.say("oops, physics not biology").expect(
        state="window", slots={"subjects": ["Chemistry", "Physics"]}, reply_contains=["Chemistry, Physics"]
    )
    chat.say("14-16").expect(flow="main", reply_contains=["Physics"], reply_not_contains=["Biology"])
    (plan,) = chat.records("study_plan")
    sessions = plan["sessions"]
    assert isinstance(sessions, list)
    assert [x["topic"] for x in sessions if isinstance(x, dict)] == ["Chemistry", "Chemistry", "Physics", "Physics"]
    session = chat.session
    assert session is not None
    (run,) = [r for r in chat.store.runs(session.id) if r.flow == "scheduling"]
    # the subjects as told, kept with the run, are the corrected ones, not the request's
    assert run.slots["subject"] == "Chemistry, Physics"


def test_a_level_said_ahead_and_corrected_before_the_test_places_at_the_new_level(dialogue: DialogueFactory) -> None:
    chat = dialogue("language-buddy")
    for text in ("hi", "Ana", "German"):
        chat.say(text)
    chat.say("English, and i'd say B1 level").expect(state="ask_timezone", slots={"level": "B1"})
    chat.say("sorry, my level is more like A2").expect(
        state="ask_timezone", slots={"level": "A2", "assessed_language": None}, reply_contains=["A2"]
    )
    chat.say("Berlin").expect(
        state="confirm", slots={"level": "A2", "assessed_language": "en"}, reply_contains=["level A2"]
    )


def test_a_level_corrected_after_the_test_is_kept_and_no_test_is_given_again(dialogue: DialogueFactory) -> None:
    chat = dialogue("language-buddy")
    for text in ("hi", "Ana", "German", "English", "Berlin"):
        chat.say(text)
    chat.say("start me at B1").expect(state="confirm", slots={"level": "B1"})
    chat.say("actually my level is B2").expect(
        state="confirm", slots={"level": "B2", "question": None}, reply_contains=["level B2"]
    )
    chat.say("yes").expect(flow="main")
    chat.expect_records("profile", [{"level": "B2", "timezone": "Europe/Berlin"}])


def test_a_timezone_settled_to_utc_then_corrected_is_the_profiles(dialogue: DialogueFactory) -> None:
    chat = dialogue("language-buddy")
    for text in ("hi", "Ana", "German", "English"):
        chat.say(text)
    chat.say("skip").expect(state="assess", slots={"timezone": "UTC"})
    chat.say("start me at B1").expect(state="confirm")
    chat.say("oh wait, my timezone is Tokyo").expect(
        state="confirm", slots={"timezone": "Asia/Tokyo", "level": "B1"}, reply_contains=["Asia/Tokyo"]
    )
    chat.say("yes").expect(flow="main")
    chat.expect_records("profile", [{"level": "B1", "timezone": "Asia/Tokyo"}])
