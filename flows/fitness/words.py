"""The word tables of the fitness readers (data/words.yaml), checked on load, and the patterns
built from them: refusals, chat fillers, meats whose absence is no diet, flexible diets."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, field_validator

from flows.fitness.profile import Diet
from flows.shared.datafile import WordTuple, load_yaml, word

WORDS_FILE = Path(__file__).parent / "data" / "words.yaml"


class Words(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    refusals: WordTuple
    fillers: WordTuple
    some_meats: WordTuple
    flexible_diets: dict[str, Diet]
    none_words: WordTuple

    @field_validator("flexible_diets", mode="before")
    @classmethod
    def _keys(cls, v: object) -> object:
        if not isinstance(v, dict) or not v:
            raise ValueError("must be a non-empty mapping")
        for key in v:
            word(key)
        return v


def load_words(path: Path = WORDS_FILE) -> Words:
    """The tables of `path`; DataFileError names the file and each problem."""
    return load_yaml(path, Words)


def any_of(words: tuple[str, ...] | list[str]) -> str:
    """A pattern for any of `words` as whole words, the longest first."""
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return rf"(?<![\w'])(?:{alternatives})(?![\w'])"


@cache
def words() -> Words:
    return load_words()


@cache
def refusal() -> re.Pattern[str]:
    return re.compile(any_of(words().refusals))


@cache
def trailing_fillers() -> re.Pattern[str]:
    """Fillers at the end of an answer, with the punctuation around them."""
    return re.compile(rf"(?:[\s,.;!-]*{any_of(words().fillers)})+[\s.!,;-]*$", re.IGNORECASE)


@cache
def no_some_meat() -> re.Pattern[str]:
    """ "no red meat", "don't eat pork": an exception an omnivore makes."""
    lead = r"\b(?:no|not|never|don'?t eat|do not eat|avoid|except|but)\s+(?:much\s+)?"
    return re.compile(lead + any_of(words().some_meats))
