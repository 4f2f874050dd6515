"""The language names of `langcodes` and its data package `language_data`, by ISO 639-1 code.

Everything the library is asked sits here, so the rest of the bot sees plain dicts. Read
once, on first use: the English name table (about 12,000 names, all languages) is filtered
to the languages a profile can store, those with a two-letter code; each of them adds the
names it has for itself ("deutsch", "español", "日本語") where the library has them.
"""

from __future__ import annotations

from functools import cache

import langcodes
from langcodes.data_dicts import NORMALIZED_MACROLANGUAGES
from language_data.names import load_trie
from language_data.util import data_filename

# Codes the library lists that are only another code's old spelling ("sh" is Serbian in Latin letters).
_RETIRED = frozenset({"sh"})


def _base(tag: str) -> str:
    """The language of a tag, macrolanguage preferred: "pt-BR" -> "pt", "cmn" -> "zh", "pes" -> "fa"."""
    code = tag.split("-")[0]
    return NORMALIZED_MACROLANGUAGES.get(code, code)


def _names_in(language: str) -> dict[str, list[str]]:
    """The names `language` has for languages, grouped by the two-letter language they name."""
    path = data_filename(f"trie/{language}/name_to_language.marisa")
    try:
        trie = load_trie(path)
    except OSError:
        return {}  # the library has no names in this language
    out: dict[str, list[str]] = {}
    for name, value in trie.items():
        code = _base(value.decode("utf-8"))
        # names in scripts outside the Basic Multilingual Plane are the Deseret spellings of English ones
        if len(code) == 2 and code not in _RETIRED and all(ord(ch) < 0x10000 for ch in name):
            out.setdefault(code, []).append(name)
    return out


@cache
def library_names() -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """For each two-letter code: (English names, the language's own names), as the library spells them."""
    english = _names_in("en")
    return {
        code: (tuple(sorted(names)), tuple(sorted(set(_names_in(code).get(code, [])) - set(names))))
        for code, names in sorted(english.items())
    }


# The languages learners are read in besides English (engine/cues.py, engine/numwords.py):
# "alemán", "Englisch", "tedesco", "anglais", "inglês" name languages too.
USER_LANGUAGES = ("es", "fr", "de", "it", "pt")


@cache
def library_names_in_user_languages() -> dict[str, tuple[str, ...]]:
    """For each two-letter code: what Spanish, French, German, Italian and Portuguese call it."""
    out: dict[str, set[str]] = {}
    for language in USER_LANGUAGES:
        for code, names in _names_in(language).items():
            out.setdefault(code, set()).update(names)
    return {code: tuple(sorted(names)) for code, names in sorted(out.items())}


def library_display_name(code: str) -> str:
    """The library's English name for a code ("de" -> "German")."""
    return str(langcodes.Language.get(code).display_name("en"))
