"""Showing the study plans a user has: "what's my plan?", "what does my schedule look like for
friday?", "when am I studying next?".

Answered from the stored `study_plan` records, never by making a new plan. A plan a revision
replaced (its `revises` names the old date and window) is not shown; plans whose time has
passed are left out. A day named in the question narrows the answer to that day: short
questions that name only a day ("anything on fri?", "plans for tmrw?") ask too, and a bare
"sat" / "sun" is the day here (the general day reader needs a lead word or a time for them).
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from engine import StepContext, StoredRecord
from engine.cues import in_english_cues
from engine.gloss import in_english
from flows.study_pal import timewindow
from flows.study_pal.days import declined, mentions, read_day
from flows.study_pal.scheduling import StudySession

_ASKS = re.compile(
    r"\b(?:show|see|view|list|remind|check|tell)\b.{0,15}?\b(?:my|the|our)\s+(?:study\s+)?(?:plans?|schedules?|"
    r"sessions?|timetable)\b|"
    r"\bwhat(?:'?s| is| are| does| do)\s+(?:on\s+|in\s+)?(?:my|the|our)\s+(?:study\s+)?(?:plans?|schedules?|sessions?|"
    r"timetable)\b|"
    r"\bwhat\s+(?:do\s+i\s+have|have\s+i\s+got|i(?:'?ve|\s+have)?\s+got)\b.{0,20}?"
    r"\b(?:planned|scheduled|on)\b|"
    r"\b(?:anything|something)\s+(?:planned|"
    r"scheduled)\b|"
    r"\b(?:when|what time)\s+(?:am i|do i|should i|is my)\s+(?:studying|study|supposed to study|next\s+\w+|"
    r"(?:next\s+)?(?:study\s+)?session)\b|"
    r"\bdo i have\s+(?:a|any)\s+(?:study\s+)?(?:plans?|sessions?)\b|"
    # when a plan of the user's is, in any tense and with any words between ("btw what time was my session
    # tomorrow again?", "when's my next study session?"): a question of when that names the user's plan
    r"\b(?:when|what time)\b[^?.!]{0,30}?\b(?:my|our)\s+(?:next\s+)?(?:study\s+)?(?:plans?|schedules?|sessions?|"
    r"timetable)\b|"
    # of the plan just made: "what time does it start?", "when does my session begin?"
    r"\b(?:when|what time)\s+(?:does|do|will)\s+(?:it|my\s+(?:study\s+)?(?:plan|session|studying)|the\s+(?:study\s+)?"
    r"(?:plan|session))\s+(?:start|begin)\b",
    re.I,
)
_MAKE = re.compile(r"\b(?:make|create|new|another|change|move|plan (?:me|my|a|some))\b", re.I)
# "anything on fri?", "any plans for sat?", "whats on tmrw?": a question naming nothing but a day, which
# must follow at once ("anything on limits?" is about the course); the singular "plan for tmrw" is a request
_ABOUT_A_DAY = re.compile(
    r"(?:\b(?:anything|something|what'?s|what is|(?:any|my|our|the)\s+(?:study\s+)?plans)|^\W*(?:study\s+)?plans)"
    r"\s+(?:(?:planned|scheduled)\s+)?(?:on|for)\s+(?P<day>.+)",
    re.I,
)
# a time of day turns "plans for tmrw at 3" into a request for one (an ISO date's digits are no time)
_TIME = re.compile(r"\b(?:at|from|between)\s+\d|(?<![\d-])\d{1,2}(?::\d{2})?\s*(?:am|pm|-|–|to|till|until)\b", re.I)
# "sat" and "sun" are words too, so the general day reader takes them only after a lead word or before
# a time; in a question about plans they are the days, unless a pronoun or an article before them
# makes them the verb or the star ("I sat the exam", "the sun is out")
_BARE_WEEKEND_DAY = re.compile(r"(?<![\w'])(?:sat|sun)(?![\w'])", re.I)
_NOT_A_DAY_AFTER = frozenset({"i", "we", "you", "they", "he", "she", "just", "the", "a", "in"})
_LEADS = frozenset({"on", "this", "next", "coming", "do"})  # the general reader takes these already
_SATURDAY = 5
# whether a day is named at the start, not which: any reference day will do
_ANY_DAY = date(2025, 1, 6)


class StoredPlan(BaseModel):
    """A `study_plan` record's data, as scheduling saves it."""

    model_config = ConfigDict(extra="ignore")

    date: date
    window: str
    sessions: list[StudySession]
    revises: dict[str, str] | None = None
    dropped: bool = False  # "drop the Friday one": this version says the plan it revises is gone

    @property
    def start(self) -> str:
        return self.window.split("-")[0]

    @property
    def end(self) -> str:
        return self.window.split("-")[-1]

    def label(self) -> str:
        return f"{self.date:%A} {self.date.isoformat()}, {self.window}"


def asks_for_plans(text: str) -> bool:
    """A question about the plans there are, not a request to make or change one; asked in the user's
    language too ("¿y a qué hora empieza?", "was steht morgen an?"), read through the engine's cue and
    answer words in English."""
    if _asks_for_plans(text):
        return True
    english = in_english(in_english_cues(text))
    return english != text and _asks_for_plans(english)


def _asks_for_plans(text: str) -> bool:
    if _MAKE.search(text):
        return False
    if _ASKS.search(text):
        return True
    about = _ABOUT_A_DAY.search(text)
    if about is None or _TIME.search(text):
        return False
    return any(m.start == 0 for m in mentions(_with_bare_days(about.group("day")), _ANY_DAY))


def _with_bare_days(text: str) -> str:
    """`text` with each bare "sat" / "sun" that is a day given the lead word the day reader knows."""

    def lead(m: re.Match[str]) -> str:
        before = re.findall(r"[\w']+", text[: m.start()].lower())
        word = before[-1] if before else ""
        return m.group(0) if word in _NOT_A_DAY_AFTER or word in _LEADS else f"on {m.group(0)}"

    return _BARE_WEEKEND_DAY.sub(lead, text)


def asked_day(text: str, today: date) -> date | None:
    """The day a question about plans names ("anything planned for sat?"), if any."""
    found = read_day(_with_bare_days(text), today)
    return found[0] if found else None


def current(records: list[StoredRecord], at: datetime) -> list[StoredPlan]:
    """The plans still ahead at `at`, in the order they were saved: each record is a version, and
    one that `revises` a plan (same day and window or another) replaces it; a `dropped` one removes it."""
    plans: dict[tuple[str, str], StoredPlan] = {}
    for r in records:
        try:
            p = StoredPlan.model_validate(r.data)
        except ValidationError:
            continue  # a record written by an older plan format: not a plan this can show
        if p.revises:
            plans.pop((p.revises.get("date", ""), p.revises.get("window", "")), None)
        if not p.dropped:
            key = (p.date.isoformat(), p.window)
            plans.pop(key, None)  # the same day and window saved again: the newer version, last
            plans[key] = p
    now = (at.date(), at.strftime("%H:%M"))
    return [p for p in plans.values() if (p.date, p.end) > now]


def upcoming(records: list[StoredRecord], at: datetime) -> list[StoredPlan]:
    """The plans still ahead at `at`, soonest first; replaced ones and unreadable records left out."""
    return sorted(current(records, at), key=lambda p: (p.date, p.start))


def tell_plans(ctx: StepContext[Any]) -> str:
    """A question about the plans asked inside a flow ("when is my next session?" mid-lesson):
    answered from the saved plans, and the flow's question is asked again ("")."""
    at = timewindow.now()
    ctx.say(ctx.phrase(describe(upcoming(ctx.records("study_plan"), at), ctx.text, at), "plans:aside"))
    return ""


def asked_days(text: str, today: date) -> list[date]:
    """Every day a question about plans names: "this weekend" is its Saturday and its Sunday, "plans for
    tue and thu?" both days (a plan is asked for one day, a question may ask about several)."""
    said = _with_bare_days(text)
    found = [d for d in mentions(said, today) if not declined(said, d)]
    days: list[date] = []
    for d in found:
        days.append(d.day)
        if d.vague and d.day.weekday() == _SATURDAY:
            days.append(d.day + timedelta(days=1))  # the weekend, named by its first day
    return list(dict.fromkeys(days))


def describe(plans: list[StoredPlan], text: str, at: datetime) -> str:
    """The answer to `text`: the plans ahead (of the days it names, if any), or how to make one."""
    days = asked_days(text, at.date())
    others = plans
    if days:
        plans = [p for p in plans if p.date in days]
    if not plans:
        when = f" for {' or '.join(f'{d:%A} {d.isoformat()}' for d in days)}" if days else ""
        # the day asked about is empty: the plans on other days may be what the user is looking for
        planned = f" Planned: {'; '.join(p.label() for p in others)}." if others else ""
        return (
            f"You have no study plan{when} yet.{planned} Say e.g. 'schedule study from 2pm to 4pm on Friday' and "
            "I'll make one."
        )
    parts = []
    for p in plans:
        listed = "; ".join(f"{s.start}-{s.end} {s.topic}" for s in p.sessions)
        parts.append(f"📚 {p.label()}: {listed}.")
    lead = "Your study plan:" if len(plans) == 1 else f"Your {len(plans)} study plans ahead:"
    return "\n".join([lead, *parts])
