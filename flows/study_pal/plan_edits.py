"""Editing a saved study plan in words: which plan, and what changes.

Read by class, not one pattern per wording:

* which plan: a day the message names that has a plan ("the Friday one", "thursday's",
  "forget about friday"; flows/study_pal/days.py reads the day) unless it is where the plan
  goes ("to Friday"); otherwise the last plan saved;
* what: subjects named (flows/study_pal/subjects.py: the course's topics, school subjects,
  typos by rapidfuzz) with an adding cue ("add", "also", "as well", "too", "plus", "throw in")
  are added, unless the message gives hours of its own and names no plan ("also plan weekends
  10-12 for biology", "add stats on sunday 4-6 as well"): that is a new plan, no edit; with a
  removing cue ("drop", "remove", "take out", "leave out", "no more", "skip", "cut") they are
  taken out; a removing cue with no subject drops the whole plan ("drop the Friday one", "the
  friday one can go"); a day or time change ("an hour later", "move it to the weekend", "push
  thursday back by an hour") moves it (flows/study_pal/revise.py, with the plan's day taken out
  of the words first);
* a plan made over several days at the same hours ("mon wed fri 7-9pm", one record a day) is one
  plan to an edit that names no day (`series_of`): its hours, subjects or the whole of it change
  on every day (flows/study_pal/bot.py); moved to other days, or named by its day, one day alone.

Nothing here changes anything: `read_edit` says what the message asks; flows/study_pal/bot.py
applies it (a new `study_plan` record version through the scheduling flow, or a drop record).
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date, datetime, time
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.gloss import respelled
from flows.study_pal.course import Course
from flows.study_pal.days import mentions
from flows.study_pal.memory import PlanMemo, Topic
from flows.study_pal.plans import StoredPlan
from flows.study_pal.reading import is_question
from flows.study_pal.revise import is_revision, read_resize, read_shift, revise_window
from flows.study_pal.subjects import read_subjects
from flows.study_pal.timewindow import Window, hhmm, read_times

Op = Literal["move", "add", "remove", "drop"]

_ADD = re.compile(
    r"\b(?:add(?:ing)?|include|throw in|squeeze in|fit in|put\b.{0,30}?\bin(?: there)?|"
    r"(?:a session|sessions) (?:on|for))\b",
    re.I,
)
# "also", "too", "as well", "plus" add only where they lead or close the message ("add stats too",
# "plus history please"), and not in a question: "I also need help with derivatives" and "also, what is
# a limit?" ask for a lesson
_ADD_AROUND = re.compile(
    r"^\W*(?:and\s+)?(?:also|plus)\b|\b(?:also|too|as well)\W*(?:please|pls|thanks?|thank you)?\W*$", re.I
)
_REMOVE = re.compile(
    r"\b(?:drop|remove|delete|cancel|scrap|ditch|bin|cut|skip|lose|forget(?: about)?|get rid of|take\b.{0,30}?\bout|"
    r"leave\b.{0,30}?\bout|no more|without|(?:can|could) go|not (?:doing|studying)|don'?t need)\b",
    re.I,
)
# what drops a whole plan: a day naming it ("forget about friday"), a plan noun ("skip the study
# session"), or a plain removing verb on a pronoun ("delete it"); "forget it", "skip that" are dismissals
_PLAN_NOUN = re.compile(r"\b(?:plans?|sessions?|schedule|study(?: time)?)\b", re.I)
_DROP_IT = re.compile(
    r"\b(?:drop|remove|delete|cancel|scrap|ditch|bin|get rid of)\s+(?:it|that|this|the (?:\w+ )?one)\b", re.I
)
# "to friday", "until sunday", "for saturday instead": where a plan goes, not which plan; "the plan
# for thursday", "my session on friday" name the plan
_DESTINATION = re.compile(r"\b(?:to|until|till|onto|into|for|on)\s+(?:the\s+|this\s+|next\s+)?$", re.I)
_PLAN_AFTER = re.compile(r"(?:'s\b|(?<!\s)\s++(?:one|plan|session|study)\b)", re.I)
_PLAN_BEFORE = re.compile(
    r"\b(?:plans?|sessions?|schedule|study(?: time)?|one)\s+(?:for|on)\s+(?:the\s+|this\s+)?$", re.I
)


# a verb that moves a plan the message names by its day ("move the thursday one to wednesday")
_MOVE = re.compile(r"\b(?:move|push|shift|bring|put|switch|change|reschedule|postpone|delay|make|do)\b", re.I)


class PlanEdit(BaseModel):
    """What a message asks to change in a plan."""

    model_config = ConfigDict(frozen=True)

    op: Op
    plan: StoredPlan
    subjects: list[str] = Field(default_factory=list)
    window: Window | None = None  # "move": the plan's window after the change
    named: bool = False  # a day in the message named the plan ("the Friday one"); else "it", the last
    # the words single out one plan without a day read ("that one", "the wensdy one"): not a set of days
    one: bool = False


def window_of(plan: StoredPlan) -> Window:
    return Window(day=plan.date, start=time.fromisoformat(plan.start), end=time.fromisoformat(plan.end))


def memo_of(plan: StoredPlan, last: PlanMemo | None) -> PlanMemo:
    """What a revision of `plan` starts from: the session memory's when it is that plan (it keeps the
    analysis' weights), else the plan's topics weighted by their share of its sessions."""
    window = window_of(plan)
    if last is not None and last.window == window:
        return last
    counts = Counter(s.topic for s in plan.sessions)
    return PlanMemo(window=window, topics=[Topic(name=name, weight=n) for name, n in counts.items()])


def series_of(memo: PlanMemo | None, plans: list[StoredPlan]) -> list[StoredPlan]:
    """The plans still ahead that were made together with the last one ("mon wed fri 7-9pm"), soonest
    first; [] when the last plan was made for one day, or one day of it is all that is left."""
    if memo is None or not memo.repeat:
        return []
    days = {memo.window.day, *memo.repeat}
    window = f"{hhmm(memo.window.start)}-{hhmm(memo.window.end)}"
    together = sorted((p for p in plans if p.date in days and p.window == window), key=lambda p: p.date)
    return together if len(together) > 1 else []


def named_plan(text: str, plans: list[StoredPlan], today: date, *, moving: bool) -> tuple[StoredPlan, str] | None:
    """The plan a day in the message names, and the message with that day said as "it". `moving`: a
    day after "to" / "on" is where the plan goes ("move it to friday"), unless words around it make it
    the plan ("the plan for thursday", "to the thursday one"); in an edit of its subjects it is the plan."""
    for m in mentions(text, today):
        before = text[: m.start]
        names_plan = _PLAN_BEFORE.search(before) or _PLAN_AFTER.match(text[m.end :])
        if moving and _DESTINATION.search(before) and not names_plan:
            continue
        on_day = [p for p in plans if p.date == m.day]
        same_weekday = [p for p in plans if p.date.weekday() == m.day.weekday()]
        if not on_day and len({p.date for p in same_weekday}) == 1:
            # "the wednesday one" said on a Wednesday: the plan on the one Wednesday that has one
            on_day = same_weekday
        if on_day:
            rest = text[: m.start] + "it" + re.sub(r"^'s\b", "", text[m.end :])
            return on_day[-1], rest
    return None


_ONE = re.compile(r"\b(?:the|that|this) (?:\w+ )?(?:one|session|day)\b(?!s)", re.I)


def read_edit(text: str, course: Course, plans: list[StoredPlan], last: StoredPlan, at: datetime) -> PlanEdit | None:
    """The edit `text` asks of one of `plans` (`last`: the plan "it" means); None when it asks none."""
    text = respelled(text)  # a day typed a letter off names its plan ("drop the wensday one")
    named = named_plan(text, plans, at.date(), moving=False)
    plan, rest = named if named is not None else (last, text)
    subjects = [s for s in read_subjects(rest, course) if s != course.title or course.title.lower() in rest.lower()]
    removing = _REMOVE.search(rest)
    asks = is_question(rest) or rest.rstrip().endswith("?")
    adding = _ADD.search(rest) or (None if asks else _ADD_AROUND.search(rest))
    said = named is not None
    if subjects and removing and (not adding or removing.start() < adding.start()):
        return PlanEdit(op="remove", plan=plan, subjects=subjects, named=said)
    if subjects and adding and named is None and read_times(rest, at) is not None:
        # hours of its own ("also plan weekends 10-12 for biology"): a new plan, not this one's subjects
        return None
    if subjects and adding:
        return PlanEdit(op="add", plan=plan, subjects=subjects, named=said)
    if removing and not subjects and (named is not None or _PLAN_NOUN.search(rest) or _DROP_IT.search(rest)):
        return PlanEdit(op="drop", plan=plan, named=said, one=not said and _ONE.search(rest) is not None)
    named = named_plan(text, plans, at.date(), moving=True)
    plan, rest = named if named is not None else (last, text)
    moves = is_revision(rest) or read_shift(rest) is not None or read_resize(rest) is not None
    moves = moves or (named is not None and bool(_MOVE.search(rest)))
    if moves and not subjects:
        moved = revise_window(rest, at, window_of(plan))
        if isinstance(moved, Window) and moved != window_of(plan):
            one = named is None and _ONE.search(rest) is not None
            return PlanEdit(op="move", plan=plan, window=moved, named=named is not None, one=one)
    return None
