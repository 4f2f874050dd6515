"""Tutoring: teach a concept chunk by chunk, grade each exercise, track mastery.

Entered from the main conversation ("teach me derivatives", "what is a limit?"), or to go
on with the lesson that is still open ("continue": it resumes at the part it stopped at).
Before a concept is taught its prerequisites are checked; one below the mastery threshold
is offered first (the user may accept or insist). Each chunk: explain -> exercise -> grade;
a wrong answer gets the hint and one retry, then the answer is revealed. Every graded
exercise saves an `exercise` record and the concept's new `mastery` (formula in
flows/study_pal/course.py). After the last chunk the concept is complete, its mastery is named and
the next concept is suggested.

Where the lesson stands is kept as `lesson` records (flows/study_pal/kept.py): a lesson left for
later ("gotta run, let's pick this up tomorrow", a pause, a cancel) is taken up at the part it
stopped, in a later session too, with the exercises already answered not asked again.

Asides, checked at every question in this order (the first that takes the message wins):
a question about the study plans ("when is my next session?", answered from the saved plans),
exit intent (flows/study_pal/exits.py: keywords first, a model only when they cannot decide;
END hands off to analysis, leaving for later keeps the lesson `paused`, an undecided one is
neither an exit nor an answer), something
this course cannot teach or small talk (said so, the same question again), "show me the
answer" or giving up, "I give up" (revealed with the hint's explanation, scored 0 as not
solved, then the next part), the motivator (encouragement, then the same question again),
a request for another topic (or another topic named instead of an answer: "derivatives
please"), "give me another" / "the next one" (skip the exercise), "hint"
(the hint, not an attempt), a question about the lesson (answered from the course; same
chunk; "how many are left?" gets the progress), and a "thanks" that is not an answer.
A reply that is no attempt at the exercise (nothing of its answer's kind: no number,
expression, option or yes/no; flows/study_pal/marking.py `attempted`) is refused and uses no try.
Before them every message is noted in the session memory (flows/study_pal/memory.py), for
analysis to see whether a plan was asked for.

The LLM phrases explanations and judges open answers the rules could not accept; where
the lesson goes is decided here, by transitions over the slots.
"""

from __future__ import annotations

from engine import Aside, Ask, Final, Flow, RecordDraft, Step, T
from flows.study_pal.exits import may_exit
from flows.study_pal.kept import LESSON
from flows.study_pal.lesson import (
    MAX_TRIES,
    TutoringSlots,
    current_chunk,
    menu,
    title_of,
)
from flows.study_pal.lesson_steps import (
    begin,
    check_prerequisites,
    complete,
    explain,
    grade,
    kept_now,
    reveal,
    skip,
    start,
    switch,
)
from flows.study_pal.mastery import percent
from flows.study_pal.meanings import NEXT_TOPIC, OFFER
from flows.study_pal.plans import asks_for_plans, tell_plans
from flows.study_pal.reading import (
    _ANOTHER,
    _CHITCHAT,
    _HINT,
    _REVEAL,
    acknowledge,
    another,
    answer_question,
    change_topic,
    concept_parser,
    discouraged,
    exercise_parser,
    give_answer,
    give_hint,
    is_question,
    keep_message,
    leave,
    motivate,
    next_parser,
    off_topic,
    offer_parser,
    owns_question,
    pleasantry,
    stalls,
    take_your_time,
)
from flows.study_pal.subjects import named_subjects
from flows.study_pal.texting import plain

# -- what the states say -------------------------------------------------------------------


def ask_topic(s: TutoringSlots) -> str:
    return f"Which topic would you like to learn? I can teach: {menu(s)}."


def ask_exercise(s: TutoringSlots) -> str:
    lead = "Try again" if s.attempts else f"Exercise {s.chunk}/{s.chunks}"
    return f"{lead}: {current_chunk(s).exercise.render()}"


def ask_next(s: TutoringSlots) -> str:
    options = f"Say yes, name another topic ({menu(s)}), or tell me you're done for today."
    if s.suggestion and s.suggestion == s.concept:
        return f"Shall we go over {s.title} once more? {options}"
    if s.suggestion:
        return f"Shall we go on to {title_of(s, s.suggestion)}? {options}"
    return f"Would you like to revisit a topic ({menu(s)}), or are you done for today?"


def progress(s: TutoringSlots) -> str:
    """What was reached per concept ("Limits: complete, mastery 100%; ..."); "" before any answer."""
    return "; ".join(
        f"{title_of(s, cid)}: {'complete, ' if cid in s.completed else ''}mastery {percent(score)}"
        for cid, score in s.mastery.items()
    )


def cancelled(s: TutoringSlots) -> str:
    done = progress(s)
    return f"Tutoring cancelled by the user. {done}." if done else "Tutoring cancelled by the user."


def kept_place(s: TutoringSlots) -> str:
    kept = kept_now(s, "paused")
    return f"{title_of(s, kept.concept)}, part {kept.part} of {kept.parts}"


def summary(s: TutoringSlots) -> str:
    done = progress(s)
    ended = f"Tutoring ended. {done}." if done else "Tutoring ended before any exercise was answered."
    return f"{ended} Lesson kept for later at {kept_place(s)}." if s.paused else ended


def closing(s: TutoringSlots) -> str:
    """A lesson left for later says where it is kept; one finished for the day only closes."""
    lead = "Good session! Let me look at how it went." if s.mastery else "OK, let's stop here."
    if s.paused:
        return f"{lead} I've kept your place for next time ({kept_place(s)}): say 'let's continue' when you're back."
    return lead


def kept_record(s: TutoringSlots) -> list[RecordDraft]:
    """A lesson left for later is saved "paused"; one finished is closed by the analysis that follows."""
    return [RecordDraft(kind=LESSON, data=kept_now(s, "paused").data())] if s.paused else []


# -- the flow ------------------------------------------------------------------------------


def no_concept(s: TutoringSlots) -> bool:
    return s.concept is None


def has_offer(s: TutoringSlots) -> bool:
    return s.offer is not None


def retrying(s: TutoringSlots) -> bool:
    return s.correct is False and s.attempts < MAX_TRIES


def more_chunks(s: TutoringSlots) -> bool:
    return s.chunk <= s.chunks


def goes_on(s: TutoringSlots) -> bool:
    """A prerequisite is complete and the topic asked for waits: `complete` set it as `next`."""
    return s.next is not None and s.next != "done"


def finished(s: TutoringSlots) -> bool:
    return s.next in (None, "done")


EXERCISE_HELP = (
    "Type your answer to the exercise (for a multiple-choice one, the letter is enough). "
    "Ask 'why?' to hear the explanation again, 'hint' for a hint, 'show me the answer' to see it, "
    "'give me another' to skip it, or 'I'm done for today' to finish."
)

tutoring = Flow(
    name="tutoring",
    description="teach a concept chunk by chunk with exercises, hints and mastery tracking",
    persona="Study Pal, a patient and upbeat calculus tutor who keeps explanations short and concrete",
    slots=TutoringSlots,
    states=[
        Step("start", run=start, initial=True),
        Ask(
            "choose",
            slot="concept",
            say=ask_topic,
            parse=concept_parser,
            reprompts=[ask_topic, lambda s: f"Please name one topic: {menu(s)}."],
            help="Name the topic you want to learn; I'll teach it step by step.",
            why="I teach one topic at a time, step by step, so I start with the one you pick.",
            fallback="cancel",
        ),
        Step("check", run=check_prerequisites),
        Ask(
            "offer",
            meanings=OFFER,
            slot="take_offer",
            say=lambda s: s.offer_text or "",
            parse=offer_parser,
            reprompts=[lambda s: f"Yes to start with {title_of(s, s.offer or '')}, or no to go straight to {s.title}?"],
            help="Concepts build on each other; learning the prerequisite first usually makes the rest easier.",
            why="Concepts build on each other; learning the prerequisite first usually makes the rest easier.",
        ),
        Step("begin", run=begin),
        Step("explain", run=explain),
        Ask(
            "exercise",
            slot="answer",
            say=ask_exercise,
            parse=exercise_parser,
            help=EXERCISE_HELP,
            why="Trying the exercise yourself shows what you've understood; I check your answer and explain.",
        ),
        Step("grade", run=grade),
        Step("reveal", run=reveal),
        Step("skip", run=skip),
        Step("complete", run=complete),
        Ask(
            "next_topic",
            meanings=NEXT_TOPIC,
            slot="next",
            say=ask_next,
            parse=next_parser,
            reprompts=[ask_next],
            help="Pick what to learn next, or say you're done to see how the session went.",
            why="You choose what to learn next; when you're done I show how the session went.",
        ),
        Step("switch", run=switch),
        Final("ended", summary=summary, say=closing, handoff=lambda s: "analysis", records=kept_record),
    ],
    transitions=[
        T("next", "start", "choose"),
        T("answer", "choose", "check"),
        T("next", "check", "choose", when=no_concept),
        T("next", "check", "offer", when=has_offer),
        T("next", "check", "begin"),
        T("answer", "offer", "begin"),
        T("next", "begin", "explain"),
        T("next", "explain", "exercise"),
        T("answer", "exercise", "grade"),
        T("next", "grade", "exercise", when=retrying),
        T("next", "grade", "explain", when=more_chunks),
        T("next", "grade", "complete"),
        T("reveal", "exercise", "reveal"),
        T("next", "reveal", "explain", when=more_chunks),
        T("next", "reveal", "complete"),
        T("skip", "exercise", "skip"),
        T("next", "skip", "explain", when=more_chunks),
        T("next", "skip", "complete"),
        T("next", "complete", "switch", when=goes_on),
        T("next", "complete", "next_topic"),
        T("answer", "next_topic", "ended", when=finished),
        T("answer", "next_topic", "switch"),
        T("switch", "*", "switch"),
        T("next", "switch", "check"),
        T("exit", "*", "ended"),
    ],
    asides=[
        Aside("remember", match=lambda _: True, handle=keep_message),
        Aside("plans", match=lambda t: asks_for_plans(plain(t)), handle=tell_plans),
        Aside("exit", match=may_exit, handle=leave),
        Aside("off-topic", match=lambda t: bool(named_subjects(t) or _CHITCHAT.search(t)), handle=off_topic),
        Aside("reveal", match=lambda t: bool(_REVEAL.search(plain(t))), handle=give_answer),
        Aside("motivator", match=discouraged, handle=motivate),
        Aside("change-topic", match=lambda _: True, handle=change_topic),
        Aside("another", match=lambda t: bool(_ANOTHER.search(plain(t))), handle=another),
        Aside("hint", match=lambda t: bool(_HINT.search(plain(t))), handle=give_hint),
        Aside(
            "question",
            match=lambda t: is_question(t) or t.rstrip().endswith("?"),
            handle=answer_question,
            requests=False,  # a request for something else is kept for after the lesson (engine/requests.py)
            owns=owns_question,  # one to have the course explained is the lesson's own question
            command="ask_back",  # answered from the course, the question still open
        ),
        Aside("pleasantry", match=pleasantry, handle=acknowledge, command="chitchat"),
        Aside("stall", match=stalls, handle=take_your_time, command="chitchat"),
    ],
    max_turns=80,
    llm_calls_per_turn=4,
    cancel_summary=cancelled,
)
