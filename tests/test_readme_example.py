"""The README's harness example, verbatim, so the README keeps telling the truth."""

from __future__ import annotations

from engine.testing import DialogueFactory


def test_feedback(dialogue: DialogueFactory) -> None:
    chat = dialogue("language-buddy", profile={"name": "Max", "level": "B1"})
    chat.say("I want to give feedback").expect(flow="feedback", state="rating")
    chat.say("banana").expect(state="rating", reply_contains="number")
    chat.say("4").say("the bot is too slow").expect(flow="main")
    chat.expect_records("feedback", [{"rating": 4, "category": "latency"}])
