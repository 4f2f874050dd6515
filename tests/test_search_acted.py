"""What a request asks an article's action done to (flows/support/acted.py): the article's verb asked of
a thing the article never speaks of is not its request."""

from __future__ import annotations

from pathlib import Path

import pytest

from flows.support.acted import acted_on, object_unknown
from flows.support.kb import SHIPPED_KB, KnowledgeBase
from flows.support.lookup import look_up
from flows.support.spelling import STEMMER
from flows.support.subject import Subjects, Words
from flows.support.terms import tokens_of

EXPORT = Words(
    ["export", "your", "tasks", "lists", "to", "csv", "or", "json", "file", "download", "data", "spreadsheet"],
    STEMMER.stemWords(["export", "tasks", "csv", "json", "download", "data"]),
)


@pytest.mark.parametrize(
    ("request_", "head"),
    [
        ("export my contacts to csv", "contacts"),
        ("can i export all my photos", "photos"),  # "all my": still the object
        ("how do i download videos to my laptop", "videos"),  # bare, after "i", a link after it
        ("i want to export the old invoices", "invoices"),  # the head is the phrase's last word
    ],
)
def test_the_articles_action_asked_of_another_thing_names_it(request_: str, head: str) -> None:
    assert object_unknown(tokens_of(request_), EXPORT) == head


@pytest.mark.parametrize(
    "request_",
    [
        "export my tasks to csv",  # what the article covers
        "export my grocery list",  # whose or which list: the article's thing
        "export everything",  # a bare object not asked ("everything" ends the message after the verb first)
        "export error",  # a title's word before a bare one names a problem
        "i exported my contacts and now csv is empty",  # told as done, not asked
        "download stuff",  # a vague word
        "my contacts export",  # no verb before an object
    ],
)
def test_what_the_article_covers_or_no_asked_object_is_not_judged(request_: str) -> None:
    assert object_unknown(tokens_of(request_), EXPORT) is None


REFUND = Words(
    ["request", "a", "refund", "for", "tasklane", "premium", "plan", "subscription", "charge", "money", "back"],
    STEMMER.stemWords(["refund", "premium", "charge", "money"]),
)
OFFLINE = Words(["use", "tasklane", "offline", "without", "internet", "plane"], STEMMER.stemWords(["use", "offline"]))


def test_what_a_refund_is_for_is_its_object_in_an_article_about_money_only() -> None:
    assert object_unknown(tokens_of("a refund for my concert tickets"), REFUND, paid_for=True) == "tickets"
    assert object_unknown(tokens_of("a refund for my premium plan"), REFUND, paid_for=True) is None
    # of what the app does, "for" says which ones ("reminders for my meetings")
    assert object_unknown(tokens_of("a refund for my concert tickets"), REFUND) is None


def test_a_bare_object_before_a_word_of_the_article_is_what_it_is_done_to() -> None:
    assert object_unknown(tokens_of("can i use google docs offline"), OFFLINE) == "docs"
    assert object_unknown(tokens_of("can i use it offline"), OFFLINE) is None


def test_a_request_naming_the_product_or_in_another_language_is_not_judged() -> None:
    help_centre = Subjects(EXPORT, covers={"export": EXPORT}, ours=["tasklane"], devices=["phone"])
    assert acted_on(help_centre, "export my contacts to csv", doc_id="export") == "contacts"
    assert acted_on(help_centre, "export my contacts to tasklane", doc_id="export") is None
    assert acted_on(help_centre, "exportar mis contactos a csv", doc_id="export") is None


def test_what_another_article_covers_is_the_products_thing_unless_a_device_or_a_name() -> None:
    notes = Words(["notes", "share"], STEMMER.stemWords(["share"]))
    help_centre = Subjects(EXPORT, covers={"export": EXPORT, "notes": notes}, devices=["phone"])
    assert acted_on(help_centre, "export my notes", doc_id="export") is None  # another article's word
    assert acted_on(help_centre, "export my phone", doc_id="export") == "phone"
    assert acted_on(help_centre, "can i export my spotify", doc_id="export") == "spotify"


@pytest.mark.parametrize(
    ("request_", "answer"),
    [
        ("export my photos to my computer", None),
        ("how do i share videos with my friends", None),
        ("refund my plane ticket", None),
        ("refund for my hotel booking", None),
        ("can i use excel offline", None),
        ("refund for my annual plan please", "refund-request"),
        ("can i use the app offline on a plane", "offline-mode"),
        ("export all my lists to a spreadsheet", "export-data"),
        ("share my shopping list with my sister", "shared-lists"),
        ("delete my account and all my data", "delete-account"),
        ("refund my premium payment", "refund-request"),
        # the user's word for the product's things, which another article covers
        ("share my project with my team", "shared-lists"),
        ("sync my notes between devices", "sync-not-working"),
        ("refund for the annual membership", "refund-request"),
    ],
)
def test_the_shipped_help_centre_tells_its_actions_object_from_another(
    request_: str, answer: str | None, tmp_path: Path
) -> None:
    kb = KnowledgeBase(SHIPPED_KB, str(tmp_path / "index.db"))
    assert look_up(kb, request_).answer == answer
