"""Telling a message that answers nothing ("yes", "hello??", "hmm", "oui", "?") from a free-text answer.

A free-text question takes any words as its answer, so without this "yes" at "Which phone model do
you use?" is stored as the phone model. Such a message is not refused (the user may be checking the
chat is alive, or answering a question they think was yes/no): the reader says it cannot decide, a
model may try, and offline the question is asked again. Its words are engine/data/no_answer.yaml, in
the six languages the engine reads, so every flow's free-text question (`words_answer`) gets it.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from engine.extract import Parser, fold, free_text
from engine.tables import DATA, FoldedWords, load_table


class NoAnswerWords(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    greetings: FoldedWords
    address: FoldedWords
    fillers: FoldedWords
    replies: FoldedWords


def load_no_answer(path: Path = DATA / "no_answer.yaml") -> NoAnswerWords:
    """The tables of `path`; DataFileError names the file and each problem."""
    return load_table(path, NoAnswerWords, "no-answer words")


@cache
def _words() -> tuple[frozenset[str], frozenset[str], tuple[str, ...]]:
    """The greetings, every phrase that says nothing alone, and the words of address (longest first)."""
    w = load_no_answer()
    nothing = frozenset((*w.greetings.all(), *w.fillers.all(), *w.replies.all()))
    return frozenset(w.greetings.all()), nothing, w.address.all()


@lru_cache(maxsize=1024)  # a function of the text alone, asked of every answer to a words question
def says_nothing(text: str) -> bool:
    """Whether `text`, as a whole message, gives no answer to a question asking for words."""
    bare = " ".join(re.findall(r"[\w']+", fold(text)))
    if not bare:
        return True  # only punctuation or emoji: "??", "👍"
    greetings, nothing, address = _words()
    if bare in nothing:
        return True
    # "hello??", "hi there", "hola a todos": a greeting followed by nothing but a word of address
    return any(bare.endswith(f" {a}") and bare[: -len(a) - 1] in greetings for a in address)


def words_answer(min_chars: int = 1) -> Parser:
    """Free text, but undecided (None) on a message that says nothing (`says_nothing`)."""
    base = free_text(min_chars)

    def rule(text: str) -> object:
        found = base(text)
        # too short is refused with its reason; only an answer long enough may still say nothing
        return None if isinstance(found, str) and says_nothing(text) else found

    return Parser(rule, base.expects, greedy=True)
