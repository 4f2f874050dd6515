"""The second stage of a support search: the same score on every store.

The index (engine/store/textindex.py) finds the candidates: documents whose title or tags hold
a query term. Its scores are on each backend's own scale (bm25 in SQLite, ts_rank weighted by
idf in PostgreSQL) and the two stem differently (porter, Snowball), so one floor per store
kept out different things, and PostgreSQL ranked a wrong article where SQLite did not. Here
every candidate is scored the same way whatever found it: the rarity of each query word among
the help centre's titles and tags, counted where the document holds it (title above tags above
body). A word most articles share ("premium", "account") counts little, one that names a single
article much; the store's own score only breaks ties.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from flows.support.spelling import STEMMER

# where a query word stands in a document, and what that is worth: FTS5's column weights
# (engine/store/textindex.py, FTS_WEIGHTS), so SQLite's ranking is kept and PostgreSQL gets it
TITLE, TAGS, BODY = 10.0, 4.0, 1.0
# bm25's constants, as FTS5 sets them
K1, B = 1.2, 0.75


@dataclass(frozen=True)
class Fields:
    """A document's words as stems, counted by where they stand."""

    title: Counter[str]
    tags: Counter[str]
    body: Counter[str]

    @property
    def length(self) -> int:
        return self.title.total() + self.tags.total() + self.body.total()


def stems(words: Iterable[str]) -> Counter[str]:
    return Counter(STEMMER.stemWords(list(words)))


class Reranker:
    """bm25 over the help centre's documents, read once per refresh of the knowledge base."""

    # the rarity of a word at least half of the documents hold: it still counts, a little
    IDF_FLOOR = 1e-6

    def __init__(self, documents: dict[str, Fields]) -> None:
        self.documents = documents
        self._containing: Counter[str] = Counter()
        for f in documents.values():
            self._containing.update(set(f.title) | set(f.tags) | set(f.body))
        self._n = len(documents)
        self._average = sum(f.length for f in documents.values()) / max(self._n, 1)

    def idf(self, stem: str) -> float:
        """bm25's rarity of `stem` among the documents, floored as FTS5 floors it."""
        containing = self._containing[stem]
        return max(math.log((self._n - containing + 0.5) / (containing + 0.5)), self.IDF_FLOOR)

    def score(self, doc_id: str, terms: list[str], *, headings: bool = False) -> float:
        """FTS5's bm25 of `doc_id` for the OR of `terms`: one summand per term, its frequency
        weighted by where it stands, saturated and normalised by the document's length. With
        `headings`, what its title and tags alone give (what of the request the document is about,
        not what its body mentions), on the same scale."""
        f = self.documents[doc_id]
        norm = K1 * (1 - B + B * f.length / self._average) if self._average else K1
        body = 0.0 if headings else BODY
        total = 0.0
        for stem in STEMMER.stemWords(terms):
            freq = TITLE * f.title[stem] + TAGS * f.tags[stem] + body * f.body[stem]
            if freq:
                total += self.idf(stem) * freq * (K1 + 1) / (freq + norm)
        return total

    def matched(self, doc_id: str, terms: list[str], *, headings: bool = False) -> frozenset[str]:
        """The stems of `terms` that `doc_id` holds anywhere (what of the request it explains), or
        with `headings` in its title or tags only (what of the request it is about)."""
        f = self.documents[doc_id]
        return frozenset(s for s in STEMMER.stemWords(terms) if f.title[s] or f.tags[s] or (not headings and f.body[s]))

    def names(self, doc_id: str, head: str, thing: list[str]) -> bool:
        """Whether `doc_id` is about the thing a request names (`thing`, its search words, `head` the
        last of its own): its title or tags hold the head, or its title a word of the thing ("an
        offline mode", "a refund policy", "a limit on shared lists": what the article is about, with
        a word for its kind or what is asked of it)."""
        f = self.documents[doc_id]
        stem = STEMMER.stemWord(head)
        return bool(f.title[stem] or f.tags[stem]) or any(f.title[s] for s in STEMMER.stemWords(thing))

    def rank(self, terms: list[str], found: list[tuple[str, float]], floor: float) -> list[tuple[str, float]]:
        """`found` (the index's candidates) by this score, best first; those below `floor` left out."""
        scored = [(self.score(d, terms), d) for d, _ in found if d in self.documents]
        scored.sort(key=lambda x: (-x[0], x[1]))
        return [(d, score) for score, d in scored if score >= floor]
