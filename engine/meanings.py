"""What a term of a question means: the short meanings a question declares for its options and words, and which
of them a question back names.

"What do you mean by endurance?", "¿qué significa intermedio?", "was heißt B2?", "c'est quoi un prérequis ?",
"what's the difference between intermediate and advanced?" ask about a TERM of the open question (an option, a
level name, a word it uses), not why it is asked. A question declares what its terms mean (`Ask.meanings`: term
-> `Meaning`, or a function of the slots for a question whose options are data), in its flow or in a data file
(`load_meanings`, validated on load); a question back naming declared terms is answered with their meanings (both,
for a difference), the question still open and no attempt used (engine/answering.py).

A term is named by its key ("intermediate", "B2", "fat_loss" as "fat loss"), by one of its declared `words` (its
names in the other languages: "intermedio", "Fortgeschritten"), or by what the question's own parser reads from a
few words of the message ("resistencia" is the goal endurance to the goal's reader): every flow gets its options'
names in six languages from the parser it already has.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, RootModel, field_validator

from engine.cues import fold_same_length
from engine.errors import DataFileError
from engine.tables import load_table


class Meaning(BaseModel):
    """What one term means, in a sentence or two, and the other words that name it (any language)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    means: str = Field(min_length=1)
    words: tuple[str, ...] = ()

    @field_validator("means")
    @classmethod
    def _a_sentence(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("means must say what the term means, not be blank")
        return value.strip()

    @field_validator("words")
    @classmethod
    def _no_blank_word(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        if any(not w.strip() for w in value):
            raise ValueError("a word naming the term is blank")
        return tuple(w.strip() for w in value)


# what a question declares: its terms' meanings, or a function of the slots giving them (support's questions are
# data); a plain string is a meaning with no other words
Declared = Mapping[str, Meaning | str]
Meanings = Declared | Callable[[Any], Declared]


def meanings_of(declared: Meanings | None, slots: object) -> dict[str, Meaning]:
    """The meanings a question declares, for these slots, each as a `Meaning`."""
    if declared is None:
        return {}
    table = declared(slots) if callable(declared) else declared
    return {k: v if isinstance(v, Meaning) else Meaning(means=v) for k, v in table.items()}


def problems(declared: Declared) -> list[str]:
    """What is wrong with declared meanings, each said with what to fix: a blank term, a blank meaning, a word
    that names two terms."""
    out: list[str] = []
    owner: dict[str, str] = {}
    for term, meaning in declared.items():
        if not term.strip():
            out.append("a term is blank: key each meaning by the option or word it explains")
            continue
        text = meaning.means if isinstance(meaning, Meaning) else meaning
        if not isinstance(text, str) or not text.strip():
            out.append(f"the meaning of {term!r} is blank: say in a sentence what {term!r} means")
        words = meaning.words if isinstance(meaning, Meaning) else ()
        for w in (term, *words):
            key = _fold(w)
            if key in owner and owner[key] != term:
                out.append(f"{w!r} names both {owner[key]!r} and {term!r}: give it to one of them")
            owner.setdefault(key, term)
    return out


class MeaningsFile(RootModel[dict[str, dict[str, Meaning]]]):
    """A flow's meanings file: question (Ask state name) -> term -> {means, words}."""


def load_meanings(path: Path, states: Collection[str]) -> dict[str, dict[str, Meaning]]:
    """A flow's meanings file, validated: every question it names is one of `states` (the flow's questions), every
    meaning is a sentence and no word names two terms of a question. A broken file is a `DataFileError` on it that
    says what to fix."""
    table = load_table(path, MeaningsFile, "meanings").root
    wrong = [
        f"{state!r} is no question of the flow (its questions: {', '.join(sorted(states))})"
        for state in table
        if state not in states
    ]
    wrong += [f"{state}: {p}" for state, terms in table.items() for p in problems(terms)]
    if wrong:
        raise DataFileError(str(path), [f"meanings: {w}" for w in wrong])
    return table


# -- which terms a question back names ------------------------------------------------------------------------

_WORDS = re.compile(r"[\w'’-]+")
# a few words read by the question's parser at once: "fat loss", "bandas elásticas", "salute generale"
_LONGEST_READ = 3


def _fold(text: str) -> str:
    return " ".join(_WORDS.findall(fold_same_length(text).lower().replace("_", " ")))


@lru_cache(maxsize=256)
def _name_pattern(name: str) -> re.Pattern[str]:
    # a plural names the term too ("kettlebells", "prerequisites"); an article glued on by an apostrophe stays off
    # ("l'endurance" names endurance: the apostrophe is no letter)
    return re.compile(rf"(?<![\w]){re.escape(name)}(?:s|es)?(?![\w])")


def named(
    text: str,
    meanings: Mapping[str, Meaning],
    reads: Callable[[str], object] | None = None,
    ignore: Collection[str] = (),
) -> tuple[str, ...]:
    """The declared terms `text` names, in the order it names them: by their key or words, whole words, or by a
    value the question's parser (`reads`) reads from one to three of its words that is a declared term. `ignore`:
    words that name nothing ("what", "mean", "difference"), left out of what the parser is asked to read."""
    if not meanings:
        return ()
    folded = _fold(text)
    at: dict[str, int] = {}
    for term, meaning in meanings.items():
        for name in (term, *meaning.words):
            m = _name_pattern(_fold(name)).search(folded) if _fold(name) else None
            if m is not None:
                at[term] = min(at.get(term, m.start()), m.start())
    if reads is not None:
        words = folded.split()
        offsets = _offsets(words)
        for size in range(_LONGEST_READ, 0, -1):
            for i in range(len(words) - size + 1):
                piece = words[i : i + size]
                if any(w in ignore or len(w) < 2 for w in piece):
                    continue
                for term in _terms_read(reads, " ".join(piece), meanings):
                    at.setdefault(term, offsets[i])
    return tuple(sorted(at, key=lambda t: at[t]))


def _offsets(words: Sequence[str]) -> list[int]:
    out, n = [], 0
    for w in words:
        out.append(n)
        n += len(w) + 1
    return out


def _terms_read(reads: Callable[[str], object], piece: str, meanings: Mapping[str, Meaning]) -> list[str]:
    try:
        value = reads(piece)
    except (ValueError, TypeError):
        return []
    values = value if isinstance(value, list) else [value]
    folded = {_fold(k): k for k in meanings}
    return [folded[_fold(v)] for v in values if isinstance(v, str) and _fold(v) in folded]


def said(terms: Sequence[str], meanings: Mapping[str, Meaning]) -> str:
    """What answers a question about `terms`: each one's meaning, as its author wrote it, in the order asked."""
    return " ".join(meanings[t].means for t in terms)
