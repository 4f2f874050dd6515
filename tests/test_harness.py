"""The flow authors' harness in engine/testing.py and its `dialogue` pytest fixture."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.authoring.testing import Dialogue, DialogueFactory
from engine.authoring.testing import dialogue as open_dialogue
from engine.llm import ScriptedLLM

# language-buddy sends a user without a profile to onboarding first; these tests are about feedback
MAX = {"name": "Max", "native_language": "de", "target_language": "en", "timezone": "Europe/Berlin", "level": "B1"}


def test_the_issue_example(dialogue: DialogueFactory) -> None:
    chat = dialogue("language-buddy", profile=MAX)
    chat.say("I want to give feedback").expect(flow="feedback")


def test_a_whole_feedback_flow(dialogue: DialogueFactory) -> None:
    chat = dialogue("language-buddy", user="max", profile=MAX)
    chat.say("I want to give feedback").expect(flow="feedback", state="rating", reply_contains="rate")
    chat.say("4").expect(state="details", slots={"rating": 4.0, "sentiment": "positive"})
    chat.say("the bot is too slow").expect(flow="main", reply_contains=["saved", "feedback"], reply_not_contains="oops")
    chat.expect_history('Rating: 4/5. Category: latency. Comment: "the bot is too slow".')
    chat.expect_records("feedback", [{"rating": 4, "category": "latency"}])
    assert chat.records("feedback") == [
        {
            "sentiment": "positive",
            "sentiment_from": "rating",
            "rating": 4,
            "comment": "the bot is too slow",
            "category": "latency",
        }
    ]
    assert [m.role for m in chat.history] == ["user", "system", "assistant"]


def test_properties_follow_the_conversation(dialogue: DialogueFactory) -> None:
    chat = dialogue("language-buddy", profile=MAX)
    assert (chat.flow, chat.state, chat.slots, chat.reply) == ("main", None, {}, "")
    assert chat.session is None and chat.last is None
    chat.say("I want to complain")
    assert chat.last is not None and chat.last.flow == "feedback"
    assert chat.flow == "feedback" and chat.state == "rating"
    assert chat.slots["sentiment"] == "negative"
    assert "sorry" in chat.reply
    assert chat.session is not None and chat.session.turns == 1
    assert chat.history[0].content == "I want to complain"


def test_a_failing_expect_is_readable(dialogue: DialogueFactory) -> None:
    chat = dialogue("language-buddy", profile=MAX).say("I want to give feedback")
    with pytest.raises(AssertionError) as info:
        chat.expect(flow="main", state="details", reply_contains="banana", slots={"rating": 4})
    message = str(info.value)
    assert "4 expectation(s) failed for language-buddy" in message
    assert "turn 1: flow: expected 'main', got 'feedback'" in message
    assert "turn 1: state: expected 'details', got 'rating'" in message
    assert "turn 1: reply_contains: expected ['banana']" in message
    assert "turn 1: slots.rating: expected 4, got None" in message
    assert "last turn: flow='feedback' state='rating'" in message


def test_expect_before_say_fails_clearly(dialogue: DialogueFactory) -> None:
    with pytest.raises(AssertionError, match="before any say"):
        dialogue("language-buddy", profile=MAX).expect(flow="main")


def test_record_expectations(dialogue: DialogueFactory) -> None:
    chat = dialogue("language-buddy", profile=MAX)
    chat.say("I want to give feedback").say("3").say("cancel")
    chat.expect_records("feedback", [])
    chat.expect_history("Feedback cancelled")
    with pytest.raises(AssertionError, match=r"records\.feedback"):
        chat.expect_records("feedback", [{"rating": 3}])
    with pytest.raises(AssertionError, match="history_contains"):
        chat.expect_history("Rating: 3/5")


def test_profile_is_seeded(dialogue: DialogueFactory) -> None:
    chat = dialogue("language-buddy", user="max", profile={"name": "Max", "level": "B1"})
    assert chat.records("profile") == [{"name": "Max", "level": "B1"}]


def test_scripted_llm(dialogue: DialogueFactory) -> None:
    # With a model, small talk costs one call: no cue word of any intent, so nothing is classified.
    llm = ScriptedLLM(["Hallo! Ich kann Feedback entgegennehmen."])
    chat = dialogue("language-buddy", llm=llm, profile=MAX)
    chat.say("hi").expect(flow="main", reply_contains="Hallo")
    assert llm.calls == ["reply:main"]


def test_two_dialogues_can_share_a_database(dialogue: DialogueFactory, tmp_path: Path) -> None:
    db = tmp_path / "shared.db"
    dialogue("language-buddy", user="a", db=db, profile=MAX).say("I want to give feedback")
    again = dialogue("language-buddy", user="a", db=db, profile=MAX)
    assert again.flow == "feedback" and again.state == "rating"
    again.say("5").expect(state="details")
    assert dialogue("language-buddy", user="b", profile=MAX).flow == "main"


def test_dialogue_outside_the_fixture_cleans_up() -> None:
    with open_dialogue("language-buddy", profile=MAX) as chat:
        assert isinstance(chat, Dialogue)
        chat.say("I want to give feedback").expect(flow="feedback")
        folder = Path(chat.store.url.removeprefix("sqlite:///")).parent
        assert folder.exists()
    assert not folder.exists()


def test_unknown_bot() -> None:
    from engine.errors import UnknownNameError

    with pytest.raises(UnknownNameError, match="nobot"):
        open_dialogue("nobot")


def test_restart_carries_on_from_what_was_stored(dialogue: DialogueFactory, tmp_path: Path) -> None:
    chat = dialogue("language-buddy", profile=MAX, db=tmp_path / "restart.db")
    chat.say("I want to complain").say("2")
    old_store = chat.store
    chat.restart()
    assert chat.store is not old_store and chat.last is None
    # read back from the database: the flow, its state and its slots survived
    assert (chat.flow, chat.state, chat.slots["rating"]) == ("feedback", "details", 2)
    chat.say("the app crashes all the time").expect(flow="main", reply_contains="saved")
    chat.expect_records("feedback", [{"rating": 2, "category": "bug", "sentiment": "negative"}])
    assert chat.session is not None and chat.session.turns == 3


def test_restart_keeps_the_store_options(tmp_path: Path) -> None:
    from engine.store.sql import SqlStore

    store = SqlStore(str(tmp_path / "o.db"), busy_timeout_ms=1234, synchronous="NORMAL")
    again = store.reopen()
    try:
        conn = again._connection()
        assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == 1234
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    finally:
        again.close()
