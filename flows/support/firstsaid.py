"""The thing a request tells its problem of, said first in its clause, for an article about what the app does.

An article such as "The app crashes or closes on startup" or "Tasks are not syncing between devices"
explains something the app, or a device running it, does wrong. A request telling the same words of
another thing is about that thing: "my router keeps restarting", "the google play store keeps
crashing", "my garage door opener wont connect" match the crash and calendar articles by what
happens ("restarting", "crashing", "connect"), and what it happens to is no thing the article covers.
Other articles explain what happens to the user's data, account or money, which anyone or anything may
be told of ("my daughter deleted my stuff", "my boss needs a csv", "my revolut card gets refused"), so
only the articles that say `subject: app` in their front matter are judged
(docs/support-search.md, "What happens to another thing").

The thing said first is the word after a determiner that starts a clause (the message, a mark, "and",
"but", "so", "hi"): not one after "since", "when", "before" ("since the last update", "before the trial
ends" say when, and the clause's subject is elsewhere). It is another thing when the article does not
cover it (its own words, as written and stemmed, and the everyday words the concept table reads as its
title's or tags'), it is not a device the product runs on, and the next words before what is told of
it name no device and no word of the article's title or tags: "my kids tablet", "my work calendar", "my
revolut virtual card" are whose or which device, calendar or card.
"""

from __future__ import annotations

from flows.support.spelling import STEMMER
from flows.support.subject import (
    _HYPHENATED,
    PRODUCT_OBJECTS,
    SUBJECT_AFTER,
    THINGS_OF,
    Subjects,
    Words,
    reads_as_english,
)
from flows.support.terms import STOPWORDS, VAGUE, Fix, tokens_of

# the words between the thing and the word it may modify ("my grandmothers old ipad", "a revolut
# virtual card"), as for a device's possessors (flows/support/subject.py, MAX_POSSESSORS)
MAX_BEFORE_HEAD = 2
# Where what is told of the thing starts, said without an apostrophe ("wont", "cant"; the stopwords
# hold "dont", "doesnt", and "won", "can" of "won't", "can't" split) or as the aspect verb people put
# first ("keeps crashing"): a word of the article's title or tags after them is the verb told of the
# thing ("my fridge wont connect"), not the thing it modifies ("my work calendar").
TOLD = frozenset({"wont", "cant", "keeps", "keep", "kept", "never"})
_BREAKS = frozenset(".,;!?")
# the vague words' stems: the product's objects and what is done to them ("tasks", "changes", "stuff"),
# whose a thing before them says ("my husbands changes dont sync", "my wifes tasks")
_VAGUE = frozenset(STEMMER.stemWords(sorted(VAGUE)))


def told_of(subjects: Subjects, text: str, fix: Fix | None = None, doc_id: str | None = None) -> str | None:
    """The thing a request tells the article's problem of, said first in a clause, when the article
    found (`doc_id`) is about what the app does and does not cover that thing: "router" in "my router
    keeps restarting" (the crash article). None for an article about the user's data, account or money,
    and for a request naming the product or its objects, or reading as another language."""
    covers = subjects.covers.get(doc_id) if doc_id is not None and doc_id in subjects.apps else None
    if covers is None:
        return None
    said = tokens_of(_HYPHENATED.sub("", text), fix)
    if not reads_as_english(said) or subjects.ours.intersection(said) or PRODUCT_OBJECTS.intersection(said):
        return None
    return thing_said_first(said, covers, subjects.devices)


def thing_said_first(said: list[str], covers: Words, devices: frozenset[str]) -> str | None:
    """The first thing a clause of `said` (a request's words, spelling fixed) names that `covers` (what
    the article found covers) does not: "router" in "my router keeps restarting". None when every
    clause's thing said first is covered, a device, or names one or a word of the article's headings."""
    for at, word in enumerate(said[:-1]):
        if word not in THINGS_OF or not (at == 0 or said[at - 1] in _BREAKS or said[at - 1] in SUBJECT_AFTER):
            continue
        thing = said[at + 1]
        if not thing.isalpha() or thing in STOPWORDS or thing in VAGUE or thing in devices or covers.knows(thing):
            continue
        if not _names_a_head(said[at + 2 : at + 2 + MAX_BEFORE_HEAD], covers, devices):
            return thing
    return None


def _names_a_head(after: list[str], covers: Words, devices: frozenset[str]) -> bool:
    """Whether the words after the thing, before what is told of it, name a device or a word of the
    article's title or tags that the thing modifies ("my kids tablet", "my revolut virtual card")."""
    for word in after:
        if word in STOPWORDS or word in _BREAKS or word in TOLD:
            return False
        if word in devices or covers.heading(word) or STEMMER.stemWord(word) in _VAGUE:
            return True
    return False
