"""The phrases of the engine's commands in six languages (engine/data/commands.yaml), validated.

Cancel, skip, help, a person, resume, putting off, not knowing and refusing, each as phrases listed
whole or as parts that combine (an opener, a verb, an object: "just skip this one"), with the filler,
politeness and tags said around them. Each phrase is one clause, and none is listed under two
kinds: a broken file says what to fix. engine/said.py reads messages with them.
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict, field_validator

from engine.errors import DataFileError
from engine.extract import fold
from engine.tables import COMMANDS_FILE, compiles, load_table

# where a clause ends: a phrase is one clause, a message is read clause by clause (engine/said.py), and
# readers that quote one cut it there too (engine/proposals.py); single spaces around a dash: a run of
# spaces must not be rescanned (tests/test_pattern_shapes.py)
CLAUSE_MARKS = re.compile(r"[,;.!?¿¡…]+|\s[-–—]\s")


def folded_phrase(text: str) -> str:
    return " ".join(fold(text).strip(" ,;.!?¿¡…").split())


class PersonWords(BaseModel):
    model_config = ConfigDict(extra="forbid")
    nouns: list[str]
    verbs: list[str]
    alone: list[str]
    asking: list[str]
    # a person named so that asking for one needs no verb of talking ("i want a human", "quiero un humano")
    wanted: list[str]


class StoppingWords(BaseModel):
    """A verb of stopping and what it stops ("cancel the feedback"), said after words of wanting
    ("i want to cancel", "quiero cancelar"); and not wanting to go on ("no quiero continuar",
    "ich will nicht weitermachen"): every combination is a cancel phrase."""

    model_config = ConfigDict(extra="forbid")
    verbs: list[str]
    objects: list[str]
    articles: list[str]
    wanting: list[str]
    not_wanting: list[str]
    going_on: list[str]


class SkippingWords(BaseModel):
    """A skip said as a verb, what it skips and how it is asked ("can i skip this question", "je
    préfère sauter cette question", "kann ich das überspringen"): every combination is a skip phrase."""

    model_config = ConfigDict(extra="forbid")
    openers: list[str]
    verbs: list[str]
    objects: list[str]
    # the question named by what it asks ("the weight question", "la pregunta del peso"): patterns
    named: list[str]

    _check = field_validator("named")(classmethod(lambda cls, v: compiles(v)))


class TellingWords(BaseModel):
    """Not wanting to say, said as a verb of telling ("i'd rather not share my weight", "no quiero decirlo", "je
    préfère ne pas le dire"): every opener of not wanting with every verb, alone or with what is not told (one
    of `objects`, or a thing of the user's: "my weight", "mi peso"), is a refusal phrase."""

    model_config = ConfigDict(extra="forbid")
    openers: list[str]
    verbs: list[str]
    objects: list[str]


class CommandPhrases(BaseModel):
    """engine/data/commands.yaml, validated: each phrase one clause, under one command."""

    model_config = ConfigDict(extra="forbid")
    filler: list[str]
    trailing: list[str]
    polite: list[str]
    not_knowing: list[str]
    unsure: list[str]
    indefinite: list[str]  # read by engine/fill.py (engine/tables.py `indefinite_words`)
    until_later: list[str]
    # the words around a later-word in a clause that only puts the thing off ("lo dejamos para mañana")
    putting_off_words: list[str]
    refusing: list[str]
    telling: TellingWords
    cancel: list[str]
    ending: list[str]
    stopping: StoppingWords
    leaving: list[str]
    putting_off: list[str]
    leaving_openings: list[str]
    resume: list[str]
    resuming: list[str]
    skip: list[str]
    skipping: SkippingWords
    help: list[str]
    # what a call for help may name after it: the question ("i need help with this question", "what
    # do i put here"); every help phrase with each of these is one too
    help_with: list[str]
    confused: list[str]
    # not understanding, alone: help ("i dont understand", "no entiendo", "non capisco"); beside help, confused too
    not_understanding: list[str]
    person: PersonWords
    tags: list[str]

    @field_validator(
        "filler",
        "trailing",
        "polite",
        "not_knowing",
        "unsure",
        "refusing",
        "cancel",
        "ending",
        "leaving",
        "putting_off",
        "leaving_openings",
        "resume",
        "skip",
        "help",
        "confused",
        "not_understanding",
        "tags",
    )
    @classmethod
    def _one_clause_each(cls, value: list[str]) -> list[str]:
        for p in value:
            if len(CLAUSE_MARKS.split(folded_phrase(p))) != 1 or not folded_phrase(p):
                raise ValueError(f"{p!r} is not one clause: split it, or drop its inner punctuation")
        return value

    def check_apart(self) -> None:
        """A phrase under two commands would make the reading depend on the order of checks."""
        seen: dict[str, str] = {}
        for kind in ("cancel", "ending", "leaving", "resume", "skip", "help", "unsure", "refusing", "confused"):
            for p in getattr(self, kind):
                key = folded_phrase(p)
                if seen.get(key, kind) != kind:
                    raise ValueError(f"{p!r} is listed under both {seen[key]!r} and {kind!r}: keep one")
                seen[key] = kind


def load_phrases(path: Path = COMMANDS_FILE) -> CommandPhrases:
    """The command phrases, validated; a broken file says what to fix."""
    table = load_table(path, CommandPhrases, "command phrases")
    try:
        table.check_apart()
    except ValueError as e:
        raise DataFileError(str(path), [f"command phrases: {e}"]) from e
    return table
