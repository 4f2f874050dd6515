"""The learning model: exercise scores, mastery per concept, weak points and their severity."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError

from flows.study_pal.course import (
    FIRST_TRY_SCORE,
    MILD_BELOW,
    MODERATE_BELOW,
    RETRY_SCORE,
    REVEALED_SCORE,
    SEVERE_BELOW,
    SEVERITY_ORDER,
    Course,
    Severity,
    _Strict,
)


class ExerciseResult(BaseModel):
    """One stored `exercise` record, as the learning model reads it (other fields ignored)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    concept: str
    chunk: int = Field(ge=1)
    correct: bool
    attempts: int = Field(ge=0)


def exercise_score(correct: bool, attempts: int) -> float:
    """1.0 right first time, 0.5 right after the hint, 0.0 revealed."""
    if not correct:
        return REVEALED_SCORE
    return FIRST_TRY_SCORE if attempts <= 1 else RETRY_SCORE


def latest_scores(results: Iterable[ExerciseResult], concept: str) -> dict[int, float]:
    """Chunk number -> score of the latest result for it (results oldest first)."""
    scores: dict[int, float] = {}
    for r in results:
        if r.concept == concept:
            scores[r.chunk] = exercise_score(r.correct, r.attempts)
    return scores


def mastery(results: Iterable[ExerciseResult], concept: str, chunks: int) -> float:
    """Sum of the latest score per chunk over the number of chunks, rounded to 2 places."""
    if chunks <= 0:
        return 0.0
    scores = latest_scores(results, concept)
    return round(sum(s for c, s in scores.items() if c <= chunks) / chunks, 2)


def performance(results: Iterable[ExerciseResult], concept: str) -> float | None:
    """Mean latest score over the chunks attempted; None when none was attempted."""
    scores = latest_scores(results, concept)
    return round(sum(scores.values()) / len(scores), 2) if scores else None


def severity(score: float) -> Severity | None:
    """severe < 0.5 <= moderate < 0.75 <= mild < 1.0; a perfect score is no weak point."""
    if score < SEVERE_BELOW:
        return "severe"
    if score < MODERATE_BELOW:
        return "moderate"
    if score < MILD_BELOW:
        return "mild"
    return None


class WeakPoint(_Strict):
    concept: str
    title: str
    severity: Severity
    score: float


def weak_points(course: Course, results: Sequence[ExerciseResult]) -> list[WeakPoint]:
    """Weak concepts, most severe first; ties by lower score, then course order."""
    found: list[WeakPoint] = []
    for cid in course.order:
        score = performance(results, cid)
        level = severity(score) if score is not None else None
        if score is not None and level is not None:
            found.append(WeakPoint(concept=cid, title=course.concept(cid).title, severity=level, score=score))
    rank = {cid: i for i, cid in enumerate(course.order)}
    return sorted(found, key=lambda w: (SEVERITY_ORDER[w.severity], w.score, rank[w.concept]))


def read_results(rows: Iterable[Mapping[str, JsonValue]]) -> list[ExerciseResult]:
    """Stored exercise records as results; a malformed row is skipped, not fatal."""
    out: list[ExerciseResult] = []
    for row in rows:
        try:
            out.append(ExerciseResult.model_validate(row))
        except ValidationError:
            continue
    return out


def percent(score: float) -> str:
    return f"{round(score * 100)}%"
