"""support: answers questions about the Tasklane app from a knowledge base, asking first when a document needs details.

Main conversation (`converse`): every message is searched in the knowledge base
(engine/search.py; the shipped folder flows/data/support_kb unless `Resources.kb` names
another). No match above the threshold: say so and offer a person. A match without
clarifying questions: answer from the document. A match with questions: start the
`clarification` flow, seeded with a copy of the document.

Flow `clarification`: the document's questions strictly one per turn. While it runs the
engine's router gives it every message, so nothing is searched. Each answer is kept
verbatim under its question (`answers`), `current_index` advances, and typed questions
(number, yes_no, choice) are validated by their own Ask state and reprompted on the
engine's ladder. After the last answer the reply quotes the document with the details;
a document that requires a handoff then files an `escalation` record, marks the session
escalated and says "Connecting you to an agent…" after the answer, in the same reply.

The flow keeps its own copy of the document (title, body, questions), so an edit to the
knowledge base mid-conversation, or a process restart, never shifts the question queue.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import Field, JsonValue, model_validator

from engine import Ask, Bot, Final, Flow, MainContext, Slots, Step, StepContext, T, register
from engine.extract import Invalid, Parser, choice, free_text, numbers, yes_no
from engine.models import JsonObject, utcnow
from engine.search import Document, Hit, Question, QuestionType, open_kb, query_terms

SHIPPED_KB = Path(__file__).parent / "data" / "support_kb"
HANDOFF_NOTICE = "Connecting you to an agent…"
APP = "Tasklane"

Answer = int | float | bool | str


# -- slots ----------------------------------------------------------------------------------


class ClarificationSlots(Slots):
    # the document, copied in when the flow starts
    doc: str = ""
    title: str = ""
    body: str = ""
    questions: list[Question] = Field(default_factory=list)
    requires_handoff: bool = False
    query: str = ""
    # the queue
    current_index: int = Field(0, ge=0)
    answers: dict[str, str] = Field(default_factory=dict)
    parsed: dict[str, Answer] = Field(default_factory=dict)
    skipped: list[str] = Field(default_factory=list)
    # the answers so far as one line, for the cancel summary (a template over slots)
    details: str = "none"
    # the current question's answer, one slot per answer type; emptied once recorded
    text_answer: str | None = None
    number_answer: int | float | None = None
    yes_no_answer: bool | None = None
    choice_answer: str | None = None

    @model_validator(mode="after")
    def _answer_fits_question(self) -> ClarificationSlots:
        # the rule parsers already keep to bounds and choices; this also holds an answer an
        # LLM read (its schema only knows the slot's type) to the question's own limits
        q = current(self)
        if q is not None:
            problem = out_of_bounds(q, self.number_answer) or not_a_choice(q, self.choice_answer)
            if problem:
                raise ValueError(problem)
        return self


def current(s: ClarificationSlots) -> Question | None:
    return s.questions[s.current_index] if s.current_index < len(s.questions) else None


def out_of_bounds(q: Question, value: int | float | None) -> str | None:
    if value is None or q.type != "number":
        return None
    if q.min is not None and value < q.min:
        return f"{value:g} is below {q.min:g}"
    if q.max is not None and value > q.max:
        return f"{value:g} is above {q.max:g}"
    return None


def not_a_choice(q: Question, value: str | None) -> str | None:
    if value is None or q.type != "choice" or value in q.choices:
        return None
    return f"{value!r} is not one of: {', '.join(q.choices)}"


# -- what each ask says and how it parses ---------------------------------------------------


def question(s: ClarificationSlots) -> str:
    q = current(s)
    return q.text if q else ""


def question_with_choices(s: ClarificationSlots) -> str:
    q = current(s)
    return f"{q.text} ({', '.join(q.choices[:-1])} or {q.choices[-1]})" if q else ""


def expects_number(q: Question) -> str:
    if q.min is not None and q.max is not None:
        return f"a number from {q.min:g} to {q.max:g}"
    if q.min is not None:
        return f"a number of at least {q.min:g}"
    if q.max is not None:
        return f"a number up to {q.max:g}"
    return "a number"


def number_parser(s: ClarificationSlots) -> Parser:
    q = current(s)
    expects = expects_number(q) if q else "a number"

    def rule(text: str) -> object:
        found = numbers(text)
        if not found:
            return None  # an LLM may still read "Tiramisu" as 13
        if len(set(found)) > 1:
            return Invalid(f"I read several numbers there; please give just one, {expects}.")
        value = found[0]
        problem = out_of_bounds(q, value) if q else None
        if problem:
            return Invalid(f"{problem}; please give {expects}.")
        return int(value) if value.is_integer() else value

    return Parser(rule, expects)


def choice_parser(s: ClarificationSlots) -> Parser:
    q = current(s)
    return choice(choice_words(q.choices) if q else {})


def choice_words(choices: list[str]) -> dict[str, list[str]]:
    """Each choice with the words of it no other choice has: "website" picks "Tasklane website"."""
    words = {c: {w for w in re.findall(r"\w+", c.casefold()) if len(w) >= 4} for c in choices}
    return {c: sorted(own - set().union(*(words[o] for o in choices if o != c))) for c, own in words.items()}


read_text = free_text(min_chars=1)
read_yes_no = yes_no()


def number_reprompt(s: ClarificationSlots) -> str:
    q = current(s)
    return f"Please type just the number, {expects_number(q) if q else 'a number'}. {question(s)}"


def yes_no_reprompt(s: ClarificationSlots) -> str:
    return f"Please answer yes or no. {question(s)}"


def choice_reprompt(s: ClarificationSlots) -> str:
    q = current(s)
    return f"Please type one of: {', '.join(q.choices) if q else ''}. {question(s)}"


def asks(kind: QuestionType) -> Callable[[ClarificationSlots], bool]:
    def when(s: ClarificationSlots) -> bool:
        q = current(s)
        return q is not None and q.type == kind

    return when


def all_answered(s: ClarificationSlots) -> bool:
    return current(s) is None


def needs_handoff(s: ClarificationSlots) -> bool:
    return s.requires_handoff


# -- steps ----------------------------------------------------------------------------------


def route(ctx: StepContext[ClarificationSlots]) -> None:
    """A decision point only: the transitions out of it pick the next ask by the question's type."""


def record_answer(ctx: StepContext[ClarificationSlots]) -> None:
    s = ctx.slots
    q = current(s)
    if q is None:  # pragma: no cover - `route` sends an empty queue straight to `respond`
        return
    value: Answer | None = next(
        (v for v in (s.text_answer, s.number_answer, s.yes_no_answer, s.choice_answer) if v is not None), None
    )
    # emptied before the index moves: the slots' validator checks answers against the current question
    s.text_answer = s.number_answer = s.yes_no_answer = s.choice_answer = None
    if value is None:
        # the ask's fallback skipped a question that got no valid answer
        s.skipped = [*s.skipped, q.text]
    else:
        s.answers = {**s.answers, q.text: ctx.text}
        s.parsed = {**s.parsed, q.text: value}
    s.details = details_line(s)
    s.current_index += 1


def respond(ctx: StepContext[ClarificationSlots]) -> None:
    s = ctx.slots
    content = answer_text(s.title, s.body, s.answers, s.skipped, lead="Thanks, that's everything I needed.")
    ctx.say(ctx.phrase(content, "answer:clarification"))


def escalate(ctx: StepContext[ClarificationSlots]) -> None:
    s = ctx.slots
    hand_over(ctx, doc=s.doc, title=s.title, query=s.query, answers=s.answers, reason="requires_handoff")


# -- summaries ------------------------------------------------------------------------------


def details_line(s: ClarificationSlots) -> str:
    pairs = [f'{q} "{a}"' for q, a in s.answers.items()] + [f"{q} (no answer)" for q in s.skipped]
    return "; ".join(pairs) or "none"


def completed(s: ClarificationSlots) -> str:
    return f'Clarification completed for "{s.title}". Answers: {s.details}.'


def handed_off(s: ClarificationSlots) -> str:
    return f'Clarification completed for "{s.title}", then handed to an agent. Answers: {s.details}.'


# -- the flow -------------------------------------------------------------------------------

clarification = Flow(
    name="clarification",
    description="ask a knowledge-base document's clarifying questions one per turn, then answer from it",
    persona=f"the {APP} support assistant: asks one short question at a time and answers from the help center",
    slots=ClarificationSlots,
    states=[
        Step("route", run=route, initial=True),
        Ask("text", slot="text_answer", say=question, parse=read_text, ask_if_filled=True),
        Ask(
            "number",
            slot="number_answer",
            say=question,
            parse=number_parser,
            reprompts=[number_reprompt, number_reprompt],
            ask_if_filled=True,
        ),
        Ask(
            "yes_no",
            slot="yes_no_answer",
            say=question,
            parse=read_yes_no,
            reprompts=[yes_no_reprompt, "Just type yes or no."],
            ask_if_filled=True,
        ),
        Ask(
            "choice",
            slot="choice_answer",
            say=question_with_choices,
            parse=choice_parser,
            reprompts=[choice_reprompt, choice_reprompt],
            ask_if_filled=True,
        ),
        Step("record", run=record_answer),
        Step("respond", run=respond),
        Step("escalate", run=escalate),
        Final("answered", summary=completed),
        Final("handed_off", summary=handed_off, outcome="escalated"),
    ],
    transitions=[
        T("next", "route", "respond", when=all_answered),
        T("next", "route", "number", when=asks("number")),
        T("next", "route", "yes_no", when=asks("yes_no")),
        T("next", "route", "choice", when=asks("choice")),
        T("next", "route", "text"),
        T("answer", "text", "record"),
        T("answer", "number", "record"),
        T("answer", "yes_no", "record"),
        T("answer", "choice", "record"),
        T("next", "record", "route"),
        T("next", "respond", "escalate", when=needs_handoff),
        T("next", "respond", "answered"),
        T("next", "escalate", "handed_off"),
    ],
    cancel_summary='Clarification for "{title}" cancelled by the user. Answers so far: {details}.',
    # a failed parse may ask the LLM, and the last answer's turn also phrases the answer
    llm_calls_per_turn=2,
)


# -- shared by the flow and the main conversation -------------------------------------------


def answer_text(title: str, body: str, answers: dict[str, str], skipped: list[str], lead: str = "") -> str:
    """The answer as the rules backend gives it (and the content the openai backend phrases):
    the document quoted, then the details the user gave."""
    quoted = "\n".join(f"> {line}" if line.strip() else ">" for line in body.strip().splitlines())
    parts = [f'{lead + " " if lead else ""}Here is what our help article "{title}" says:', quoted]
    details = [f"- {q} {a}" for q, a in answers.items()] + [f"- {q} (not answered)" for q in skipped]
    if details:
        parts.append("Your details:\n" + "\n".join(details))
    return "\n\n".join(parts)


def hand_over(
    ctx: StepContext[Any],
    *,
    doc: str | None,
    title: str | None,
    query: str,
    answers: dict[str, str],
    reason: str,
) -> None:
    """Mark the session escalated, file the escalation record and say so (always after any answer)."""
    ctx.context["escalated"] = True
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


# -- the main conversation ------------------------------------------------------------------

CAPABILITIES = (
    f"I'm the {APP} support assistant. Ask me about your account, syncing, reminders, billing or the apps "
    "and I'll look it up in our help center. Say 'agent' to talk to a person, and 'cancel' to stop "
    "answering my questions."
)
NO_MATCH = (
    "I could not find that in our help center. Would you like me to connect you to a person "
    "from our support team? (yes or no)"
)
OFFER_KEY = "human_offered"
WANTS_HUMAN = re.compile(
    r"^\W*(?:an? |a real )?(?:agent|human|person|representative)(?: please)?\W*$"
    r"|\b(?:talk|speak|chat|connect me)\b.{0,24}\b(?:agent|human|person|someone|representative|support team)\b",
    re.IGNORECASE,
)


def converse(ctx: MainContext) -> None:
    # an offer of a person holds for the very next message only
    offered = ctx.context.pop(OFFER_KEY, None)
    reply = read_yes_no(ctx.text) if offered is not None else None
    if WANTS_HUMAN.search(ctx.text) or reply is True:
        if ctx.context.get("escalated") is True:
            ctx.say("You're already in the queue; an agent will reply here shortly.")
            return
        query = offered if isinstance(offered, str) else ctx.text
        hand_over(ctx, doc=None, title=None, query=query, answers={}, reason="asked for a person")
        return
    if reply is False:
        ctx.say(f"Alright. Ask me anything else about {APP}.")
        return
    if not query_terms(ctx.text):
        ctx.say(ctx.phrase(CAPABILITIES, "reply:main"))
        return
    kb = open_kb(ctx.resources.kb or SHIPPED_KB, ctx.store_url)
    hits = kb.search(ctx.text, limit=3)
    ctx.event("search", search_detail(ctx.text, hits))
    if kb.problems:
        ctx.event("kb", f"{len(kb.problems)} document(s) skipped: " + " | ".join(kb.problems))
    if not hits:
        ctx.context[OFFER_KEY] = ctx.text
        ctx.say(ctx.phrase(NO_MATCH, "reply:no-match"))
        return
    doc = hits[0].doc
    if doc.clarifying_questions:
        ctx.start("clarification", **seed(doc, ctx.text))
        return
    ctx.say(ctx.phrase(answer_text(doc.title, doc.body, {}, []), "answer:main"))
    if doc.requires_handoff:
        hand_over(ctx, doc=doc.id, title=doc.title, query=ctx.text, answers={}, reason="requires_handoff")


def seed(doc: Document, query: str) -> dict[str, object]:
    return {
        "doc": doc.id,
        "title": doc.title,
        "body": doc.body,
        "questions": list(doc.clarifying_questions),
        "requires_handoff": doc.requires_handoff,
        "query": query,
    }


def search_detail(query: str, hits: list[Hit]) -> str:
    found = ", ".join(f"{h.doc.id} ({h.score:.1f})" for h in hits) or "no match"
    return f"{query!r} -> {found}"


support = register(
    Bot(
        name="support",
        persona=f"the {APP} support assistant: precise, calm, answers from the help center and never guesses",
        flows=[clarification],
        intents=[],
        capabilities=CAPABILITIES,
        converse=converse,
    )
)
