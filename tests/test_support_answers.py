"""The support bot's words around an article: one score on every store, the request said back
when the help centre does not cover it, and the article as plain text."""

from __future__ import annotations

from pathlib import Path

import pytest

from flows.support import sections
from flows.support.kb import SHIPPED_KB, KnowledgeBase
from flows.support.render import plain
from flows.support.terms import query_terms
from flows.support.topic import topic


def test_the_second_stage_scores_a_candidate_as_fts5s_bm25_does(tmp_path: Path) -> None:
    # the same formula, column weights and statistics: SQLite's order and floor, on every store
    kb = KnowledgeBase(SHIPPED_KB, str(tmp_path / "index.db"))
    try:
        for query in ["export my data to csv", "app crashes on startup", "refund premium", "notifications android"]:
            terms = query_terms(query)
            found = kb._index.search(terms, 5)
            assert found
            for doc_id, score in found:
                assert kb._reranker.score(doc_id, terms) == pytest.approx(score, abs=1e-9), (query, doc_id)
    finally:
        kb.close()


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("can you book me a flight", "booking a flight"),
        ("Can you please make me a sandwich?", "making a sandwich"),
        ("I want to buy a car for my mum", "buying a car for your mum"),
        ("hi can you get me a taxi", "getting a taxi"),
        ("what's the weather", "the weather"),
        ("what's the weather like in berlin", "the weather in berlin"),
        ("order a pizza", "ordering a pizza"),
        ("tell me a joke", "telling a joke"),
        ("my washing machine is broken", '"my washing machine is broken"'),
        ("what can i cook tonight", '"what can i cook tonight"'),
        ("could you write my essay for me about the history of the roman empire and its fall", "that"),
        ("???", "that"),
    ],
)
def test_a_request_not_covered_is_said_back_in_the_users_words(text: str, said: str) -> None:
    assert topic(text) == said


def test_markdown_marks_never_reach_the_chat() -> None:
    text = "## Steps\n\n1. Open **Settings → Data**, then `Export`.\n* see [the page](https://x.io/s)\n> _Note_: safe"
    assert plain(text) == "Steps\n\n1. Open Settings → Data, then Export.\n- see the page (https://x.io/s)\nNote: safe"
    # snake_case and 2*3 are words, not emphasis
    assert plain("set max_items to 2*3 or 4 * 5") == "set max_items to 2*3 or 4 * 5"


def test_no_shipped_article_shows_a_mark_in_any_case() -> None:
    for doc in KnowledgeBase(SHIPPED_KB).documents.values():
        shown = plain(sections.for_case(doc.body, {}))
        assert not any(mark in shown for mark in ("**", "`", "<!--", "\n#", "\n>")), doc.id
