"""Telling talk from a question for the help centre: "ok thanks bye" is a goodbye, not a search.

A message is talk when all of it is made of the phrases of flows/support/data/small_talk.yaml
(thanks, closings, greetings, questions about the bot), with fillers around them ("ok", "so
much", "for your help"), and at least one phrase is not a filler. It is read as a whole:
"thanks, but my sync is still broken" holds words that are none of these, so it is searched.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from flows.shared.datafile import WordSet, load_yaml

SMALL_TALK_FILE = Path(__file__).parent / "data" / "small_talk.yaml"

Talk = Literal["thanks", "closings", "greetings", "about_bot", "fillers"]
KINDS: tuple[Talk, ...] = ("thanks", "closings", "greetings", "about_bot", "fillers")


class SmallTalkWords(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    thanks: WordSet
    closings: WordSet
    greetings: WordSet
    about_bot: WordSet
    fillers: WordSet


def load_small_talk(path: Path = SMALL_TALK_FILE) -> SmallTalkWords:
    """The tables of `path`; DataFileError names the file and each problem."""
    return load_yaml(path, SmallTalkWords)


WORDS = load_small_talk()
# phrase (as a tuple of words) -> its kind; a phrase in two tables takes the first kind
_PHRASES: dict[tuple[str, ...], Talk] = {}
for _kind in KINDS:
    for _phrase in getattr(WORDS, _kind):
        _PHRASES.setdefault(tuple(_phrase.split()), _kind)
_LONGEST = max(len(p) for p in _PHRASES)


def talk(text: str) -> frozenset[Talk] | None:
    """The kinds of talk `text` is made of (never only fillers), or None when it holds anything else."""
    tokens = re.findall(r"[^\W_]+", text.casefold().replace("'", "").replace("\u2019", ""))
    if not tokens:
        return None
    found: set[Talk] = set()
    at = 0
    while at < len(tokens):
        # the longest phrase first: "thank you so much" is thanks, then fillers
        for size in range(min(_LONGEST, len(tokens) - at), 0, -1):
            kind = _PHRASES.get(tuple(tokens[at : at + size]))
            if kind is not None:
                found.add(kind)
                at += size
                break
        else:
            return None
    found.discard("fillers")
    return frozenset(found) or None
