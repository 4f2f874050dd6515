"""How a support search reads text into terms, the same way for a query and for a document.

Words are lower-cased `\\w+` runs. Before stopwords go, the phrases of
flows/support/data/search_phrases.yaml are read as the one word they mean, so a search has
some sense of phrases with a plain OR-of-words index (engine/store/textindex.py):
"can i get my tasks back" searches for "restore" and "tasks", not for "back", which the
export article's "back up" tag (read as "backup") would otherwise match. Stopwords and vague
words come from flows/support/data/search_words.txt.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable, Iterable
from functools import cached_property
from pathlib import Path
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, RootModel

from engine.errors import DataFileError
from flows.shared.datafile import load_yaml

DATA = Path(__file__).with_name("data")
WORDS_FILE = DATA / "search_words.txt"
PHRASES_FILE = DATA / "search_phrases.yaml"
MAX_TERMS = 32
# "~" in a phrase: "get my whole shopping list back" is still getting something back, but a
# longer gap starts to join words that belong to different thoughts
MAX_GAP = 3
# a gap stops at these, and a phrase's words must not straddle one ("back. up")
_BREAKS = frozenset(".,;!?")
_TOKEN = re.compile(r"\w+|[.,;!?]")
_WORD = re.compile(r"[a-z0-9]+")
_NOT_JOINED = re.compile(r"(?<=[a-z]n)['’]t\b")
# A time of day ("3am", "9:30 pm", "21:00") is a time: numbers are not ranked (flows/support/kb.py),
# but "the reminder fired at 3am instead of 9am" is about when something happened.
_CLOCK = re.compile(
    r"(?<![\w:])\d{1,2}(?::[0-5]\d)?\s*(?:am|pm|a\.m\.|p\.m\.)(?!\w)"  # 3am, 9:30 pm
    r"|(?<![\w:])\d{1,2}:[0-5]\d(?![\w:])"  # 21:00
)
CLOCK_WORD = "time"
# a word as the user typed it -> the word they meant (flows/support/spelling.py)
Fix = Callable[[str], str]


def load_search_words(path: Path) -> dict[str, frozenset[str]]:
    """The `[section]` word lists of `path`; DataFileError names the line to fix."""
    sections: dict[str, set[str]] = {}
    current: set[str] | None = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if header := re.fullmatch(r"\[(\w+)\]", line):
            current = sections.setdefault(header.group(1), set())
        elif current is None:
            raise DataFileError(str(path), [f"line {number}: words before the first [section] header"])
        elif bad := [w for w in line.split() if not _WORD.fullmatch(w)]:
            raise DataFileError(str(path), [f"line {number}: {', '.join(map(repr, bad))} is not a lower-case word"])
        else:
            current.update(line.split())
    missing = [name for name in ("stopwords", "vague") if not sections.get(name)]
    if missing:
        raise DataFileError(str(path), [f"no words under [{name}]" for name in missing])
    return {name: frozenset(words) for name, words in sections.items()}


SEARCH_WORDS = load_search_words(WORDS_FILE)
STOPWORDS = SEARCH_WORDS["stopwords"]
# left out of queries (a message of only these matches nothing) but, unlike stopwords, indexed
VAGUE = SEARCH_WORDS["vague"]


# -- phrases ------------------------------------------------------------------------------


def _plain_word(value: str) -> str:
    if not _WORD.fullmatch(value):
        raise ValueError(f"{value!r} is not a lower-case word")
    if value in STOPWORDS:
        raise ValueError(f"{value!r} is a stopword: a phrase read as it would vanish from the search")
    return value


def _phrase_text(value: str) -> str:
    slots = value.split(" ")
    if slots[0] == "~" or slots[-1] == "~" or "~ ~" in value:
        raise ValueError(f"{value!r}: a gap '~' goes between two words, once")
    bad = [w for s in slots if s != "~" for w in s.split("|") if not _WORD.fullmatch(w)]
    if bad:
        raise ValueError(f"{value!r}: {', '.join(map(repr, bad))} is not a lower-case word")
    return value


Word = Annotated[str, AfterValidator(_plain_word)]
PhraseText = Annotated[str, AfterValidator(_phrase_text)]


class Phrase(BaseModel):
    """One phrase of the table: `slots` are the words each place accepts, None for a gap."""

    model_config = ConfigDict(frozen=True)

    means: str
    slots: tuple[frozenset[str] | None, ...]

    @classmethod
    def parse(cls, means: str, text: str) -> Phrase:
        return cls(means=means, slots=tuple(None if s == "~" else frozenset(s.split("|")) for s in text.split(" ")))

    @property
    def order(self) -> tuple[bool, int]:
        # exact phrases before gapped ones, longer before shorter
        return (None in self.slots, -len(self.slots))


class PhraseTable(RootModel[dict[Word, list[PhraseText]]]):
    """search_phrases.yaml: the word each listed phrase is read as."""

    @cached_property
    def phrases(self) -> tuple[Phrase, ...]:
        parsed = [Phrase.parse(means, text) for means, texts in self.root.items() for text in texts]
        return tuple(sorted(parsed, key=lambda p: p.order))

    @cached_property
    def words(self) -> frozenset[str]:
        """Every word the phrases are made of: a misspelling of one is corrected to it."""
        return frozenset(w for p in self.phrases for s in p.slots if s is not None for w in s)


def load_phrases(path: Path = PHRASES_FILE) -> PhraseTable:
    """The phrase table at `path`; DataFileError names the file and each problem."""
    return load_yaml(path, PhraseTable)


PHRASES = load_phrases()
# what the tables say, for the index: an edit to them changes how every document reads
TABLES_DIGEST = hashlib.sha256(WORDS_FILE.read_bytes() + PHRASES_FILE.read_bytes()).hexdigest()


def _match(slots: tuple[frozenset[str] | None, ...], tokens: list[str], used: list[bool], at: int) -> list[int] | None:
    """The token positions of `slots`' words, from `at` on; None when they are not there."""
    if not slots:
        return []
    first, rest = slots[0], slots[1:]
    if first is None:
        # the shortest gap first: "get it back to me, and get my list back" pairs each get with its back
        for skip in range(MAX_GAP + 1):
            if skip and (at + skip > len(tokens) or tokens[at + skip - 1] in _BREAKS):
                return None
            found = _match(rest, tokens, used, at + skip)
            if found is not None:
                return found
        return None
    if at < len(tokens) and not used[at] and tokens[at] in first:
        tail = _match(rest, tokens, used, at + 1)
        return None if tail is None else [at, *tail]
    return None


def _unaccented(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def tokens_of(text: str, fix: Fix | None = None) -> list[str]:
    """The lower-cased words and punctuation marks of `text`, each word read by `fix` if given."""
    # accents folded: the phrases are ASCII, and "spät", "notificación" are their "spat", "notificacion"
    said = _NOT_JOINED.sub("nt", _CLOCK.sub(f" {CLOCK_WORD} ", _unaccented(text.casefold())))
    # "isn't", "doesn't" are the phrases' "isnt", "doesnt" (split at the apostrophe, no phrase read them)
    found = _TOKEN.findall(said)
    return [fix(t) for t in found] if fix is not None else found


def read_phrases(text: str, table: PhraseTable = PHRASES, fix: Fix | None = None) -> list[str]:
    """The lower-cased words of `text`, each phrase of `table` replaced by the word it means;
    `fix` (flows/support/spelling.py) reads each word first, so a misspelt phrase still reads."""
    tokens = tokens_of(text, fix)
    out: list[str | None] = list(tokens)
    used = [False] * len(tokens)
    at: dict[str, list[int]] = {}
    for i, token in enumerate(tokens):
        at.setdefault(token, []).append(i)
    for phrase in table.phrases:
        first = phrase.slots[0] if phrase.slots else None
        # only where the phrase's first word stands: one pass over every position for every
        # phrase took seconds on a message of 4,000 dots
        if first is None:
            starts: Iterable[int] = range(len(tokens))
        else:
            starts = sorted(i for word in first & at.keys() for i in at[word])
        for start in starts:
            hit = _match(phrase.slots, tokens, used, start)
            if hit is None:
                continue
            out[hit[0]] = phrase.means
            for i in hit[1:]:
                out[i] = None
            for i in hit:
                used[i] = True
    return [t for t in out if t is not None and t not in _BREAKS]


def words(text: str, fix: Fix | None = None, table: PhraseTable = PHRASES) -> list[str]:
    """The words of `text` that can carry meaning, phrases read as their word: no stopwords. A query
    is read with `table` holding the concepts as well (flows/support/concepts.py, QUERY_PHRASES)."""
    return [w for w in read_phrases(text, table, fix) if w not in STOPWORDS]


def vague_terms(text: str, fix: Fix | None = None, table: PhraseTable = PHRASES) -> list[str]:
    """The vague words of `text`, each once: they never find an article, but an article found by
    the other words that holds them too is the better answer ("reminder wrong": of the articles
    "reminder" finds, the late-reminders one says "wrong")."""
    return list(dict.fromkeys(w for w in words(text, fix, table) if w in VAGUE))[:MAX_TERMS]


def query_terms(text: str, fix: Fix | None = None, table: PhraseTable = PHRASES) -> list[str]:
    """The words of `text` worth searching for: lower-cased, no stopwords, each once, in order."""
    seen = dict.fromkeys(w for w in words(text, fix, table) if (len(w) > 1 or w.isdigit()) and w not in VAGUE)
    return list(seen)[:MAX_TERMS]
