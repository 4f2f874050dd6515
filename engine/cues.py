"""Cue phrases in the learner's own language, written as the English cue a reader looks for.

Readers that find a value after a cue ("my name is", "I speak", "I want to learn", "I live in")
were written in English; users write "je m'appelle Chloé, je parle français" or "ich heiße
Jonas, Muttersprache Deutsch". `in_english_cues` rewrites only the cue words of a message in
Spanish, French, German, Italian or Portuguese (engine/data/cues.yaml) and leaves every other
word as typed, so the name, the place and the language name reach the reader unchanged
("my name is Chloé, I speak français"). It is for reading, never for storing: a free-text
answer keeps the user's own words.

Matching ignores case and accents; longer phrases win; a cue is a whole word sequence.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, RootModel, field_validator

from engine.tables import any_of, compiles, load_table

CUES_FILE = Path(__file__).parent / "data" / "cues.yaml"


class Frame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    pattern: str
    english: str

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, value: str) -> str:
        return compiles([value])[0]


class CueTable(BaseModel):
    """engine/data/cues.yaml: English cue -> phrases that mean it; frames; articles after a cue."""

    model_config = ConfigDict(extra="forbid")
    phrases: dict[str, list[str]]
    frames: list[Frame] = Field(default_factory=list)
    articles: list[str] = Field(default_factory=list)

    @field_validator("phrases")
    @classmethod
    def _one_meaning_each(cls, value: dict[str, list[str]]) -> dict[str, list[str]]:
        seen: dict[str, str] = {}
        for english, phrases in value.items():
            for phrase in phrases:
                key = fold_same_length(phrase)
                if key in seen and seen[key] != english:
                    raise ValueError(f"{phrase!r} is listed under both {seen[key]!r} and {english!r}: keep one")
                seen[key] = english
        return value


def fold_same_length(text: str) -> str:
    """Lower case without accents, one character for one, so positions stay those of `text`."""
    if text.isascii():  # no accent, no typographic apostrophe, and ASCII lower-cases one for one
        return text.lower()
    out = []
    for ch in text.replace("’", "'"):
        base = unicodedata.normalize("NFKD", ch)[:1] or ch
        out.append(base.lower() if len(base.lower()) == 1 else ch)
    return "".join(out)


def load_cues(path: Path = CUES_FILE) -> CueTable:
    """The cue table, validated; a broken file says what to fix."""
    return load_table(path, CueTable, "cue table")


def phrase_pattern(phrases: list[str], *, then: str = r"(?![\w])") -> re.Pattern[str]:
    """One pattern for whole `phrases` of folded text (fold_same_length), the longest tried first."""
    alternatives = "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))
    return re.compile(rf"(?<![\w'])(?:{alternatives}){then}")


@lru_cache(maxsize=1)
def _compiled() -> tuple[list[re.Pattern[str]], dict[str, str], list[tuple[re.Pattern[str], str]], re.Pattern[str]]:
    table = load_cues()
    english = {fold_same_length(p): e for e, phrases in table.phrases.items() for p in phrases}
    # A cue that follows its value ("Deutsch ist meine Muttersprache") ends its clause; read
    # first, it keeps a leading cue from taking its last words, and its clause end keeps it from
    # taking a leading cue's ("Pedro e minha língua materna é o português").
    leading = [p for p, e in english.items() if not e.startswith("is ")]
    following = [p for p, e in english.items() if e.startswith("is ")]
    clause_end = r"(?=\s*(?:$|[,.;:!?)]|(?:and|und|y|et)\b))"  # not "e": "é" folds to it
    passes = [phrase_pattern(following, then=clause_end), phrase_pattern(leading)]
    frames = [(re.compile(f.pattern), f.english) for f in table.frames]
    articles = "|".join(re.escape(a) + ("" if a.endswith("'") else r"\s") for a in table.articles)
    cues = "|".join(re.escape(e) for e in ("I speak", "I'm learning", "I want to learn", "my native language is"))
    after_cue = re.compile(rf"\b({cues}) (?:{articles})\s*" if articles else r"(?!)", re.I)
    return passes, english, frames, after_cue


def replace_folded(text: str, pattern: re.Pattern[str], said: Callable[[re.Match[str], str], str]) -> str:
    """`text` with each match of `pattern` in its folded form replaced by `said(match, text)`."""
    out, last = [], 0
    for m in pattern.finditer(fold_same_length(text)):
        out += [text[last : m.start()], said(m, text)]
        last = m.end()
    return "".join([*out, text[last:]])


@lru_cache(maxsize=2048)
def in_english_cues(text: str) -> str:
    """`text` with its cue phrases in other languages written as the English cue."""
    passes, english, frames, after_cue = _compiled()
    for pattern, frame in frames:

        def framed(m: re.Match[str], typed: str, frame: str = frame) -> str:
            return frame.replace(r"\1", typed[m.start(1) : m.end(1)])

        text = replace_folded(text, pattern, framed)
    for pattern in passes:
        text = replace_folded(text, pattern, lambda m, typed: english[m.group()])
    return after_cue.sub(r"\1 ", text)


class Glossary:
    """A bot's own phrases of other languages, read as its English words: what the engine's cue
    table does for the engine's cues, for a domain's words ("se cierra sola" is "crashes" to a
    support search, "contraseña" "password"). Its file has the cue table's form (`phrases:` English
    -> the phrases that mean it), is validated on load, and a broken one says what to fix."""

    def __init__(self, path: Path, what: str = "glossary") -> None:
        table = load_table(path, CueTable, what)
        self._english = {fold_same_length(p): e for e, phrases in table.phrases.items() for p in phrases}
        self._pattern = phrase_pattern(list(self._english)) if self._english else None
        # each text's English, read once: a bot's readers ask it about the same message several times a
        # turn (a support search and its question reader; a fitness reader at each question it reads)
        self._read: dict[str, str] = {}

    def in_english(self, text: str) -> str:
        """`text` with the glossary's phrases written as their English; every other word as typed."""
        if self._pattern is None:
            return text
        english = self._read.get(text)
        if english is None:
            if len(self._read) >= _GLOSSED_KEPT:
                self._read.clear()  # bounded: a long-running server reads ever new messages
            english = self._read[text] = replace_folded(text, self._pattern, lambda m, _typed: self._english[m.group()])
        return english


# texts a glossary keeps the English of (as `in_english_cues` keeps the engine's)
_GLOSSED_KEPT = 2048


# -- a bot's own cue lists ---------------------------------------------------------------------------------


class CueLists(RootModel[dict[str, list[str]]]):
    """A bot's table of cue lists (flows/<bot>/data/*.yaml): named lists of regular expressions over
    folded text, one entry per language, each checked to compile when the table loads. A reader
    takes a list as one alternation (`alternation`), so its words live in data, not inline in code."""

    @field_validator("root")
    @classmethod
    def _compile(cls, value: dict[str, list[str]]) -> dict[str, list[str]]:
        return {name: compiles(patterns) for name, patterns in value.items()}

    def alternation(self, name: str) -> str:
        """The list `name` as one non-capturing alternation of its entries."""
        if name not in self.root:
            raise KeyError(f"no cue list {name!r} (lists: {', '.join(self.root)})")
        return any_of(self.root[name])


def load_cue_lists(path: Path) -> CueLists:
    """A bot's cue lists (a YAML mapping of list name to patterns), validated; a broken file is a
    DataFileError that says what to fix."""
    return load_table(path, CueLists, "cue lists")
