"""Given names that are also words: telling "I'm stuck" from "I'm mia".

After a cue that may say anything ("I'm", "im", "I am", and the same cues of other languages once glossed:
"sono", "je suis"), a name reader cannot tell a name from a state by the word's frequency alone: "stuck",
"exhausted", "confuso" are words in use, but so are "mia" (Italian "my"), "chiara" ("clear"), "grace" and
"rosa". What separates them is whether people are given the word as a name, which Faker's person providers
know for 86 locales, and whether the word belongs to some languages or to all: a name is written in every
language's text ("wei", "chen", "akira" are used alike in the six, within half a point), a word of a language
far more in its own ("stuck" leads by 1.4, "exhausted" by 4.1) or in a few related ones ("confuso", "cansado",
"triste": four languages of the six at most). So a lower-case word is no name after such a cue
(`may_be_a_name` is false) when it is used often (zipf 3.5) in some language, leads the others by 1.2 or is
used in at most four of the six, and is no given name; a rarer word ("kenji", "nguyen", "yuki") stays a name.

Only names given in two locales or more count: a name of one locale that is a common word elsewhere ("sad",
a transliterated name of en_PK; "sky", "sunny" of en alone) reads as the word. "im will", "im sunny" are
therefore no names; the strong cues ("my name is will", "call me sunny") and capitals ("I'm Will") still are.

Faker loads its 86 locales in ~1.4 s, too dear for a process's first message; the names that are also words
(a few thousand) are written ahead to engine/data/given_names.json, which names the Faker that wrote it. With
another Faker installed they are built from Faker, as `python -m engine.given_names --write` writes them again.
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from engine.extract import SENTENCE_LANGUAGES, _zipfs, fold

NAMES_FILE = Path(__file__).resolve().parent / "data" / "given_names.json"
# a word in use in a language, on wordfreq's zipf scale ("len" 3.1-3.4; "stuck" 4.3 in English): a given name
# is kept in the file only if it is one
_IN_USE = 3.0
# ... and used often enough to be said of oneself rather than be a rare name ("kenji" 3.1, "nguyen" 3.2)
_OFTEN = 3.5
# a word of some languages, not of all: it leads the next language by this much ("stuck" 1.4, "li" 1.0, "wei"
# 0.5), or is in use in at most this many of the six ("confuso", "cansado", "triste" 2-4; "wei", "chen" 6)
_LEAD = 1.2
# ... English's by 1.0: English words are written in every language's text on the web ("happy" 5.3 in English,
# 3.8-4.2 elsewhere; "sad" 4.8, 3.1-3.6), as names are
_ENGLISH_LEAD = 1.0
_FEW_LANGUAGES = 4
# given in this many of Faker's locales at least (see the module docstring)
_LOCALES = 2
_NAME_LISTS = ("first_names", "first_names_male", "first_names_female", "first_names_nonbinary")


def _in_use(word: str) -> bool:
    return max(_zipfs(word)[: len(SENTENCE_LANGUAGES)]) >= _IN_USE


def _a_word_of_some_languages(word: str) -> bool:
    row = _zipfs(word)[: len(SENTENCE_LANGUAGES)]
    first, second = sorted(row, reverse=True)[:2]
    lead = _ENGLISH_LEAD if row[0] == first else _LEAD
    return first >= _OFTEN and (first - second >= lead or sum(z >= _IN_USE for z in row) <= _FEW_LANGUAGES)


def may_be_a_name(word: str) -> bool:
    """Whether `word`, said after a cue that may say anything, may be a given name: one people are given in two
    of Faker's locales or more ("mia", "joão", "chiara", "grace"), or no word of some languages alone ("wei",
    "zeynep"). "stuck", "exhausted", "confuso", "perdida" are not."""
    w = word.strip(" .,!?;:").lower()
    if not w or not w.replace("-", "").replace("'", "").isalpha():
        return True  # not a word of any list: the caller's own checks decide
    return w in _names_as_words() or fold(w) in _names_as_words() or not _a_word_of_some_languages(w)


def faker_names_as_words() -> list[str]:
    """Faker's given names (lower case, given in `_LOCALES` locales or more) that are words in use in one of the
    six languages read, sorted."""
    import faker.providers.person as people  # ~1.4 s for every locale: only when the file is missing or stale

    seen: dict[str, int] = {}
    for module in pkgutil.iter_modules(people.__path__):
        if not module.ispkg:
            continue
        provider = getattr(importlib.import_module(f"{people.__name__}.{module.name}"), "Provider", None)
        if provider is None:
            continue
        names: set[str] = set()
        for attr in _NAME_LISTS:
            # the lists are class attributes, some on a base class, some dicts of weights
            value = next((klass.__dict__[attr] for klass in provider.__mro__ if attr in klass.__dict__), None)
            if isinstance(value, dict | tuple | list | set | frozenset):
                names.update(str(n).lower() for n in value)
        for n in names:
            seen[n] = seen.get(n, 0) + 1
    return sorted(n for n, count in seen.items() if count >= _LOCALES and n.isalpha() and _in_use(n))


def write_names(path: Path = NAMES_FILE) -> None:
    """Build the names from Faker and write them as `_prebuilt` reads them (a rebuild is an empty diff)."""
    doc = {"faker": metadata.version("faker"), "names": faker_names_as_words()}
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")


def _prebuilt(path: Path) -> list[str] | None:
    """The names written at `path`; None when the file is missing or another Faker wrote it."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        version = metadata.version("faker")
    except (OSError, ValueError, metadata.PackageNotFoundError):
        return None
    names = doc.get("names")
    return names if doc.get("faker") == version and isinstance(names, list) else None


@lru_cache(maxsize=1)
def _names_as_words() -> frozenset[str]:
    names = _prebuilt(NAMES_FILE) or faker_names_as_words()
    return frozenset(names) | frozenset(fold(n) for n in names)


def main() -> None:
    parser = argparse.ArgumentParser(description="Write engine/data/given_names.json from the installed Faker.")
    parser.add_argument("--write", action="store_true", help="write the file (else print how many names)")
    args = parser.parse_args()
    if args.write:
        write_names()
    print(f"{len(faker_names_as_words())} given names that are also words (faker {metadata.version('faker')})")


if __name__ == "__main__":
    main()
