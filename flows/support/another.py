"""A new request said while the clarifying questions run ("actually my payment failed too").

At a free-text question any words are an answer, so without this the new request would be
stored as "Can you describe the error?" and never looked at. A message is taken as a new
request only when it says it adds something ("too", "also", "another thing", "btw") and the
knowledge base finds another article for it than the one being clarified; then it is kept,
the question is asked again, and the request is answered after the current article.
Anything else ("actually the error says sync failed") stays an answer.
"""

from __future__ import annotations

import re

from engine import StepContext
from flows.support.handoff import answer_text
from flows.support.kb import SHIPPED_KB, Document, open_kb
from flows.support.questions import ClarificationSlots, current

# words that add a topic to the one under way
ADDS = re.compile(
    r"\b(?:too|also|as well|another (?:thing|question|problem|issue)|one more thing|btw|by the way|oh and|"
    r"and also|separately|unrelated|(?:a )?different (?:question|problem|issue)|on top of that)\b",
    re.IGNORECASE,
)


def adds_a_topic(text: str) -> bool:
    return ADDS.search(text) is not None


def _other_article(ctx: StepContext[ClarificationSlots]) -> Document | None:
    kb = open_kb(ctx.resources.kb or SHIPPED_KB, ctx.store_url)
    hits = kb.search(ctx.text, limit=1)
    if not hits or hits[0].doc.id == ctx.slots.doc:
        return None
    return hits[0].doc


def new_request(ctx: StepContext[ClarificationSlots]) -> str | None:
    """The aside's handler: keep a new request for later ("", the question is asked again), or
    None (no other article: the message is an answer after all).

    Only at a free-text question: a typed one refuses the message anyway and asks again.
    """
    s = ctx.slots
    q = current(s)
    if q is None or q.type != "text" or s.later is not None:
        return None
    doc = _other_article(ctx)
    if doc is None:
        return None
    s.later = ctx.text
    ctx.event("search", f"{ctx.text!r} -> {doc.id}, kept for after this article")
    ctx.say(
        ctx.phrase(
            f"That sounds like another question (\"{doc.title}\"): I'll answer it once we're done here.", "reply:later"
        )
    )
    return ""


def answer_later(ctx: StepContext[ClarificationSlots]) -> None:
    """After the article's answer, the request kept for later: its article when it needs no
    questions (and, when it needs a person, the run hands off for it), else its title and how
    to start it."""
    s = ctx.slots
    if s.later is None:
        return
    kb = open_kb(ctx.resources.kb or SHIPPED_KB, ctx.store_url)
    hits = kb.search(s.later, limit=1)
    if not hits:  # the knowledge base changed since: the request is not lost, only unanswered
        ctx.say(f'About your other question ("{s.later}"): I could not find it in our help center any more.')
        return
    doc = hits[0].doc
    if doc.clarifying_questions:
        ctx.say(
            ctx.phrase(
                f'About your other question, I found our help article "{doc.title}". It needs a few details '
                "from you: send your question again and I'll ask them.",
                "answer:later",
            )
        )
        return
    ctx.say(ctx.phrase(answer_text(doc.title, doc.body, {}, [], lead="About your other question:"), "answer:later"))
    if doc.requires_handoff:  # as when asked on its own: the article, then a person (the run's escalation)
        s.later_doc, s.later_title = doc.id, doc.title
