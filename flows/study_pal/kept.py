"""A lesson that lasts: where a lesson stopped, and the prerequisites a learner said they know.

Both are saved as records of the user with this bot (values, never a machine), so they outlive
the session's memory, a restart and a /reset:

* `lesson` {concept, part, parts, answered, status}: written when a part is explained, when a
  concept is complete (then it names the concept suggested next, at part 1) and when the lesson
  ends. `part` is the part to go on from, `answered` the parts whose exercise was answered
  (graded or revealed), which are not asked again. `status`: "open" while it runs (a cancel, a
  crash or an idle expiry leave it so), "paused" when the learner left it for later ("gotta
  run, let's pick this up tomorrow"; the analysis that follows leaves it so), "closed" when
  they finished for the day (the analysis closes it): then only a request naming the topic
  takes it up again (loop prevention).
* `known_prerequisite` {concept}: the learner said they know it when it was offered ("no, I
  already know limits"); it is not offered again.

The latest record of a concept is what a resume reads; each change is a new record, so the
history of a lesson stays readable.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine import StepContext, StoredRecord
from engine.cues import in_english_cues
from engine.models import JsonObject
from flows.study_pal.course import Course
from flows.study_pal.texting import plain

LESSON = "lesson"
KNOWN = "known_prerequisite"
Status = Literal["open", "paused", "closed"]


class KeptLesson(BaseModel):
    """A `lesson` record's data."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    concept: str
    part: int = Field(ge=1)
    parts: int = Field(ge=1)
    answered: list[int] = Field(default_factory=list)
    status: Status = "open"

    def data(self) -> JsonObject:
        return {
            "concept": self.concept,
            "part": self.part,
            "parts": self.parts,
            "answered": list(self.answered),
            "status": self.status,
        }

    @property
    def started(self) -> bool:
        """Anything to take up: a part past the first, or an exercise answered."""
        return self.part > 1 or bool(self.answered)

    @property
    def finished(self) -> bool:
        return self.part > self.parts


def _read(records: list[StoredRecord]) -> list[KeptLesson]:
    kept: list[KeptLesson] = []
    for r in records:
        try:
            kept.append(KeptLesson.model_validate(r.data))
        except ValidationError:
            continue  # a record of another shape is no lesson this can take up
    return kept


def last_lesson(ctx: StepContext[Any]) -> KeptLesson | None:
    """The lesson written last, whatever its concept."""
    kept = _read(ctx.records(LESSON))
    return kept[-1] if kept else None


def lesson_of(ctx: StepContext[Any], concept: str) -> KeptLesson | None:
    """The latest state of the lesson on `concept`, if one was ever kept."""
    kept = [k for k in _read(ctx.records(LESSON)) if k.concept == concept]
    return kept[-1] if kept else None


def keep(ctx: StepContext[Any], lesson: KeptLesson) -> None:
    """Save `lesson` unless it is what the latest record already says (a record per change)."""
    if last_lesson(ctx) != lesson:
        ctx.record(LESSON, lesson.data())


def close_lesson(ctx: StepContext[Any]) -> None:
    """The learner finished for the day: the open lesson is closed (kept, but not "continue"d)."""
    last = last_lesson(ctx)
    if last is not None and last.status != "closed":
        ctx.record(LESSON, last.model_copy(update={"status": "closed"}).data())


def known(ctx: StepContext[Any]) -> set[str]:
    """The concepts the learner said they know."""
    out: set[str] = set()
    for r in ctx.records(KNOWN):
        concept = r.data.get("concept")
        if isinstance(concept, str):
            out.add(concept)
    return out


# "I already know limits", "I've done limits before", "limits is fine, I know it", "I'm good with limits",
# "i did limits last week", "limits i know already"
_KNOWS = re.compile(
    r"\bi (?:already |do )?know\b|\bi'?ve (?:already )?(?:done|learned|learnt|covered|studied|had|seen|mastered)\b|"
    r"\balready (?:know|did|done|covered|learned|learnt|studied|had)\b|\bi'?m (?:fine|good|ok|okay|solid|comfortable) "
    r"(?:with|at|on)\b|\bi'?m familiar with\b|\bknow (?:it|that|them|this|those) already\b|\bi (?:did|had) (?:it|that|"
    r"them)\b|\bi (?:already )?(?:did|took|covered|finished)\b|\bi (?:know|knew) (?:it|that|them|those) "
    r"(?:already|well)\b|\b(?:know|knew|did|done|covered|learned|learnt) (?:it |that |them )?already\b"
    # understanding said plainly: "i get it", "i understand those", "i've got it down"
    r"|\bi (?:already |kinda |pretty much )?(?:get|understand) (?:it|that|them|those)\b(?!\?)"
    r"|\bi'?ve got (?:it|that) down\b"
    # having got it, said of the topic: "derivatives i've got", "i've got limits covered"
    r"|(?<=\w )i'?ve got(?= *+(?:[,.!]|$))|\bi'?ve got (?:\w+ ){1,2}(?:covered|down)\b",
    re.I,
)
_NOT_KNOW = re.compile(r"\b(?:don'?t|do not|didn'?t|never|not sure i) (?:really )?(?:know|learn|cover|do|did)\b", re.I)


def says_known(text: str) -> bool:
    """Does the message say the learner already knows something ("no, I already know limits")? Read in the
    learner's language too, through the engine's cue table ("Grenzwerte kann ich schon", "le derivate le so già")."""
    return any(bool(_KNOWS.search(t)) and not _NOT_KNOW.search(t) for t in {plain(text), plain(in_english_cues(text))})


# the clauses of a message, each said on its own ("I know derivatives already, teach me integration")
_CLAUSE = re.compile(r"[^,;.!?]+")


def asked_first(course: Course, text: str, named: list[str]) -> list[str]:
    """`named` (concepts of `text`, in order) with those said in a clause that says the learner knows them
    put last: "I know derivatives already, teach me integration" asks for integration, not derivatives."""
    known = {cid for m in _CLAUSE.finditer(text) if says_known(m.group()) for _, cid in course.mentions(m.group())}
    return [c for c in named if c not in known] + [c for c in named if c in known]


def known_in(course: Course, text: str, offered: str | None, candidates: list[str]) -> list[str]:
    """The prerequisites among `candidates` the message says the learner knows: those it names,
    or the one `offered` when it names none ("no, I know it already"); each with the concepts it
    builds on, since knowing derivatives implies knowing the limits they are defined by."""
    if not says_known(text):
        return []
    named = [cid for _, cid in course.mentions(text) if cid in candidates]
    if not named and offered is not None and offered in candidates:
        named = [offered]
    implied = [p for cid in named for p in course.all_prerequisites(cid)]
    return [cid for cid in dict.fromkeys([*named, *implied]) if cid in candidates]


# "let's continue", "can we go on with derivatives?", "pick up where we left off", "resume limits"
RESUME = re.compile(
    r"\b(?:continue|go on|carry on|keep going|resume|pick (?:it |this |that )?(?:back )?up|take (?:it |this )?up again|"
    r"where (?:we|i) (?:left off|stopped)|back to)\b",
    re.I,
)


def asks_to_resume(text: str) -> bool:
    return bool(RESUME.search(plain(text)))
