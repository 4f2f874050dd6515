"""study-pal: a calculus tutor; main conversation plus tutoring, analysis and scheduling.

The main handler routes, in this order: a request for a flow (keyword intents, then a
model's classification when one is configured) starts it; discouragement gets the
motivator's encouragement (before the flow, when both); "continue" / "another" resumes
the last lesson only while it is still open, since analysis closes it (loop prevention:
after analysis only an explicit request leads back into tutoring); anything else gets
an honest description of what the bot can do.

Hand-offs between the flows (tutoring -> analysis -> scheduling) are declared on their
final states; the session memory they share is described in flows/study_memory.py.
"""

from __future__ import annotations

import re

from engine import Bot, Intent, MainContext, register
from flows.analysis import analysis
from flows.scheduling import scheduling
from flows.study_memory import last_lesson, remember, tutoring_active
from flows.tutoring import discouraged, encouragement, tutoring

ANALYSIS = Intent(
    "analysis",
    patterns=[
        r"\banaly[sz]\w*",
        r"\bweak (?:points?|spots?|areas?|topics?)\b",
        r"\bhow (?:did i do|am i doing)\b",
        r"\breview my (?:session|progress|results)\b",
    ],
    description="the user wants an analysis of their exercise results and weak points",
)
SCHEDULING = Intent(
    "scheduling",
    patterns=[
        r"\bschedul\w*",
        r"\bstudy plan\b",
        r"\bplan (?:my|a|the|some|out)\b",
        r"\bcalendar\b",
        r"\btimetable\b",
        r"\bwhen should i (?:study|learn|revise|practi[cs]e)\b",
        r"\bpomodoro\b",
    ],
    description="the user wants a study plan or schedule for a time window",
)
TUTORING = Intent(
    "tutoring",
    patterns=[
        r"\bteach\b",
        r"\bexplain\b",
        r"\bwhat(?:'s| is| are| does)\b",
        r"\blearn\b",
        r"\blesson\b",
        r"\bhelp me (?:with|understand)\b",
        r"\bquiz me\b",
        r"\bpractice\b",
        r"\btutor\b",
    ],
    description="the user wants to learn a topic or asks what something is",
)

CAPABILITIES = (
    "I'm Study Pal, your calculus tutor. I can teach a topic step by step with exercises "
    "('teach me derivatives', 'what is a limit?'), analyse your weak points ('analyze my weak "
    "points'), and make a Pomodoro study plan ('schedule study from 14-16 tomorrow'). "
    "Type 'help' at any time, or 'cancel' to leave an activity."
)

_CONTINUE = re.compile(r"^\s*(?:let'?s )?(continue|go on|keep going|next|more|another(?: one)?|resume)\b", re.I)


def converse(ctx: MainContext) -> None:
    remember(ctx.context, ctx.text)
    flow = ctx.intent()
    if discouraged(ctx.text):
        ctx.say(ctx.phrase(encouragement(in_lesson=flow == "tutoring"), "motivate:main"))
        if flow is None:
            return
    if flow is not None:
        ctx.start(flow)
        return
    if _CONTINUE.search(ctx.text):
        lesson = last_lesson(ctx.context)
        if tutoring_active(ctx.context) and lesson is not None:
            ctx.start("tutoring", concept=lesson)
            return
        # the lesson was closed (by analysis, or it never began): only an explicit request reopens it
        ctx.say(ctx.phrase("There's no lesson open right now. Say 'teach me' and a topic to start one.", "reply:main"))
        return
    ctx.say(ctx.phrase(CAPABILITIES, "reply:main"))


study_pal = register(
    Bot(
        name="study-pal",
        persona="Study Pal, a patient and upbeat calculus tutor",
        flows=[tutoring, analysis, scheduling],
        intents=[ANALYSIS, SCHEDULING, TUTORING],
        capabilities=CAPABILITIES,
        converse=converse,
    )
)
