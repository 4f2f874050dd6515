"""Words typed a letter off, written right against the vocabulary of what is open (issue 23, typos).

Users misspell the words that carry meaning: a choice ("begginer", "vegeterian"), a command ("cancle",
"nevermnd"), the cue of a correction or a question back ("acutally", "waht does that mean"), a number word
("fourty"), a language ("spansh", "Deutsh"), a weekday ("mierkoles"). Every reader was written for words
spelt right, so `respelled(text, extra)` writes such a word as the vocabulary word it was meant to be and
leaves every other word as typed; the readers then read the result as they read any message.

The vocabulary is one for every flow: the words of the engine's tables (engine/data/*.yaml: commands, the
cues of corrections and questions back, requests, the answer words and cue phrases of six languages), the
number words of six languages (engine/numwords.py), the names of common languages in those six languages and
in their own (CLDR, through babel), the weekday and time words; plus `extra`, the words of what the open question
lists (a parser's `expects`: "one of: beginner, intermediate, advanced").

A word is written anew only when all of these hold, so a word that means something is never "corrected":
- it is no word of the vocabulary, nor a word of English, Spanish, French, German, Italian or Portuguese
  (wordfreq's lists: "loose", "pale", "Dutch", "Bern", "Candela", "trios" stay as typed);
- it has 4 letters or more (3: only two letters swapped, "yse"); its first letter is the vocabulary
  word's (or the first two are swapped: "nien"); it is not the vocabulary word with an ending added ("resets",
  "esporto": another form the word lists lack);
- one vocabulary word is nearest it, within one edit (optimal string alignment: an insertion, a deletion,
  a substitution or two neighbours swapped), two edits for words of 8 letters or more ("begginer");
  two words as near make it ambiguous, and it stays as typed.
Comparison ignores case and accents; the word written keeps the typed word's capital.
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from importlib import metadata
from pathlib import Path

import yaml
from babel import Locale
from rapidfuzz import process
from rapidfuzz.distance import OSA
from wordfreq import zipf_frequency

from engine.numwords import detect_language, number_words

_DATA = Path(__file__).parent / "data"
# the tables whose words are the engine's vocabulary (kinds.json is a model's weights, not words)
_TABLES = ("commands.yaml", "corrections.yaml", "questions_back.yaml", "requests.yaml", "gloss.yaml", "cues.yaml")
# the languages the engine reads: a word of any of them is a word, not a typo
_LANGUAGES = ("en", "es", "fr", "de", "it", "pt")
# languages a learner or a user names, in the six languages and in their own
_NAMED_LANGUAGES = (
    "en", "es", "fr", "de", "it", "pt", "nl", "sv", "da", "no", "fi", "pl", "cs", "sk", "hu", "ro", "el", "tr",
    "ru", "uk", "ar", "he", "hi", "zh", "ja", "ko", "ca", "gl", "eu",
)  # fmt: skip
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WORD = re.compile(r"[^\W\d_]+")
_SHORTEST = 4  # a shorter word is corrected only by two letters swapped
_LONG = 8  # from this length on, a word may be two edits off ("begginer", "intermidiate")


def _plain(word: str) -> str:
    """A word as compared: lower case, no accents ("Portugués" -> "portugues")."""
    return "".join(c for c in unicodedata.normalize("NFKD", word.casefold()) if not unicodedata.combining(c))


def _strings(node: object) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for k, v in node.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(node, list):
        return [s for v in node for s in _strings(v)]
    return []


# CLDR's words (the names of the languages, the weekday names), written ahead: babel loads 35 locales to give
# them, about 0.3-0.7 s and 31 MiB of heap in every new process's first message (a CLI command, a replay, a
# test's subprocess). The file names the babel that wrote it; with another one installed the words are built
# from babel as before the file existed. `python bench/typo_data.py --write` writes it again. The tables' words
# are read from the tables (in-repo, edited often: 30-70 ms with libyaml), so a table edit needs no new file.
WORDS_FILE = _DATA / "cldr_words.json"
# libyaml's parser when PyYAML has it, as engine/tables.py reads the tables: the same values, several times faster
_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@lru_cache(maxsize=1)
def vocabulary() -> frozenset[str]:
    """The engine's words (see the module docstring), lower case, three letters or more."""
    return frozenset(w.casefold() for w in _sources() if len(w) >= 3)


@lru_cache(maxsize=len(_TABLES))
def _table_words(name: str) -> frozenset[str]:
    """The words of one of the engine's tables, as it writes them."""
    words: set[str] = set()
    for s in _strings(yaml.load((_DATA / name).read_text(encoding="utf-8"), Loader=_LOADER)):
        words.update(_WORD.findall(s))
    return frozenset(words)


def cldr_words() -> list[str]:
    """The names of the languages and the weekday names, as CLDR writes them (babel), sorted."""
    words: set[str] = set()
    for lang in _LANGUAGES:  # each language's name in the six languages
        names = Locale(lang).languages
        words.update(w for code in _NAMED_LANGUAGES for w in _WORD.findall(names.get(code, "")))
    for code in _NAMED_LANGUAGES:  # and in its own
        words.update(_WORD.findall(Locale.parse(code).languages.get(code, "")))
    for lang in _LANGUAGES:  # the weekday names of the six languages (engine/gloss.py reads them)
        words.update(w for day in Locale(lang).days["format"]["wide"].values() for w in _WORD.findall(day))
    return sorted(words)


def write_words(path: Path = WORDS_FILE) -> None:
    """Build CLDR's words from babel and write them as `_prebuilt` reads them (sorted, one a line: a rebuild
    with the same babel is an empty diff)."""
    doc = {"babel": metadata.version("babel"), "words": cldr_words()}
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")


def _prebuilt(path: Path) -> list[str] | None:
    """CLDR's words written at `path`; None when the file is missing or another babel wrote it."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return doc.get("words") if doc.get("babel") == metadata.version("babel") else None


@lru_cache(maxsize=1)
def _sources() -> frozenset[str]:
    """The vocabulary's words as their sources write them."""
    words: set[str] = set(_prebuilt(WORDS_FILE) or cldr_words())
    for name in _TABLES:
        words.update(_table_words(name))
    words.update(number_words())
    words.update(_WEEKDAYS)
    return frozenset(words)


@lru_cache(maxsize=1)
def _capitalised() -> frozenset[str]:
    """The vocabulary words, as compared, that their source writes with a capital (German nouns, the names
    of languages and weekdays as English and German write them)."""
    return frozenset(_plain(w) for w in _sources() if w[:1].isupper())


@lru_cache(maxsize=1)
def _index() -> dict[str, str]:
    """Each vocabulary word as compared, to the word as written (the first one met, accents kept)."""
    index: dict[str, str] = {}
    for w in sorted(vocabulary()):
        index.setdefault(_plain(w), w)
    return index


@lru_cache(maxsize=1)
def _vocabulary_by_letter() -> dict[str, tuple[str, ...]]:
    """The vocabulary, as compared, by first letter: a typo keeps it, or swaps it with the second."""
    groups: dict[str, set[str]] = {}
    for w in _index():
        groups.setdefault(w[0], set()).add(w)
    return {k: tuple(sorted(v)) for k, v in groups.items()}


@lru_cache(maxsize=256)  # one per question: only its own words, so 256 questions keep a few KiB, not the vocabulary
def _extra_by_letter(extra: frozenset[str]) -> tuple[frozenset[str], dict[str, tuple[str, ...]]]:
    """`extra` as compared, and its words the vocabulary lacks by first letter (searched beside the
    vocabulary's group: the same candidates as one group holding both)."""
    plain = frozenset(_plain(x) for x in extra)
    groups: dict[str, set[str]] = {}
    for w in plain - _index().keys():
        groups.setdefault(w[0], set()).add(w)
    return plain, {k: tuple(sorted(v)) for k, v in groups.items()}


@lru_cache(maxsize=8192)
def _a_word(plain: str) -> bool:
    """Whether `plain` is a word of one of the six languages (wordfreq's lists list words used often enough)."""
    return any(zipf_frequency(plain, lang, wordlist="small") > 0 for lang in _LANGUAGES)


@lru_cache(maxsize=8192)  # by the word as typed: most words of most messages, met again and again
def _settled(word: str) -> bool:
    """Whether `word` stays as typed whatever the question and the message: shorter than 3 letters or not
    letters only, a vocabulary word, or a word of the six languages (most words of most messages)."""
    plain = _plain(word)
    if len(plain) < 3 or not plain.isalpha():
        return True
    return plain in _index() or _a_word(plain) or _a_word(word.casefold())


def _meant(word: str, extra: frozenset[str], inside: bool = False, nouns: bool = False) -> str | None:
    """The vocabulary word `word` was meant to be, or None (see the module docstring); `inside`: the word
    stands inside the message, not first, where a capital says it is a name unless the word meant is written
    with one (a language's name: "Tom, i speak Spansh"), or `nouns`: the message is German, whose nouns
    have one ("eher Anfängr")."""
    if _settled(word):
        return None
    plain = _plain(word)
    n = len(plain)
    extra_plain, extra_groups = _extra_by_letter(extra) if extra else (frozenset(), {})
    if plain in extra_plain:
        return None
    groups = _vocabulary_by_letter()
    budget = 2 if n >= _LONG else 1
    starts = {plain[0]} | ({plain[1]} if n > 1 else set())
    found: dict[str, int] = {}
    for first in starts:
        words = groups.get(first, ()) + extra_groups.get(first, ())  # the question's words beside the vocabulary's
        for w, distance, _ in process.extract(plain, words, scorer=OSA.distance, score_cutoff=budget, limit=None):
            if first != plain[0] and w[:2] != plain[1::-1]:
                continue  # another first letter only when the first two letters are swapped ("nien")
            if n < _SHORTEST and (distance != 1 or sorted(w) != sorted(plain)):
                continue  # a short word only by two letters swapped: "yse" is "yes", "nto" no "not" of "now"
            if _inflected(plain, w):
                continue  # another form of the word, which the lists may lack ("resets", "esporto", "hows")
            found[w] = int(distance)
    if not found:
        return None
    best = min(found.values())
    nearest = [w for w, d in found.items() if d == best]
    if len(nearest) > 1:
        # as near to several: two letters swapped is the likelier slip ("waht" is "what", not "wait"), then a
        # letter left out ("persn" is "person", not "persa"; "matn" "matin", not "math"); "nien" stays as typed
        # ("nein" or "nine")
        swapped = [w for w in nearest if sorted(w) == sorted(plain)]
        nearest = swapped or nearest
    if len(nearest) > 1:
        dropped = [w for w in nearest if len(w) == n + 1 and _within(plain, w)]
        nearest = dropped or nearest
    if len(nearest) != 1:
        return None  # as near to two words: no telling which was meant
    if inside and word[0].isupper() and not nouns and not _capital(nearest[0], extra):
        return None  # "ok Priya": a name, not "prima"; "im in Lisbn" is Lisbon, a name the question knows
    return _index().get(nearest[0], _written(nearest[0], extra))


# endings a word takes in the six languages: a word that is a vocabulary word with one of them added is that
# word's other form, not a typo of it ("resets", "esporto", "hows"; but "cancell", "Skipp"); a word with its
# last letter left off is still a typo ("thre")
_ENDINGS = frozenset({"s", "es", "e", "n", "en", "o", "a", "i", "d", "ed", "r", "er"})


def _inflected(typed: str, word: str) -> bool:
    return typed.startswith(word) and typed[len(word) :] in _ENDINGS


def _within(short: str, long_: str) -> bool:
    """Whether `short` is `long_` with letters left out."""
    rest = iter(long_)
    return all(c in rest for c in short)


def _capital(plain: str, extra: frozenset[str]) -> bool:
    """Whether `plain` is written with a capital: a language or a German weekday, or a word of `extra` given so."""
    return plain in _capitalised() or (plain not in _index() and _written_as_name(plain, extra))


@lru_cache(maxsize=256)
def _names(extra: frozenset[str]) -> frozenset[str]:
    return frozenset(_plain(x) for x in extra if x[:1].isupper())


def _written_as_name(plain: str, extra: frozenset[str]) -> bool:
    return plain in _names(extra)


def _written(plain: str, extra: frozenset[str]) -> str:
    return next((x.casefold() for x in extra if _plain(x) == plain), plain)


@lru_cache(maxsize=1024)  # every parser a turn asks reads the message again
def respelled(text: str, extra: frozenset[str] = frozenset()) -> str:
    """`text` with each word typed a letter or two off a vocabulary word (or a word of `extra`) written as
    that word; every other word as typed ("im a begginer" -> "im a beginner", "Mathis" -> "Mathis")."""

    if all(_settled(w) for w in _WORD.findall(text)):
        return text  # every word a word (most messages): no search, no language detected, the text as it came
    nouns: bool | None = None

    def right(m: re.Match[str]) -> str:
        nonlocal nouns
        typed = m.group()
        if _settled(typed):
            return typed
        inside = bool(text[: m.start()].strip(" ¡¿\"'("))
        if inside and typed[0].isupper() and nouns is None:
            nouns = detect_language(text, least_words=1, margin=1.0) == "de"
        meant = _meant(typed, extra, inside=inside, nouns=bool(nouns))
        if meant is None:
            return typed
        return meant[0].upper() + meant[1:] if typed[0].isupper() else meant

    return _WORD.sub(right, text)


@lru_cache(maxsize=1)
def command_words() -> frozenset[str]:
    """The words of the engine's commands (engine/data/commands.yaml): cancel, help, skip, a person, going on."""
    return frozenset(w.casefold() for w in _table_words("commands.yaml") if len(w) >= 3)


def commands_respelled(text: str) -> str:
    """`text` with only the engine's command words typed a letter off written right ("skpi this exercise" ->
    "skip this exercise"; "Germna" stays): what a flow's own reading of commands (its asides) may read."""
    spelt = respelled(text)
    if spelt == text:
        return text
    typed, right = _WORD.findall(text), _WORD.findall(spelt)
    if len(typed) != len(right):
        return text
    keep = {a: b for a, b in zip(typed, right, strict=True) if a != b and b.casefold() in command_words()}
    return _WORD.sub(lambda m: keep.get(m.group(), m.group()), text) if keep else text


@lru_cache(maxsize=512)  # a parser's `expects`, read at every parse: one set per description, its hash kept
def words_of(text: str) -> frozenset[str]:
    """The words of `text` (a question, a parser's description of what it expects) as vocabulary."""
    return frozenset(w.casefold() for w in _WORD.findall(text) if len(w) >= 3)


def warm_up() -> None:
    """Build the vocabulary and its index now, not inside a user's turn."""
    _vocabulary_by_letter()
    _capitalised()
    command_words()
