"""A tutoring run's slots and what they say about the course: the concept, its parts, the menu."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from engine import DefinitionError, Slots, StepContext
from flows.study_pal.course import Chunk, Course, get_course

MAX_TRIES = 2  # the first answer, and one retry after the hint


class TutoringSlots(Slots):
    # the course file, so parsers and templates can reach it; a lesson keeps its course even
    # if a later run points at another one
    course: str | None = None
    concept: str | None = None  # id of the concept being taught
    title: str | None = None
    chunks: int = 0
    chunk: int = 0  # 1-based; 0 before the first, chunks + 1 once complete
    resume: int = 0  # "continue": the part to start at (no prerequisite offer)
    answered: list[int] = Field(default_factory=list)  # parts of this concept whose exercise was answered
    paused: bool = False  # left for later ("gotta run"): kept, not closed, when the lesson ends
    known_now: list[str] = Field(default_factory=list)  # prerequisites said known in this lesson (not yet stored)
    target: str | None = None  # what the user asked for while a prerequisite is taught first
    offer: str | None = None  # a prerequisite to teach first, pending the user's answer
    offer_text: str | None = None
    take_offer: bool | None = None
    answer: str | None = None
    attempts: int = 0
    correct: bool | None = None
    asked_at: datetime | None = None
    mastery: dict[str, float] = Field(default_factory=dict)  # concept -> latest mastery in this lesson
    completed: list[str] = Field(default_factory=list)
    suggestion: str | None = None
    next: str | None = None  # at next_topic: a concept id, or "done"


Ctx = StepContext[TutoringSlots]


def course_of(s: TutoringSlots) -> Course:
    if s.course is None:
        raise DefinitionError("tutoring slots carry no course path; the start step sets it", flow="tutoring")
    return get_course(s.course)


def title_of(s: TutoringSlots, cid: str) -> str:
    course = course_of(s)
    return course.concept(cid).title if course.has(cid) else cid


def menu(s: TutoringSlots) -> str:
    return course_of(s).menu()


def current_chunk(s: TutoringSlots) -> Chunk:
    return course_of(s).concept(s.concept or "").chunks[s.chunk - 1]


def in_exercise(s: TutoringSlots) -> bool:
    """Waiting at the exercise of a chunk (not at an offer, a topic choice or the end)."""
    return s.concept is not None and s.offer is None and 1 <= s.chunk <= s.chunks


def set_concept(s: TutoringSlots, cid: str) -> None:
    """Make `cid` the concept being taught, before its first part."""
    concept = course_of(s).concept(cid)
    s.concept, s.title, s.chunks, s.chunk, s.attempts = cid, concept.title, len(concept.chunks), 0, 0
    s.answered = []


def advance(s: TutoringSlots) -> None:
    """On to the next part whose exercise was not answered yet (a resumed lesson asks none twice)."""
    s.chunk += 1
    while s.chunk in s.answered:
        s.chunk += 1
