"""fitness-coach: a five-stage onboarding whose stages build one typed context, then the main conversation.

Stages, in order: fitness assessment (level, limitations) -> goals (primary goal, target
weight in kg) -> workout (days per week, minutes, equipment) -> diet (type, allergies) ->
scheduling (days, time of day). When a stage ends its name joins `completed`, and
`accumulated(slots)` is the typed onboarding context built from every completed stage:
the later stages phrase their questions from it (the workout questions name the
limitation from stage one). The context is derived from the stored slots rather than
copied, so a correction of an earlier stage ("actually I have a knee injury") is what
every later question and the final `fitness_profile` record see.

Conversation memory needs nothing here: the engine sends each prompt with the flow's
scratchpad (every onboarding message so far, kept with the session across restarts)
through the history window.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Literal, cast

from pydantic import BaseModel, ConfigDict, Field

from engine import Ask, Bot, EntryContext, Final, Flow, Intent, RecordDraft, Slots, Step, StepContext, T, register
from engine.extract import Invalid, Parser, choice, integer, numbers
from flows.parsers import fold

Level = Literal["beginner", "intermediate", "advanced"]
Goal = Literal["fat_loss", "muscle_gain", "endurance", "general_health"]
Diet = Literal["omnivore", "vegetarian", "vegan", "pescatarian", "keto", "paleo", "mediterranean"]
TimeOfDay = Literal["morning", "midday", "afternoon", "evening"]
Weekday = Literal["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
Stage = Literal["assessment", "goals", "workout", "diet", "schedule"]
WEEKDAYS: tuple[Weekday, ...] = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
STAGES: tuple[Stage, ...] = ("assessment", "goals", "workout", "diet", "schedule")
NONE = "none"
LB = 0.45359237
Kilograms = Annotated[float, Field(ge=30, le=300)]


# -- the accumulated onboarding context ---------------------------------------------------
# A field is None only when the user skipped that question after repeated unclear answers.


class _Result(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class FitnessAssessment(_Result):
    level: Level | None
    limitations: str | None  # "none" when the user has none


class Goals(_Result):
    goal: Goal | None
    target_weight_kg: float | None  # None: no target (or skipped)


class Workout(_Result):
    days_per_week: int | None
    minutes_per_session: int | None
    equipment: list[str] | None


class DietPlan(_Result):
    diet: Diet | None
    allergies: list[str] | None


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
    target_weight_kg: Kilograms | Literal["none"] | None = None
    days_per_week: int | None = Field(None, ge=1, le=7)
    minutes_per_session: int | None = Field(None, ge=10, le=240)
    equipment: list[str] | None = None
    diet: Diet | None = None
    allergies: list[str] | None = None
    preferred_days: list[Weekday] | None = None
    time_of_day: TimeOfDay | None = None
    completed: list[Stage] = []


def accumulated(s: FitnessSlots) -> FitnessContext:
    done = set(s.completed)
    weight = s.target_weight_kg if isinstance(s.target_weight_kg, float | int) else None
    return FitnessContext(
        assessment=FitnessAssessment(level=s.fitness_level, limitations=s.limitations)
        if "assessment" in done
        else None,
        goals=Goals(goal=s.goal, target_weight_kg=weight) if "goals" in done else None,
        workout=Workout(days_per_week=s.days_per_week, minutes_per_session=s.minutes_per_session, equipment=s.equipment)
        if "workout" in done
        else None,
        diet=DietPlan(diet=s.diet, allergies=s.allergies) if "diet" in done else None,
        schedule=Schedule(days=s.preferred_days, time_of_day=s.time_of_day) if "schedule" in done else None,
    )


# -- parsers ------------------------------------------------------------------------------

_NONE_ANSWER = re.compile(
    r"(?:no|none|nope|nah|nothing|not really|n/?a|no thanks|all good|i'?m fine|none at all|not any|zero)"
    r"(?: (?:injur(?:y|ies)|limitations?|problems?|issues?|allerg(?:y|ies)|target|equipment|at all))*"
)


def _is_none(text: str) -> bool:
    return _NONE_ANSWER.fullmatch(fold(text).strip(" .!")) is not None


read_level = choice(
    {
        "beginner": ["novice", "newbie", "new to this", "just starting", "starting out", "unfit", "out of shape"],
        "intermediate": ["medium", "average", "moderate", "somewhat fit", "in between", "okay shape"],
        "advanced": ["expert", "very fit", "athlete", "experienced", "pro"],
    }
)

_LIMIT_BODY = (
    r"(?:(?:bad|sore|weak|injured|torn|broken|chronic|old|stiff|dodgy|painful)\s+\w+"
    r"|\w+\s+(?:injury|pain|problems?|issues?|surgery|strain|sprain|condition)"
    r"|asthma|arthritis|diabetes|high blood pressure|a hernia|hernia|back pain|scoliosis)"
)
_LIMIT_CUE = re.compile(
    rf"\b(?:i have|i've got|i've|i got|i suffer from|i'm recovering from|recovering from|i had|with)\s+"
    rf"(?:an?\s+|some\s+)?({_LIMIT_BODY})\b"
)
_NO_LIMIT = re.compile(r"\b(?:i have|i've got|i've) no (?:injur(?:y|ies)|limitations?)\b|\bno injur(?:y|ies)\b")


def limitation_in(text: str) -> str | None:
    """An injury or limitation a sentence states ("I have a bad knee"), or "none" for "no injuries"."""
    t = fold(text)
    if _NO_LIMIT.search(t):
        return NONE
    m = _LIMIT_CUE.search(t)
    return m.group(1) if m else None


def parse_limitations(text: str) -> object:
    if _is_none(text):
        return NONE
    found = limitation_in(text)
    if found:
        return found
    if isinstance(read_goal(text), str) or isinstance(parse_weight(text), float):
        # free text would take "lose fat, 80 kg" as an injury; it answers a later stage instead
        return Invalid("That sounds like your goal; we'll get to goals next. First: any injuries or limitations?")
    t = text.strip().strip(".!")
    return t if len(t) >= 2 else Invalid("Tell me about any injuries in a few words, or say “none”.")


read_goal = choice(
    {
        "fat_loss": ["fat loss", "lose weight", "weight loss", "lose fat", "burn fat", "slim down", "get lean", "cut"],
        "muscle_gain": ["muscle gain", "build muscle", "gain muscle", "bulk", "bulk up", "get stronger", "strength"],
        "endurance": ["stamina", "cardio", "run a marathon", "marathon", "run longer", "triathlon"],
        "general_health": ["general health", "health", "stay healthy", "be healthier", "feel better", "get fit"],
    }
)
GOAL_NAMES: dict[Goal, str] = {
    "fat_loss": "fat loss",
    "muscle_gain": "muscle gain",
    "endurance": "endurance",
    "general_health": "general health",
}
_GOAL_CUE = re.compile(
    r"\b(?:want to|wanna|goal is(?: to)?|trying to|i'd like to|hoping to|aim is to|aim to|need to|my goal is)\s+"
    r"([^,.;!?]+)"
)

_WEIGHT = re.compile(r"(\d+(?:[.,]\d+)?)\s*(kg|kgs|kilos?|kilograms?|lbs?|pounds?)\b")
_WEIGHT_CUE = re.compile(r"\b(?:target(?: weight)?(?: is| of)?|get (?:down |up )?to|reach|weigh)\s+(\d[^,;!?]*)")


def weight_kg(value: float, unit: str) -> float:
    return round(value if unit.startswith("k") else value * LB, 1)


def parse_weight(text: str) -> object:
    """ "72 kg", "160 lb", "160 pounds" -> kilograms; "none" when there is no target; a bare number -> Invalid."""
    if _is_none(text) or re.search(r"\bno (?:target|goal weight)\b|don'?t have (?:one|a target)", fold(text)):
        return NONE
    m = _WEIGHT.search(fold(text))
    if m:
        kg = weight_kg(float(m.group(1).replace(",", ".")), m.group(2))
        if not 30 <= kg <= 300:
            return Invalid(
                f"{m.group(1)} {m.group(2)} is {kg} kg, outside 30-300 kg. Please check the number and unit."
            )
        return kg
    if numbers(text):
        return Invalid("Please add the unit, kg or lb (for example “72 kg” or “160 lb”).")
    return None


_DAYS_CUE = re.compile(
    r"\b(\d|one|two|three|four|five|six|seven)\s*(?:days?|times?|x)\s*(?:a|per|each|/|every)\s*week\b"
)
_WORD_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
_MINUTES_CUE = re.compile(r"\b(\d{1,3})\s*(?:min|mins|minutes)\b")
_HOURS_CUE = re.compile(r"\b(half an hour|an hour and a half|an hour|(\d(?:[.,]\d+)?)\s*(?:h|hrs?|hours?))\b")


def minutes_in(text: str) -> int | None:
    t = fold(text)
    if m := _MINUTES_CUE.search(t):
        return int(m.group(1))
    if m := _HOURS_CUE.search(t):
        spoken = {"half an hour": 30, "an hour": 60, "an hour and a half": 90}
        return spoken.get(m.group(1)) or round(float((m.group(2) or "1").replace(",", ".")) * 60)
    return None


def parse_minutes(text: str) -> object:
    found = minutes_in(text)
    return found if found is not None else integer(10, 240, "minutes")(text)


EQUIPMENT: dict[str, tuple[str, ...]] = {
    "dumbbells": ("dumbbell", "dumbbells", "free weights", "weights"),
    "barbell": ("barbell", "barbells"),
    "kettlebell": ("kettlebell", "kettlebells"),
    "resistance bands": ("band", "bands", "resistance band", "resistance bands"),
    "pull-up bar": ("pull-up bar", "pullup bar", "chin-up bar"),
    "bench": ("bench",),
    "treadmill": ("treadmill",),
    "exercise bike": ("bike", "stationary bike", "exercise bike", "spin bike"),
    "rowing machine": ("rower", "rowing machine"),
    "yoga mat": ("mat", "yoga mat"),
    "jump rope": ("jump rope", "skipping rope"),
    "full gym": ("gym", "gym membership", "fitness studio"),
}
_BODYWEIGHT = re.compile(r"\b(?:bodyweight|body weight|just my body|no equipment|nothing)\b")


def _items(text: str) -> list[str]:
    parts = re.split(r",|;|/|\band\b|\bplus\b|&", fold(text).strip(" .!"))
    return [p.strip() for p in parts if p.strip()][:8]


def parse_equipment(text: str) -> object:
    t = fold(text)
    if _is_none(text) or _BODYWEIGHT.search(t):
        return [NONE]
    found = [
        name for name, words in EQUIPMENT.items() if any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", t) for w in words)
    ]
    return found or _items(text) or None


read_diet = choice(
    {
        "omnivore": ["anything", "everything", "no restrictions", "normal", "regular", "omnivorous", "all of it"],
        "vegetarian": ["veggie", "no meat"],
        "vegan": ["plant-based", "plant based"],
        "pescatarian": ["pescetarian", "fish but no meat"],
        "keto": ["ketogenic", "low carb", "low-carb"],
        "paleo": ["paleolithic"],
        "mediterranean": ["med diet"],
    }
)
_DIET_CUE = re.compile(
    r"\b(?:i'm|i am|i eat|i follow|i'm on|i am on|i went|i've gone|i have gone)\s+(?:a |an |the )?"
    r"(vegetarian|vegan|pescatarian|pescetarian|keto|paleo|mediterranean|veggie|plant[- ]based)\b"
)
_ALLERGY_CUE = re.compile(r"\b(?:i'm|i am) allergic to ([^.;!?]+)|\ballerg(?:y|ies) to ([^.;!?]+)")


def allergies_in(text: str) -> list[str] | None:
    m = _ALLERGY_CUE.search(fold(text))
    if not m:
        return None
    # the list ends where a new clause starts: "nuts and I prefer mornings" -> ["nuts"]
    listed = re.split(r"\s*(?:,|\band\b|\bbut\b)?\s*\b(?:i|i'm|i am|my|but|please)\b", m.group(1) or m.group(2))[0]
    return _items(listed) or None


def parse_allergies(text: str) -> object:
    if _is_none(text):
        return [NONE]
    return allergies_in(text) or _items(re.sub(r"^(?:i'm |i am )?allergic to ", "", fold(text))) or None


read_time = choice(
    {
        "morning": ["mornings", "early", "before work", "sunrise"],
        "midday": ["noon", "lunch", "lunchtime", "lunch break", "middle of the day"],
        "afternoon": ["afternoons", "after school"],
        "evening": ["evenings", "after work", "night", "tonight", "late"],
    }
)
_CLOCK = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*(am|pm|h)?\b")
_TIME_CUE = re.compile(
    r"\b(?:prefer|like|love)\s+(?:to (?:train|work out|exercise) )?(?:in the )?"
    r"(mornings?|afternoons?|evenings?|midday|lunchtime)"
)


def parse_time_of_day(text: str) -> object:
    m = _CLOCK.search(fold(text))
    if m and (m.group(2) or m.group(3)):
        hour = int(m.group(1))
        if m.group(3) in ("am", "pm"):
            hour = hour % 12 + (12 if m.group(3) == "pm" else 0)
        if not 0 <= hour <= 23:
            return Invalid("That isn't a time of day; say morning, midday, afternoon or evening.")
        return "morning" if 4 <= hour < 11 else "midday" if hour < 14 else "afternoon" if hour < 17 else "evening"
    return read_time(text)


_DAY_WORDS: dict[str, Weekday] = {}
for _day, _names in zip(
    WEEKDAYS,
    (("monday", "mon"), ("tuesday", "tue", "tues"), ("wednesday", "wed"), ("thursday", "thu", "thur", "thurs"),
     ("friday", "fri"), ("saturday", "sat"), ("sunday", "sun")),
    strict=True,
):  # fmt: skip
    for _w in _names:
        _DAY_WORDS[_w] = _day
        _DAY_WORDS[_w + "s"] = _day
_DAY_RE = re.compile(r"\b(" + "|".join(sorted(_DAY_WORDS, key=len, reverse=True)) + r")\b")
_RANGE_RE = re.compile(rf"{_DAY_RE.pattern}\s*(?:-|–|to|through|till|until)\s*{_DAY_RE.pattern}")


def weekdays_in(text: str) -> list[Weekday]:
    t = fold(text)
    days: set[Weekday] = set()
    if re.search(r"\b(?:every ?day|daily|all week|each day)\b", t):
        days.update(WEEKDAYS)
    if re.search(r"\bweekdays?\b", t):
        days.update(WEEKDAYS[:5])
    if re.search(r"\bweekends?\b", t):
        days.update(WEEKDAYS[5:])
    for m in _RANGE_RE.finditer(t):
        a, b = WEEKDAYS.index(_DAY_WORDS[m.group(1)]), WEEKDAYS.index(_DAY_WORDS[m.group(2)])
        days.update(WEEKDAYS[a : b + 1] if a <= b else WEEKDAYS[a:] + WEEKDAYS[: b + 1])
    days.update(_DAY_WORDS[m.group(1)] for m in _DAY_RE.finditer(t))
    return [d for d in WEEKDAYS if d in days]


def days_parser(s: FitnessSlots) -> Parser:
    """Weekdays, as many as the workout stage planned per week."""
    want = accumulated(s).workout
    per_week = want.days_per_week if want else None

    def rule(text: str) -> object:
        days = weekdays_in(text)
        if not days:
            return None
        if per_week is not None and len(days) != per_week:
            picked = ", ".join(days)
            return Invalid(
                f"You picked {len(days)} day(s) ({picked}) but planned {per_week} a week; please name {per_week}."
            )
        return days

    expects = f"{per_week} weekdays" if per_week else "the weekdays you prefer"
    return Parser(rule, f"{expects}, e.g. Mon, Wed, Fri")


def days_per_week_rule(text: str) -> object:
    if m := _DAYS_CUE.search(fold(text)):
        return _WORD_NUMBERS.get(m.group(1)) or int(m.group(1))
    return integer(1, 7, "days a week")(text)


# -- reading answers given out of turn ----------------------------------------------------


_LEVEL_CUE = re.compile(
    r"\b(?:i'm|i am|i'd say i'm|my (?:fitness )?level is)\s+(?:a |an |pretty |fairly |quite |a complete |an absolute )?"
    r"(beginner|intermediate|advanced|novice|newbie|expert)\b"
)


def read_anytime(text: str, s: FitnessSlots) -> dict[str, object]:
    """Answers (and corrections of earlier stages) a message states with an explicit cue."""
    t = fold(text)
    found: dict[str, object] = {}
    if m := _LEVEL_CUE.search(t):
        found["fitness_level"] = read_level(m.group(1))
    if limit := limitation_in(text):
        found["limitations"] = limit
    if m := _GOAL_CUE.search(t):
        goal = read_goal(m.group(1))
        if isinstance(goal, str):
            found["goal"] = goal
    if m := _WEIGHT_CUE.search(t):
        kg = parse_weight(m.group(1))
        if isinstance(kg, float):
            found["target_weight_kg"] = kg
    if m := _DAYS_CUE.search(t):
        found["days_per_week"] = _WORD_NUMBERS.get(m.group(1)) or int(m.group(1))
    if (minutes := minutes_in(text)) is not None and re.search(r"\b(?:session|workout|train|each|per)\b", t):
        found["minutes_per_session"] = minutes
    if m := _DIET_CUE.search(t):
        found["diet"] = read_diet(m.group(1))
    if allergies := allergies_in(text):
        found["allergies"] = allergies
    if m := _TIME_CUE.search(t):
        found["time_of_day"] = read_time(m.group(1))
    return {k: v for k, v in found.items() if v is not None and not isinstance(v, Invalid)}


# -- steps and what is said ---------------------------------------------------------------


def welcome(ctx: StepContext[FitnessSlots]) -> None:
    lead = (
        "Hi! I'm your fitness coach. Let's set you up in five short stages: fitness assessment, goals, "
        "workouts, diet and schedule."
    )
    given = {k: v for k, v in ctx.slots.model_dump(exclude={"completed"}).items() if v is not None}
    noted = "; ".join(f"{k.replace('_', ' ')}: {_show(v)}" for k, v in given.items())
    ctx.say(f"{lead} Noted so far: {noted}." if noted else lead)


def _show(value: object) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    names: dict[str, str] = {str(k): v for k, v in GOAL_NAMES.items()}
    return names.get(value, value) if isinstance(value, str) else str(value)


def end_of(stage: Stage) -> Callable[[StepContext[FitnessSlots]], None]:
    def run(ctx: StepContext[FitnessSlots]) -> None:
        if stage not in ctx.slots.completed:
            ctx.slots.completed = [*ctx.slots.completed, stage]
        ctx.event("stage", stage)

    return run


PACE: dict[Level, str] = {
    "beginner": "As a beginner, you'll build up gradually. ",
    "intermediate": "As an intermediate, you'll build on what you already do. ",
    "advanced": "As an advanced trainee, you can train hard. ",
}


def ask_goal(s: FitnessSlots) -> str:
    a = accumulated(s).assessment
    pace = PACE[a.level] if a and a.level else ""
    return f"Stage 2 of 5, goals. {pace}What's your primary goal: fat loss, muscle gain, endurance or general health?"


def ask_weight(s: FitnessSlots) -> str:
    question = "do you have a target weight? Give it in kg or lb (e.g. 72 kg or 160 lb), or say “none”."
    return f"For {GOAL_NAMES[s.goal]}, {question}" if s.goal else question[0].upper() + question[1:]


def ask_days(s: FitnessSlots) -> str:
    limit = accumulated(s).limitation
    care = f"I'll plan around your {limit}. " if limit else ""
    return f"Stage 3 of 5, workouts. {care}How many days a week can you train (1 to 7)?"


def ask_minutes(s: FitnessSlots) -> str:
    limit = accumulated(s).limitation
    extra = f", including a gentle warm-up for your {limit}" if limit else ""
    return f"How many minutes can you spend per session{extra}?"


def ask_equipment(s: FitnessSlots) -> str:
    limit = accumulated(s).limitation
    safe = f" I'll pick exercises that are safe with your {limit}." if limit else ""
    return f"What equipment do you have: dumbbells, bands, a gym, or none?{safe}"


def ask_diet(s: FitnessSlots) -> str:
    g = accumulated(s).goals
    why = f"To support your goal of {GOAL_NAMES[g.goal]}: " if g and g.goal else ""
    return (
        f"Stage 4 of 5, diet. {why}how do you eat: omnivore, vegetarian, vegan, pescatarian, keto, paleo "
        "or mediterranean?"
    )


def ask_preferred_days(s: FitnessSlots) -> str:
    w = accumulated(s).workout
    n = f"{w.days_per_week} " if w and w.days_per_week else ""
    return f"Stage 5 of 5, scheduling. Which {n}days of the week suit you best (e.g. Mon, Wed, Fri)?"


def days_reprompt(s: FitnessSlots) -> str:
    w = accumulated(s).workout
    n = f"{w.days_per_week} " if w and w.days_per_week else ""
    return f"Which {n}days? Name them, e.g. “Mon, Wed, Fri”, “weekends” or “Tuesday to Thursday”."


def _list(items: list[str] | None) -> str:
    return ", ".join(items) if items else "not given"


def plan_summary(s: FitnessSlots) -> str:
    c = accumulated(s)
    a, g, w, d, sc = c.assessment, c.goals, c.workout, c.diet, c.schedule
    weight = f" (target {g.target_weight_kg} kg)" if g and g.target_weight_kg is not None else ""
    goal = GOAL_NAMES[g.goal] if g and g.goal else "not given"
    return (
        "Fitness onboarding completed. "
        f"Level: {a.level if a and a.level else 'not given'}. "
        f"Limitations: {a.limitations if a and a.limitations else 'not given'}. "
        f"Goal: {goal}{weight}. "
        f"Workouts: {w.days_per_week if w and w.days_per_week else '?'} days/week, "
        f"{w.minutes_per_session if w and w.minutes_per_session else '?'} min, "
        f"equipment: {_list(w.equipment if w else None)}. "
        f"Diet: {d.diet if d and d.diet else 'not given'}, allergies: {_list(d.allergies if d else None)}. "
        f"Schedule: {_list(cast(list[str] | None, sc.days) if sc else None)}, "
        f"{sc.time_of_day if sc and sc.time_of_day else 'any time'}."
    )


def closing(s: FitnessSlots) -> str:
    c = accumulated(s)
    w, sc = c.workout, c.schedule
    days = _list(cast(list[str] | None, sc.days) if sc else None)
    when = sc.time_of_day if sc and sc.time_of_day else "any time"
    per = f"{w.minutes_per_session}-minute " if w and w.minutes_per_session else ""
    limit = f", planned around your {c.limitation}" if c.limitation else ""
    return f"You're all set! Your plan: {per}workouts on {days} ({when}){limit}. I've saved your fitness profile."


def fitness_profile(s: FitnessSlots) -> list[RecordDraft]:
    return [RecordDraft(kind="fitness_profile", data=accumulated(s).model_dump(mode="json"))]


fitness_onboarding = Flow(
    name="onboarding",
    description="five stages (assessment, goals, workout, diet, scheduling) building one fitness profile",
    persona="an encouraging, safety-minded fitness coach who asks one thing at a time",
    slots=FitnessSlots,
    states=[
        Step("welcome", run=welcome, initial=True),
        Ask(
            "level",
            slot="fitness_level",
            say="Stage 1 of 5, fitness assessment. How would you describe your fitness level: beginner, "
            "intermediate or advanced?",
            parse=read_level,
            reprompts=[
                "Please pick one: beginner, intermediate or advanced.",
                "Type one word: beginner, intermediate or advanced.",
            ],
            help="Your level sets how hard the first weeks are.",
        ),
        Ask(
            "limitations",
            slot="limitations",
            say="Do you have any injuries or physical limitations I should plan around? Say “none” if not.",
            parse=Parser(parse_limitations, "your injuries or limitations in a few words, or “none”"),
            help="Injuries change which exercises are safe for you.",
        ),
        Step("assessment_done", run=end_of("assessment")),
        Ask(
            "goal",
            slot="goal",
            say=ask_goal,
            parse=read_goal,
            reprompts=[
                "Please pick one: fat loss, muscle gain, endurance or general health.",
                "Type one of: fat loss, muscle gain, endurance, general health.",
            ],
        ),
        Ask(
            "target_weight",
            slot="target_weight_kg",
            say=ask_weight,
            parse=Parser(parse_weight, "a weight with its unit (72 kg or 160 lb), or “none”"),
            reprompts=[
                "Please give your target weight with its unit, e.g. “72 kg” or “160 lb”, or say “none”.",
                "Type for example “72 kg”, “160 lb” or “none”.",
            ],
        ),
        Step("goals_done", run=end_of("goals")),
        Ask(
            "days",
            slot="days_per_week",
            say=ask_days,
            parse=Parser(days_per_week_rule, "a number of days from 1 to 7"),
            reprompts=[
                "How many days a week can you train? Please give a number from 1 to 7.",
                "Type one number, 1 to 7.",
            ],
        ),
        Ask(
            "minutes",
            slot="minutes_per_session",
            say=ask_minutes,
            parse=Parser(parse_minutes, "minutes per session, from 10 to 240"),
            reprompts=["How long is one session, in minutes (10 to 240)?", "Type a number of minutes, e.g. 30."],
        ),
        Ask(
            "equipment",
            slot="equipment",
            say=ask_equipment,
            parse=Parser(parse_equipment, "the equipment you have, or “none”"),
        ),
        Step("workout_done", run=end_of("workout")),
        Ask(
            "diet",
            slot="diet",
            say=ask_diet,
            parse=read_diet,
            reprompts=[
                "Please pick one: omnivore, vegetarian, vegan, pescatarian, keto, paleo or mediterranean.",
                "Type one word, e.g. “vegetarian” or “omnivore”.",
            ],
        ),
        Ask(
            "allergies",
            slot="allergies",
            say="Any food allergies or intolerances? Say “none” if not.",
            parse=Parser(parse_allergies, "your allergies, or “none”"),
        ),
        Step("diet_done", run=end_of("diet")),
        Ask(
            "preferred_days",
            slot="preferred_days",
            say=ask_preferred_days,
            parse=days_parser,
            reprompts=[days_reprompt, days_reprompt],
        ),
        Ask(
            "time_of_day",
            slot="time_of_day",
            say="What time of day do you prefer to train: morning, midday, afternoon or evening?",
            parse=Parser(parse_time_of_day, "morning, midday, afternoon or evening (or a time like 7am)"),
            reprompts=[
                "Please pick one: morning, midday, afternoon or evening (or a time like 7am).",
                "Type one word: morning, midday, afternoon or evening.",
            ],
        ),
        Step("schedule_done", run=end_of("schedule")),
        Final("done", summary=plan_summary, say=closing, records=fitness_profile),
    ],
    transitions=[
        T("next", "welcome", "level"),
        T("answer", "level", "limitations"),
        T("answer", "limitations", "assessment_done"),
        T("next", "assessment_done", "goal"),
        T("answer", "goal", "target_weight"),
        T("answer", "target_weight", "goals_done"),
        T("next", "goals_done", "days"),
        T("answer", "days", "minutes"),
        T("answer", "minutes", "equipment"),
        T("answer", "equipment", "workout_done"),
        T("next", "workout_done", "diet"),
        T("answer", "diet", "allergies"),
        T("answer", "allergies", "diet_done"),
        T("next", "diet_done", "preferred_days"),
        T("answer", "preferred_days", "time_of_day"),
        T("answer", "time_of_day", "schedule_done"),
        T("next", "schedule_done", "done"),
    ],
    extract=read_anytime,
    on_cancel="pause",
    pause_message="Paused. Your answers so far are kept; your next message picks up at the same question.",
    llm_calls_per_turn=2,
)


def needs_onboarding(ctx: EntryContext) -> str | None:
    return "onboarding" if ctx.latest("fitness_profile") is None else None


fitness_coach = register(
    Bot(
        name="fitness-coach",
        persona="an encouraging, safety-minded fitness coach",
        flows=[fitness_onboarding],
        intents=[
            Intent(
                "onboarding",
                patterns=[r"\bonboarding\b", r"\b(?:redo|restart|update|change|new)\b.*\b(?:plan|profile)\b"],
                description="the user wants to (re)do the fitness onboarding or change their plan",
            )
        ],
        capabilities=(
            "I'm your fitness coach. Without a language model configured I can't chat freely, but I can "
            "redo your onboarding: say \"update my plan\". Type 'help' at any time, or 'cancel' to pause."
        ),
        entry=needs_onboarding,
    )
)
