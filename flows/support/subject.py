"""What a request is about, and whether the help centre says anything of it.

A request's words may match an article while its subject is something else: "connect tasklane to
slack" matches the calendar article by "connect", "my microwave keeps turning off" the crash one by
"turning off"; "slack" and "microwave" are what is asked about, and the help centre never names
them. The words around the subject are the same as in requests the articles do answer ("connect
tasklane to my gmail calendar"), so ranking cannot tell the two apart; the subject can.

The subject here is a noun phrase's head, found by the shape of the sentence, not by a list of
names:

- a noun phrase starts after a determiner ("my", "the", "a", ...) or after a word that links the
  product to another thing ("to", "with", "into", "vs"): "my dropbox", "to slack", "with zapier";
  one after a preposition of place or time ("on the subway", "in the mountains", "for a week") is
  where or when, not what, and is skipped;
- its words run up to the next stopword or punctuation. The leading words the help centre does not
  know ("gmail", "visa", "revolut") followed by a word an article's title or tags hold ("calendar",
  "card") modify that word: the phrase is about the calendar, which the help centre covers. The
  same unknown words followed by a determiner are a verb taking an object ("to resize the widget"),
  not a subject. Otherwise the unknown words are the phrase's head: "my dropbox wont sync", "to
  slack", "my electricity bill";
- the head names something the help centre does not cover when none of its words is known to the
  help centre (any article's words as written or as stems, its phrase and concept tables, the
  product's names, stopwords and vague words) and one of them is rare in English (wordfreq, Zipf
  below `RARE_ZIPF`): a rare word is a name ("slack", "zapier", "router", "passport"), a common one
  ("moment", "son", "box") is how people talk around a request the help centre may still answer.

A request with such a subject finds no article: the bot says the help centre does not cover it,
then offers a person. Spelling is fixed first ("dropbx" is the help centre's word only if it
misspells one), and the product's own names make the request about the product.
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
DETERMINERS = frozenset("my your our his her their a an the this these those".split())
# these link the product to another thing: what follows is what the request is about
LINKS = frozenset("to with into vs versus".split())
# these say where or when: the noun phrase after them is not what the request is about
ADJUNCTS = frozenset("on in at for from since during after before near while until around inside".split())
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
    """What a text says: its words as written and as stems, and the stems of its title and tags."""

    def __init__(self, written: Iterable[str], headings: Iterable[str]) -> None:
        self.written = frozenset(written)
        self.headings = frozenset(headings)
        words = self.written | STOPWORDS | VAGUE
        self._known = words | frozenset(STEMMER.stemWords(sorted(words)))

    def knows(self, word: str) -> bool:
        return not _ALPHA.fullmatch(word) or word in self._known or STEMMER.stemWord(word) in self._known

    def heading(self, word: str) -> bool:
        return STEMMER.stemWord(word) in self.headings


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
            if after is not None and after not in STOPWORDS and after not in _BREAKS and words.heading(after):
                continue  # "my gmail calendar": about the calendar
            if after in DETERMINERS:
                continue  # "to resize the widget": a verb and its object
            out.append(tuple(unknown))
        return out

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
