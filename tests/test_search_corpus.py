"""The support search measured on its corpus (tests/corpora/search/), on each SQL backend.

The goals hold on the test split, which was written before the search code it measures and is
never extended with a case found while fixing (tests/search_corpus.py). bench/search.py prints
the same figures for both splits side by side.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from flows.support.kb import SHIPPED_KB, KnowledgeBase, index_location
from flows.support.lookup import look_up
from tests.search_corpus import CORPUS, GOALS, SPLITS, Scores, load, score, split_of

ADDED_AFTER_SPLIT = "# -- added after the split"


def test_the_corpus_is_big_labelled_with_shipped_articles_and_split_by_its_hash() -> None:
    cases = {split: load(split) for split in SPLITS}
    assert sum(len(c) for c in cases.values()) >= 200
    articles = set(KnowledgeBase(SHIPPED_KB).documents)
    for split, found in cases.items():
        unknown = {c.doc for c in found if c.doc is not None} - articles
        assert not unknown, f"{split}: {unknown} are not shipped articles"
        assert any(c.doc is None for c in found), f"{split} has no query that must find nothing"
    queries = [c.q.strip().casefold() for split in SPLITS for c in cases[split]]
    assert len(queries) == len(set(queries)), "a query is in the corpus twice"
    # every test case sits where the hash put it; so does dev's, up to the cases added while fixing
    assert all(split_of(c.q) == "test" for c in cases["test"])
    text = (CORPUS / "dev.yaml").read_text(encoding="utf-8")
    before = yaml.safe_load(text.split(ADDED_AFTER_SPLIT)[0])
    assert before and all(split_of(c["q"]) == "dev" for c in before)


@pytest.fixture(params=["sqlite", "postgres"])
def index_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgres":
        return index_location(request.getfixturevalue("pg_url"))
    return str(tmp_path / "index.db")


def _test_scores(index_db: str) -> Scores:
    kb = KnowledgeBase(SHIPPED_KB, index_db)
    try:
        return score(load("test"), lambda q: look_up(kb, q).answer)
    finally:
        kb.close()


def figures(s: Scores) -> str:
    return f"top-1 {s.top1:.3f}, wrong {s.wrong:.3f}, no-match precision {s.no_match_precision:.3f}"


def test_the_search_meets_its_goals_on_the_test_split(index_db: str) -> None:
    s = _test_scores(index_db)
    assert s.top1 >= GOALS["top1"], figures(s)
    assert s.wrong <= GOALS["wrong"], figures(s)
    assert s.no_match_precision >= GOALS["no_match_precision"], figures(s)
    # where the search stands (bench/README.md, "Search: the blind set (h-search7)"): a change that loses
    # ground fails here. Top-1 0.985 -> 0.977 there: one query is now asked about (a choice of two
    # close articles), which is never top-1; the wrong-article rate did not move.
    assert s.top1 >= 0.977, figures(s)
    assert s.wrong <= 0.008, figures(s)
    assert s.no_match_precision >= 0.967, figures(s)


def test_both_stores_give_the_same_answers(pg_url: str, tmp_path: Path) -> None:
    # one score (flows/support/rerank.py) whichever index found the candidates
    kbs = [KnowledgeBase(SHIPPED_KB, str(tmp_path / "index.db")), KnowledgeBase(SHIPPED_KB, index_location(pg_url))]
    try:
        cases = load("test") + load("dev")
        answers = [[look_up(kb, c.q).doc_id for c in cases] for kb in kbs]
        differ = [(c.q, a, b) for c, a, b in zip(cases, *answers, strict=True) if a != b]
        assert not differ, differ
    finally:
        for kb in kbs:
            kb.close()
