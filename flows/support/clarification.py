"""Flow `clarification`: a knowledge-base document's clarifying questions, then its answer.

The main conversation (flows/support/bot.py) searches the knowledge base (flows/support/kb.py,
the shipped folder flows/support/data/kb unless `Resources.kb` names another) and starts
this flow, seeded with a copy of the document, when the best match has questions.

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

from collections.abc import Callable

from engine import Aside, Ask, Final, Flow, Step, StepContext, T
from engine.said import asks_for_person as wants_a_person
from flows.support import sections
from flows.support.ahead import corrects, given_reader, settle, shown, stated
from flows.support.another import adds_a_topic, answer_later, new_request
from flows.support.handoff import (
    APP,
    WANTS_HUMAN,
    already_queued,
    hand_over,
    say_answer,
)
from flows.support.kb import QuestionType
from flows.support.platform import names_a_place, switch_article
from flows.support.questions import (
    Answer,
    ClarificationSlots,
    choice_parser,
    current,
    expects_number,
    number_parser,
    read_text,
    yes_no_parser,
)

LAST_TRY = "One more try, or I'll skip this question."


def question(s: ClarificationSlots) -> str:
    q = current(s)
    return q.text if q else ""


def choice_meanings(s: ClarificationSlots) -> dict[str, str]:
    """What the open question's choices mean, as its article declares them (`meanings`)."""
    q = current(s)
    return dict(q.meanings) if q else {}


def question_with_choices(s: ClarificationSlots) -> str:
    q = current(s)
    return f"{q.text} ({listed(q.choices)})" if q else ""


def listed(choices: list[str]) -> str:
    return f"{', '.join(choices[:-1])} or {choices[-1]}"


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
    return s.requires_handoff or s.later_doc is not None


def route(ctx: StepContext[ClarificationSlots]) -> None:
    """Picks nothing itself (the transitions out of it pick the ask by the question's type).

    First it settles answers said out of turn (flows/support/ahead.py): a question whose answer
    is known is not asked. Before the first question it names the article the questions are
    for, and what the opening message already answered: a user whose query matched the wrong
    article can say "cancel" instead of answering questions about it.
    """
    s = ctx.slots
    first = not s.opened
    s.opened = True
    settled = settle(s)
    if first and s.questions:
        left = [q for q in s.questions[s.current_index :] if q.text not in s.given]
        noted = {q: s.parsed[q] for q in settled} | dict(s.given)
        said = f" From your message: {stated(s.questions, noted)}." if noted else ""
        count = "One question" if len(left) == 1 else f"{len(left)} quick questions"
        ask = f" {count} first, so I can answer for your case" if left else ""
        intro = f'I found our help article "{s.title}".{said}{ask}'
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
        s.answers = {**s.answers, q.text: s.said or ctx.text}
        s.parsed = {**s.parsed, q.text: value}
    s.said = None
    s.current_index += 1


def respond(ctx: StepContext[ClarificationSlots]) -> None:
    s = ctx.slots
    # the article for this case: the sections for the answers given (flows/support/sections.py)
    body = sections.for_case(s.body, s.parsed)
    lead = "Thanks, that's everything I needed."
    say_answer(
        ctx, "answer:clarification", doc=s.doc, title=s.title, body=body, query=s.query, answers=s.answers,
        skipped=s.skipped, lead=lead,
    )  # fmt: skip
    answer_later(ctx)


def escalate(ctx: StepContext[ClarificationSlots]) -> None:
    s = ctx.slots
    if not s.requires_handoff:  # only the request kept for later needs a person
        hand_over(ctx, doc=s.later_doc, title=s.later_title, query=s.later or "", answers={}, reason="requires_handoff")
        return
    hand_over(ctx, doc=s.doc, title=s.title, query=s.query, answers=s.answers, reason="requires_handoff")


def asks_for_person(ctx: StepContext[ClarificationSlots]) -> str | None:
    """The aside's handler: leave the queue for a person ("human"), or, already queued, ask again ("")."""
    return "" if already_queued(ctx) else "human"


def transfer(ctx: StepContext[ClarificationSlots]) -> None:
    s = ctx.slots
    settle(s)
    hand_over(ctx, doc=s.doc, title=s.title, query=s.query, answers=s.answers, reason="asked for a person")


def details_line(s: ClarificationSlots) -> str:
    # a correction not yet settled (the user left right after it) already counts
    answers = s.answers | {q: str(v) for q, v in s.given.items() if q in s.answers}
    pairs = [f'{q} "{a}"' for q, a in answers.items()] + [f"{q} (no answer)" for q in s.skipped]
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


# why a clarifying question is asked (a question back, "why do you need that?", is answered with it)
WHY = "Your answer tells me which part of the help article applies to you, so the steps I give fit your case."


clarification = Flow(
    name="clarification",
    description="ask a knowledge-base document's clarifying questions one per turn, then answer from it",
    persona=f"the {APP} support assistant: asks one short question at a time and answers from the help center",
    slots=ClarificationSlots,
    states=[
        # both move answers the message gave to `parsed`: what they set is the message's, not derived
        Step("route", run=route, initial=True, reads=("given",), carries_answers=True),
        Ask("text", slot="text_answer", say=question, parse=read_text, ask_if_filled=True, why=WHY),
        Ask(
            "number",
            why=WHY,
            slot="number_answer",
            say=question,
            parse=number_parser,
            reprompts=[number_reprompt, number_last_try],
            ask_if_filled=True,
        ),
        Ask(
            "yes_no",
            why=WHY,
            slot="yes_no_answer",
            say=question,
            parse=yes_no_parser,
            reprompts=[yes_no_reprompt, yes_no_last_try],
            ask_if_filled=True,
        ),
        Ask(
            "choice",
            why=WHY,
            meanings=choice_meanings,
            slot="choice_answer",
            say=question_with_choices,
            parse=choice_parser,
            reprompts=[choice_reprompt, choice_last_try],
            ask_if_filled=True,
        ),
        Step("record", run=record_answer, carries_answers=True),
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
        T("switch", "*", "route"),
        T("next", "respond", "escalate", when=needs_handoff),
        T("next", "respond", "answered"),
        T("next", "escalate", "handed_off"),
        T("human", "*", "transfer"),
        T("next", "transfer", "transferred"),
    ],
    asides=[
        # in any of the engine's six languages too ("kann ich bitte mit einem Menschen sprechen?"): filed
        # with the article and the answers so far, as the English request is
        Aside(
            "person",
            match=lambda text: WANTS_HUMAN.search(text) is not None or wants_a_person(text),
            handle=asks_for_person,
        ),
        # "its an iphone" at the Android article's questions: the article for the place named takes over
        Aside("another place", match=names_a_place, handle=switch_article),
        # "actually my payment failed too" at "Can you describe the error?" is no description;
        # "iphone 12, also my reminders dont ring" answers the question and adds a request
        Aside("new request", match=adds_a_topic, handle=new_request),
    ],
    cancel_summary=cancelled,
    # a failed parse may ask the LLM, and the last answer's turn also phrases the answer
    llm_calls_per_turn=2,
    # any message may answer questions still to come ("my Android 13 phone crashes": which app)
    # or correct one answered ("wait, I actually bought it on the website")
    fills={"given": given_reader},
    correctable=("given",),
    # an answered question's answer, said again as a correction ("oops, the order is 7781")
    corrects=corrects,
    show=lambda slot, value: shown(value) if slot == "given" else f"{slot.replace('_', ' ')}: {value}",
)
