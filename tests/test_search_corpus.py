"""The support search measured on its corpus (tests/corpora/search/), on each SQL backend.

The goals hold on the test split, which was written before the search code it measures and is
never extended with a case found while fixing (tests/search_corpus.py). bench/search.py prints
the same figures for both splits side by side.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
import yaml

from flows.support.kb import SHIPPED_KB, KnowledgeBase, index_location
from flows.support.lookup import Lookup, look_up
from tests.pg import PgServer
from tests.search_corpus import (
    CORPUS,
    GOALS,
    SPLITS,
    Case,
    Scores,
    Split,
    load,
    load_fresh,
    load_fresh2,
    load_fresh3,
    load_fresh4,
    load_fresh5,
    load_fresh6,
    score,
    split_of,
)

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


@pytest.mark.parametrize(
    "load_blind",
    [load_fresh, load_fresh2, load_fresh3, load_fresh4, load_fresh5, load_fresh6],
    ids=["fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6"],
)
def test_a_blind_set_is_labelled_with_shipped_articles_and_split_by_its_hash(
    load_blind: Callable[[Split], list[Case]],
) -> None:
    # a blind set is never extended (cases found while fixing go to the first corpus's dev.yaml), so
    # every case of both halves, not only test's, sits where the hash put it
    articles = set(KnowledgeBase(SHIPPED_KB).documents)
    queries: list[str] = []
    for split in SPLITS:
        cases = load_blind(split)
        assert cases and all(split_of(c.q) == split for c in cases), split
        assert {c.doc for c in cases if c.doc is not None} <= articles, split
        assert any(c.doc is None for c in cases), f"{split} has no query that must find nothing"
        queries += [c.q.strip().casefold() for c in cases]
    assert len(queries) == len(set(queries)), "a query is in the blind set twice"


BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(scope="module")
def looked_up() -> dict[str, dict[str, Lookup]]:
    """Each backend's lookups of every corpus query, filled once per backend by `lookups`."""
    return {}


def lookups(backend: str, request: pytest.FixtureRequest, looked_up: dict[str, dict[str, Lookup]]) -> dict[str, Lookup]:
    """What the search answers to every query of both splits on `backend`, looked up once for the
    module: the goals on the test split and the two backends' agreement read the same lookups (each
    test ran them again, the test split four times in all), and a lookup depends on nothing else."""
    if backend not in looked_up:
        if backend == "postgres":
            server: PgServer = request.getfixturevalue("pg_server")
            where = index_location(server.database())
        else:
            where = str(request.getfixturevalue("tmp_path_factory").mktemp("index") / "index.db")
        kb = KnowledgeBase(SHIPPED_KB, where)
        try:
            looked_up[backend] = {c.q: look_up(kb, c.q) for c in load("test") + load("dev")}
        finally:
            kb.close()
    return looked_up[backend]


def figures(s: Scores) -> str:
    return f"top-1 {s.top1:.3f}, wrong {s.wrong:.3f}, no-match precision {s.no_match_precision:.3f}"


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_search_meets_its_goals_on_the_test_split(
    backend: str, request: pytest.FixtureRequest, looked_up: dict[str, dict[str, Lookup]]
) -> None:
    found = lookups(backend, request, looked_up)
    s = score(load("test"), lambda q: found[q].answer)
    assert s.top1 >= GOALS["top1"], figures(s)
    assert s.wrong <= GOALS["wrong"], figures(s)
    assert s.no_match_precision >= GOALS["no_match_precision"], figures(s)
    # where the search stands (bench/README.md, "Search: the blind set (h-search7)"): a change that loses
    # ground fails here. Top-1 0.985 -> 0.977 there: one query is now asked about (a choice of two
    # close articles), which is never top-1; the wrong-article rate did not move.
    assert s.top1 >= 0.977, figures(s)
    assert s.wrong <= 0.008, figures(s)
    assert s.no_match_precision >= 0.967, figures(s)


def test_both_stores_give_the_same_answers(
    request: pytest.FixtureRequest, looked_up: dict[str, dict[str, Lookup]]
) -> None:
    # one score (flows/support/rerank.py) whichever index found the candidates; PostgreSQL first,
    # so that without a server the test skips before looking anything up
    postgres = lookups("postgres", request, looked_up)
    sqlite = lookups("sqlite", request, looked_up)
    cases = load("test") + load("dev")
    differ = [(c.q, a, b) for c in cases if (a := sqlite[c.q].doc_id) != (b := postgres[c.q].doc_id)]
    assert not differ, differ
