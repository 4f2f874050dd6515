"""What a request asks the article's action done to: the object of the verb an article's title names.

An article's title says an action and what it is done to: "Export your tasks to CSV or JSON", "Import
tasks from Todoist", "Share a list with other people", "Restore deleted tasks", "Reset a forgotten
password". A request asking the same action of another thing matches the article by its verb alone:
"export my photos to my computer", "how do i share videos with my friends", "restore my iphone from
an icloud backup", "refund my steam game" are asked of photos, videos, a phone and a game, which the
article never speaks of; giving it is the costly mistake.

The object is the noun phrase right after the verb and a determiner ("my", "the", "a"; "all my"), or
bare after a verb said after "to", "i", "can i" ("how do i share photos"): up to
the first grammar word, mark or determiner ("my contacts to csv": contacts). Its head, the last of its
words, is what the action is asked of. It is another thing when the article found never says it
(as written or stemmed, nor the everyday words the concept table reads as its title's or tags'), and
it is not the product's (its names, its objects: "my stuff", "my lists") nor a vague word; and no
other article covers it either, unless it is a device or a name the world shares: people call the
product's things their own way ("share my project", "sync my notes", "a refund for my membership"),
and the help centre's other articles say those words. No list: what an article covers is its own text
(docs/support-search.md, "What is done to what").
"""

from __future__ import annotations

from flows.support.spelling import STEMMER
from flows.support.subject import (
    BREAKS,
    DETERMINERS,
    IRREGULAR_PAST,
    POSSESSIVES,
    PRODUCT_OBJECTS,
    Subjects,
    Words,
    clause_starts,
    reads_as_english,
    words_said,
    worldwide,
)
from flows.support.terms import STOPWORDS, VAGUE, Fix

# the words of the object's noun phrase ("my old work contacts"); a longer run is told of the thing
MAX_OBJECT = 3
# what a bare object follows: a verb after these is asked ("how do i share photos", "i want to import
# photos"); elsewhere a word of a title and a bare word are a name for a problem ("sync error",
# "payment error", "airplane mode")
ASKING = frozenset({"to", "i", "we", "can", "please", "how"})
# what may follow a bare object: a link to where it goes or comes from ("share photos with", "import
# photos from"); another word after a bare one is a clause ("to reset says it expired")
_AFTER_BARE = frozenset({"with", "from", "to", "into", "onto", "on", "in"})
_VAGUE = frozenset(STEMMER.stemWords(sorted(VAGUE)))


def acted_on(subjects: Subjects, text: str, fix: Fix | None = None, doc_id: str | None = None) -> str | None:
    """The head of what a request asks the action of the article found (`doc_id`) done to, when the
    article never speaks of it: "photos" in "export my photos to my computer". None when the article
    or another one covers it (not a device nor a name), for a request naming the product, and for one
    reading as another language."""
    covers = subjects.covers.get(doc_id) if doc_id is not None else None
    if covers is None:
        return None
    said = words_said(text, fix)
    if not reads_as_english(said) or subjects.ours.intersection(said):
        return None
    head = object_unknown(said, covers, paid_for=doc_id not in subjects.apps)
    # what another article covers is the product's, whatever this one calls it ("share my project", "sync
    # my notes", "a refund for my membership"); a device or a name the article never speaks of is not
    # ("restore my phone", "use excel offline": the import article's format)
    if head is None or not (head in subjects.devices or worldwide(head) or not subjects.covered(head)):
        return None
    return head


def object_unknown(said: list[str], covers: Words, paid_for: bool = False) -> str | None:
    """The head of the first object of a verb of `covers`' title or tags in `said` that `covers` does
    not know; None when there is none. With `paid_for` (an article about the user's money, data or
    account, not about what the app does), a title's or tag's noun then "for" and a determiner names
    what it is for too ("a refund for my concert tickets"); of an app's thing, "for" says which ones
    ("reminders for my meetings")."""
    for at, word in enumerate(said[:-1]):
        if not word.isalpha() or word in STOPWORDS or not covers.heading(word):
            continue
        if paid_for and said[at + 1] == "for" and at + 2 < len(said) and said[at + 2] in DETERMINERS:
            phrase = _object(said, at + 2, covers)
        elif _asked(said, at):
            phrase = _object(said, at + 1, covers)
        else:
            continue
        if not phrase:
            continue
        head = phrase[-1]
        if head in PRODUCT_OBJECTS or head in VAGUE or STEMMER.stemWord(head) in _VAGUE:
            continue
        if any(covers.knows(w) or covers.heading(w) for w in phrase):
            # "share my grocery list": a word of what the article covers, with whose or which it is
            return None
        return head
    return None


def _asked(said: list[str], at: int) -> bool:
    """Whether the word at `at` is a verb asked for: first in its clause (an imperative), or after
    ASKING; not told as done ("i changed jobs", "the tasks i trashed": what happened, not what is asked)."""
    word = said[at]
    if word.endswith("ed") or word in IRREGULAR_PAST:
        return False
    return clause_starts(said, at) or said[at - 1] in ASKING


def _object(said: list[str], at: int, covers: Words) -> list[str]:
    """The noun phrase said at `at` as a verb's object: after a determiner, or bare when the verb is
    asked and a link, a word of the article's title or tags or the message's end follows it ("how do i
    share photos with my family", "can i sync contacts", "can i use google docs offline")."""
    start = at + (said[at] == "all" and at + 1 < len(said) and said[at + 1] in POSSESSIVES)
    determined = start < len(said) and said[start] in DETERMINERS
    start += determined
    phrase: list[str] = []
    for word in said[start : start + MAX_OBJECT]:
        if not word.isalpha() or word in STOPWORDS or word in DETERMINERS:
            break
        if phrase and not determined and covers.heading(word):
            break  # "use google docs offline": what the bare object is used for
        phrase.append(word)
    end = start + len(phrase)
    if not determined and not (at >= 2 and said[at - 2] in ASKING):
        return []  # "sync error", "cancel trial": a title's word before a bare one names a problem
    if not determined and not (
        end == len(said) or said[end] in BREAKS or said[end] in _AFTER_BARE or covers.heading(said[end])
    ):
        return []
    return phrase
