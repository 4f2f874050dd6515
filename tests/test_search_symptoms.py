"""Symptoms an article lists (flows/support/symptoms.py): found by a pair of telling words when
the title, tags and body find nothing; checked on load."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from engine import DataFileError
from flows.support.kb import KnowledgeBase, parse_document
from flows.support.symptoms import symptom_stems
from tests.test_search import doc, ids, make_kb

SYNC = doc(
    "Tasks are not syncing between devices",
    "Pull down on the list to force a sync. Check the settings on both devices.",
    "tags: [sync]\nsymptoms:\n  - my phone and computer show different tasks\n  - the website is behind\n",
)
# "phone" only in a body: a word a body alone says finds nothing
PHONE = doc("Restart your device", "Hold the phone's power button, then check the settings.", "tags: [restart]\n")


def test_a_request_sharing_two_words_with_a_symptom_finds_its_article(tmp_path: Path) -> None:
    kb = KnowledgeBase(make_kb(tmp_path / "kb", {"sync.md": SYNC, "phone.md": PHONE}))
    # no title, tag or body word of the sync article: "computer" and "phone" are the symptom's
    assert ids(kb, "computer and phone disagree") == ["sync"]
    assert ids(kb, "my website is way behind") == ["sync"]
    hit = kb.search("computer and phone disagree")[0]
    assert hit.score > 0


def test_one_shared_word_is_not_enough(tmp_path: Path) -> None:
    kb = KnowledgeBase(make_kb(tmp_path / "kb", {"sync.md": SYNC, "phone.md": PHONE}))
    assert kb.search("my computer is broken") == []
    assert kb.search("different strokes") == []


def test_the_words_find_first_and_symptoms_only_when_they_find_nothing(tmp_path: Path) -> None:
    kb = KnowledgeBase(make_kb(tmp_path / "kb", {"sync.md": SYNC, "phone.md": PHONE}))
    # "restart" finds the restart article; the sync symptom's "phone" and "computer" do not outrank it
    assert ids(kb, "restart my phone and computer") == ["phone"]


BADGE = doc(
    "Tasks are not syncing",
    "A red exclamation mark on the badge means the last attempt failed.\nCheck your connection.",
    "tags: [sync]\n",
)


def test_three_words_of_one_body_sentence_find_its_article_when_nothing_else_does(tmp_path: Path) -> None:
    kb = KnowledgeBase(make_kb(tmp_path / "kb", {"sync.md": BADGE, "phone.md": PHONE}))
    # no title, tag or symptom word: "red", "exclamation" and "mark" are one sentence of the body
    assert ids(kb, "red exclamation mark on the cloud") == ["sync"]
    # two of them are no more than a symptom's pair would be without a symptom: nothing
    assert kb.search("a red mark on my screen") == []
    # three words of two sentences are no sentence of it
    assert kb.search("red failed connection") == []


def test_a_word_most_articles_hold_tells_no_symptom(tmp_path: Path) -> None:
    # "settings" is in every body here but the filler's: with the symptom's "phone" it is no pair
    files = {f"s{i}.md": doc(f"Topic {i}", "Open the settings.") for i in range(8)}
    files["sync.md"] = doc("Tasks are not syncing", "Open the settings.", "symptoms: [settings differ on my phone]\n")
    kb = KnowledgeBase(make_kb(tmp_path / "kb", files, filler=False))
    assert kb.search("phone settings") == []
    assert ids(kb, "phone differ") == ["sync"]


def test_an_edited_symptom_is_read_at_the_next_search(tmp_path: Path) -> None:
    folder = make_kb(tmp_path / "kb", {"sync.md": SYNC})
    kb = KnowledgeBase(folder)
    assert kb.search("tablet outdated") == []
    text = SYNC.replace("  - the website is behind\n", "  - my tablet is outdated\n")
    (folder / "sync.md").write_text(text, encoding="utf-8")
    os.utime(folder / "sync.md", ns=(1, 1))  # a new signature even within the clock's resolution
    assert ids(kb, "tablet outdated") == ["sync"]


@pytest.mark.parametrize(
    ("symptoms", "problem"),
    [
        ("[the app broke]", "symptom 'the app broke' has fewer than 2 words a search reads"),
        ("[my tasks, phone and laptop differ]", "symptom 'my tasks' has fewer than 2 words"),
        ("[phone and laptop differ, Phone and laptop differ]", "symptom 'Phone and laptop differ' is listed twice"),
        ("['  ']", "symptoms.0: String should have at least 1 character"),
        ("phone and laptop differ", "symptoms: Input should be a valid list"),
    ],
)
def test_a_symptom_no_search_can_find_is_refused_with_a_clear_message(symptoms: str, problem: str) -> None:
    with pytest.raises(DataFileError) as info:
        parse_document("bad.md", f"---\ntitle: T\nsymptoms: {symptoms}\n---\nbody\n")
    assert str(info.value).startswith("bad.md: ") and problem in str(info.value), str(info.value)


def test_a_symptom_is_read_as_a_query_is() -> None:
    # phrases read as their word ("shuts down": crash), stopwords and vague words ("app") left out
    assert symptom_stems("the app shuts down on my phone") == {"crash", "phone"}
    assert symptom_stems("today's list on my phone") == {"today", "phone"}  # no "s"


def test_a_symptom_only_common_words_tell_is_logged(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    files = {f"s{i}.md": doc(f"Topic {i}", "Open the settings.") for i in range(4)}
    files["sync.md"] = doc("Tasks are not syncing", "Open the settings.", "symptoms: [settings open on my phone]\n")
    with caplog.at_level(logging.WARNING, logger="flows.support.kb"):
        KnowledgeBase(make_kb(tmp_path / "kb", files, filler=False))
    assert "sync.md: symptom 'settings open on my phone' has fewer than 2 words" in caplog.text


def test_every_shipped_symptom_can_be_found(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="flows.support.kb"):
        kb = KnowledgeBase(Path(__file__).resolve().parent.parent / "flows" / "support" / "data" / "kb")
    assert not kb.problems and "symptom" not in caplog.text
    listed = [(d.id, s) for d in kb.documents.values() for s in d.symptoms]
    assert len(listed) >= 2 * len(kb.documents)
    # each symptom, asked as written, finds an article (its own, or one the words find first)
    assert all(kb.search(s) for _, s in listed), [s for _, s in listed if not kb.search(s)]
