"""What study-pal's flows tell each other through the session's shared memory (`ctx.context`).

Flows never see each other's slots: a handoff starts the next flow fresh. These keys
carry the few facts that must cross over, and survive restarts with the session:

* `recent_user`: the last few user messages, for "did they ask for a plan?" after a handoff
  (an inner flow's scratchpad is discarded when it ends, and main history only has summaries);
* `analysis`: the weak points the last analysis found, which the scheduler prioritises; a new
  exercise result makes it out of date, so it is dropped then;
* `tutoring_active` / `lesson` / `lesson_part`: whether a lesson is open, its concept and the
  part to go on from ("continue"). Analysis clears the flag, so nothing but an explicit
  request for a lesson leads back into tutoring;
* `cheers`: how often the motivator has spoken, so repeated encouragement is not word for word;
* `last_plan`: the window and topics of the last study plan, so "make it an hour later" can
  revise it.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, JsonValue, TypeAdapter, ValidationError

from engine.models import JsonObject
from flows.study_pal.course import WeakPoint
from flows.study_pal.timewindow import Window

RECENT = "recent_user"
ANALYSIS = "analysis"
TUTORING_ACTIVE = "tutoring_active"
LESSON = "lesson"
LESSON_PART = "lesson_part"
CHEERS = "cheers"
LAST_PLAN = "last_plan"
KEEP_RECENT = 5

_weak_list: TypeAdapter[list[WeakPoint]] = TypeAdapter(list[WeakPoint])


def remember(context: JsonObject, text: str) -> None:
    """Keep `text` among the last `KEEP_RECENT` user messages."""
    kept = recent(context)
    if kept and kept[-1] == text:
        return  # the same message seen by two handlers in one turn is one message
    kept_now: list[JsonValue] = [*kept, text]
    context[RECENT] = kept_now[-KEEP_RECENT:]


def recent(context: JsonObject) -> list[str]:
    value = context.get(RECENT)
    return [m for m in value if isinstance(m, str)] if isinstance(value, list) else []


def forget_recent(context: JsonObject) -> None:
    """A wish that has been acted on (a plan made) must not trigger a second time."""
    context[RECENT] = []


def save_analysis(context: JsonObject, weak: list[WeakPoint]) -> None:
    dumped: list[JsonValue] = [w.model_dump(mode="json") for w in weak]
    context[ANALYSIS] = dumped


def forget_analysis(context: JsonObject) -> None:
    context.pop(ANALYSIS, None)


def load_analysis(context: JsonObject) -> list[WeakPoint] | None:
    """The last analysis' weak points; None when no analysis ran (or its data is unreadable)."""
    if ANALYSIS not in context:
        return None
    try:
        return _weak_list.validate_python(context[ANALYSIS])
    except ValidationError:
        return None


def open_lesson(context: JsonObject, concept: str | None, part: int) -> None:
    """A lesson is open at `part` (1-based) of `concept`."""
    context[TUTORING_ACTIVE] = True
    if concept is not None:
        context[LESSON] = concept
        context[LESSON_PART] = part


def close_tutoring(context: JsonObject) -> None:
    context[TUTORING_ACTIVE] = False


def tutoring_active(context: JsonObject) -> bool:
    return context.get(TUTORING_ACTIVE) is True


def last_lesson(context: JsonObject) -> tuple[str, int] | None:
    """The open lesson's concept and the part to go on from."""
    concept, part = context.get(LESSON), context.get(LESSON_PART)
    if not isinstance(concept, str):
        return None
    return concept, part if isinstance(part, int) and part > 0 else 1


def cheer_count(context: JsonObject) -> int:
    """How often the motivator spoke before now (and count this time)."""
    value = context.get(CHEERS)
    n = value if isinstance(value, int) else 0
    context[CHEERS] = n + 1
    return n


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


def save_plan(context: JsonObject, memo: PlanMemo) -> None:
    context[LAST_PLAN] = memo.model_dump(mode="json")


def last_plan(context: JsonObject) -> PlanMemo | None:
    """The last plan made in this session; None when there is none (or it is unreadable)."""
    if LAST_PLAN not in context:
        return None
    try:
        return PlanMemo.model_validate(context[LAST_PLAN])
    except ValidationError:
        return None
