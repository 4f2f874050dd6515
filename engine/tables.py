"""The engine's word tables (engine/data/*.yaml): loaded into their pydantic models, checked on
load, and the small pieces of regular-expression building every reader of them shares.

A broken table is a `DataFileError` that names the file and says what to fix; patterns a table
holds are compiled by its model's validator, so a bad one fails at load, not inside a turn.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, model_validator

from engine.errors import DataFileError

M = TypeVar("M", bound=BaseModel)
# libyaml's parser when PyYAML was built with it: the word tables took 3-4 s of a worker's start on a
# busy 2-core machine in pure Python (every process reads them: a server, a worker, a command), 1 s with libyaml
_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_table(path: Path, model: type[M], what: str) -> M:
    """`path` read into `model`; any problem (missing file, YAML, a value the model refuses) is a
    `DataFileError` on the file, prefixed by `what` the table is ("command phrases")."""
    try:
        return model.model_validate(yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER))
    except (OSError, yaml.YAMLError, ValueError) as e:
        raise DataFileError(str(path), [f"{what}: {e}"]) from e


def compiles(patterns: list[str]) -> list[str]:
    """A validator's check: every pattern compiles (the error says which one and why)."""
    for p in patterns:
        try:
            re.compile(p)
        except re.error as e:
            raise ValueError(f"pattern {p!r} does not compile: {e}") from e
    return patterns


def any_of(patterns: Sequence[str]) -> str:
    """One alternation of `patterns`, each kept whole."""
    return "(?:" + "|".join(f"(?:{p})" for p in patterns) + ")"


CORRECTIONS_FILE = Path(__file__).parent / "data" / "corrections.yaml"


class _TakenBack(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    taken_back: dict[str, list[str]]
    decided: dict[str, list[str]]


@lru_cache(maxsize=1)
def taken_back_phrases() -> tuple[str, ...]:
    """The words that take back an answer just said ("fifteen, no wait, sixteen") or settle a hedge at
    its end ("two, maybe three. let's say 3"), in every language: corrections.yaml's `taken_back` and
    `decided`. One vocabulary for engine/corrections.py (answers taken back in words) and
    engine/extract.py (a number taken back), which cannot import corrections (corrections reads
    through extract)."""
    table = load_table(CORRECTIONS_FILE, _TakenBack, "correction words")
    return tuple(p for phrases in (*table.taken_back.values(), *table.decided.values()) for p in phrases)


COMMANDS_FILE = Path(__file__).parent / "data" / "commands.yaml"


class _Unsure(BaseModel):
    model_config = ConfigDict(extra="ignore")
    unsure: list[str]
    indefinite: list[str]
    filler: list[str]
    trailing: list[str]


@lru_cache(maxsize=1)
def unsure_phrases() -> frozenset[str]:
    """The phrases that only say the user does not know or any value will do ("anything goes", "lo que
    sea"), lower case: commands.yaml's `unsure`. engine/said.py reads them in whole messages; engine/fill.py
    (which belongs to no stage of the turn, so cannot import the read stage's said) keeps a clause that is
    one of them from filling a slot by itself."""
    table = load_table(COMMANDS_FILE, _Unsure, "command phrases")
    return frozenset(" ".join(p.lower().replace("’", "'").split()) for p in table.unsure)


@lru_cache(maxsize=1)
def filler_phrases() -> frozenset[str]:
    """The words that say nothing about what the user wants ("i guess", "más o menos", "for now"), lower
    case: commands.yaml's `filler` and `trailing`. engine/fill.py drops what a message read ahead leaves when
    it is only these, so "B1, more or less" at another question is not refused as that question's answer."""
    table = load_table(COMMANDS_FILE, _Unsure, "command phrases")
    return frozenset(" ".join(p.lower().replace("’", "'").split()) for p in (*table.filler, *table.trailing))


@lru_cache(maxsize=1)
def indefinite_words() -> tuple[str, ...]:
    """The indefinite words ("anything", "alles", "rien"), which name no value by themselves:
    commands.yaml's `indefinite`, lower case (engine/fill.py)."""
    table = load_table(COMMANDS_FILE, _Unsure, "command phrases")
    return tuple(" ".join(w.lower().replace("’", "'").split()) for w in table.indefinite)


# The word classes every reader meets, one table each in the six languages the engine reads (and, but, "I am",
# a list closed with "nothing else", a number's bound, "for now"): read by the engine's readers and by the
# bots' own, so no bot keeps a copy of them.
LANGUAGES = ("en", "es", "de", "fr", "pt", "it")
DATA = Path(__file__).parent / "data"


def _is_folded(phrase: str) -> bool:
    """Lower case without accents, as engine/extract.py's `fold` leaves a message ("nada mas", "hochstens")."""
    plain = unicodedata.normalize("NFKD", phrase)
    return phrase == phrase.lower() and not any(unicodedata.combining(c) for c in plain) and "ß" not in phrase


class Words(BaseModel):
    """One word class in the six languages: each language's phrases, lower case, each once."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    en: tuple[str, ...]
    es: tuple[str, ...]
    de: tuple[str, ...]
    fr: tuple[str, ...]
    pt: tuple[str, ...]
    it: tuple[str, ...]

    @model_validator(mode="after")
    def _checked(self) -> Words:
        for lang in LANGUAGES:
            said: list[str] = getattr(self, lang)
            if not said:
                raise ValueError(f"{lang}: no phrase listed (each of the six languages needs its own)")
            for p in said:
                if p != " ".join(p.split()) or not p or p != p.lower():
                    raise ValueError(f"{lang}: {p!r} must be lower case, with single spaces and none around it")
            if len(set(said)) != len(said):
                twice = sorted({p for p in said if said.count(p) > 1})
                raise ValueError(f"{lang}: {', '.join(twice)} listed twice: keep one")
        return self

    def all(self) -> tuple[str, ...]:
        """Every language's phrases, each once, longest first (an alternation tries "at the most" before "at most")."""
        return tuple(sorted(dict.fromkeys(p for lang in LANGUAGES for p in getattr(self, lang)), key=len, reverse=True))


class FoldedWords(Words):
    """A word class matched on the folded message: its phrases are written folded too."""

    @model_validator(mode="after")
    def _folded(self) -> FoldedWords:
        for lang in LANGUAGES:
            for p in getattr(self, lang):
                if not _is_folded(p):
                    raise ValueError(
                        f"{lang}: {p!r} must be written folded (no accents): readers match the folded text"
                    )
        return self


class ButWords(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    but: Words
    though: Words


class BoundWords(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    before: FoldedWords
    after: FoldedWords


@cache
def and_words(path: Path = DATA / "and.yaml") -> Words:
    """ "and" (and.yaml): the words joining one more item or thought ("nuts and soy", "noci e arachidi")."""
    return load_table(path, Words, '"and" words')


@cache
def but_words(path: Path = DATA / "but.yaml") -> ButWords:
    """ "but" (but.yaml): the word joining a contrast, and the words conceding one ("although")."""
    return load_table(path, ButWords, '"but" words')


@cache
def i_am_words(path: Path = DATA / "i_am.yaml") -> FoldedWords:
    """ "I am" (i_am.yaml), said of oneself before what one is ("soy celíaca", "ich bin Österreicher")."""
    return load_table(path, FoldedWords, '"I am" words')


@cache
def nothing_else_words(path: Path = DATA / "nothing_else.yaml") -> FoldedWords:
    """The words closing a list with nothing more (nothing_else.yaml): "nothing else", "sonst nichts"."""
    return load_table(path, FoldedWords, '"nothing else" words')


@cache
def none_but_words(path: Path = DATA / "none_but.yaml") -> FoldedWords:
    """The words opening the exception of a none (none_but.yaml): "none except shellfish", "keine, außer Laktose"."""
    return load_table(path, FoldedWords, '"none but" words')


@cache
def bound_words(path: Path = DATA / "bounds.yaml") -> BoundWords:
    """The words that make a number the most it may be (bounds.yaml): "up to 60", "an hour max"."""
    return load_table(path, BoundWords, "bound words")


@cache
def for_now_words(path: Path = DATA / "for_now.yaml") -> FoldedWords:
    """ "For now" (for_now.yaml): "for now", "pour l'instant", "im Moment", "per ora"."""
    return load_table(path, FoldedWords, '"for now" words')


class DayWords(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    through: FoldedWords
    the: FoldedWords
    every: FoldedWords
    one: FoldedWords


@cache
def day_words(path: Path = DATA / "day_words.yaml") -> DayWords:
    """The words around the days of the week (day_words.yaml): a range's "to" ("bis", "au"), the articles
    before a day ("el", "am"), the words that make it recur ("every", "los", "jeden") or one of a set ("a")."""
    return load_table(path, DayWords, "day words")


def alternation(phrases: Sequence[str]) -> str:
    """`phrases` as one alternation of literal text (the phrases are checked to hold single spaces)."""
    return "(?:" + "|".join(re.escape(p) for p in phrases) + ")"
