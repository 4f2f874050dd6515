"""An answer at a clarifying question naming where the problem happens, when another article is for that
place (flows/support/platform.py): the clarification goes on with that article."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Engine, Resources, SqlStore
from flows.support.kb import SHIPPED_KB, open_kb
from flows.support.platform import names_a_place, other_place_article

KB = open_kb(SHIPPED_KB)


@pytest.mark.parametrize(
    ("doc", "said", "expected"),
    [
        ("notifications-android", "its an iphone", "notifications-iphone"),
        ("notifications-android", "on my ipad", "notifications-iphone"),
        ("notifications-iphone", "no, it's an android phone", "notifications-android"),
    ],
)
def test_a_place_another_article_is_for_switches_to_it(doc: str, said: str, expected: str) -> None:
    found = other_place_article(KB, doc, said)
    assert found is not None and found.id == expected


@pytest.mark.parametrize(
    ("doc", "said"),
    [
        ("notifications-android", "a pixel 7"),  # a cue of its own phone question
        ("notifications-android", "android 14"),  # its own system
        ("notifications-android", "no idea, the battery saver is on"),  # no place named
        ("notifications-iphone", "yes, on my iphone"),  # its own
        ("sync-not-working", "my iphone"),  # no article for iPhones is about syncing
        # titles that share only a stopword ("Trello or a CSV file", "iPhone or iPad") or the product's
        # name ("Delete your Tasklane account", "Add a Tasklane widget") are about different things
        ("import-tasks", "btw it happens on my ipad too"),
        ("app-crashes", "on my ipad"),
        ("delete-account", "on my iphone"),
        ("offline-mode", "on android"),
    ],
)
def test_a_place_the_article_names_or_no_sibling_is_for_stays_an_answer(doc: str, said: str) -> None:
    assert other_place_article(KB, doc, said) is None


def test_the_asides_rule_needs_a_place_word() -> None:
    assert names_a_place("its an iPhone") and names_a_place("Samsung Galaxy")
    assert not names_a_place("yes") and not names_a_place("cancel")


def test_an_unrelated_article_for_the_place_does_not_take_over_the_questions(tmp_path: Path) -> None:
    engine = Engine(SqlStore(str(tmp_path / "s.db")), None, Resources())
    engine.turn("support", "u", "how do i import my tasks")
    r = engine.turn("support", "u", "btw it happens on my ipad too")
    assert r.flow == "clarification" and r.slots["doc"] == "import-tasks"
    assert "Notifications not arriving on iPhone" not in r.reply
