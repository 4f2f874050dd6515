"""The message after a support answer says whether it helped: "still broken" is no new search."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.authoring.testing import Dialogue, dialogue

SYNC = "my tasks dont show up on my laptop but they are on my phone"


@pytest.fixture
def chat() -> Iterator[Dialogue]:
    """A support conversation just answered with the sync article."""
    talk = dialogue("support")
    try:
        talk.say(SYNC).say("web").say("yes")
        assert "Tasks are not syncing between devices" in talk.reply
        yield talk
    finally:
        talk.close()


@pytest.mark.parametrize(
    "text",
    [
        "still broken", "that didnt help", "nope, still not working", "no luck",
        # the steps said done before, with no outcome or a bad one: still stuck (it was "doesn't cover",
        # or another article found by the rest: "no email comes" found the change-email one)
        "i already tried that", "did that already, no email comes", "did that, didnt help", "tried all of that",
    ],
)  # fmt: skip
def test_a_no_after_an_answer_offers_a_person_who_sees_the_article(chat: Dialogue, text: str) -> None:
    chat.say(text)  # was "Our help center doesn't cover “still broken”"
    assert "Sorry that didn't solve it" in chat.reply and "doesn't cover" not in chat.reply
    chat.say("yes")
    assert chat.reply == "Connecting you to an agent…"
    (ticket,) = chat.records("escalation")
    assert ticket["document"] == "sync-not-working"
    assert ticket["query"] == SYNC and ticket["answers"]  # the request and the answers given


@pytest.mark.parametrize("text", ["perfect, fixed", "i already tried that and it worked", "did it, works now"])
def test_a_yes_after_an_answer_is_glad_and_searches_nothing(chat: Dialogue, text: str) -> None:
    chat.say(text)
    assert chat.reply.startswith("Glad that sorted it out!")


@pytest.mark.parametrize(
    "text", ["ok one more: how do i share my grocery list with my wife", "no, how do i share a list?"]
)
def test_a_yes_or_no_beside_another_question_is_that_question(chat: Dialogue, text: str) -> None:
    chat.say(text)
    assert "Glad" not in chat.reply and "Sorry" not in chat.reply
    assert chat.flow == "clarification" or "shar" in chat.reply.lower()


def test_it_holds_for_the_next_message_only_and_a_new_question_is_searched(chat: Dialogue) -> None:
    chat.say("how do i export my tasks to csv")
    assert "export" in chat.reply.lower() and "Sorry" not in chat.reply
    chat.say("thanks").say("still broken")  # two messages on: a search again, not a follow-up
    assert "Sorry that didn't solve it" not in chat.reply
