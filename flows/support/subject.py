"""What a request is about, and whether the help centre (and the article found) says anything of it.

A request's words may match an article while its subject is something else: "connect tasklane to
slack" matches the calendar article by "connect", "my microwave keeps turning off" the crash one by
"turning off"; "slack" and "microwave" are what is asked about, and the help centre never names
them. The words around the subject are the same as in requests the articles do answer ("connect
tasklane to my gmail calendar"), so ranking cannot tell the two apart; the subject can.

The subject here is a noun phrase's head, found by the shape of the sentence, not by a list of
names (docs/support-search.md, "What the request is about: its subject"):

- a noun phrase starts after a determiner ("my", "the", "a", ...), or after a word that links to
  another thing ("to", "with", "into", "vs") when the clause before it names the product or a word
  of an article's title or tags ("connect tasklane to slack", "sync my photos to icloud"; "since i
  flew to tokyo" is a trip). One after a preposition of place or time ("on the subway", "in the
  mountains") says where or when, not what, and is skipped;
- its head is its leading words the help centre does not know, unless they modify a word an
  article's title or tags hold, said next or after one more known word ("my gmail calendar", "a
  revolut virtual card"; an auxiliary ends the phrase: "my dropbox wont sync" is about the dropbox),
  a determiner follows them ("to resize the widget": a verb and its object) or "to" does ("i want my
  deadlines to show in my calendar": what they should do is asked);
- the head names something not covered when one of its words is rare in English (wordfreq, Zipf
  below `RARE_ZIPF`): a rare word is a name ("slack", "zapier", "router", "passport"), a common one
  ("moment", "son", "box") is how people talk around a request the help centre may still answer.

Known is judged twice: against the whole help centre (any article's words as written or as
Snowball stems, the phrase and concept tables' words, the product's names, stopwords and vague
words), then against the article the words found ("can i export to notion": the import article
names Notion, the export article does not). A request with such a subject finds no article: the
bot says the help centre does not cover it, then offers a person. Spelling is fixed first, a
request naming the product is about it whatever follows a determiner ("i need to take my pills
every day, can the task repeat"), and a request that reads as another language is not judged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from wordfreq import zipf_frequency

from flows.support.spelling import STEMMER
from flows.support.terms import STOPWORDS, VAGUE, Fix, tokens_of

# A word rarer than this in English, unknown to the help centre, is a name: "slack" 3.7, "dropbox"
# 3.1, "passport" 4.0, "electricity" 4.4; what people say around a request is commoner ("moment" 5.2,
# "son" 5.3, "box" 5.0). Measured on the dev splits (bench/README.md, "Search: the subject").
RARE_ZIPF = 4.5
# a noun phrase starts after these
DETERMINERS = frozenset({"my", "your", "our", "his", "her", "their", "a", "an", "the", "this", "these", "those"})
# these link the product to another thing: what follows is what the request is about
LINKS = frozenset(["to", "with", "into", "vs", "versus"])
# these say where or when: the noun phrase after them is not what the request is about ("for" is
# not one: "an app for my smart tv", "a refund for my uber ride" are about the tv and the ride)
ADJUNCTS = frozenset(
    {"on", "in", "at", "from", "since", "during", "after", "before", "near", "while", "until", "around", "inside"}
)
# what follows a noun phrase that is a clause's subject, and is no word of the phrase: "my dropbox
# wont sync" is about the dropbox, not about syncing (the words English puts between a subject and
# its verb that are not stopwords already: "is", "doesnt", "just", "still" are)
AUXILIARIES = frozenset({"keeps", "keep", "kept", "wont", "cant", "stopped", "stops", "started", "starts", "never"})
# the lengths of a shortened word ("acc" in "my acc got hacked", "notifs"): a longer unknown word is
# a word of its own
SHORT = (3, 6)
# known words looked through to the word they modify ("a revolut virtual card")
MAX_MODIFIERS = 1
# a request that reads more as one of these than as English is not judged: its words are unknown
# to an English help centre because they are another language's ("com meu marido")
OTHER_LANGUAGES = ("es", "fr", "de", "it", "pt")
_BREAKS = frozenset(".,;!?")
_ALPHA = re.compile(r"[a-z]+")
# "to-dos", "e-mail", "wi-fi" are one word each: "dos" after "to" is no subject
_HYPHENATED = re.compile(r"(?<=\w)-(?=\w)")


@lru_cache(maxsize=4096)
def _zipfs(word: str) -> tuple[float, ...]:
    return tuple(zipf_frequency(word, lang, wordlist="small") for lang in ("en", *OTHER_LANGUAGES))


def reads_as_english(words: list[str]) -> bool:
    table = [_zipfs(w) for w in words if _ALPHA.fullmatch(w)]
    english = sum(z[0] for z in table)
    return all(english >= sum(z[i] for z in table) for i in range(1, len(OTHER_LANGUAGES) + 1))


class Words:
    """What a text says: its words as written and as stems, the stems of its title and tags
    (`headings`), and its title's and tags' words as written (`titles`), which a clipped or
    shortened word of a request may stand for ("acc", "acct": account; "notifs", "pwd")."""

    def __init__(self, written: Iterable[str], headings: Iterable[str], titles: Iterable[str] = ()) -> None:
        self.written = frozenset(written)
        self.headings = frozenset(headings)
        self.titles = frozenset(titles)
        words = self.written | STOPWORDS | VAGUE
        self._known = words | frozenset(STEMMER.stemWords(sorted(words)))

    def knows(self, word: str) -> bool:
        if not _ALPHA.fullmatch(word) or word in self._known or STEMMER.stemWord(word) in self._known:
            return True
        return any(_shortens(word, title) for title in self.titles)

    def heading(self, word: str) -> bool:
        return STEMMER.stemWord(word) in self.headings


def _shortens(short: str, word: str) -> bool:
    """Whether `short` is `word` clipped or shortened as people type it: its first letter, then
    letters of it in order, at least two fewer ("acc", "acct" of "account"; "pwd" of "password")."""
    if not SHORT[0] <= len(short) <= SHORT[1] or len(word) < len(short) + 2 or short[0] != word[0]:
        return False
    rest = iter(word[1:])
    return all(letter in rest for letter in short[1:])


class Subjects:
    """The help centre's words (`centre`: every article's, the phrase and concept tables', the
    product's names) and each article's (`articles`), to tell a request's subject they cover from
    one they never name; `ours` are the product's names."""

    def __init__(self, centre: Words, articles: dict[str, Words] | None = None, ours: Iterable[str] = ()) -> None:
        self.centre = centre
        self.articles = articles or {}
        self._ours = frozenset(ours)

    def heads(self, text: str, fix: Fix | None = None, words: Words | None = None) -> list[tuple[str, ...]]:
        """The heads of the request's noun phrases that `words` (the help centre's) do not hold."""
        said = tokens_of(_HYPHENATED.sub("", text), fix)
        if not reads_as_english(said):
            return []
        words = words or self.centre
        # "my pills" in "i need to take my pills every day, can the task repeat": a request naming
        # the product is about it, and the thing after "my" is what the task is about
        ours = bool(self._ours & set(said))
        out: list[tuple[str, ...]] = []
        for start in range(len(said)):
            opens = self._opens(said, start)
            if opens is None or (opens == "determiner" and ours):
                continue
            unknown: list[str] = []
            at = start
            while at < len(said) and said[at] not in STOPWORDS and said[at] not in _BREAKS:
                if said[at] in self._ours or words.knows(said[at]):
                    break
                unknown.append(said[at])
                at += 1
            if not unknown:
                continue
            after = said[at] if at < len(said) else None
            if self._modifies(said, at, words):
                continue  # "my gmail calendar", "a revolut virtual card": about the calendar, the card
            if after in DETERMINERS:
                continue  # "to resize the widget": a verb and its object
            if after == "to" and opens == "determiner":
                continue  # "i want my deadlines to show in my calendar": what they should do is asked
            out.append(tuple(unknown))
        return out

    @staticmethod
    def _modifies(said: list[str], at: int, words: Words) -> bool:
        """Whether the words before `at` modify a word an article's title or tags hold, said at `at` or
        after other modifiers ("virtual" in "a revolut virtual card"); an auxiliary ends a noun phrase
        ("my spotify keeps crashing")."""
        for word in said[at : at + 1 + MAX_MODIFIERS]:
            if word in STOPWORDS or word in _BREAKS or word in AUXILIARIES:
                return False
            if words.heading(word):
                return True
        return False

    def _opens(self, said: list[str], at: int) -> str | None:
        """What starts a noun phrase the request is about at `at`: a "link" or a "determiner"; None
        when none starts there."""
        if at == 0 or said[at] in STOPWORDS or said[at] in _BREAKS:
            return None
        before = said[at - 1]
        # "connect tasklane to slack", "sync my photos to icloud": the link goes from the product or
        # from what an article is about, said earlier in the clause; "since i flew to tokyo" is a trip
        if before in LINKS and self._from_ours(said, at - 1):
            return "link"
        if before in DETERMINERS and not (at >= 2 and said[at - 2] in ADJUNCTS):
            return "determiner"
        return None

    def _from_ours(self, said: list[str], link: int) -> bool:
        """Whether the clause before the link at `link` names the product or an article's heading word."""
        for word in reversed(said[:link]):
            if word in _BREAKS:
                return False
            if word in self._ours or (word not in STOPWORDS and self.centre.heading(word)):
                return True
        return False

    def outside(self, text: str, fix: Fix | None = None, doc_id: str | None = None) -> tuple[str, ...] | None:
        """The subject of the request that the help centre never names ("slack" in "connect tasklane
        to slack"), or, given the article found, that the article never names; None when it does."""
        for words in (self.centre, self.articles.get(doc_id) if doc_id is not None else None):
            if words is None:
                continue
            for head in self.heads(text, fix, words):
                if any(zipf_frequency(w, "en") < RARE_ZIPF for w in head if len(w) > 2):
                    return head
        return None
