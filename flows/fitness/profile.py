"""The fitness profile the onboarding builds: its slots and the typed context accumulated stage by stage."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, field_validator, model_serializer

from engine import Revision, Slots

Level = Literal["beginner", "intermediate", "advanced"]
Goal = Literal["fat_loss", "muscle_gain", "endurance", "general_health"]
Diet = Literal["omnivore", "vegetarian", "vegan", "pescatarian", "keto", "paleo", "mediterranean"]
TimeOfDay = Literal["morning", "midday", "afternoon", "evening", "anytime"]
Weekday = Literal["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
Stage = Literal["assessment", "goals", "workout", "diet", "schedule"]
STAGES: tuple[Stage, ...] = ("assessment", "goals", "workout", "diet", "schedule")
WEEKDAYS: tuple[Weekday, ...] = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
NONE = "none"
Kilograms = Annotated[float, Field(ge=30, le=300)]


# -- the accumulated onboarding context ---------------------------------------------------
# A field is None only when the user skipped that question after repeated unclear answers.


class _Result(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    # fields only some users give: left out of the record when not given, so a record keeps the
    # shape it had before they existed
    _OPTIONAL: ClassVar[tuple[str, ...]] = ()

    @model_serializer(mode="wrap")
    def _drop_unsaid(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        return {k: v for k, v in data.items() if not (k in self._OPTIONAL and v is None)}


class FitnessAssessment(_Result):
    level: Level | None
    limitations: str | None  # "none" when the user has none


class Goals(_Result):
    _OPTIONAL = ("current_weight_kg",)
    goal: Goal | None
    target_weight_kg: float | None  # None: no target (or skipped)
    current_weight_kg: float | None = None  # only when the user said it beside a target


class Workout(_Result):
    days_per_week: int | None
    minutes_per_session: int | None
    equipment: list[str] | None  # [] when the user has none (bodyweight only)


class DietPlan(_Result):
    _OPTIONAL = ("detail",)
    diet: Diet | None
    # the user's own words when they qualify the diet ("vegetarian except fish", "mostly vegan")
    detail: str | None = None
    allergies: list[str] | None  # [] when the user has none


class Schedule(_Result):
    days: list[Weekday] | None
    time_of_day: TimeOfDay | None


class FitnessContext(_Result):
    """What the onboarding knows so far, one typed result per completed stage."""

    assessment: FitnessAssessment | None = None
    goals: Goals | None = None
    workout: Workout | None = None
    diet: DietPlan | None = None
    schedule: Schedule | None = None

    @property
    def limitation(self) -> str | None:
        """The injury or limitation later stages plan around (None when there is none)."""
        a = self.assessment
        return a.limitations if a and a.limitations and a.limitations != NONE else None


class FitnessSlots(Slots):
    fitness_level: Level | None = None
    limitations: str | None = Field(None, min_length=2, max_length=200)
    goal: Goal | None = None
    # None: no target; "none" said at its question is that (engine.extract.EMPTY), never the word
    target_weight_kg: Kilograms | None = None
    current_weight_kg: Kilograms | None = None
    # the unit the user wrote a weight in: a later number without one is read in it
    weight_unit: Literal["kg", "lb", "st"] | None = None
    days_per_week: int | None = Field(None, ge=1, le=7)
    minutes_per_session: int | None = Field(None, ge=10, le=240)
    equipment: list[str] | None = None
    diet: Diet | None = None
    diet_detail: str | None = Field(None, min_length=2, max_length=200)
    allergies: list[str] | None = None
    preferred_days: list[Weekday] | None = None
    time_of_day: TimeOfDay | None = None
    completed: list[Stage] = []
    # the answer to the review before saving: accepted, or the changes it made (engine/amend.py)
    review: Revision | None = None

    @field_validator("target_weight_kg", mode="before")
    @classmethod
    def _no_target_word(cls, value: object) -> object:
        # sessions stored before the word was dropped hold "none" here: it meant no target
        return None if value == NONE else value


def accumulated(s: FitnessSlots) -> FitnessContext:
    done = set(s.completed)
    weight = s.target_weight_kg
    return FitnessContext(
        assessment=FitnessAssessment(level=s.fitness_level, limitations=s.limitations)
        if "assessment" in done
        else None,
        goals=Goals(goal=s.goal, target_weight_kg=weight, current_weight_kg=s.current_weight_kg)
        if "goals" in done
        else None,
        workout=Workout(days_per_week=s.days_per_week, minutes_per_session=s.minutes_per_session, equipment=s.equipment)
        if "workout" in done
        else None,
        diet=DietPlan(diet=s.diet, detail=s.diet_detail, allergies=s.allergies) if "diet" in done else None,
        schedule=Schedule(days=s.preferred_days, time_of_day=s.time_of_day) if "schedule" in done else None,
    )
