"""A knowledge base's concept table (flows/support/concepts.py): everyday words read in requests
only, words naming what the help centre does not cover, and the checks on load."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from engine import DataFileError
from flows.support.concepts import CONCEPTS_NAME, load_concepts, query_table
from flows.support.kb import SHIPPED_KB, KnowledgeBase
from flows.support.lookup import look_up
from flows.support.terms import PHRASES, query_terms
from tests.test_search import doc, ids, make_kb

SHARE = doc("Share a list with other people", "Invite people by email to edit a list together.", "tags: [share]\n")
CRASH = doc("The app crashes", "Update the app. My wife and I saw it crash.", "tags: [crash]\n")
TABLE = """\
concepts:
  share:
    - wife|husband|roommate and i|me|we
  crash:
    - keeps ~ closing
ours: [tasklane]
elsewhere: [spotify, tomatoes]
"""


def kb_with(tmp_path: Path, table: str | None = TABLE) -> KnowledgeBase:
    folder = make_kb(tmp_path / "kb", {"share.md": SHARE, "crash.md": CRASH})
    if table is not None:
        (folder / CONCEPTS_NAME).write_text(table, encoding="utf-8")
    return KnowledgeBase(folder)


def test_a_concept_is_read_in_requests_and_finds_the_article_its_word_names(tmp_path: Path) -> None:
    kb = kb_with(tmp_path)
    assert ids(kb, "how can my roommate and i both edit the grocery list") == ["share"]
    # without the table, the same request is read by its own words and finds nothing
    assert ids(kb_with(tmp_path / "plain", table=None), "how can my roommate and i both edit the grocery list") == []


def test_a_document_is_never_read_with_the_concepts(tmp_path: Path) -> None:
    # the crash body says "my wife and i": indexed as words, it is not a sharing article
    kb = kb_with(tmp_path)
    assert ids(kb, "share") == ["share"]
    table = load_concepts(kb.folder / CONCEPTS_NAME)
    assert query_terms("my wife and i", table=query_table(PHRASES, table)) == ["share"]
    assert query_terms("my wife and i") == ["wife"]


def test_a_request_naming_something_elsewhere_finds_nothing_unless_it_names_the_product(tmp_path: Path) -> None:
    kb = kb_with(tmp_path)
    assert ids(kb, "the app keeps closing") == ["crash"]
    assert ids(kb, "my spotify app keeps closing") == []
    assert ids(kb, "tasklane keeps closing when spotify plays") == ["crash"]


def test_the_shipped_table_tells_other_products_from_tasklane() -> None:
    kb = KnowledgeBase(SHIPPED_KB)
    assert look_up(kb, "my spotify keeps crashing").kind == "not_covered"
    assert look_up(kb, "amazon charged me twice for an order").kind == "not_covered"
    assert look_up(kb, "connect tasklane to my gmail calendar").doc_id == "calendar-integration"
    assert look_up(kb, "tasklane keeps crashing").doc_id == "app-crashes"
    # a task may be about anything: naming one is naming the product
    assert look_up(kb, "i need to call my dentist").kind == "not_covered"
    assert look_up(kb, "my dentist reminder comes an hour late").doc_id == "reminders-wrong-time"


def test_the_shipped_table_is_clean_against_the_shipped_articles(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="flows.support.kb"):
        kb = KnowledgeBase(SHIPPED_KB)
    assert kb.problems == []
    assert [r.getMessage() for r in caplog.records] == []


def test_what_the_articles_make_of_the_table_is_logged_and_left_out(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # "refund" is no title or tag word here; "tomatoes" is a word of the garden filler's body
    table = TABLE.replace("  crash:\n", "  refund:\n    - money back\n  crash:\n")
    with caplog.at_level(logging.WARNING, logger="flows.support.kb"):
        kb = kb_with(tmp_path, table)
    said = " | ".join(r.getMessage() for r in caplog.records)
    assert "concept 'refund' is no word of an article's title or tags" in said
    assert "elsewhere word 'tomatoes' is a word of the help centre" in said
    # so "tomatoes" does not turn a request away: the garden article is still found
    assert ids(kb, "watering tomatoes") == ["garden"]


def test_a_malformed_table_is_listed_and_the_documents_are_still_searched(tmp_path: Path) -> None:
    kb = kb_with(tmp_path, "concepts:\n  Share: [wife and i]\nours: []\nelsewhere: [spotify, spotify]\n")
    assert len(kb.problems) == 1
    assert CONCEPTS_NAME in kb.problems[0]
    assert "'Share' is not a lower-case word" in kb.problems[0]
    assert "listed twice: 'spotify'" in kb.problems[0]
    assert ids(kb, "share a list") == ["share"]
    assert ids(kb, "my wife and i") == []


def test_a_phrase_under_two_concepts_is_refused(tmp_path: Path) -> None:
    path = tmp_path / CONCEPTS_NAME
    path.write_text("concepts:\n  share: [wife and i]\n  crash: [wife and i]\nours: []\nelsewhere: []\n")
    with pytest.raises(DataFileError, match="'wife and i' is listed under 'share' and 'crash'"):
        load_concepts(path)


def test_an_edit_to_the_table_is_read_at_the_next_search(tmp_path: Path) -> None:
    kb = kb_with(tmp_path)
    assert ids(kb, "my husband and i") == ["share"]
    path = kb.folder / CONCEPTS_NAME
    path.write_text(TABLE.replace("wife|husband|roommate", "wife|roommate"), encoding="utf-8")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert ids(kb, "my husband and i") == []


def test_the_everyday_words_of_an_articles_concepts_are_what_it_covers(tmp_path: Path) -> None:
    # flows/support/subject.py: a thing of the user's device that these words name is one the help centre covers
    (tmp_path / CONCEPTS_NAME).write_text(TABLE, encoding="utf-8")
    table = load_concepts(tmp_path / CONCEPTS_NAME)
    # the sharing article's title holds "share": the people its phrases name are what it covers
    assert table.words_for(lambda word: word == "share") == {"wife", "husband", "roommate", "and", "i", "me", "we"}
    assert table.words_for(lambda word: word == "crash") == {"keeps", "closing"}
    assert table.words_for(lambda word: False) == set()
