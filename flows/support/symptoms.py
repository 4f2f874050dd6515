"""The third look of a support search: what an article says users describe, word pair by word pair.

A request often tells a symptom in words the article does not hold: "phone and laptop dont
match" is the sync article, which says "devices" and "missing changes". An article may list
the symptoms users describe (`symptoms:` in its front matter, flows/support/kb.py), written by
its author from what the article covers: "my phone and computer show different tasks". When
the title, tags and body find nothing above the floor, a request that shares at least two
telling words with one of those sentences is that article's.

Two words, not one: a lone word of a symptom ("phone", "screen", "premium") is said in
questions the help centre does not cover ("my phone is broken", "my screen is cracked"), and
one word is what the first stage already ranks. Measured on the dev split, the pair found
in-scope requests and gave no article to a question about the app (bench/README.md, "Search
quality"). A telling word is one fewer than half of the articles hold (its bm25 rarity is
above zero, flows/support/rerank.py): "tasklane" and "account" tell no symptom from another.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from flows.support.rerank import Reranker
from flows.support.spelling import STEMMER
from flows.support.terms import VAGUE, words

# how many telling words a request must share with one symptom sentence
MIN_SHARED = 2
# and with one sentence of an article's body, when no symptom is told: a body sentence was not
# written as a user's description, and two of its words are shared by requests it does not answer
# ("change my profile picture": the cancel article's "tap your profile picture"; measured on the dev
# splits, two gave 26 wrong articles for 4 found), but three are what it says itself: "red
# exclamation mark on the cloud icon" quotes the sync article's "A red exclamation mark on the sync icon"
MIN_PASSAGE_SHARED = 3


def symptom_stems(text: str) -> frozenset[str]:
    """The words of a symptom that a request can share with it: read as a query's are (phrases,
    no stopwords, no vague words, no single letters, no numbers; flows/support/terms.py), stemmed."""
    return frozenset(STEMMER.stemWords([w for w in words(text) if len(w) > 1 and w not in VAGUE and not w.isdigit()]))


@dataclass(frozen=True)
class Symptom:
    doc_id: str
    text: str
    stems: frozenset[str]
    # how many telling words a request must share with it
    least: int = MIN_SHARED


@dataclass(frozen=True)
class SymptomMatch:
    doc_id: str
    symptom: str
    shared: frozenset[str]
    # the shared words' rarity summed: of two symptoms sharing as many words, the rarer pair wins
    weight: float


class Symptoms:
    """The symptoms of every article, read once per refresh of the knowledge base."""

    def __init__(
        self, by_doc: dict[str, Iterable[str]], reranker: Reranker, passages: dict[str, Iterable[str]] | None = None
    ) -> None:
        """`by_doc`: each article's symptoms; `passages`: the sentences of its body, looked at when
        no symptom is told, at MIN_PASSAGE_SHARED words."""
        self._reranker = reranker
        self._symptoms = [Symptom(d, text, symptom_stems(text)) for d, texts in by_doc.items() for text in texts]
        self._passages = [
            Symptom(d, text, symptom_stems(text), MIN_PASSAGE_SHARED)
            for d, texts in (passages or {}).items()
            for text in texts
        ]

    def _telling(self, stems: Iterable[str]) -> frozenset[str]:
        return frozenset(x for x in stems if self._reranker.idf(x) > Reranker.IDF_FLOOR)

    def unfindable(self) -> list[tuple[str, str]]:
        """(article, symptom) of the symptoms no request can find: fewer than MIN_SHARED of their
        words are telling in this knowledge base ("open" and "settings" are in most articles)."""
        return [(s.doc_id, s.text) for s in self._symptoms if len(self._telling(s.stems)) < MIN_SHARED]

    def match(self, terms: list[str]) -> list[SymptomMatch]:
        """The articles whose symptoms share at least MIN_SHARED telling words with `terms` (the
        query's search terms), best first: most words shared, then the rarer ones; one per article.
        When no symptom does, the articles one of whose body sentences shares MIN_PASSAGE_SHARED."""
        stems = set(STEMMER.stemWords(terms))
        return self._matched(self._symptoms, stems) or self._matched(self._passages, stems)

    def _matched(self, symptoms: list[Symptom], stems: set[str]) -> list[SymptomMatch]:
        best: dict[str, SymptomMatch] = {}
        for s in symptoms:
            shared = self._telling(s.stems & stems)
            if len(shared) < s.least:
                continue
            found = SymptomMatch(s.doc_id, s.text, shared, sum(self._reranker.idf(x) for x in shared))
            kept = best.get(s.doc_id)
            if kept is None or (len(found.shared), found.weight) > (len(kept.shared), kept.weight):
                best[s.doc_id] = found
        return sorted(best.values(), key=lambda m: (-len(m.shared), -m.weight, m.doc_id))
