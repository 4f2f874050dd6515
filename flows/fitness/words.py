"""The word tables of the fitness readers (data/words.yaml), checked on load, and the patterns
built from them: refusals, chat fillers, diets and the foods that change or restrict them."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import get_args

from pydantic import BaseModel, ConfigDict, field_validator

from engine.tables import nothing_else_words
from flows.fitness.profile import Diet
from flows.shared.datafile import WordTuple, load_yaml, word, word_list

WORDS_FILE = Path(__file__).parent / "data" / "words.yaml"


class Words(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    refusals: WordTuple
    fillers: WordTuple
    comments: WordTuple
    some_foods: WordTuple
    diets: dict[Diet, WordTuple]
    fish_foods: WordTuple
    meat_foods: WordTuple
    animal_products: WordTuple
    now_and_then: WordTuple
    refusing: WordTuple
    qualifiers: WordTuple
    whole_diet_negations: WordTuple
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

    @field_validator("diets", mode="before")
    @classmethod
    def _every_diet(cls, v: object) -> object:
        # a diet left out of the table could never be read, so the table must name them all
        if not isinstance(v, dict) or set(v) != set(get_args(Diet)):
            raise ValueError(f"must list each diet once: {', '.join(get_args(Diet))}")
        seen: set[str] = set()
        for synonyms in v.values():
            word_list(synonyms)
            for entry in synonyms:
                if entry in seen:
                    raise ValueError(f"{entry!r} names two diets")
                seen.add(entry)
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
    table = load_words()
    # "nuts, nothing else": the engine's words closing any list (engine/data/nothing_else.yaml) end answers here too
    return table.model_copy(update={"fillers": (*table.fillers, *nothing_else_words().all())})


@cache
def refusal() -> re.Pattern[str]:
    return re.compile(any_of(words().refusals))


@cache
def trailing_fillers_reversed() -> re.Pattern[str]:
    """Fillers at the end of an answer, with the punctuation around them, read backwards from
    the end (see `without_trailing_fillers`)."""
    fillers = any_of([w[::-1] for w in words().fillers])
    return re.compile(rf"\A[\s.!,;-]*+(?:{fillers}[\s,.;!-]*+)+", re.IGNORECASE)


def without_trailing_fillers(text: str) -> str:
    """`text` without the fillers that end it ("nuts, please" -> "nuts"). Matched at the start of
    the reversed text: searched for before `$`, the fillers were tried at every position and ran
    to the end each time, seconds for a long run of punctuation."""
    m = trailing_fillers_reversed().match(text[::-1])
    return text[: len(text) - m.end()] if m else text


@cache
def comment_edges() -> re.Pattern[str]:
    """A comment at the start or the end of a list item ("lactose sadly", "unfortunately nuts"), and
    chat filler at its end ("nuts lol"); filler that leads ("thanks so far") stays: it is no item."""
    comment = any_of(words().comments)
    said = any_of([*words().comments, *words().fillers])
    # a trailing run is tried only where a run of spaces and commas starts: linear on ", , , , ..."
    return re.compile(rf"^(?:{comment}[\s,]*+)+|(?<![\s,])(?:[\s,]*+{said})+$")


@cache
def no_some_food() -> re.Pattern[str]:
    """ "no red meat", "don't eat pork", "dairy free": a restriction an omnivore makes."""
    # given up is refused too ("i stopped eating pork" is an omnivore's restriction, not a vegetarian's diet)
    lead = (
        r"\b(?:no|not|never|don'?t eat|do not eat|avoid|except|but|quit(?: eating)?|stopped(?: eating)?|stop eating"
        r"|gave up|no longer eat)\s+(?:much\s+)?"
    )
    foods = any_of(words().some_foods)
    return re.compile(rf"{lead}{foods}|{foods}[- ]free\b")


@cache
def refused_foods() -> re.Pattern[str]:
    """A refusal and the list of foods it covers: "no meat or fish", "never chicken, pork"."""
    foods = any_of([*words().fish_foods, *words().meat_foods, *words().some_foods])
    return re.compile(
        rf"{any_of(words().refusing)}\s+(?:any\s+)?{foods}(?:\s*(?:,|/|\bor\b|\bnor\b|\band\b)\s*{foods})*"
    )


@cache
def qualifier() -> re.Pattern[str]:
    """What makes a diet's name a diet with exceptions (after `whole_diet_negations` are taken out)."""
    return re.compile(rf"{any_of(words().qualifiers)}|\b(?:no|not)\s+\w+")


@cache
def whole_diet_negation() -> re.Pattern[str]:
    return re.compile(any_of(words().whole_diet_negations))
