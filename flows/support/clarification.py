"""support: answers questions about the Tasklane app from a knowledge base, asking first when a document needs details.

Main conversation (`converse`, at the end of this file): every message is searched in the
knowledge base (engine/search.py; the shipped folder flows/data/support_kb unless
`Resources.kb` names another). No match above the threshold: say so and offer a person. A
match without clarifying questions: answer from the document. A match with questions: start
the `clarification` flow, seeded with a copy of the document.

Flow `clarification`: names the article, then asks its questions strictly one per turn.
While it runs the engine's router gives it every message, so nothing is searched. Each
answer is kept verbatim under its question (`answers`), `current_index` advances, and typed
questions (number, yes_no, choice) are validated by their own Ask state and reprompted on
the engine's ladder. After the last answer the reply quotes the document with the details;
a document that requires a handoff then files an `escalation` record, marks the session
escalated and says "Connecting you to an agent…" after the answer, in the same reply. The
one message that is not taken as an answer is an explicit request for a person: it ends the
queue with a handoff instead.

The flow keeps its own copy of the document (title, body, questions), so an edit to the
knowledge base mid-conversation, or a process restart, never shifts the question queue.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pydantic import Field, JsonValue, model_validator

from engine import Aside, Ask, Bot, Final, Flow, MainContext, Resources, Slots, Step, StepContext, T
from engine.extract import Invalid, Parser, choice, free_text, numbers, yes_no
from engine.models import JsonObject, utcnow
from flows.support.kb import Document, Hit, Question, QuestionType, open_kb, query_terms

SHIPPED_KB = Path(__file__).parent / "data" / "kb"
HANDOFF_NOTICE = "Connecting you to an agent…"
APP = "Tasklane"

Answer = int | float | bool | str

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


# -- the answer and the handoff (the main conversation and the flow both give them) ---------


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


def already_queued(ctx: StepContext[Any]) -> bool:
    """Said instead of a second handoff: one escalation per session is enough."""
    if ctx.context.get("escalated") is not True:
        return False
    ctx.say(ctx.phrase("You're already in the queue; an agent will reply here shortly.", "reply:queued"))
    return True


# -- flow `clarification`: slots --------------------------------------------------------------


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


# -- what each ask says and how it reads the answer -----------------------------------------

LAST_TRY = "One more try, or I'll skip this question."


def question(s: ClarificationSlots) -> str:
    q = current(s)
    return q.text if q else ""


def question_with_choices(s: ClarificationSlots) -> str:
    q = current(s)
    return f"{q.text} ({listed(q.choices)})" if q else ""


def listed(choices: list[str]) -> str:
    return f"{', '.join(choices[:-1])} or {choices[-1]}"


def expects_number(q: Question | None) -> str:
    if q is None or (q.min is None and q.max is None):
        return "a number"
    if q.min is not None and q.max is not None:
        return f"a number from {q.min:g} to {q.max:g}"
    if q.min is not None:
        return f"a number of at least {q.min:g}"
    return f"a number up to {q.max:g}"


def number_parser(s: ClarificationSlots) -> Parser:
    q = current(s)

    def rule(text: str) -> object:
        found = numbers(text)
        if not found:
            return None  # an LLM may still read "Tiramisu" as 13
        if len(set(found)) > 1:
            return Invalid("I read several numbers there.")
        value = found[0]
        problem = out_of_bounds(q, value) if q else None
        if problem:
            return Invalid(f"{problem}.")  # the reprompt that follows says what is expected
        return int(value) if value.is_integer() else value

    return Parser(rule, expects_number(q))


def choice_parser(s: ClarificationSlots) -> Parser:
    q = current(s)
    return choice(choice_words(q.choices, q.synonyms) if q else {})


def choice_words(choices: list[str], synonyms: Mapping[str, list[str]]) -> dict[str, list[str]]:
    """What picks each choice: its synonyms, and the words of it that no other choice or synonym has.

    "website" picks "Tasklane website"; "store" picks nothing when "play store" is a synonym of
    "Google Play", so "Play Store" is not read as two choices at once.
    """

    def words_of(*texts: str) -> set[str]:
        return {w for t in texts for w in re.findall(r"\w+", t.casefold())}

    taken = {c: words_of(c, *synonyms.get(c, [])) for c in choices}
    own = {c: {w for w in words_of(c) if len(w) >= 4} for c in choices}
    return {
        c: [*synonyms.get(c, []), *sorted(own[c] - set().union(*(taken[o] for o in choices if o != c)))]
        for c in choices
    }


read_text = free_text(min_chars=1)
_yes_no = yes_no()
# "not sure" is neither; "definitely not" is a no (the engine's yes_no reads its first word)
UNSURE = re.compile(r"\b(?:not sure|unsure|no idea|no clue|don'?t know|dunno|maybe|perhaps|can'?t tell)\b", re.I)
NEGATED_YES = re.compile(r"^\W*(?:definitely|absolutely|certainly|of course|sure)\W+not\b", re.I)


def read_yes_no_rule(text: str) -> object:
    if UNSURE.search(text):
        return None
    if NEGATED_YES.search(text):
        return False
    return _yes_no(text)


read_yes_no = Parser(read_yes_no_rule, "yes or no")


def number_reprompt(s: ClarificationSlots) -> str:
    return f"Please type just the number, {expects_number(current(s))}. {question(s)}"


def number_last_try(s: ClarificationSlots) -> str:
    return f"Digits only, {expects_number(current(s))}. {LAST_TRY} {question(s)}"


def yes_no_reprompt(s: ClarificationSlots) -> str:
    return f"Please answer yes or no. {question(s)}"


def yes_no_last_try(s: ClarificationSlots) -> str:
    return f"Just yes or no. {LAST_TRY} {question(s)}"


def choice_reprompt(s: ClarificationSlots) -> str:
    q = current(s)
    return f"Please type one of: {', '.join(q.choices) if q else ''}. {question(s)}"


def choice_last_try(s: ClarificationSlots) -> str:
    q = current(s)
    return f"Type one of these as written: {listed(q.choices) if q else ''}. {LAST_TRY} {question(s)}"


def asks(kind: QuestionType) -> Callable[[ClarificationSlots], bool]:
    def when(s: ClarificationSlots) -> bool:
        q = current(s)
        return q is not None and q.type == kind

    return when


def all_answered(s: ClarificationSlots) -> bool:
    return current(s) is None


def needs_handoff(s: ClarificationSlots) -> bool:
    return s.requires_handoff


# -- steps and the request for a person -------------------------------------------------------


def route(ctx: StepContext[ClarificationSlots]) -> None:
    """Picks nothing itself (the transitions out of it pick the ask by the question's type).

    Before the first question it names the article the questions are for: a user whose query
    matched the wrong article can say "cancel" instead of answering questions about it.
    """
    s = ctx.slots
    if s.current_index == 0 and s.questions:
        count = "One question" if len(s.questions) == 1 else f"{len(s.questions)} quick questions"
        intro = f'I found our help article "{s.title}". {count} first, so I can answer for your case'
        ctx.say(ctx.phrase(f'{intro} (say "cancel" if it\'s not what you need).', "intro:clarification"))


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
    s.current_index += 1


def respond(ctx: StepContext[ClarificationSlots]) -> None:
    s = ctx.slots
    content = answer_text(s.title, s.body, s.answers, s.skipped, lead="Thanks, that's everything I needed.")
    ctx.say(ctx.phrase(content, "answer:clarification"))


def escalate(ctx: StepContext[ClarificationSlots]) -> None:
    s = ctx.slots
    hand_over(ctx, doc=s.doc, title=s.title, query=s.query, answers=s.answers, reason="requires_handoff")


def asks_for_person(ctx: StepContext[ClarificationSlots]) -> str | None:
    """The aside's handler: leave the queue for a person ("human"), or, already queued, ask again ("")."""
    return "" if already_queued(ctx) else "human"


def transfer(ctx: StepContext[ClarificationSlots]) -> None:
    s = ctx.slots
    hand_over(ctx, doc=s.doc, title=s.title, query=s.query, answers=s.answers, reason="asked for a person")


# -- summaries --------------------------------------------------------------------------------


def details_line(s: ClarificationSlots) -> str:
    pairs = [f'{q} "{a}"' for q, a in s.answers.items()] + [f"{q} (no answer)" for q in s.skipped]
    return "; ".join(pairs) or "none"


def completed(s: ClarificationSlots) -> str:
    return f'Clarification completed for "{s.title}". Answers: {details_line(s)}.'


def handed_off(s: ClarificationSlots) -> str:
    return f'Clarification completed for "{s.title}", then handed to an agent. Answers: {details_line(s)}.'


def transferred(s: ClarificationSlots) -> str:
    return (
        f'Clarification for "{s.title}" handed to an agent at the user\'s request. Answers so far: {details_line(s)}.'
    )


def cancelled(s: ClarificationSlots) -> str:
    return f'Clarification for "{s.title}" cancelled by the user. Answers so far: {details_line(s)}.'


# -- the flow ---------------------------------------------------------------------------------

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
            reprompts=[number_reprompt, number_last_try],
            ask_if_filled=True,
        ),
        Ask(
            "yes_no",
            slot="yes_no_answer",
            say=question,
            parse=read_yes_no,
            reprompts=[yes_no_reprompt, yes_no_last_try],
            ask_if_filled=True,
        ),
        Ask(
            "choice",
            slot="choice_answer",
            say=question_with_choices,
            parse=choice_parser,
            reprompts=[choice_reprompt, choice_last_try],
            ask_if_filled=True,
        ),
        Step("record", run=record_answer),
        Step("respond", run=respond),
        Step("escalate", run=escalate),
        Step("transfer", run=transfer),
        Final("answered", summary=completed),
        Final("handed_off", summary=handed_off, outcome="escalated"),
        Final("transferred", summary=transferred, outcome="escalated"),
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
        T("human", "*", "transfer"),
        T("next", "transfer", "transferred"),
    ],
    asides=[Aside("person", match=lambda text: WANTS_HUMAN.search(text) is not None, handle=asks_for_person)],
    cancel_summary=cancelled,
    # a failed parse may ask the LLM, and the last answer's turn also phrases the answer
    llm_calls_per_turn=2,
)


# -- the main conversation --------------------------------------------------------------------

CAPABILITIES = (
    f"I'm the {APP} support assistant. Ask me about your account, syncing, reminders, billing or the apps "
    "and I'll look it up in our help center. Say 'agent' to talk to a person, and 'cancel' to stop "
    "answering my questions."
)
NO_MATCH = (
    "I could not find that in our help center. Would you like me to connect you to a person "
    "from our support team? (yes or no)"
)
# a message made only of these, with at least one of THANKS, is thanks, not a query to search
THANKS = {"thanks", "thank", "thx", "ty", "cheers", "great", "perfect", "awesome", "brilliant", "helped", "worked"}
POLITE = THANKS | {"you", "so", "much", "very", "a", "lot", "ok", "okay", "that", "it", "got", "cool", "nice", "super"}
OFFER_KEY = "human_offered"


def converse(ctx: MainContext) -> None:
    # an offer of a person holds for the very next message only
    offered = ctx.context.pop(OFFER_KEY, None)
    reply = read_yes_no(ctx.text) if offered is not None else None
    short = len(ctx.text.split()) <= 8
    if WANTS_HUMAN.search(ctx.text) or (short and NAMES_STAFF.search(ctx.text)) or reply is True:
        if not already_queued(ctx):
            query = offered if isinstance(offered, str) else ctx.text
            hand_over(ctx, doc=None, title=None, query=query, answers={}, reason="asked for a person")
        return
    if reply is False:
        ctx.say(f"Alright. Ask me anything else about {APP}.")
        return
    said = set(re.findall(r"\w+", ctx.text.casefold()))
    if said & THANKS and said <= POLITE:
        ctx.say(ctx.phrase(f"You're welcome! Ask me anything else about {APP}.", "reply:main"))
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
        ctx.start("clarification", seed(doc, ctx.text))
        return
    ctx.say(ctx.phrase(answer_text(doc.title, doc.body, {}, []), "answer:main"))
    if doc.requires_handoff:
        hand_over(ctx, doc=doc.id, title=doc.title, query=ctx.text, answers={}, reason="requires_handoff")


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
)
