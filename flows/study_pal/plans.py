"""Showing the study plans a user has: "what's my plan?", "what does my schedule look like for
friday?", "when am I studying next?".

Answered from the stored `study_plan` records, never by making a new plan. A plan a revision
replaced (its `revises` names the old date and window) is not shown; plans whose time has
passed are left out. A day named in the question narrows the answer to that day.
"""

from __future__ import annotations

import re
from datetime import date, datetime

from pydantic import BaseModel, ConfigDict, ValidationError

from engine import StoredRecord
from flows.study_pal.days import read_day
from flows.study_pal.scheduling import StudySession

_ASKS = re.compile(
    r"\b(?:show|see|view|list|remind|check|tell)\b.{0,15}?\b(?:my|the|our)\s+(?:study\s+)?(?:plans?|schedules?|"
    r"sessions?|timetable)\b|"
    r"\bwhat(?:'?s| is| are| does| do)\s+(?:on\s+|in\s+)?(?:my|the|our)\s+(?:study\s+)?(?:plans?|schedules?|sessions?|"
    r"timetable)\b|\bwhat do i have\b.{0,20}?\b(?:planned|scheduled|on)\b|\b(?:anything|something)\s+(?:planned|"
    r"scheduled)\b|"
    r"\b(?:when|what time)\s+(?:am i|do i|should i|is my)\s+(?:studying|study|supposed to study|next\s+\w+|"
    r"(?:next\s+)?(?:study\s+)?session)\b|"
    r"\bdo i have\s+(?:a|any)\s+(?:study\s+)?(?:plans?|sessions?)\b",
    re.I,
)
_MAKE = re.compile(r"\b(?:make|create|new|another|change|move|plan (?:me|my|a|some))\b", re.I)


class StoredPlan(BaseModel):
    """A `study_plan` record's data, as scheduling saves it."""

    model_config = ConfigDict(extra="ignore")

    date: date
    window: str
    sessions: list[StudySession]
    revises: dict[str, str] | None = None

    @property
    def start(self) -> str:
        return self.window.split("-")[0]

    @property
    def end(self) -> str:
        return self.window.split("-")[-1]

    def label(self) -> str:
        return f"{self.date:%A} {self.date.isoformat()}, {self.window}"


def asks_for_plans(text: str) -> bool:
    """A question about the plans there are, not a request to make or change one."""
    return bool(_ASKS.search(text)) and not _MAKE.search(text)


def upcoming(records: list[StoredRecord], at: datetime) -> list[StoredPlan]:
    """The plans still ahead at `at`, soonest first; replaced ones and unreadable records left out."""
    plans: list[StoredPlan] = []
    for r in records:
        try:
            plans.append(StoredPlan.model_validate(r.data))
        except ValidationError:
            continue  # a record written by an older plan format: not a plan this can show
    replaced = {(p.revises.get("date"), p.revises.get("window")) for p in plans if p.revises}
    now = (at.date(), at.strftime("%H:%M"))
    ahead = [p for p in plans if (p.date.isoformat(), p.window) not in replaced and (p.date, p.end) > now]
    return sorted(ahead, key=lambda p: (p.date, p.start))


def describe(plans: list[StoredPlan], text: str, at: datetime) -> str:
    """The answer to `text`: the plans ahead (of the day it names, if any), or how to make one."""
    day = read_day(text, at.date())
    if day is not None:
        plans = [p for p in plans if p.date == day[0]]
    if not plans:
        when = f" for {day[0]:%A} {day[0].isoformat()}" if day else ""
        return (
            f"You have no study plan{when} yet. Say e.g. 'schedule study from 2pm to 4pm on Friday' and I'll make one."
        )
    parts = []
    for p in plans:
        listed = "; ".join(f"{s.start}-{s.end} {s.topic}" for s in p.sessions)
        parts.append(f"📚 {p.label()}: {listed}.")
    lead = "Your study plan:" if len(plans) == 1 else f"Your {len(plans)} study plans ahead:"
    return "\n".join([lead, *parts])
