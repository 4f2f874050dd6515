"""An answer that names where the problem happens, when another article is for that place.

"my reminders are not going off on my phone" finds "Notifications not arriving on Android" (its
symptoms say "phone"); at its first question, "Which phone model do you use?", the user says "its an
iphone". Asking "Which Android version?" next would clarify the wrong article: the answer names a
place (a make or a system the product runs on: the concept table's `devices`, `KnowledgeBase.places`)
that the article being clarified never names, in its title, tags or questions, while exactly one other
article names it and is about the same thing (a word of its title or tags that is no place, such as
"notifications"). The clarification then goes on with that article, from its first question, and says
so. A place the article names ("pixel" is a cue of its phone question), or one that no sibling article
is for ("a samsung laptop" at the sync article), stays an answer.
"""

from __future__ import annotations

import re
from functools import cache

from engine import StepContext
from engine.extract import fold
from flows.support.concepts import CONCEPTS_NAME, load_concepts
from flows.support.kb import SHIPPED_KB, Document, KnowledgeBase, open_kb
from flows.support.questions import ClarificationSlots
from flows.support.rerank import stems
from flows.support.terms import STOPWORDS, VAGUE

_WORD = re.compile(r"[^\W_]+")


def _stems(*texts: str) -> set[str]:
    return set(stems(w for t in texts for w in _WORD.findall(fold(t))))


def _names(doc: Document) -> set[str]:
    """What an article names: its title, tags, and its questions' words, choices and cues."""
    asked = [part for q in doc.clarifying_questions for part in (q.text, *q.choices, *q.cues)]
    synonyms = [w for q in doc.clarifying_questions for words in q.synonyms.values() for w in words]
    return _stems(doc.title, *doc.tags, *asked, *synonyms)


# "or", "a", "app": words any two titles may share ("Import tasks from Todoist, Trello or a CSV file",
# "Notifications not arriving on iPhone or iPad") say nothing of what either is about
_SAY_NOTHING = frozenset(stems(STOPWORDS | VAGUE))


def _about(doc: Document, places: frozenset[str], ours: frozenset[str] = frozenset()) -> set[str]:
    """What an article is about: the words of its title and tags that name no place, nor are stopwords,
    vague words or the product's own (`ours`: "Delete your Tasklane account" and "Add a Tasklane widget
    to your home screen" are about different things)."""
    return _stems(doc.title, *doc.tags) - places - _SAY_NOTHING - ours


def other_place_article(kb: KnowledgeBase, doc_id: str, text: str) -> Document | None:
    """The one article for the place `text` names, when the article `doc_id` names no such place and
    that article is about the same thing; None otherwise."""
    current = kb.documents.get(doc_id)
    if current is None:
        return None
    places = kb.places
    named = _stems(text) & places
    if not named or named & _names(current):
        return None
    ours = kb.ours
    topic = _about(current, places, ours)
    found = [
        doc
        for doc in kb.documents.values()
        if doc.id != doc_id and named & _stems(doc.title, *doc.tags) and topic & _about(doc, places, ours)
    ]
    return found[0] if len(found) == 1 else None


def switch_article(ctx: StepContext[ClarificationSlots]) -> str | None:
    """The aside's handler: the clarification starts again with the article for the place named
    ("switch"), or None: the message is an answer."""
    s = ctx.slots
    kb = open_kb(ctx.resources.kb or SHIPPED_KB, ctx.store_url)
    doc = other_place_article(kb, s.doc, ctx.text)
    if doc is None:
        return None
    ctx.event("search", f"{ctx.text!r} names where: {s.doc} -> {doc.id}")
    s.doc, s.title, s.body = doc.id, doc.title, doc.body
    s.questions, s.requires_handoff = list(doc.clarifying_questions), doc.requires_handoff
    s.current_index, s.answers, s.parsed, s.skipped, s.given = 0, {}, {}, [], {}
    s.opened = False  # the next route names the article, as for the first one
    return "switch"


@cache
def _shipped_places() -> frozenset[str]:
    return frozenset(_stems(*load_concepts(SHIPPED_KB / CONCEPTS_NAME).devices)) - _stems("device")


def names_a_place(text: str) -> bool:
    """The aside's cheap rule: the message names a make or system of the shipped help centre's devices
    (a knowledge base of one's own lists its own: the handler reads that one's)."""
    return bool(_stems(text) & _shipped_places())
