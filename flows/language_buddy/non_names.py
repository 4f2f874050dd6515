"""Telling an answer to "What's your name?" that is no name ("quit", "null", "asdf", an email) from a name.

The word tables are data/non_names.yaml, checked on load; the keyboard-mash test is ours.
Each refusal says why, before the question's own reprompt: "quit" learns how to leave, and
"I'd rather not say" that a nickname is enough.
"""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

from pydantic import BaseModel, ConfigDict
from wordfreq import zipf_frequency

from engine.extract import KEYBOARD_ROWS, WORD_LANGUAGES, fold
from flows.shared.datafile import WordSet, WordTuple, load_yaml

NON_NAMES_FILE = Path(__file__).parent / "data" / "non_names.yaml"


class NonNames(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    commands: WordSet
    placeholders: WordSet
    non_answers: WordSet
    refusals: WordTuple


def load_non_names(path: Path = NON_NAMES_FILE) -> NonNames:
    """The tables of `path`; DataFileError names the file and each problem."""
    return load_yaml(path, NonNames)


TABLES = load_non_names()
_EMAIL = re.compile(r"(?<!\S)\S+@\S+\.\w+")
# how common (wordfreq's zipf scale) a word must be in one of these languages to be no keyboard mash:
# "wert" is 5.2 in German, "qwerty" at most 2.5 and "asdf" 1.7 anywhere
COMMON_WORD = 3.0
_NEIGHBOURS = frozenset(pair for row in KEYBOARD_ROWS for a, b in pairwise(row) for pair in (a + b, b + a))


def keyboard_mash(word: str) -> bool:
    """ "asdf", "qwerty", "jkjkjk", "aaaa": letters struck along a keyboard row, or one key held down.

    Most letter pairs of a real name are not neighbours on a row ("Peter" has none), so
    three in four is a safe line; short names ("Ng", "Jo") are never judged. Not engine.extract's test of
    free text (`no_content`): a name may repeat itself ("Lolo", "Juju") or lack a vowel ("Pwll"), which
    that test takes for noise.
    """
    w = fold(word)
    if len(w) < 4 or not w.isalpha() or not w.isascii():
        return False
    if re.search(r"(.)\1\1", w):
        return True
    pairs = [w[i : i + 2] for i in range(len(w) - 1)]
    if sum(p in _NEIGHBOURS for p in pairs) * 4 < len(pairs) * 3:
        return False
    # a row run that is a common word somewhere ("Wert" is German for value, and a surname) is a name
    return not any(zipf_frequency(w, lang) >= COMMON_WORD for lang in WORD_LANGUAGES)


def refusal_reason(text: str) -> str | None:
    """Why `text`, the whole answer to the name question, is no name (the reprompt); None when it may be one."""
    t = fold(text).strip(" .!?,;:\"'“”")
    words = t.split()
    if not words:
        return None
    if t in TABLES.commands or (len(words) > 1 and words[0] in TABLES.commands):
        return f"“{text.strip()}” isn't a name. To set up your profile later, type “cancel”."
    if any(r in t for r in TABLES.refusals):
        return "No problem if you'd rather not give your real name: a nickname works too."
    if _EMAIL.search(t):
        return "That looks like an email address; I only need a name to call you."
    if t in TABLES.placeholders or t in TABLES.non_answers or all(keyboard_mash(w) for w in words):
        return f"“{text.strip()}” doesn't look like a name."
    return None


def is_placeholder(name: str) -> bool:
    """A value no name field should hold ("Null", "Asdf", "Quit"), however it got there."""
    t = fold(name)
    return t in TABLES.placeholders or t in TABLES.commands or t in TABLES.non_answers or keyboard_mash(t)
