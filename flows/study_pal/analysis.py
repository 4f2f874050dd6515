"""Analysis: weak points from the stored exercise results, then the offer of a study plan.

Entered when tutoring ends, or from the main conversation ("analyze my weak points").
Each concept with results gets a performance score and a severity (formula and thresholds
in flows/course.py); the weak ones are listed most severe first and kept in the session
memory for the scheduler. Whether the user wants a plan is read from the message that
led here and the last few before it (keywords; a model's yes/no when one is configured);
if they did not say, the flow asks. Yes hands off to scheduling. Analysis also closes the
lesson, so nothing leads back into tutoring until the user asks for a lesson again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import BaseModel, Field

from engine import Ask, Final, Flow, Slots, Step, StepContext, T
from engine.extract import Parser, read_yes_no
from flows.study_pal.course import course_path, get_course
from flows.study_pal.lesson import llm_configured
from flows.study_pal.mastery import WeakPoint, percent, read_results, weak_points
from flows.study_pal.memory import StudyMemory


class AnalysisSlots(Slots):
    exercises: int = 0  # how many exercise results the analysis read
    weak: list[WeakPoint] = Field(default_factory=list)
    wants_plan: bool | None = None


Ctx = StepContext[AnalysisSlots]

_PLAN = re.compile(r"\b(schedul\w*|plan|plans|planning|calendar|timetable|when should i|pomodoro)\b", re.I)
_NO_PLAN = re.compile(r"\b(no|don'?t|do not|without|not)\b[^.?!]{0,25}\b(schedul\w*|plan\w*|calendar)", re.I)
_LATER = re.compile(r"\b(later|not now|maybe another time|some other time)\b", re.I)
MARKS = {"severe": "🔴", "moderate": "🟡", "mild": "🟢"}


def plan_wish(messages: Sequence[str]) -> bool | None:
    """True/False when the latest message that talks about a plan asks for / declines one."""
    for text in reversed(messages):
        if _NO_PLAN.search(text):
            return False
        if _PLAN.search(text):
            return True
    return None


class PlanWish(BaseModel):
    wants_plan: bool | None = Field(
        None,
        description="true if the user's last message asks for a study plan or schedule, false if it declines one",
    )


def plan_answer() -> Parser:
    def rule(text: str) -> object:
        if _LATER.search(text):
            return False
        answer = read_yes_no(text)
        return answer if answer is not None else plan_wish([text])

    return Parser(rule, "yes (make a study plan) or no")


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


def analyse(ctx: Ctx) -> None:
    s = ctx.slots
    course = get_course(course_path(ctx.resources))
    results = read_results(r.data for r in ctx.records("exercise"))
    s.exercises = len(results)
    s.weak = weak_points(course, results)
    memory = ctx.shared(StudyMemory)
    memory.analysis = list(s.weak)
    memory.tutoring_active = False
    ctx.say(ctx.phrase(report(s), "report:analysis"))
    wish = plan_wish([*memory.recent_user, ctx.text])
    if wish is None and llm_configured(ctx):
        verdict = ctx.parse(PlanWish, "classify:plan")
        wish = verdict.wants_plan if verdict is not None else None
    s.wants_plan = wish
    memory.forget_recent()  # acted on: an old "plan" must not trigger the next analysis


def ask_plan(s: AnalysisSlots) -> str:
    topics = "these topics" if len(s.weak) > 1 else s.weak[0].title if s.weak else "them"
    return f"Would you like me to create a study schedule focusing on {topics}?"


def should_ask(s: AnalysisSlots) -> bool:
    return bool(s.weak) and s.wants_plan is None


def closing(s: AnalysisSlots) -> str:
    if s.wants_plan:
        return "Let's plan your study time."
    if s.weak:
        return "OK, no plan for now. Say 'make me a study plan' whenever you want one."
    # never empty: a model asked to phrase nothing would invent something
    return "Keep up the good work!" if s.exercises else "Try a lesson first, for example 'teach me limits'."


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
            slot="wants_plan",
            say=ask_plan,
            parse=plan_answer(),
            reprompts=[
                "Shall I make a Pomodoro study plan for these topics? Yes or no?",
                "Just type yes for a study plan, or no to skip it.",
            ],
            help="A study plan puts your weakest topics first in 25-minute study sessions.",
        ),
        Final(
            "done",
            summary=summary,
            say=closing,
            handoff=lambda s: "scheduling" if s.wants_plan else None,
        ),
    ],
    transitions=[
        T("next", "analyse", "offer_plan", when=should_ask),
        T("next", "analyse", "done"),
        T("answer", "offer_plan", "done"),
    ],
    max_turns=6,
    llm_calls_per_turn=2,
    cancel_summary="Analysis closed by the user.",
)
