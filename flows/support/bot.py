"""support: the main conversation searches the knowledge base for every message; a document
with clarifying questions starts the `clarification` flow, one without is answered at once,
and no match offers a person.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, JsonValue, ValidationError

from engine import Bot, MainContext, Resources, picked
from engine.askback import asks_about_offer
from engine.said import asks_for_person
from flows.support import sections
from flows.support.clarification import (
    clarification,
)
from flows.support.followup import answered, helped, take_answered, tried_already
from flows.support.handoff import (
    APP,
    NAMES_STAFF,
    WANTS_HUMAN,
    already_queued,
    hand_over,
    say_answer,
)
from flows.support.kb import SHIPPED_KB, Document, Hit, KnowledgeBase, open_kb
from flows.support.lookup import look_up
from flows.support.questions import (
    ClarificationSlots,
    read_yes_no,
)
from flows.support.smalltalk import Talk
from flows.support.topic import topic

CAPABILITIES = (
    f"I'm the {APP} support assistant. Ask me about your account, syncing, reminders, billing or the apps "
    "and I'll look it up in our help center. Say 'agent' to talk to a person, and 'cancel' to stop "
    "answering my questions."
)


# said for a request the help center does not cover (talk never gets here: it is not searched),
# naming what was asked (flows/support/topic.py): "Our help center doesn't cover booking a flight."
NO_MATCH = (
    "Our help center doesn't cover {topic}. Would you like me to connect you to a person "
    "from our support team? (yes or no)"
)


# what talk (flows/support/smalltalk.py) is answered with, the first kind said taking the turn
TALK_REPLIES: tuple[tuple[Talk, str], ...] = (
    ("closings", f"Glad I could help. Goodbye, and come back any time you have a question about {APP}!"),
    ("thanks", f"You're welcome! Ask me anything else about {APP}."),
    ("about_bot", CAPABILITIES),
    ("greetings", CAPABILITIES),
)


OFFER_KEY = "human_offered"
# the articles a request named only the topic of, and the request: the next message may pick one
CHOICES_KEY = "topic_choices"


class TopicChoices(BaseModel):
    """What a topic alone was answered with, kept for the next message (the session's context)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    query: str
    docs: list[str]

    @classmethod
    def kept(cls, value: JsonValue | None) -> TopicChoices | None:
        """The choices the last turn kept; None when there are none or they are not readable."""
        try:
            return cls.model_validate(value) if value is not None else None
        except ValidationError:
            return None


TOPIC = (
    "Our help center has a few articles about that:\n{listed}\nWhich one fits, or what exactly happens? "
    "(Say 'agent' to talk to a person.)"
)

# after an answer, a message saying it did not help ("still broken", "didnt work"): flows/support/followup.py
NOT_HELPED = (
    "Sorry that didn't solve it. Would you like me to connect you to a person from our support team? "
    "They'll see the article and what you told me. (yes or no)"
)
NOT_HELPED_REASON = "the help article did not solve it"
# a question back at the offer of a person ("why?", "what would they do?"): why it was offered, and the offer again
OFFER_WHY = (
    "Our help center has no article on {topic}, so a person from our support team would look into it and reply here."
)
OFFER_WHY_NOT_HELPED = (
    "The help article did not solve it, so a person from our support team would look into it, with the article "
    "and what you told me, and reply here."
)
OFFER_AGAIN = "Would you like me to connect you? (yes or no)"
HELPED = f"Glad that sorted it out! Ask me anything else about {APP}."


def converse(ctx: MainContext) -> None:
    # an offer of a person holds for the very next message only
    offered = ctx.context.pop(OFFER_KEY, None)
    choices = TopicChoices.kept(ctx.context.pop(CHOICES_KEY, None))
    last = take_answered(ctx)  # the article the last turn gave: this message may say it did not help
    reply = read_yes_no(ctx.text) if offered is not None else None
    # "are you a human?" asks what the bot is, not for a person
    short = len(ctx.text.split()) <= 8 and "identity" not in ctx.social
    # a person asked for in any of the six languages the engine reads it in, as at every question of a flow
    # ("je peux parler à quelqu'un ?", "kann ich mit jemandem sprechen?"), not in English words only
    wants = WANTS_HUMAN.search(ctx.text) is not None or asks_for_person(ctx.text)
    if wants or (short and NAMES_STAFF.search(ctx.text)) or reply is True:
        if not already_queued(ctx):
            if last is not None:  # after "that didn't help": the person sees the article and the request
                hand_over(
                    ctx,
                    doc=last.doc,
                    title=last.title,
                    query=last.query,
                    answers=last.answers,
                    reason=NOT_HELPED_REASON,
                )
            else:
                query = offered if isinstance(offered, str) else ctx.text
                hand_over(ctx, doc=None, title=None, query=query, answers={}, reason="asked for a person")
        return
    if reply is False:
        ctx.say(f"Alright. Ask me anything else about {APP}.")
        return
    if isinstance(offered, str) and reply is None and asks_about_offer(ctx.text, NO_MATCH):
        # "why?", "what would they do?", "¿por qué?" at the offer of a person: answered from why it was
        # offered, and the offer stays open for the next message (neither a yes nor a no)
        ctx.context[OFFER_KEY] = offered
        if last is not None:
            answered(ctx, last)  # after "that didn't help": the person still sees the article
        why = OFFER_WHY_NOT_HELPED if last is not None else OFFER_WHY.format(topic=topic(offered))
        ctx.say(ctx.phrase(f"{why} {OFFER_AGAIN}", "reply:offer-why"))
        return
    outcome = helped(ctx.text) if last is not None and offered is None else None
    kb = open_kb(ctx.resources.kb or SHIPPED_KB, ctx.store_url)
    if choices is not None and (chosen := _chosen(kb, choices, ctx.text)) is not None:
        answer(ctx, chosen, f"{choices.query} {ctx.text}")
        return
    found = look_up(kb, ctx.text, limit=3)
    if choices is not None and found.kind in ("article", "not_covered", "topic"):
        # "they just don't go off" after "a problem with reminders": read with the topic, it names
        # one of the articles listed (alone it is the iPhone and the Android articles' as much), or at
        # least an article
        together = look_up(kb, f"{choices.query} {ctx.text}", limit=3)
        listed = choices.docs
        if (together.doc_id in listed and found.doc_id not in listed) or found.kind == "not_covered":
            found = together if together.kind == "article" else found
    # another article found is another question ("ok one more: how do i share a list", "no, and how
    # do I export?"): searched, whatever the yes or no before it
    another = found.doc_id is not None and (last is None or found.doc_id != last.doc)
    # "did that already, no email comes": the same problem told further, not another question
    another = another and not (outcome is False and tried_already(ctx.text))
    if outcome is False and last is not None and not another:
        ctx.context[OFFER_KEY] = last.query
        answered(ctx, last)  # kept for the yes to the person offered
        ctx.say(ctx.phrase(NOT_HELPED, "reply:not-helped"))
        return
    if found.kind == "talk":
        reply = next(reply for kind, reply in TALK_REPLIES if kind in found.talk)
        if reply == CAPABILITIES:
            ctx.reply(CAPABILITIES)  # a greeting or "who are you?" is answered as the main conversation
        else:
            ctx.say(ctx.phrase(reply, "reply:main"))
        return
    if outcome is True and not another:  # "perfect, fixed": nothing to search
        ctx.say(ctx.phrase(HELPED, "reply:helped"))
        return
    if ctx.social and not found.hits:
        # small talk the help centre's own reader does not know ("you're awesome"): no request it failed
        ctx.reply(CAPABILITIES)
        return
    if found.kind == "nothing":
        # a number alone names no article ("' OR '1'='1", "<b>1</b>", "??? 2"): no search, no offer
        ctx.reply(CAPABILITIES)
        return
    ctx.event("search", search_detail(ctx.text, found.hits))
    if kb.problems:
        ctx.event("kb", f"{len(kb.problems)} document(s) skipped: " + " | ".join(kb.problems))
    if found.kind == "topic":
        ctx.context[CHOICES_KEY] = TopicChoices(query=ctx.text, docs=[d.id for d in found.choices]).model_dump()
        menu = "\n".join(f"{i}. {d.title}" for i, d in enumerate(found.choices, 1))
        ctx.say(ctx.phrase(TOPIC.format(listed=menu), "reply:topic"))
        return
    if not found.hits:
        ctx.context[OFFER_KEY] = ctx.text
        ctx.say(ctx.phrase(NO_MATCH.format(topic=topic(ctx.text)), "reply:no-match"))
        return
    answer(ctx, found.hits[0].doc, ctx.text)


def answer(ctx: MainContext, doc: Document, query: str) -> None:
    """The article for `query`: its clarifying questions first, when it has any."""
    if doc.clarifying_questions:
        ctx.start("clarification", seed(doc, query))
        return
    body = sections.for_case(doc.body, {})
    say_answer(ctx, "answer:main", doc=doc.id, title=doc.title, body=body, query=query, answers={}, skipped=[])
    if doc.requires_handoff:
        hand_over(ctx, doc=doc.id, title=doc.title, query=query, answers={}, reason="requires_handoff")


def _chosen(kb: KnowledgeBase, choices: TopicChoices, text: str) -> Document | None:
    """The article of those listed that `text` picks ("the first one", "2", "the android one")."""
    ids = [d for d in choices.docs if d in kb.documents]
    titles = {str(i): kb.documents[d].title for i, d in enumerate(ids, 1)}
    key = picked(text, titles)
    return kb.documents[ids[int(key) - 1]] if key is not None else None


def seed(doc: Document, query: str) -> ClarificationSlots:
    return ClarificationSlots(
        doc=doc.id,
        title=doc.title,
        body=doc.body,
        questions=list(doc.clarifying_questions),
        requires_handoff=doc.requires_handoff,
        query=query,
    )


def search_detail(query: str, hits: list[Hit]) -> str:
    found = ", ".join(f"{h.doc.id} ({h.score:.1f})" for h in hits) or "no match"
    return f"{query!r} -> {found}"


def check_kb(resources: Resources) -> list[str]:
    """Index the knowledge base before the first turn: a missing or empty folder is refused,
    a malformed document is reported by file name and left out."""
    return list(open_kb(resources.kb or SHIPPED_KB).problems)


support = Bot(
    name="support",
    persona=f"the {APP} support assistant: precise, calm, answers from the help center and never guesses",
    flows=[clarification],
    intents=[],
    capabilities=CAPABILITIES,
    converse=converse,
    check=check_kb,
    people=True,
    holding="You're already in the queue; an agent will reply here shortly.",
    small_talk={"thanks": dict(TALK_REPLIES)["thanks"], "goodbye": dict(TALK_REPLIES)["closings"]},
)
