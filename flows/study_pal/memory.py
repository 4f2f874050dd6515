"""What study-pal's flows tell each other through the session's shared memory (`ctx.shared(StudyMemory)`).

Flows never see each other's slots: a handoff starts the next flow fresh. These fields
carry the few facts that must cross over, and survive restarts with the session:

* `recent_user`: the last few user messages, for "did they ask for a plan?" after a handoff
  (an inner flow's scratchpad is discarded when it ends, and main history only has summaries);
* `analysis`: the weak points the last analysis found, which the scheduler prioritises; a new
  exercise result makes it out of date, so it is dropped then;
* `tutoring_active` / `lesson` / `lesson_part`: whether a lesson is open, its concept and the
  part to go on from ("continue"; since lessons are kept as `lesson` records,
  flows/study_pal/kept.py, only read for sessions stored before them). Analysis clears the
  flag, so nothing but an explicit request for a lesson leads back into tutoring;
* `lesson_paused`: the lesson was left for later ("gotta run"), so the analysis that follows
  does not close it (flows/study_pal/kept.py keeps where it stopped as records);
* `cheers`: how often the motivator has spoken, so repeated encouragement is not word for word;
* `last_plan`: the window and topics of the last study plan, so "make it an hour later" can
  revise it, and the other days it was made for together ("mon wed fri 7-9pm"), so an edit that
  names no day changes every one of them.

The field names are the memory's keys, as sessions stored before this was a model have them.
"""

from __future__ import annotations

from datetime import date

from pydantic import BaseModel, ConfigDict, Field

from flows.study_pal.mastery import WeakPoint
from flows.study_pal.timewindow import Window

KEEP_RECENT = 5


class Topic(BaseModel):
    """A topic of a plan and its weight in the share of sessions."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    weight: int = Field(ge=1)


class PlanMemo(BaseModel):
    """What a revision of the last plan starts from."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    window: Window
    topics: list[Topic]
    priorities: list[str] = Field(default_factory=list)
    # the other days the plan was made for at the same hours, soonest first (flows/study_pal/repeats.py)
    repeat: list[date] = Field(default_factory=list)


class StudyMemory(BaseModel):
    model_config = ConfigDict(validate_assignment=True)

    recent_user: list[str] = Field(default_factory=list)
    analysis: list[WeakPoint] | None = None
    tutoring_active: bool = False
    lesson: str | None = None
    lesson_part: int = Field(1, ge=1)
    lesson_paused: bool = False  # left for later: analysis does not close its `lesson` record
    cheers: int = Field(0, ge=0)
    last_plan: PlanMemo | None = None

    def remember(self, text: str) -> None:
        """Keep `text` among the last `KEEP_RECENT` user messages."""
        if self.recent_user and self.recent_user[-1] == text:
            return  # the same message seen by two handlers in one turn is one message
        self.recent_user = [*self.recent_user, text][-KEEP_RECENT:]

    def forget_recent(self) -> None:
        """A wish that has been acted on (a plan made) must not trigger a second time."""
        self.recent_user = []

    def open_lesson(self, concept: str | None, part: int) -> None:
        """A lesson is open at `part` (1-based) of `concept`."""
        self.tutoring_active, self.lesson_paused = True, False
        if concept is not None:
            self.lesson, self.lesson_part = concept, max(1, part)

    def last_lesson(self) -> tuple[str, int] | None:
        """The open lesson's concept and the part to go on from."""
        return (self.lesson, self.lesson_part) if self.lesson is not None else None

    def cheer(self) -> int:
        """How often the motivator spoke before now (and count this time)."""
        self.cheers += 1
        return self.cheers - 1
