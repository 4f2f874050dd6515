"""Reading a misspelt query word as the word of the help centre it was meant to be.

The vocabulary is the index's own: every word of the documents as indexed (titles, tags,
bodies, question cues), plus the words the phrase table reads ("accidentally", "rings"), so a
typo inside a phrase still makes the phrase. A query word is corrected only when it is unknown:
not in the vocabulary, not matched by the index through its stem ("crashing" matches "crash"),
and not a common English word ("love" is not a typo of "move"). Its correction is the nearest
vocabulary word within an edit budget that grows with the word's length (rapidfuzz's optimal
string alignment distance: a letter added, dropped or changed, or two neighbours swapped),
word against word or stem against stem (snowballstemmer);
ties go to a title or tag word, then to the word more documents hold.

Two readings are not typos, and a word that has one is read as typed:

- a changed first letter: people mistype inside a word, rarely its first letter (two first letters
  swapped, "rfund" to "refund", is still a typo); a word whose nearest vocabulary word starts with
  another letter is another word, a foreign one or a name ("airtable" is not "portable", "jour"
  not "your", "mache" not "each");
- two common English words run together, when the correction needs two edits: a space left out is one
  edit, so "clickup" (click up), "dropbox", "basecamp" read nearer as two words than as the
  vocabulary word two edits away ("click"); they are names, not typos of the help centre's words.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterable

import snowballstemmer
from rapidfuzz import process
from rapidfuzz.distance import OSA
from wordfreq import zipf_frequency


class CachedStemmer:
    """Snowball's English stemmer, remembering what it stemmed: a knowledge base stems the same
    words for every article (its stopwords, its vocabulary) and every index of the same folder,
    and the pure-Python stemmer costs ~70 µs a word (a build stemmed 30,000 words)."""

    LIMIT = 200_000  # words kept; past it, stemmed each time (no request grows it without bound)

    def __init__(self, language: str) -> None:
        self._stemmer = snowballstemmer.stemmer(language)
        self._lock = threading.Lock()  # the stemmer keeps its word on the instance while it works
        self._stems: dict[str, str] = {}

    def stemWord(self, word: str) -> str:
        found = self._stems.get(word)
        if found is None:
            with self._lock:
                found = self._stemmer.stemWord(word)
            if len(self._stems) < self.LIMIT:
                self._stems[word] = found
        return found

    def stemWords(self, words: Iterable[str]) -> list[str]:
        return [self.stemWord(w) for w in words]


# the Snowball English stemmer: SQLite's porter tokenizer and PostgreSQL's english configuration
# stem alike, close enough for comparing a misspelt word's stem with the vocabulary's
STEMMER = CachedStemmer("english")
# Edits allowed by word length: one from 4 letters ("sycn", "refnd"), two from 7 ("chrashing",
# "notifcatons"). Two in a short word would read "bake" as "back".
MAX_EDITS = {4: 1, 7: 2}
# A word this common in English is what the user meant, not a typo ("love", "fine", "bake").
COMMON_WORD_ZIPF = 3.0
# Each half of a word run together from two ("click"+"up", "air"+"table") is at least this common in
# English: the small wordlist holds fragments ("nt", "ch", "ing") below it, so "donnt" or "syncng"
# are not read as two words.
COMPOUND_ZIPF = 4.0
COMPOUND_PART = 2  # letters of each half, at least


def edit_budget(word: str) -> int:
    return max((edits for length, edits in MAX_EDITS.items() if len(word) >= length), default=0)


class Speller:
    """Corrects words against a fixed vocabulary; `known(word)` asks the index about stems."""

    def __init__(
        self, words: Iterable[str], preferred: Iterable[str], known: Callable[[str], bool], keep: Iterable[str] = ()
    ) -> None:
        # read as they are: stopwords and vague words ("important" is not a typo of "import")
        self._keep = frozenset(keep)
        self._kept_stems = {STEMMER.stemWord(w): w for w in sorted(self._keep, key=len, reverse=True)}
        self._counts = Counter(words)
        self._preferred = frozenset(preferred)
        self._choices = sorted(self._counts)
        self._by_stem: dict[str, list[str]] = {}
        for w in self._choices:
            self._by_stem.setdefault(STEMMER.stemWord(w), []).append(w)
        self._known = known
        self._cache: dict[str, str] = {}

    def __call__(self, word: str) -> str:
        """`word`, or the vocabulary word it misspells."""
        if word in self._cache:
            return self._cache[word]
        fixed = self._correct(word)
        if len(self._cache) < 10_000:
            self._cache[word] = fixed
        return fixed

    def _correct(self, word: str) -> str:
        budget = edit_budget(word)
        if not budget or not word.isalpha() or word in self._counts or word in self._keep:
            return word
        if zipf_frequency(word, "en", wordlist="small") >= COMMON_WORD_ZIPF or self._known(word):
            return word
        # the word against the words, and its stem against theirs: "chrashing" is four edits from
        # "crashes" but one from its stem, "crash"
        candidates = [(str(w), int(d)) for w, d, _ in self._near(word, self._choices, budget)]
        stem = STEMMER.stemWord(word)
        for found, d, _ in self._near(stem, list(self._by_stem), edit_budget(stem)):
            candidates += [(w, int(d)) for w in self._by_stem[str(found)]]
        # a typo keeps the word's first letter ("airtable" is no typo of "portable")
        candidates = [m for m in candidates if _first_letter_kept(word, m[0])]
        if not candidates:
            return word
        best, edits = min(candidates, key=lambda m: (m[1], m[0] not in self._preferred, -self._counts[m[0]], m[0]))
        if edits > 1 and compound(word):
            return word  # two words run together, one edit away: a name ("clickup" is not "click")
        # an inflected form of a word read as it is ("upate": the sync tag "updating", whose stem is
        # "update"'s) is that word: as vague as "update" itself, not a tag that finds an article; a
        # word that is its own stem is no form of another ("import" is not "important")
        stem = STEMMER.stemWord(best)
        return self._kept_stems.get(stem, best) if stem != best else best

    @staticmethod
    def _near(word: str, choices: list[str], budget: int) -> list[tuple[str, int, int]]:
        if not budget:
            return []
        return [(str(w), int(d), int(i)) for w, d, i in process.extract(
            word, choices, scorer=OSA.distance, score_cutoff=budget, limit=None
        )]  # fmt: skip


def _first_letter_kept(word: str, fixed: str) -> bool:
    """Whether the correction keeps the word's first letter, or only swaps its first two ("rfund")."""
    return word[0] == fixed[0] or (len(word) > 1 and len(fixed) > 1 and word[:2] == fixed[1::-1])


def compound(word: str) -> bool:
    """Whether `word` is two common English words run together ("clickup", "airtable", "dropbox")."""
    return any(
        zipf_frequency(word[:i], "en") >= COMPOUND_ZIPF and zipf_frequency(word[i:], "en") >= COMPOUND_ZIPF
        for i in range(COMPOUND_PART, len(word) - COMPOUND_PART + 1)
    )
