"""Handing a support conversation to a person: the request for one, the answer text, the queue.

The main conversation and the clarification flow both answer from a document and both
hand over, so both use what is here.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import JsonValue

from engine import StepContext
from engine.models import JsonObject, utcnow
from flows.support.followup import Answered, answered
from flows.support.render import plain

APP = "Tasklane"

HANDOFF_NOTICE = "Connecting you to an agent…"


# An explicit request for a person: the whole message ("agent", "a human please"), or
# "talk/speak to ... someone". Kept narrow, because inside the question queue a match ends
# the queue: a description such as "the agent view is empty" must stay an answer.
WANTS_HUMAN = re.compile(
    r"^\W*(?:an? |a real |a live )?(?:agent|human|person|representative|operator)(?: please)?\W*$"
    r"|\b(?:talk|speak|chat|connect me)\b.{0,24}\b(?:agent|human|person|someone|somebody|representative)\b"
    r"|\b(?:real|live) (?:person|human|agent)\b",
    re.IGNORECASE,
)


# In the main conversation, where no question waits for an answer, a short message naming
# support staff asks for them too ("get me an agent", "customer service please").
NAMES_STAFF = re.compile(
    r"\b(?:agents?|humans?|representatives?|customer (?:service|support)|support team|contact support)\b", re.IGNORECASE
)


def answer_text(title: str, body: str, answers: dict[str, str], skipped: list[str], lead: str = "") -> str:
    """The answer as the rules backend gives it (and the content the openai backend phrases):
    the article's text for this case (flows/support/sections.py) as plain text, then the details
    the user gave. A chat shows Markdown's marks as they are typed, so none is left in."""
    parts = [f'{lead + " " if lead else ""}Here is what our help article "{title}" says:', plain(body)]
    details = [f"- {q} {a}" for q, a in answers.items()] + [f"- {q} (not answered)" for q in skipped]
    if details:
        parts.append("Your details:\n" + "\n".join(details))
    return "\n\n".join(parts)


def case_text(query: str, answers: dict[str, str]) -> str:
    """What the user told us, for a summary written for their case: their request and answers."""
    lines = [f"The user wrote: {query.strip()}"] + [f"- {q} {a}" for q, a in answers.items()]
    return "\n".join(lines)


def say_answer(
    ctx: StepContext[Any],
    purpose: str,
    *,
    doc: str,
    title: str,
    body: str,
    query: str,
    answers: dict[str, str],
    skipped: list[str],
    lead: str = "",
) -> None:
    """The article for this case (`body`: its sections for the answers given): with a model, a
    summary of it for what the user described, held to the article's facts; offline, or when the
    summary does not hold, the text itself (`answer_text`)."""
    fallback = answer_text(title, body, answers, skipped, lead)
    # the summary is the model's whole message, in the user's language: no English lead before it
    ctx.say(ctx.summarise(f"{title}\n\n{plain(body)}", case_text(query, answers), fallback, purpose))
    answered(
        ctx, Answered(doc=doc, title=title, query=query, answers=answers)
    )  # the next message may say it did not help


def hand_over(
    ctx: StepContext[Any],
    *,
    doc: str | None,
    title: str | None,
    query: str,
    answers: dict[str, str],
    reason: str,
) -> None:
    """Give the session to a person, file the escalation record and say so (always after any answer)."""
    ctx.hand_to_agent(reason)
    kept: dict[str, JsonValue] = dict(answers)
    data: JsonObject = {
        "document": doc,
        "title": title,
        "query": query,
        "answers": kept,
        "reason": reason,
        "at": utcnow().isoformat(),
    }
    ctx.record("escalation", data)
    ctx.say(HANDOFF_NOTICE)


def already_queued(ctx: StepContext[Any]) -> bool:
    """Said instead of a second handoff: one escalation per session is enough."""
    if not ctx.with_agent:
        return False
    ctx.say(ctx.phrase("You're already in the queue; an agent will reply here shortly.", "reply:queued"))
    return True
