"""A request naming only a topic several articles are about ("i have a problem with reminders")
gets those articles listed and the question which one, not "Our help center doesn't cover"."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.authoring.testing import Dialogue, dialogue
from flows.support.kb import SHIPPED_KB, open_kb
from flows.support.lookup import look_up

REMINDERS = ["notifications-android", "reminders-wrong-time"]


@pytest.fixture
def chat() -> Iterator[Dialogue]:
    talk = dialogue("support")
    try:
        yield talk
    finally:
        talk.close()


@pytest.mark.parametrize(
    ("text", "articles"),
    [("i have a problem with reminders", REMINDERS), ("reminders", REMINDERS),
     ("question about my premium", ["cancel-subscription", "payment-declined", "refund-request"])],
)  # fmt: skip
def test_a_topic_alone_lists_the_articles_about_it(text: str, articles: list[str]) -> None:
    found = look_up(open_kb(SHIPPED_KB), text)
    assert found.kind == "topic" and found.doc_id is None
    assert [d.id for d in found.choices] == articles


@pytest.mark.parametrize("text", ["tasklane keeps crashing", "my washing machine is broken", "thanks!"])
def test_a_request_that_says_more_is_searched_as_before(text: str) -> None:
    assert look_up(open_kb(SHIPPED_KB), text).kind != "topic"


def test_the_topic_is_asked_about_and_a_pick_answers(chat: Dialogue) -> None:
    chat.say("i have a problem with reminders")
    assert chat.reply.startswith("Our help center has a few articles about that:")
    assert "2. Reminders arrive late or at the wrong time" in chat.reply and "doesn't cover" not in chat.reply
    chat.say("the second one")
    assert 'help article "Reminders arrive late or at the wrong time"' in chat.reply


def test_what_happens_told_next_is_read_with_the_topic(chat: Dialogue) -> None:
    chat.say("i have a problem with reminders")
    chat.say("they just don't go off anymore")  # alone: the iPhone and Android articles, as much
    assert 'help article "Notifications not arriving on Android"' in chat.reply


def test_another_question_next_is_searched_on_its_own(chat: Dialogue) -> None:
    chat.say("i have a problem with reminders")
    chat.say("how do i export my tasks")
    assert 'help article "Export your tasks to CSV or JSON"' in chat.reply
