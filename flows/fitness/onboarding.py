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
from collections.abc import Callable, Sequence
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine import Ask, Bot, EntryContext, Final, Flow, Intent, RecordDraft, Slots, Step, StepContext, T
from engine.extract import Invalid, Parser, choice, fold, integer, numbers

Level = Literal["beginner", "intermediate", "advanced"]
Goal = Literal["fat_loss", "muscle_gain", "endurance", "general_health"]
Diet = Literal["omnivore", "vegetarian", "vegan", "pescatarian", "keto", "paleo", "mediterranean"]
TimeOfDay = Literal["morning", "midday", "afternoon", "evening", "anytime"]
Weekday = Literal["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
Stage = Literal["assessment", "goals", "workout", "diet", "schedule"]
WEEKDAYS: tuple[Weekday, ...] = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
NONE = "none"
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
    equipment: list[str] | None  # [] when the user has none (bodyweight only)


class DietPlan(_Result):
    diet: Diet | None
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

# "No" in its many forms, with what it is about and the politeness around it:
# "none", "nope, none, thanks", "no injuries at all", "not that I know of", "I'm healthy".
_NONE_WORDS = (
    r"(?:no|none|nope|nah|nothing|zero|n/?a|not really|not any|all good|i'?m (?:fine|good|healthy|ok|okay)"
    r"|healthy|not that i know of|(?:i )?don'?t have (?:any|one)|i have none|no thanks)"
)
_NONE_ANSWER = re.compile(
    rf"(?:{_NONE_WORDS}(?: (?:injur(?:y|ies)|limitations?|problems?|issues?|allerg(?:y|ies)|intolerances?"
    rf"|target|equipment|at all|whatsoever))* ?)+"
)
_POLITE = re.compile(r"\b(?:thanks|thank you|thx|please|so far|i think)\b|[^\w\s'/]")
# Bare acknowledgements that answer "do you have any ...?" without saying what.
_ACK = frozenset({"yes", "yeah", "yep", "yup", "y", "sure", "ok", "okay", "k", "some", "a few", "a couple"})


def _plain(text: str) -> str:
    """Folded, punctuation and politeness removed: what an answer says."""
    return " ".join(_POLITE.sub(" ", fold(text)).split())


def _is_none(text: str) -> bool:
    return _NONE_ANSWER.fullmatch(_plain(text)) is not None


_LEVEL_WORDS = choice(
    {
        "beginner": ["novice", "newbie", "new to this", "just starting", "starting out", "unfit", "out of shape",
                     "couch potato", "sedentary"],
        "intermediate": ["medium", "average", "moderate", "somewhat fit", "in between", "okay shape", "fairly fit",
                         "pretty fit", "quite fit", "reasonably fit", "decent shape", "good shape"],
        "advanced": ["expert", "very fit", "athlete", "experienced", "pro", "great shape", "competitive"],
    },
    fuzzy=False,
)  # fmt: skip
# Only the three level words are corrected for spelling ("intermidiate"): a fuzzy match of a
# description ("pretty fit" ~ "very fit") would be a guess.
_LEVEL_TYPOS = choice({"beginner": [], "intermediate": [], "advanced": []}, cutoff=0.8)


def _level(text: str) -> object:
    t = _plain(text)
    # a negated description says the opposite: "not very fit" is no expert; "not a pro" says nothing
    t = re.sub(r"\bnot (?:very |that |really |so |particularly |super )?(?:fit|sporty|active|athletic|in shape)\b",
               "unfit", t)  # fmt: skip
    t = re.sub(r"\bnot (?:an? )?(?:pro|expert|athlete|advanced|beginner|newbie|novice)\b", "", t)
    found = _LEVEL_WORDS(t)
    return found if found is not None else _LEVEL_TYPOS(t)


read_level = Parser(_level, "one of: beginner, intermediate, advanced")


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
# How an answer to "any injuries?" may start, before the injury itself.
_LIMIT_LEAD = re.compile(
    r"^(?:(?:yes|yeah|yep)[,.!]?\s+)?(?:(?:i have|i've got|i've|i got|i suffer from|i'm recovering from"
    r"|recovering from|i had)\s+(?:an?\s+|some\s+)?)?",
    re.IGNORECASE,
)


def limitation_in(text: str) -> str | None:
    """An injury or limitation a sentence states ("I have a bad knee"), or "none" for "no injuries"."""
    t = fold(text)
    if _NO_LIMIT.search(t):
        return NONE
    m = _LIMIT_CUE.search(t)
    return m.group(1) if m else None


def parse_limitations(text: str) -> object:
    """The whole answer, less its lead-in ("I have a bad knee and asthma" -> "bad knee and asthma")."""
    if _is_none(text):
        return NONE
    if _plain(text) in _ACK:
        return Invalid("Which injury or limitation? A few words are enough, e.g. “bad knee”, or say “none”.")
    if isinstance(read_goal(text), str) or isinstance(parse_weight(text), float):
        # free text would take "lose fat, 80 kg" as an injury; it answers a later stage instead
        return Invalid("That sounds like your goal; we'll get to goals next. First: any injuries or limitations?")
    t = _LIMIT_LEAD.sub("", text.strip()).strip(" .!")
    return t if len(t) >= 2 else Invalid("Tell me about any injuries in a few words, or say “none”.")


def plan_around(limitation: str) -> str:
    """How a question names the limitation: "your bad knee", or the user's own words quoted."""
    if re.fullmatch(_LIMIT_BODY, fold(limitation)):
        return f"your {limitation}"
    return f"your limitation (“{limitation}”)"


_GOAL_WORDS = choice(
    {
        "fat_loss": ["fat loss", "lose weight", "weight loss", "lose fat", "burn fat", "slim down", "get lean", "cut",
                     "belly fat", "lose some weight", "slim", "slimmer", "lose a few kilos", "lose a few pounds"],
        "muscle_gain": ["muscle gain", "build muscle", "gain muscle", "bulk", "bulk up", "get stronger", "strength",
                        "muscle", "muscles", "tone", "tone up", "toned", "get toned", "get bigger"],
        "endurance": ["stamina", "cardio", "run a marathon", "marathon", "half marathon", "run longer", "triathlon",
                      "running", "run faster", "5k", "10k", "cycling"],
        "general_health": ["general health", "health", "stay healthy", "be healthier", "feel better", "get fit",
                           "healthier", "wellbeing", "well-being", "fitness"],
    }
)  # fmt: skip
_RULED_OUT = re.compile(r"\b(?:not|don't want to|do not want to|rather than|instead of)\s+[^,;.!?]*")


def _goal(text: str) -> object:
    # what the user rules out does not count: "not lose weight, build muscle" -> muscle gain
    return _GOAL_WORDS(_RULED_OUT.sub(" ", fold(text)))


read_goal = Parser(_goal, "one of: fat loss, muscle gain, endurance, general health")
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

_WEIGHT = re.compile(
    r"(\d+(?:[.,]\d+)?)\s*(kg|kgs|kilos?|kilograms?|lbs?|pounds?|stones?|(?<=\s)st)\b(?:\s*(\d+)\s*(?:lbs?|pounds?)\b)?"
)
# "to" / "target" / "reach" before a weight mark it as the target, not the current weight
_TARGET_MARK = re.compile(
    r"\b(?:to|target(?: weight)?(?: is| of)?|reach|goal(?: weight)?(?: is| of)?|aim(?:ing)? for)\s*$"
)
_CURRENT = re.compile(r"\b(?:i weigh|i'm|i am|currently|right now|at the moment|now)\b[^,;.!?]*$")
_RELATIVE = re.compile(r"\b(lose|drop|shed|gain|put on)(?: about| around| roughly)?\s*$")
_NO_TARGET = re.compile(
    r"\bno (?:target|goal weight)\b|\bdon'?t have (?:one|a target)\b|\bmaintain\b|\bkeep (?:my|the same) weight\b"
    r"|\bstay (?:the same|as i am)\b"
)
_TARGET_CUE = re.compile(
    r"\b(?:target(?: weight)?(?: is| of)?|get (?:down |up )?to|reach|goal weight(?: is| of)?)\s+(\d[^,;!?]*)"
)
LB = 0.45359237
STONE = 6.35029318


WEIGHT_EXPECTS = "a weight with its unit (72 kg or 160 lb), or “none”"


def weight_kg(value: float, unit: str, pounds: float = 0.0) -> float:
    """Kilograms for `value` in `unit` (kg, lb or stone; "11 st 4 lb" passes the 4 as `pounds`)."""
    if unit.startswith("k"):
        return round(value, 1)
    if unit.startswith("st"):
        return round(value * STONE + pounds * LB, 1)
    return round(value * LB, 1)


def parse_weight(text: str) -> object:
    """The target weight in kilograms ("72 kg", "160 lb", "11 stone"), "none" for no target, or a reason.

    Of several weights the one marked as the target wins ("I weigh 90 kg and want to get to
    80 kg" -> 80); a current weight alone, an amount to lose or a number without a unit is
    asked about again rather than guessed.
    """
    t = fold(text)
    if _is_none(text):
        return NONE
    mentions = list(_WEIGHT.finditer(t))
    if not mentions:
        if _NO_TARGET.search(t):
            return NONE
        if numbers(text):
            return Invalid("Please add the unit, kg or lb (for example “72 kg” or “160 lb”).")
        return None
    marked = [m for m in mentions if _TARGET_MARK.search(t[: m.start()])]
    if marked:
        m = marked[-1]
    elif len(mentions) > 1:
        return Invalid("I read more than one weight there. Which one is your target? For example “72 kg”.")
    else:
        m = mentions[0]
        before = t[: m.start()]
        if relative := _RELATIVE.search(before):
            return Invalid(
                f"That's how much to {relative.group(1)}. What weight would you like to reach? "
                "For example “72 kg” or “160 lb”."
            )
        if _CURRENT.search(before):
            return Invalid("That sounds like your current weight. What's your target? For example “72 kg”, or “none”.")
    kg = weight_kg(float(m.group(1).replace(",", ".")), m.group(2), float(m.group(3) or 0))
    if not 30 <= kg <= 300:
        given = m.group().strip()
        converted = "" if m.group(2).startswith("k") else f"{kg} kg, "
        return Invalid(f"{given} is {converted}outside 30-300 kg. Please check the number and unit.")
    return kg


_DAYS_CUE = re.compile(
    r"\b(\d|one|two|three|four|five|six|seven)\s*(?:days?|times?|x)\s*(?:a|per|each|/|every|in a)\s*week\b"
    r"|\b(once|twice)\s+(?:a|per|each|every)\s+week\b|\b(every ?day|daily|each day)\b"
)
_WORD_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "once": 1, "twice": 2}


def days_in(text: str) -> int | None:
    """Days a week a sentence states: "3 times a week", "twice a week", "every day"."""
    m = _DAYS_CUE.search(fold(text))
    if m is None:
        return None
    if m.group(3):
        return 7
    word = m.group(1) or m.group(2)
    return _WORD_NUMBERS.get(word) or int(word)


def days_per_week_rule(text: str) -> object:
    found = days_in(text)
    if found is not None:
        return found
    if m := re.fullmatch(r"(\d)\s*x", fold(text).strip(" .!")):  # "3x"
        return integer(1, 7, "days a week")(m.group(1))
    return integer(1, 7, "days a week")(text)


_MINUTES_CUE = re.compile(r"\b(\d{1,3})\s*(?:min|mins|minutes)\b")
_HOURS_CUE = re.compile(
    r"\b(?:(half an hour)|(?:an? )?(hour and a half)|(an hour)|(\d(?:[.,]\d+)?)\s*(?:h|hrs?|hours?)"
    r"(?:\s*(?:and\s*)?(\d{1,2})\s*(?:m|min|mins|minutes)\b|(\d{2}))?)(?!\w)"
)


def minutes_in(text: str) -> int | None:
    """Minutes a sentence states: "45 minutes", "an hour", "1 hr 30 min", "an hour and a half"."""
    t = fold(text)
    if m := _HOURS_CUE.search(t):
        if m.group(1):
            return 30
        if m.group(2):
            return 90
        if m.group(3):
            return 60
        return round(float(m.group(4).replace(",", ".")) * 60) + int(m.group(5) or m.group(6) or 0)
    if m := _MINUTES_CUE.search(t):
        return int(m.group(1))
    return None


def parse_minutes(text: str) -> object:
    found = minutes_in(text)
    return found if found is not None else integer(10, 240, "minutes")(text)


EQUIPMENT: dict[str, tuple[str, ...]] = {
    "dumbbells": ("dumbbell", "dumbbells", "free weights", "weights"),
    "barbell": ("barbell", "barbells"),
    "kettlebell": ("kettlebell", "kettlebells"),
    "resistance bands": ("band", "bands", "resistance band", "resistance bands"),
    "pull-up bar": ("pull-up bar", "pullup bar", "pull up bar", "chin-up bar", "chin up bar"),
    "bench": ("bench",),
    "treadmill": ("treadmill",),
    "exercise bike": ("bike", "stationary bike", "exercise bike", "spin bike"),
    "rowing machine": ("rower", "rowing machine"),
    "yoga mat": ("mat", "yoga mat"),
    "jump rope": ("jump rope", "skipping rope"),
    "full gym": ("gym", "gym membership", "fitness studio"),
}
_BODYWEIGHT = re.compile(r"\b(?:bodyweight|body weight|just my body|no equipment|nothing)\b")
_NEGATED = re.compile(r"\b(?:no|not|without|don't have|do not have)\s+(?:an?\s+|any\s+)?(?:\w+\s+)?$")


def _items(text: str) -> list[str]:
    parts = re.split(r",|;|/|\band\b|\bplus\b|&", fold(text).strip(" .!"))
    return [p.strip() for p in parts if p.strip()][:8]


def parse_equipment(text: str) -> object:
    """Known equipment by name ("a pair of dumbbells" -> dumbbells); [] for none; anything else as listed."""
    t = fold(text)
    if _is_none(text) or _BODYWEIGHT.search(t):
        return []
    if _plain(text) in _ACK:
        return Invalid("Which equipment? For example “dumbbells and a mat”, or “none”.")

    def has(word: str) -> bool:
        # "no gym, just bands": a negated item is not equipment the user has
        return any(not _NEGATED.search(t[: m.start()]) for m in re.finditer(rf"(?<!\w){re.escape(word)}(?!\w)", t))

    found = [name for name, words in EQUIPMENT.items() if any(has(w) for w in words)]
    return found or _items(text) or None


_DIET_WORDS = choice(
    {
        "omnivore": ["anything", "everything", "no restrictions", "normal", "regular", "omnivorous", "all of it",
                     "eat meat", "a bit of everything"],
        "vegetarian": ["veggie", "no meat"],
        "vegan": ["plant-based", "plant based"],
        "pescatarian": ["pescetarian", "fish but no meat", "no meat but fish"],
        "keto": ["ketogenic", "low carb", "low-carb"],
        "paleo": ["paleolithic"],
        "mediterranean": ["med diet"],
    }
)  # fmt: skip


def _diet(text: str) -> object:
    t = fold(text)
    t = re.sub(r"\b(?:don'?t|do not|never) eat meat\b", "no meat", t)
    # "vegetarian, but I eat fish" is one diet with a name of its own
    t = re.sub(r"\bvegetarian\b[^.;!?]*\b(?:but|plus|and|also|except)\b[^.;!?]*\bfish\b", "pescatarian", t)
    return _DIET_WORDS(t)


read_diet = Parser(_diet, "one of: omnivore, vegetarian, vegan, pescatarian, keto, paleo, mediterranean")
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
    """Allergies as a list ("nuts and shellfish" -> ["nuts", "shellfish"]); [] for none."""
    if _is_none(text):
        return []
    if _plain(text) in _ACK:
        return Invalid("Which foods? For example “nuts, shellfish”, or say “none”.")
    return allergies_in(text) or _items(re.sub(r"^(?:i'm |i am )?allergic to ", "", fold(text))) or None


read_time = choice(
    {
        "morning": ["mornings", "early", "before work", "sunrise", "before breakfast"],
        "midday": ["noon", "lunch", "lunchtime", "lunch break", "middle of the day"],
        "afternoon": ["afternoons", "after school"],
        "evening": ["evenings", "after work", "night", "tonight", "late"],
        "anytime": ["any time", "whenever", "no preference", "flexible", "doesn't matter", "don't mind"],
    },
    cutoff=0.8,  # a typo ("mornign") is read; a different word ("soon" ~ "noon") is not
)  # fmt: skip
_CLOCK = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*(am|pm|h)?\b")
_TIME_CUE = re.compile(
    r"\b(?:prefer|like|love)\s+(?:to (?:train|work out|exercise) )?(?:in the )?"
    r"(mornings?|afternoons?|evenings?|midday|lunchtime)"
)


TIME_EXPECTS = "morning, midday, afternoon, evening or any time (or a clock time like 7am)"


def parse_time_of_day(text: str) -> object:
    """morning / midday / afternoon / evening, or "anytime"; a clock time ("7am", "18:30") picks its part of the day."""
    m = _CLOCK.search(fold(text))
    if m and (m.group(2) or m.group(3)):
        hour = int(m.group(1))
        if m.group(3) in ("am", "pm"):
            if not 1 <= hour <= 12:
                return Invalid("That isn't a time of day; say morning, midday, afternoon or evening.")
            hour = hour % 12 + (12 if m.group(3) == "pm" else 0)
        if not 0 <= hour <= 23:
            return Invalid("That isn't a time of day; say morning, midday, afternoon or evening.")
        if 4 <= hour < 11:
            return "morning"
        if 11 <= hour < 14:
            return "midday"
        return "afternoon" if 14 <= hour < 17 else "evening"  # late night counts as evening
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


# -- reading answers given out of turn ----------------------------------------------------


_LEVEL_CUE = re.compile(
    r"\b(?:i'm|i am|i'd say i'm|my (?:fitness )?level is)\s+(?:a |an |pretty |fairly |quite |a complete |an absolute )?"
    r"(beginner|intermediate|advanced|novice|newbie|expert)\b"
)


def read_anytime(text: str, s: FitnessSlots, asking: str | None = None) -> dict[str, object]:
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
    if m := _TARGET_CUE.search(t):
        kg = parse_weight(m.group(1))
        if isinstance(kg, float):
            found["target_weight_kg"] = kg
    found["days_per_week"] = days_in(text)
    if (minutes := minutes_in(text)) is not None and re.search(r"\b(?:session|workout|train|each|per)\b", t):
        found["minutes_per_session"] = minutes
    if m := _DIET_CUE.search(t):
        found["diet"] = read_diet(m.group(1))
    if allergies := allergies_in(text):
        found["allergies"] = allergies
    if m := _TIME_CUE.search(t):
        found["time_of_day"] = read_time(m.group(1))
    found = {k: v for k, v in found.items() if v is not None and not isinstance(v, Invalid)}
    slot = asking
    if found and slot in CLOSED and slot not in found:
        # "beginner, and I have a bad knee": what else the message says must not hide the answer itself
        answer = CLOSED[slot](s)(re.split(r"[,;.!?]|\s(?:and|but)\s", text.strip())[0])
        if answer is not None and not isinstance(answer, Invalid):
            found[slot] = answer
    return found


# The questions with a closed set of answers; a free-text one (injuries, equipment, allergies)
# would take any clause as its answer, so it is only answered on its own.
CLOSED: dict[str, Callable[[FitnessSlots], Parser]] = {
    "fitness_level": lambda s: read_level,
    "goal": lambda s: read_goal,
    "target_weight_kg": lambda s: Parser(parse_weight, WEIGHT_EXPECTS),
    "days_per_week": lambda s: Parser(days_per_week_rule, "a number of days from 1 to 7"),
    "minutes_per_session": lambda s: Parser(parse_minutes, "minutes per session, from 10 to 240"),
    "diet": lambda s: read_diet,
    "preferred_days": days_parser,
    "time_of_day": lambda s: Parser(parse_time_of_day, TIME_EXPECTS),
}


# -- steps and what is said ---------------------------------------------------------------


def welcome(ctx: StepContext[FitnessSlots]) -> None:
    lead = (
        "Hi! I'm your fitness coach. Let's set you up in five short stages: fitness assessment, goals, "
        "workouts, diet and schedule."
    )
    given = {k: v for k, v in ctx.slots.model_dump(exclude={"completed"}).items() if v is not None}
    noted = "; ".join(show(k, v) for k, v in given.items())
    ctx.say(f"{lead} Noted so far: {noted}." if noted else lead)


LABELS = {"target_weight_kg": "target weight", "days_per_week": "days a week", "minutes_per_session": "minutes"}


def show(slot: str, value: object) -> str:
    """How an answer reads when it is acknowledged: "target weight: 80.0 kg", "goal: fat loss"."""
    return f"{LABELS.get(slot, slot.replace('_', ' '))}: {_show(slot, value)}"


def _show(slot: str, value: object) -> str:
    if isinstance(value, list):
        return _list(value)
    if slot == "target_weight_kg" and isinstance(value, float | int):
        return f"{value} kg"
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
    care = f"I'll plan around {plan_around(limit)}. " if limit else ""
    return f"Stage 3 of 5, workouts. {care}How many days a week can you train (1 to 7)?"


def ask_minutes(s: FitnessSlots) -> str:
    limit = accumulated(s).limitation
    extra = f", including a gentle warm-up for {plan_around(limit)}" if limit else ""
    return f"How many minutes can you spend per session{extra}?"


def ask_equipment(s: FitnessSlots) -> str:
    limit = accumulated(s).limitation
    safe = f" I'll pick exercises that are safe with {plan_around(limit)}." if limit else ""
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


def _list(items: Sequence[str] | None) -> str:
    if items is None:
        return "not given"
    return ", ".join(items) if items else NONE


def _when(time_of_day: TimeOfDay | None) -> str:
    return "any time" if time_of_day in (None, "anytime") else str(time_of_day)


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
        f"Schedule: {_list(sc.days if sc else None)}, {_when(sc.time_of_day if sc else None)}."
    )


def closing(s: FitnessSlots) -> str:
    c = accumulated(s)
    w, sc = c.workout, c.schedule
    days = _list(sc.days if sc else None)
    when = _when(sc.time_of_day if sc else None)
    per = f"{w.minutes_per_session}-minute " if w and w.minutes_per_session else ""
    limit = f", planned around {plan_around(c.limitation)}" if c.limitation else ""
    return f"You're all set! Your plan: {per}workouts on {days} ({when}){limit}. I've saved your fitness profile."


def fitness_profile(s: FitnessSlots) -> list[RecordDraft]:
    return [RecordDraft(kind="fitness_profile", data=accumulated(s).model_dump(mode="json"))]


fitness_onboarding = Flow(
    name="onboarding",
    show=show,
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
            parse=CLOSED["fitness_level"],
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
            reprompts=[
                "Any injuries or physical limitations? A few words are enough, or say “none”.",
                "Type for example “bad knee”, “asthma” or “none”.",
            ],
            help="Injuries change which exercises are safe for you.",
        ),
        Step("assessment_done", run=end_of("assessment")),
        Ask(
            "goal",
            slot="goal",
            say=ask_goal,
            parse=CLOSED["goal"],
            reprompts=[
                "Please pick one: fat loss, muscle gain, endurance or general health.",
                "Type one of: fat loss, muscle gain, endurance, general health.",
            ],
        ),
        Ask(
            "target_weight",
            slot="target_weight_kg",
            say=ask_weight,
            parse=CLOSED["target_weight_kg"],
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
            parse=CLOSED["days_per_week"],
            reprompts=[
                "How many days a week can you train? Please give a number from 1 to 7.",
                "Type one number, 1 to 7.",
            ],
        ),
        Ask(
            "minutes",
            slot="minutes_per_session",
            say=ask_minutes,
            parse=CLOSED["minutes_per_session"],
            reprompts=["How long is one session, in minutes (10 to 240)?", "Type a number of minutes, e.g. 30."],
        ),
        Ask(
            "equipment",
            slot="equipment",
            say=ask_equipment,
            parse=Parser(parse_equipment, "the equipment you have, or “none”"),
            reprompts=[
                "Which equipment do you have? For example “dumbbells and a mat”, “a gym”, or “none”.",
                "Type the equipment you have, e.g. “bands”, or “none”.",
            ],
        ),
        Step("workout_done", run=end_of("workout")),
        Ask(
            "diet",
            slot="diet",
            say=ask_diet,
            parse=CLOSED["diet"],
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
            reprompts=[
                "Any food allergies or intolerances? For example “nuts, shellfish”, or say “none”.",
                "Type the foods you can't eat, or “none”.",
            ],
        ),
        Step("diet_done", run=end_of("diet")),
        Ask(
            "preferred_days",
            slot="preferred_days",
            say=ask_preferred_days,
            parse=CLOSED["preferred_days"],
            reprompts=[days_reprompt, days_reprompt],
        ),
        Ask(
            "time_of_day",
            slot="time_of_day",
            say="What time of day do you prefer to train: morning, midday, afternoon or evening (or any time)?",
            parse=CLOSED["time_of_day"],
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


fitness_coach = Bot(
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
