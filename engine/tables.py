"""The engine's word tables (engine/data/*.yaml): loaded into their pydantic models, checked on
load, and the small pieces of regular-expression building every reader of them shares.

A broken table is a `DataFileError` that names the file and says what to fix; patterns a table
holds are compiled by its model's validator, so a bad one fails at load, not inside a turn.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

import yaml
from pydantic import BaseModel, ConfigDict

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
