"""A question whether something exists (flows/support/asking.py) is answered by an article only when
the article is about the thing it names: "is there a family plan" is not the sharing article's."""

from __future__ import annotations

from pathlib import Path

import pytest

from flows.support.asking import Asked, asked_thing
from flows.support.kb import SHIPPED_KB, KnowledgeBase
from flows.support.lookup import look_up
from tests.test_search import doc, make_kb


@pytest.mark.parametrize(
    ("request_", "asked"),
    [
        ("is there a family plan", Asked("family plan", "family plan")),
        ("do you offer a student discount or a team plan", Asked("student discount", "student discount")),
        ("are there keyboard shortcuts on mac?", Asked("keyboard shortcuts", "keyboard shortcuts on mac")),
        ("does tasklane have a time zone setting", Asked("time zone", "time zone setting")),  # a kind is no head
        ("is there a refund window for premium", Asked("refund window", "refund window for premium")),
    ],
)
def test_the_thing_a_question_whether_it_exists_names(request_: str, asked: Asked) -> None:
    assert asked_thing(request_) == asked


@pytest.mark.parametrize(
    "request_",
    [
        "is there a way to cancel premium",  # a way to do something: doing, not a thing
        "is there a limit on shared lists",  # how much of something: no thing of its own
        "my widget is gone",
        "can i export to csv",
    ],
)
def test_other_requests_name_no_thing_asked_for(request_: str) -> None:
    assert asked_thing(request_) is None


SHARE = doc("Share a list", "Invite people by email. On the free plan up to 3 people.", "tags: [share, family]\n")
OFFLINE = doc("Offline mode", "Tasks you add offline sync later.", "tags: [offline, airplane]\n")


def test_an_article_answers_only_for_a_thing_it_is_about(tmp_path: Path) -> None:
    kb = KnowledgeBase(make_kb(tmp_path / "kb", {"share.md": SHARE, "offline.md": OFFLINE}))
    assert [h.doc.id for h in kb.search("share with my family")] == ["share"]
    # a plan is no word of the sharing article's title or tags: its body's "free plan" is an aside
    assert kb.search("is there a family plan") == []
    # the head is a tag; or a word of the thing is a title word, with a word for its kind
    assert [h.doc.id for h in kb.search("is there a family share")] == ["share"]
    assert [h.doc.id for h in kb.search("is there an offline mode")] == ["offline"]
    assert [h.doc.id for h in kb.search("is there an airplane setting")] == ["offline"]


def test_the_shipped_help_centre_does_not_answer_for_a_plan_it_has_no_article_about() -> None:
    kb = KnowledgeBase(SHIPPED_KB)
    assert look_up(kb, "is there a yearly plan").kind == "not_covered"
    assert look_up(kb, "is there a pro plan for teams").kind == "not_covered"
    assert look_up(kb, "is there a refund window").doc_id == "refund-request"
    assert look_up(kb, "is there a limit to how many tasks i can import").doc_id == "import-tasks"
    assert look_up(kb, "is there a recycle bin for deleted lists").doc_id == "restore-deleted-tasks"
