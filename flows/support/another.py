"""A new request said while the clarifying questions run ("actually my payment failed too").

At a free-text question any words are an answer, so without this the new request would be
stored as "Can you describe the error?" and never looked at. A message is taken as a new
request only when it says it adds something ("too", "also", "another thing", "btw";
flows/support/data/new_topic.yaml) and the knowledge base finds another article for it than
the one being clarified; then it is kept and answered after the current article. Anything
else ("actually the error says sync failed") stays an answer.

The same message often answers the question first: "iphone 12, also my reminders dont ring"
at "Which device is missing the changes?". The words before the clause that adds the topic
are then read as the answer, by the question's own rules, and the flow moves on; only when
they answer nothing (or there are none) is the question asked again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from engine import StepContext
from flows.shared.datafile import WordTuple, load_yaml
from flows.support import sections
from flows.support.ahead import given_reader, read_answer
from flows.support.handoff import say_answer
from flows.support.kb import SHIPPED_KB, Question, open_kb
from flows.support.lookup import Lookup, look_up
from flows.support.questions import ANSWER_SLOTS, Answer, ClarificationSlots, answer_parser, current

NEW_TOPIC_FILE = Path(__file__).with_name("data") / "new_topic.yaml"


class NewTopicWords(BaseModel):
    """new_topic.yaml: what says a topic is added, and what starts a clause."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    leads: WordTuple
    trails: WordTuple
    joins: WordTuple


def load_new_topic_words(path: Path = NEW_TOPIC_FILE) -> NewTopicWords:
    """The word lists of `path`; DataFileError names the file and each problem."""
    return load_yaml(path, NewTopicWords)


def _alternatives(phrases: tuple[str, ...]) -> str:
    # longest first, so "and also" is not read as "also"
    spelled = (r"\s+".join(map(re.escape, p.split())) for p in sorted(phrases, key=len, reverse=True))
    return rf"\b(?:{'|'.join(spelled)})\b"


WORDS = load_new_topic_words()
LEADS = re.compile(_alternatives(WORDS.leads), re.IGNORECASE)
ADDS = re.compile(_alternatives(WORDS.leads + WORDS.trails), re.IGNORECASE)
# where a clause starts: after punctuation, or at a joining word
_PUNCTUATION = re.compile(r"[.,;:!?]+")
_JOIN = re.compile(_alternatives(WORDS.joins), re.IGNORECASE)
# what an answer does not end with: "android. and" is the answer "android". Matched at the
# start of the reversed text: as a search for a loose end before `$`, it was tried (and ran
# to the end of the message) at every position of "so so so ...", seconds for a long one
_LOOSE_END_REVERSED = re.compile(
    rf"(?:\s|[.,;:!?]|{_alternatives(tuple(p[::-1] for p in WORDS.joins))})+", re.IGNORECASE
)


def _without_loose_end(text: str) -> str:
    m = _LOOSE_END_REVERSED.match(text[::-1])
    return text[: len(text) - m.end()] if m else text


def adds_a_topic(text: str) -> bool:
    return ADDS.search(text) is not None


@dataclass(frozen=True)
class Split:
    """A message cut where its new topic starts: the words before it, and the topic."""

    head: str
    topic: str


def split_new_topic(text: str) -> Split | None:
    """`text` cut at the start of the clause that adds a topic; None when nothing comes before it.

    A leading word ("btw", "another thing") starts the topic itself; a trailing one ("too",
    "also") is inside it, so the topic starts at its clause: "pixel 7, my card got declined too".
    """
    marker = ADDS.search(text)
    if marker is None:
        return None
    starts = [m.end() for m in _PUNCTUATION.finditer(text)] + [m.start() for m in _JOIN.finditer(text)]
    starts = [s for s in starts if s <= marker.start()]
    if LEADS.fullmatch(marker.group()):
        starts.append(marker.start())
    cut = max(starts, default=0)
    head = _without_loose_end(text[:cut]).strip()
    topic = text[cut:].strip()
    return Split(head, topic) if head and topic else None


def _other_request(ctx: StepContext[ClarificationSlots], text: str) -> Lookup | None:
    """How the main conversation reads `text` (flows/support/lookup.py) when it is another request: an
    article that is not the one being clarified, or a choice of articles the words match as well as each
    other, none of them that one; None otherwise. An article found only by where the request happens
    ("on my ipad too" alone), talk, nothing to search and "not covered" leave the message an answer, and
    so does a match of the article being clarified: "they never ring too" at the Android notification
    questions also matches the iPhone article, but it goes on describing the same problem."""
    kb = open_kb(ctx.resources.kb or SHIPPED_KB, ctx.store_url)
    found = look_up(kb, text, limit=3)
    if found.kind not in ("article", "topic") or not found.hits:  # a topic alone names no problem yet
        return None
    if ctx.slots.doc in {h.doc.id for h in found.hits} | {d.id for d in found.choices}:
        return None
    return found


def read_own_answer(s: ClarificationSlots, q: Question, text: str) -> Answer | None:
    """The answer `text` gives the question being asked, by its rules alone; None when it gives
    none, or one the question refuses."""
    found = answer_parser(s, q)(text)
    return found if isinstance(found, int | float | bool | str) else None


def new_request(ctx: StepContext[ClarificationSlots]) -> str | None:
    """The aside's handler: keep a new request for later and take the answer said before it
    ("answer"), or keep it and ask the question again (""), or None (no other article: the
    message is an answer after all)."""
    s = ctx.slots
    q = current(s)
    if q is None or s.later is not None:
        return None
    split = split_new_topic(ctx.text)
    # "my iphone, my ipad too" at a device question names two devices, not a new topic
    if split and read_answer(q, split.topic, s.questions) is not None:
        split = None
    found = _other_request(ctx, split.topic) if split else None
    if split and found:
        value = read_own_answer(s, q, split.head)
        if value is not None:
            ctx.say(f"Noted: {q.text} {value}.")
        _keep(ctx, split.topic, found)
        if value is None:  # "ok so, btw my card was declined": no answer before it
            return ""
        s.said = split.head
        ahead = given_reader(s)(split.head)  # "pixel 8 on android 14, also ...": the version too
        if isinstance(ahead, dict):
            s.given = ahead
        setattr(s, ANSWER_SLOTS[q.type], value)  # as the question's Ask state would fill it
        return "answer"
    # a typed question reads the whole message, and says what is wrong with an answer it cannot take
    if q.type != "text" and answer_parser(s, q)(ctx.text) is not None:
        return None
    found = _other_request(ctx, ctx.text)
    if found is None:
        return None
    _keep(ctx, ctx.text, found)
    return ""


def _keep(ctx: StepContext[ClarificationSlots], request: str, found: Lookup) -> None:
    ctx.slots.later = request
    ctx.event("search", f"{request!r} -> {found.answer}, kept for after this article")
    if found.kind == "article":
        title = found.hits[0].doc.title
        said = f"That sounds like another question (\"{title}\"): I'll answer it once we're done here."
    else:  # which of the articles it is about is asked then, as in the main conversation
        said = "That sounds like another question: I'll come back to it once we're done here."
    ctx.say(ctx.phrase(said, "reply:later"))


def answer_later(ctx: StepContext[ClarificationSlots]) -> None:
    """After the article's answer, the request kept for later: its article when it needs no
    questions (and, when it needs a person, the run hands off for it), else its title and how
    to start it."""
    s = ctx.slots
    if s.later is None:
        return
    kb = open_kb(ctx.resources.kb or SHIPPED_KB, ctx.store_url)
    found = look_up(kb, s.later, limit=3)  # as it was read when kept (`_other_request`)
    if found.kind == "topic" and found.hits:
        # articles the words match as well as each other: the main conversation asks which, once this run
        # is over, as if the request were said then
        ctx.keep(s.later)
        return
    if found.kind != "article":  # the knowledge base changed since: the request is not lost, only unanswered
        ctx.say(f'About your other question ("{s.later}"): I could not find it in our help center any more.')
        return
    doc = found.hits[0].doc
    if doc.clarifying_questions:
        # its questions are a run of their own: the engine carries the request out once this run is over,
        # as if said then, so its first question follows this answer and nobody types it again
        ctx.keep(s.later)
        return
    body = sections.for_case(doc.body, {})
    lead = "About your other question:"
    say_answer(
        ctx, "answer:later", doc=doc.id, title=doc.title, body=body, query=s.later, answers={}, skipped=[], lead=lead
    )
    if doc.requires_handoff:  # as when asked on its own: the article, then a person (the run's escalation)
        s.later_doc, s.later_title = doc.id, doc.title
