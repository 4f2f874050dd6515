"""Plan edits in words (tests/corpora/study_plan_edits/{dev,test}.yaml): how often study-pal's reader
(flows/study_pal/plan_edits.py) finds the edit a message asks, on each split.

A case is right when the operation matches (none: no edit read), the plan edited is the one labelled
(the day named, else the last plan), and its subjects (add / remove) or the plan's window after a move
match. The two plans of the corpus are built here as scheduling saves them.

    PYTHONPATH=$PWD python bench/plan_edits.py
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field

from flows.study_pal.course import DEFAULT_COURSE, get_course
from flows.study_pal.plan_edits import PlanEdit, read_edit
from flows.study_pal.plans import StoredPlan
from flows.study_pal.scheduling import StudySession

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpora" / "study_plan_edits"
AT = datetime(2026, 3, 10, 9, 0)  # the corpus clock: Tuesday morning


def _plan(day: int, starts: list[str], topics: list[str]) -> StoredPlan:
    """A plan of 25-minute sessions at `starts`, as scheduling saves it."""
    sessions = [
        StudySession(start=a, end=f"{a[:3]}{int(a[3:]) + 25:02d}", topic=t) for a, t in zip(starts, topics, strict=True)
    ]
    return StoredPlan(date=datetime(2026, 3, day).date(), window=f"{starts[0]}-{int(starts[-1][:2]) + 1:02d}:00",
                      sessions=sessions)  # fmt: skip


THURSDAY = _plan(12, ["16:00", "16:30", "17:00", "17:30"], ["Limits", "Limits", "Derivatives", "Derivatives"])
FRIDAY = _plan(13, ["14:00", "14:30", "15:00", "15:30"], ["Math"] * 4)
PLANS = [THURSDAY, FRIDAY]


class Case(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str
    op: Literal["move", "add", "remove", "drop", "none"]
    day: str | None = None
    window: str | None = None
    subjects: list[str] = Field(default_factory=list)


def load(split: str) -> list[Case]:
    raw = yaml.safe_load((CORPUS / f"{split}.yaml").read_text(encoding="utf-8"))
    return [Case.model_validate(c) for c in raw]


def describe(edit: PlanEdit | None) -> str:
    if edit is None:
        return "none"
    what = ", ".join(edit.subjects) if edit.subjects else edit.window.label() if edit.window else ""
    return f"{edit.op} {edit.plan.date:%A} {what}".strip()


def right(case: Case, edit: PlanEdit | None) -> bool:
    if edit is None or case.op == "none":
        return edit is None and case.op == "none"
    day = case.day or FRIDAY.date.strftime("%A").lower()
    if edit.op != case.op or edit.plan.date.strftime("%A").lower() != day:
        return False
    if case.op in ("add", "remove"):
        return edit.subjects == case.subjects
    if case.op == "move":
        w = edit.window
        return w is not None and f"{w.day.isoformat()} {w.start:%H:%M}-{w.end:%H:%M}" == case.window
    return True


def measure(split: str) -> tuple[int, int, list[str]]:
    """(right, total, the misses described) on one split."""
    course = get_course(DEFAULT_COURSE)
    misses: list[str] = []
    cases = load(split)
    for case in cases:
        edit = read_edit(case.text, course, PLANS, FRIDAY, AT)
        if not right(case, edit):
            misses.append(f"{case.text!r}: expected {case.op} {case.day or ''} {case.window or case.subjects}, "
                          f"read {describe(edit)}")  # fmt: skip
    return len(cases) - len(misses), len(cases), misses


def main() -> None:
    for split in ("dev", "test"):
        ok, total, misses = measure(split)
        print(f"{split:5} {ok}/{total} = {ok / total:.2f}")
        for m in misses:
            print(f"   miss {m}")


if __name__ == "__main__":
    main()
