"""Analysis: weak points from the stored exercise results, then the offer of a study plan.

Entered when tutoring ends, or from the main conversation ("analyze my weak points").
Each concept with results gets a performance score and a severity (formula and thresholds
in flows/course.py); the weak ones are listed most severe first and kept in the session
memory for the scheduler. Whether the user wants a plan is read from the message that
led here and the last few before it (keywords only: a plan nobody asked for is never made);
if they did not say, the flow asks. The answer is read by keywords first ("not now",
"maybe another day" are no; a mix of yes and no is asked again), a configured model only
when they cannot decide. Yes hands off to scheduling; a new request instead of an answer
("teach me integrals") ends the analysis without a plan and starts the lesson. Analysis also
closes the lesson, so nothing leads back into tutoring until the user asks for one again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import Field

from engine import Aside, Ask, Final, Flow, Slots, Step, StepContext, T
from engine.extract import Invalid, Parser
from engine.yesno import read_yes_no
from flows.study_pal.course import course_path, get_course
from flows.study_pal.exits import says_goodbye
from flows.study_pal.kept import close_lesson
from flows.study_pal.mastery import WeakPoint, percent, read_results, weak_points
from flows.study_pal.meanings import OFFER_PLAN
from flows.study_pal.memory import StudyMemory
from flows.study_pal.reading import asks_for_lesson
from flows.study_pal.texting import plain


class AnalysisSlots(Slots):
    exercises: int = 0  # how many exercise results the analysis read
    weak: list[WeakPoint] = Field(default_factory=list)
    wants_plan: bool | None = None
    redirect: str | None = None  # a flow the user asked for instead of answering the plan offer
    # a lesson left for later before any exercise was answered: nothing to report, no lesson to suggest
    kept: bool = False
    # the learner left a lesson for later ("gotta run"): the report, and no question to leave open (the
    # lesson's closing told them to say "let's continue", which a plan offer would take for its yes)
    leaving: bool = False


Ctx = StepContext[AnalysisSlots]

_PLAN = re.compile(r"\b(schedul\w*|plan|plans|planning|calendar|timetable|when should i|pomodoro)\b", re.I)
_NO_PLAN = re.compile(r"\b(no|don'?t|do not|without|not)\b[^.?!]{0,25}\b(schedul\w*|plan\w*|calendar)", re.I)
_LATER = re.compile(
    r"\b(later|not now|not today|not yet|(?:maybe |some )?(?:another|other) (?:time|day)|next time|no time|"
    r"some other time)\b",
    re.I,
)
_YES_WORD = re.compile(r"\b(yes|yeah|yep|yup|sure|ok|okay)\b", re.I)
_NO_WORD = re.compile(r"\b(no|nope|nah|not)\b", re.I)
MARKS = {"severe": "🔴", "moderate": "🟡", "mild": "🟢"}


def plan_wish(messages: Sequence[str]) -> bool | None:
    """True/False when the latest message that talks about a plan asks for / declines one."""
    for text in reversed(messages):
        if _NO_PLAN.search(text):
            return False
        if _PLAN.search(text):
            return True
    return None


def plan_answer() -> Parser:
    """Keywords first: "later" / "maybe another day" are no, then the one yes/no reader, then
    plan words; a mix of yes and no is asked again (never taken as a yes). None lets a
    configured model try."""

    def rule(text: str) -> object:
        if _LATER.search(text):
            return False
        answer = read_yes_no(text)
        if answer is not None:
            return answer
        wish = plan_wish([text])
        if wish is not None:
            return wish
        if _YES_WORD.search(text) and _NO_WORD.search(text):
            return Invalid("I can't tell whether that's a yes or a no.")
        return None

    return Parser(rule, "yes (make a study plan) or no")


def new_request(ctx: Ctx) -> str | None:
    """At the plan offer, "teach me integrals" is a new request, not an unclear answer: the
    analysis ends without a plan and the lesson starts. The offer stays unanswered (no `False`):
    asking for something else declines nothing, and the record says no plan was made by `redirect`."""
    if read_yes_no(ctx.text) is not None or plan_wish([ctx.text]) is not None:
        return None
    course = get_course(course_path(ctx.resources))
    if not asks_for_lesson(ctx.text) and course.find(ctx.text) is None:
        return None
    ctx.slots.redirect = "tutoring"
    return "redirect"


def leaving(ctx: Ctx) -> str | None:
    """ "see you tomorrow", "gotta go" at the plan offer: they are off, so no plan (a goodbye
    that still asks for one, "make the plan, bye", is a yes read by the answer's parser)."""
    if read_yes_no(ctx.text) is not None or plan_wish([ctx.text]) is not None:
        return None
    ctx.slots.wants_plan = False
    return "redirect"


_PROGRESS = re.compile(
    r"\b(?:making|made|any) progress\b|\b(?:am i|i'?m) (?:getting (?:better|there)|improving|doing (?:ok|okay|well|"
    r"good|alright|badly))\b|\bhow am i doing\b|\bhow bad is (?:it|that)\b|\bis (?:that|this) (?:good|bad|ok)\b",
    re.I,
)


def progress_question(ctx: Ctx) -> str | None:
    """ "do you think I'm making progress?": answered from the results, then the offer again."""
    s = ctx.slots
    if not s.exercises:
        return None
    if not s.weak:
        ctx.say(ctx.phrase("Yes: every exercise you did was right on the first try.", "answer:analysis"))
        return ""
    scores = "; ".join(f"{w.title} {percent(w.score)}" for w in s.weak)
    ctx.say(
        ctx.phrase(
            f"From your {plural(s.exercises, 'exercise result')}: {scores}. Only your latest try at each part "
            "counts, so practising the weakest topic first raises it fastest.",
            "answer:analysis",
        )
    )
    return ""


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def report(s: AnalysisSlots) -> str:
    if not s.exercises:
        return "📊 I don't have any exercise results for you yet, so there is nothing to analyse."
    if not s.weak:
        every = "The exercise you did was" if s.exercises == 1 else f"Each of the {s.exercises} exercises you did was"
        return f"📊 Session analysis: no weak points. {every} right on the first try."
    lines = [f"📊 Session analysis: I identified {plural(len(s.weak), 'area')} to focus on:"]
    lines += [
        f"{i}. {MARKS[w.severity]} {w.title}: {w.severity} difficulty ({percent(w.score)})"
        for i, w in enumerate(s.weak, start=1)
    ]
    return "\n".join(lines)


# what the analysis suggests to a learner with no results yet, and a yes to it asks for
FIRST_LESSON = "teach me limits"


def analyse(ctx: Ctx) -> None:
    s = ctx.slots
    course = get_course(course_path(ctx.resources))
    results = read_results(r.data for r in ctx.records("exercise"))
    s.exercises = len(results)
    s.weak = weak_points(course, results)
    ctx.shared(StudyMemory).analysis = list(s.weak)
    ctx.shared(StudyMemory).tutoring_active = False
    if not ctx.shared(StudyMemory).lesson_paused:
        close_lesson(ctx)  # finished for the day: "continue" no longer takes the lesson up
    s.wants_plan = plan_wish([*ctx.shared(StudyMemory).recent_user, ctx.text])
    ctx.shared(StudyMemory).forget_recent()  # acted on: an old "plan" must not trigger the next analysis
    # a lesson put aside before any exercise was answered (for later, or for a plan): nothing to report, and
    # "try a lesson first" would answer a learner who has just kept one
    s.leaving = ctx.shared(StudyMemory).lesson_paused
    if not results and s.leaving:
        s.kept = True
        return
    ctx.say(ctx.phrase(report(s), "report:analysis"))
    if not results:
        ctx.offer(FIRST_LESSON)  # the closing suggests it: a "yes" next starts it


def _topics(s: AnalysisSlots) -> str:
    return "these topics" if len(s.weak) > 1 else s.weak[0].title if s.weak else "them"


def ask_plan(s: AnalysisSlots) -> str:
    return f"Would you like me to create a study schedule focusing on {_topics(s)}?"


def should_ask(s: AnalysisSlots) -> bool:
    return bool(s.weak) and s.wants_plan is None and not s.leaving


def closing(s: AnalysisSlots) -> str:
    if s.redirect:
        return "OK, no plan for now."
    if s.wants_plan:
        return "Let's plan your study time."
    if s.weak and s.leaving:
        return f"When you want a study plan for {_topics(s)}, say 'make me a study plan'."
    if s.weak:
        return "OK, no plan for now. Say 'make me a study plan' whenever you want one."
    if s.kept:
        return ""  # the lesson's own closing said where it was kept
    # never empty: a model asked to phrase nothing would invent something
    return "Keep up the good work!" if s.exercises else f"Try a lesson first, for example '{FIRST_LESSON}'."


def summary(s: AnalysisSlots) -> str:
    if not s.exercises:
        return "Analysis completed. No exercise results yet."
    if not s.weak:
        return f"Analysis completed. No weak points in {plural(s.exercises, 'exercise result')}."
    listed = ", ".join(f"{w.title} ({w.severity}, {percent(w.score)})" for w in s.weak)
    return f"Analysis completed. Weak points: {listed}."


analysis = Flow(
    name="analysis",
    description="find weak points in the exercise results and offer a study plan",
    persona="Study Pal, an encouraging study coach who is honest about weak spots",
    slots=AnalysisSlots,
    states=[
        Step("analyse", run=analyse, initial=True),
        Ask(
            "offer_plan",
            meanings=OFFER_PLAN,
            slot="wants_plan",
            say=ask_plan,
            parse=plan_answer(),
            reprompts=[
                "Shall I make a Pomodoro study plan for these topics? Yes or no?",
                "Just type yes for a study plan, or no to skip it.",
            ],
            help="A study plan puts your weakest topics first in 25-minute study sessions.",
            why="A study plan puts your weakest topics first in 25-minute study sessions.",
        ),
        Final(
            "done",
            summary=summary,
            say=closing,
            handoff=lambda s: s.redirect or ("scheduling" if s.wants_plan else None),
        ),
    ],
    transitions=[
        T("next", "analyse", "offer_plan", when=should_ask),
        T("next", "analyse", "done"),
        T("answer", "offer_plan", "done"),
        T("redirect", "offer_plan", "done"),
    ],
    asides=[
        Aside("leaving", match=says_goodbye, handle=leaving),
        Aside("progress", match=lambda t: bool(_PROGRESS.search(plain(t))), handle=progress_question),
        Aside("new-request", match=lambda t: True, handle=new_request),
    ],
    max_turns=6,
    llm_calls_per_turn=2,
    cancel_summary="Analysis closed by the user.",
)
