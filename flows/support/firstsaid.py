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
    BREAKS,
    PRODUCT_OBJECTS,
    THINGS_OF,
    Subjects,
    Words,
    clause_starts,
    reads_as_english,
    words_said,
    worldwide,
)
from flows.support.terms import STOPWORDS, VAGUE, Fix

# the words between the thing and the word it may modify ("my grandmothers old ipad", "a revolut
# virtual card"), as for a device's possessors (flows/support/subject.py, MAX_POSSESSORS)
MAX_BEFORE_HEAD = 2
# Where what is told of the thing starts, said without an apostrophe ("wont", "cant"; the stopwords
# hold "dont", "doesnt", and "won", "can" of "won't", "can't" split) or as the aspect verb people put
# first ("keeps crashing"): a word of the article's title or tags after them is the verb told of the
# thing ("my fridge wont connect"), not the thing it modifies ("my work calendar").
TOLD = frozenset({"wont", "cant", "keeps", "keep", "kept", "never"})
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
    said = words_said(text, fix)
    if not reads_as_english(said) or subjects.ours.intersection(said) or PRODUCT_OBJECTS.intersection(said):
        return None
    return thing_said_first(said, covers, subjects.devices)


def named_first(subjects: Subjects, text: str, fix: Fix | None = None, doc_id: str | None = None) -> str | None:
    """Another product said first in a clause, bare or after a determiner, when what is told of it is
    no problem the article found (`doc_id`) explains of it: "outlook" in "outlook keeps crashing on
    startup" (the crash article never says Outlook), "todoist reminders arrive late", and "trello" in
    "trello notifications stopped" (the import article names Trello as what tasks come from, and the
    notifications are another article's thing about the app). None when the article says the name and
    the thing told of it ("google calendar wont connect": connecting is the calendar article's), for a
    request naming the product or its objects otherwise, and for one reading as another language."""
    covers = subjects.covers.get(doc_id) if doc_id is not None else None
    if covers is None:
        return None
    said = words_said(text, fix)
    if not reads_as_english(said):
        return None
    for at, word in enumerate(said[:-1]):
        if not clause_starts(said, at):
            continue
        if word in THINGS_OF:
            at += 1
        name = said[at]
        # what is told of it: the word after it (and after the rest of a name the titles write: "google
        # calendar"), or after "wont", "keeps"
        end = at + 1
        while end < len(said) and said[end] in subjects.named:
            end += 1
        told = said[end : end + 2]
        if told and told[0] in TOLD:
            told = told[1:]
        if not told or not _a_name(subjects, name) or not _another_thing(subjects, covers, doc_id, name, told[0]):
            continue
        # the product's objects said as the name's own ("todoist reminders", "trello tasks") are the
        # other product's; said anywhere else, the request is about ours ("outlook crashes my tasklane")
        elsewhere = said[:at] + said[end + 1 :]
        if subjects.ours.intersection(elsewhere) or PRODUCT_OBJECTS.intersection(said):
            return None
        return name
    return None


def _another_thing(subjects: Subjects, covers: Words, doc_id: str | None, name: str, told: str) -> bool:
    """Whether `told`, said of the product `name`, is no problem the article found explains of it: the
    article is about what the app does and never says the name, and `told` is its thing or what is
    told ("keeps crashing"); or the article names it, never says `told`, and `told` is what another
    article about the app is about ("trello notifications" of the import article)."""
    if not covers.knows(name):
        return doc_id in subjects.apps and (covers.heading(told) or told in TOLD or told.endswith("ing"))
    if covers.knows(told):
        return False  # "outlook sync": the calendar article says what it explains of Outlook
    return any(subjects.covers[a].heading(told) for a in subjects.apps if a != doc_id)


def _a_name(subjects: Subjects, word: str) -> bool:
    """Whether `word` names another product: one a title names, or a name the world shares
    (flows/support/subject.py). A word only rare in English is as often whose thing it is ("my
    daughters iphone")."""
    if not word.isalpha() or word in STOPWORDS or word in VAGUE or word in subjects.devices:
        return False
    return word in subjects.named or worldwide(word)


def thing_said_first(said: list[str], covers: Words, devices: frozenset[str]) -> str | None:
    """The first thing a clause of `said` (a request's words, spelling fixed) names that `covers` (what
    the article found covers) does not: "router" in "my router keeps restarting". None when every
    clause's thing said first is covered, a device, or names one or a word of the article's headings."""
    for at, word in enumerate(said[:-1]):
        if word not in THINGS_OF or not clause_starts(said, at):
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
        if word in STOPWORDS or word in BREAKS or word in TOLD:
            return False
        if word in devices or covers.heading(word) or STEMMER.stemWord(word) in _VAGUE:
            return True
    return False
