"""Telling a message that answers nothing ("yes", "hello??", "hmm", "?") from a free-text answer.

A free-text question takes any words as its answer, so without this "yes" at "Which phone
model do you use?" is stored as the phone model. Such a message is not refused (the user may
be checking the chat is alive, or answering a question they think was yes/no): the reader
says it cannot decide, a model may try, and offline the question is asked again.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from engine.extract import Parser, fold, free_text
from flows.shared.datafile import WordSet, load_yaml

NO_ANSWER_FILE = Path(__file__).parent / "data" / "no_answer.yaml"


class NoAnswerWords(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    greetings: WordSet
    fillers: WordSet
    replies: WordSet


def load_no_answer(path: Path = NO_ANSWER_FILE) -> NoAnswerWords:
    """The tables of `path`; DataFileError names the file and each problem."""
    return load_yaml(path, NoAnswerWords)


WORDS = load_no_answer()


@lru_cache(maxsize=1024)  # a function of the text alone, asked of every answer to a words question
def says_nothing(text: str) -> bool:
    """Whether `text`, as a whole message, gives no answer to a question asking for words."""
    t = fold(text)
    bare = " ".join(re.findall(r"[\w']+", t))
    if not bare:
        return True  # only punctuation or emoji: "??", "👍"
    if bare in WORDS.greetings or bare in WORDS.fillers or bare in WORDS.replies:
        return True
    # "hello??", "hi there": a greeting followed by nothing but a word of address
    return re.sub(r"(?<!\s)\s++(?:there|again|guys|all|team|bot)$", "", bare) in WORDS.greetings


def words_answer(min_chars: int = 1) -> Parser:
    """Free text, but undecided (None) on a message that says nothing (`says_nothing`)."""
    base = free_text(min_chars)

    def rule(text: str) -> object:
        found = base(text)
        # too short is refused with its reason; only an answer long enough may still say nothing
        return None if isinstance(found, str) and says_nothing(text) else found

    return Parser(rule, base.expects, greedy=True)
