"""Everyday words for the help centre's own: the concepts a support query is read with.

Users describe a problem in their words, not the articles': "my wife and i both edit the grocery
list" is sharing, "my appointments" is the calendar, "an hour early since daylight saving" is a
reminder at the wrong time. A knowledge base's `concepts.yaml` (the shipped one:
flows/support/data/kb/concepts.yaml) maps such words and phrases (the phrase table's syntax,
flows/support/terms.py) to a word an article's title or tags hold.
Unlike the phrase table, the concepts are read in queries only: a document keeps its own words,
so a concept can only add a way to reach an article, never change what an article says.

The file also lists words that name what the help centre does not cover: other companies'
products ("spotify", "netflix") and things of everyday life ("microwave", "passport"). A request
naming one, and not the product itself, is about that, however well its other words match an
article: "my spotify keeps crashing" is not the crash article, "amazon charged me twice" not the
refund one; "connect tasklane to my gmail calendar" is the calendar article.

The table is the knowledge base's own, written for its articles, and is checked against them
whenever the knowledge base loads (flows/support/kb.py): a concept whose word no article's
title or tags hold could find nothing, and a word an article holds ("bank", "paypal") may be part
of a request the help centre does cover; each is logged, naming the file and the word, and the
word is not read as elsewhere. A knowledge base without the file reads requests without concepts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path

from pydantic import BaseModel, ConfigDict, field_validator

from flows.shared.datafile import load_yaml
from flows.support.spelling import STEMMER
from flows.support.terms import PhraseTable, PhraseText, Word

# the file, in a knowledge base's folder
CONCEPTS_NAME = "concepts.yaml"
# the words of a phrase ("~" is a gap, "|" parts the words a place may hold)
_WORD = re.compile(r"[a-z]+")


class ConceptTable(BaseModel):
    """A knowledge base's concepts.yaml."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # a word of the help centre -> the everyday words and phrases that mean it in a request
    concepts: dict[Word, list[PhraseText]]
    # the product's own names: a request naming it is about it, whatever else it names
    ours: list[Word]
    # words naming products and things the help centre does not cover
    elsewhere: list[Word]
    # what the product gives each user that other companies give theirs too ("account",
    # "subscription"): a name the help centre never says, said before one, makes it that company's
    # ("my netflix subscription", "my instagram account got hacked"; flows/support/subject.py)
    owned: list[Word] = []
    # what the product runs on ("laptop", "ipad", "pixel"): a request whose subject is one and that
    # names nothing of the product is about the device ("my laptop keeps freezing"), unless the
    # article found is about what a device does (flows/support/subject.py, `Subjects.device`)
    devices: list[Word] = []

    @field_validator("concepts")
    @classmethod
    def _each_phrase_once(cls, value: dict[str, list[str]]) -> dict[str, list[str]]:
        where: dict[str, str] = {}
        problems: list[str] = []
        for concept, phrases in value.items():
            if not phrases:
                problems.append(f"{concept!r} lists no phrase")
            for phrase in phrases:
                if phrase in where:
                    problems.append(f"{phrase!r} is listed under {where[phrase]!r} and {concept!r}")
                where[phrase] = concept
        if problems:
            raise ValueError("; ".join(problems))
        return value

    @field_validator("ours", "elsewhere", "owned", "devices")
    @classmethod
    def _each_word_once(cls, value: list[str]) -> list[str]:
        twice = sorted({w for w in value if value.count(w) > 1})
        if twice:
            raise ValueError(f"listed twice: {', '.join(map(repr, twice))}")
        return value

    def problems(self, headings: Iterable[str], held: Iterable[str]) -> list[str]:
        """What the knowledge base makes of this table: `headings` are the stems its titles and tags
        hold, `held` every word it holds, as written and as stems."""
        headings, held = frozenset(headings), frozenset(held)
        out = [
            f"{CONCEPTS_NAME}: concept {c!r} is no word of an article's title or tags: its phrases find nothing"
            for c in self.concepts
            if STEMMER.stemWord(c) not in headings
        ]
        out += [
            f"{CONCEPTS_NAME}: elsewhere word {w!r} is a word of the help centre: a request naming it may be "
            "one it covers, so it is not read as naming something else"
            for w in self.elsewhere
            if w in held or STEMMER.stemWord(w) in held
        ]
        out += [
            f"{CONCEPTS_NAME}: the product's name {w!r} is no word of the help centre"
            for w in self.ours
            if w not in held
        ]
        return out

    def names_elsewhere(self, words: Iterable[str], outside: frozenset[str]) -> bool:
        """Whether a request of `words` names something the help centre does not cover
        (`outside`, of `outside()`) and not the product itself."""
        said = set(words)
        return bool(said & outside) and not said & set(self.ours)

    def words_for(self, heading: Callable[[str], bool]) -> set[str]:
        """The words of the everyday phrases of the concepts `heading` accepts (an article's title and
        tags words): what the table reads as that article's ("partner" in "wife|husband|partner ...")."""
        phrases = [p for concept, said in self.concepts.items() if heading(concept) for p in said]
        return {w for p in phrases for w in _WORD.findall(p)}

    def outside(self, held: Iterable[str]) -> frozenset[str]:
        """The elsewhere words the knowledge base does not hold (`held`: its words and stems)."""
        known = frozenset(held)
        return frozenset(w for w in self.elsewhere if w not in known and STEMMER.stemWord(w) not in known)


NO_CONCEPTS = ConceptTable(concepts={}, ours=[], elsewhere=[])


def load_concepts(path: Path) -> ConceptTable:
    """The table at `path`; DataFileError names the file and each problem."""
    return load_yaml(path, ConceptTable)


def query_table(phrases: PhraseTable, concepts: ConceptTable) -> PhraseTable:
    """The phrase table a query is read with: the phrases and the concepts together, so the
    longer phrase wins wherever the two overlap ("everything about me gone from your servers"
    is the account's deletion before "everything ~ gone" can read it as restoring tasks)."""
    merged: dict[str, list[str]] = {k: list(v) for k, v in phrases.root.items()}
    for concept, texts in concepts.concepts.items():
        merged.setdefault(concept, []).extend(t for t in texts if t not in merged[concept])
    return PhraseTable(merged)
