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
from dataclasses import replace
from pathlib import Path

from engine import Ask, Correctable, Final, Flow, Step, StepContext, T, accepted, review, reviewed, revise
from engine.extract import Parser
from engine.meanings import load_meanings
from engine.window import WINDOW
from flows.fitness.ahead import AHEAD
from flows.fitness.anytime import ASKED_DAYS, CLOSED, read_anytime
from flows.fitness.changes import PROFILE, fitness_profile, listed, show
from flows.fitness.food import FOOD_WORDS, parse_allergies
from flows.fitness.limits import limitation_cued, plan_around
from flows.fitness.profile import NONE, FitnessSlots, Level, Stage, TimeOfDay, accumulated
from flows.fitness.qualified import limitations_answer
from flows.fitness.readers import GOAL_NAMES, parse_equipment, weekdays_in

# -- steps and what is said ---------------------------------------------------------------


def welcome(ctx: StepContext[FitnessSlots]) -> None:
    lead = (
        "Hi! I'm your fitness coach. Let's set you up in five short stages: fitness assessment, goals, "
        "workouts, diet and schedule."
    )
    given = {
        k: v for k, v in ctx.slots.model_dump(exclude={"completed", "weight_unit", "review"}).items() if v is not None
    }
    noted = "; ".join(show(k, v) for k, v in given.items())
    ctx.say(f"{lead} Noted so far: {noted}." if noted else lead)


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


def _when(time_of_day: TimeOfDay | None) -> str:
    return "any time" if time_of_day in (None, "anytime") else str(time_of_day)


def plan_summary(s: FitnessSlots) -> str:
    c = accumulated(s)
    a, g, w, d, sc = c.assessment, c.goals, c.workout, c.diet, c.schedule
    weight = f" (target {g.target_weight_kg} kg)" if g and g.target_weight_kg is not None else ""
    if g and g.target_weight_kg is not None and g.current_weight_kg is not None:
        weight = f" (target {g.target_weight_kg} kg, from {g.current_weight_kg} kg)"
    # the user's exceptions stay beside the diet word: "vegetarian (“vegetarian except fish”)"
    diet = f"{d.diet} (“{d.detail}”)" if d and d.diet and d.detail else d.diet if d and d.diet else "not given"
    goal = GOAL_NAMES[g.goal] if g and g.goal else "not given"
    return (
        "Fitness onboarding completed. "
        f"Level: {a.level if a and a.level else 'not given'}. "
        f"Limitations: {a.limitations if a and a.limitations else 'not given'}. "
        f"Goal: {goal}{weight}. "
        f"Workouts: {w.days_per_week if w and w.days_per_week else '?'} days/week, "
        f"{w.minutes_per_session if w and w.minutes_per_session else '?'} min, "
        f"equipment: {listed(w.equipment if w else None)}. "
        f"Diet: {diet}, allergies: {listed(d.allergies if d else None)}. "
        f"Schedule: {listed(sc.days if sc else None)}, {_when(sc.time_of_day if sc else None)}."
    )


def review_summary(s: FitnessSlots) -> str:
    """The profile in one short paragraph, as the user would say it, before it is saved."""
    return (
        f"Here's your profile before I save it: {profile_told(s)}. "
        "Is that right? Say “yes” to save it, or tell me what to change."
    )


# what names the saved profile in a question about it ("what's my plan again?")
_PROFILE_NAMES = re.compile(r"\b(?:plan|profile|schedule|setup|program|routine)\b")


def saved_profile(s: FitnessSlots) -> str:
    """The saved profile told back when the user asks for it ("what's my plan again?")."""
    return f"Your fitness profile: {profile_told(s)}. Tell me anything you want to change."


def profile_told(s: FitnessSlots) -> str:
    """The profile's facts in one line, as the user would say them."""
    c = accumulated(s)
    a, g, w, d, sc = c.assessment, c.goals, c.workout, c.diet, c.schedule
    parts: list[str] = []
    if a:
        level = f"{a.level} level" if a.level else "level not given"
        hurt = "no injuries" if a.limitations in (None, NONE) else f"planning around {plan_around(a.limitations or '')}"
        parts.append(f"{level}, {hurt}")
    if g:
        goal = GOAL_NAMES[g.goal] if g.goal else "no goal given"
        target = f", target {g.target_weight_kg} kg" if g.target_weight_kg is not None else ", no target weight"
        now = f" (now {g.current_weight_kg} kg)" if g.current_weight_kg is not None else ""
        parts.append(f"goal: {goal}{target}{now}")
    if w:
        days = f"{w.days_per_week} days a week" if w.days_per_week else "days a week not given"
        if sc and sc.days:
            days += f" ({listed(sc.days)})"
        when = f", {_when(sc.time_of_day)}" if sc and sc.time_of_day else ""
        minutes = f", {w.minutes_per_session} minutes" if w.minutes_per_session else ""
        kit = "no equipment" if w.equipment == [] else f"equipment: {listed(w.equipment)}"
        parts.append(f"{days}{minutes}{when}; {kit}")
    if d:
        diet = d.diet or "diet not given"
        detail = f" (“{d.detail}”)" if d.detail else ""
        allergies = "no allergies" if not d.allergies else f"allergies: {listed(d.allergies)}"
        parts.append(f"{diet}{detail}, {allergies}")
    return "; ".join(parts)


def closing(s: FitnessSlots) -> str:
    c = accumulated(s)
    w, sc = c.workout, c.schedule
    days = listed(sc.days if sc else None)
    when = _when(sc.time_of_day if sc else None)
    per = f"{w.minutes_per_session}-minute " if w and w.minutes_per_session else ""
    limit = f", planned around {plan_around(c.limitation)}" if c.limitation else ""
    return f"You're all set! Your plan: {per}workouts on {days} ({when}){limit}. I've saved your fitness profile."


# The answers a later message may correct, and the words that name each. Free-text answers
# (equipment, allergies) take almost any words: they must be named, or their old value said
# as wrong ("bands not dumbbells"), never picked by a value alone.
CORRECTABLE = (
    Correctable("fitness_level", names=("level", "fitness level", "nivel", "niveau", "livello", "nível")),
    # an injury said as a fact ("actually I have a bad knee") is read by the flow's own injury reader,
    # after a cue or as a clause of its own: a change of something else may mention the body in passing
    # (the wider reading by body part, `limitation_in`, fills the empty slot ahead, flows/fitness/ahead.py)
    Correctable("limitations", names=("limitation", "limitations"), parser=Parser(limitation_cued, "an injury")),
    Correctable("goal", names=("goal", "goals", "main goal", "objective", "objetivo", "objectif", "Ziel", "obiettivo")),
    Correctable(
        "target_weight_kg",
        # the target named in the six languages: a correction names it, and a none beside it declines its question
        # ahead ("no target weight", "pas d'objectif de poids", "senza peso obiettivo": engine/fill.py)
        names=(
            "target",
            "target weight",
            "goal weight",
            "weight goal",
            "peso objetivo",
            "poids cible",
            "objectif de poids",
            "Zielgewicht",
            "peso alvo",
            "peso obiettivo",
            "obiettivo di peso",
        ),
    ),
    Correctable("current_weight_kg", names=("current weight", "i weigh", "my weight"), by_value=False),
    Correctable(
        "days_per_week",
        names=("days", "days a week", "days per week", "times a week", "días", "dias", "jours", "Tage", "giorni"),
        parser=CLOSED["days_per_week"],  # a number: weekdays named later change which days (`preferred_days`)
    ),
    Correctable(
        "minutes_per_session",
        names=("minutes", "mins", "min", "session", "sessions", "minutos", "minuti", "Minuten", "séances"),
    ),
    Correctable(
        "equipment", names=("equipment", "gear", "equipo", "équipement", "Ausrüstung", "attrezzatura"), by_value=False
    ),
    Correctable("diet", names=("diet", "dieta", "régime", "Ernährung", "alimentación")),
    Correctable(
        "allergies",
        names=(
            "allergies",
            "allergy",
            "allergic",
            "intolerant",
            "intolerance",
            "intolerances",
            "alergias",
            "Allergien",
            "allergie",
            "intolerante",
            "intolérant",
            "intolérante",
            "Unverträglichkeit",
            "intollerante",
        ),
        by_value=False,
    ),
    # new weekdays are taken as said ("change my days to tuesday and thursday"): the count asked
    # for at the question is a check on an answer, not on a change of mind
    Correctable(
        "preferred_days",
        names=("days", "weekdays", "training days", "días", "jours", "Tage", "giorni"),
        parser=Parser(lambda text: weekdays_in(text) or None, "weekdays"),
    ),
    Correctable("time_of_day", names=("time", "time of day", "hora", "heure", "Uhrzeit", "orario", "horário")),
)

# what the options of the questions mean, answered to "what do you mean by endurance?" (engine/meanings.py)
MEANINGS = load_meanings(
    Path(__file__).parent / "data" / "meanings.yaml",
    states=("level", "limitations", "goal", "target_weight", "days", "minutes", "equipment", "diet", "allergies",
            "preferred_days", "time_of_day", "review"),
)  # fmt: skip

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
            meanings=MEANINGS["level"],
            slot="fitness_level",
            say="Stage 1 of 5, fitness assessment. How would you describe your fitness level: beginner, "
            "intermediate or advanced?",
            parse=CLOSED["fitness_level"],
            reprompts=[
                "Please pick one: beginner, intermediate or advanced.",
                "Type one word: beginner, intermediate or advanced.",
            ],
            why="Your level sets how hard the first weeks are.",
        ),
        Ask(
            "limitations",
            slot="limitations",
            say="Do you have any injuries or physical limitations I should plan around? Say “none” if not.",
            parse=Parser(limitations_answer, "your injuries or limitations in a few words, or “none”"),
            reprompts=[
                "Any injuries or physical limitations? A few words are enough, or say “none”.",
                "Type for example “bad knee”, “asthma” or “none”.",
            ],
            why="Injuries change which exercises are safe for you.",
        ),
        Step("assessment_done", run=end_of("assessment")),
        Ask(
            "goal",
            meanings=MEANINGS["goal"],
            slot="goal",
            why="Your goal decides what the plan works on: losing fat, building muscle, endurance or overall health.",
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
            why="A target weight lets me pace your plan and show your progress. It's optional: “none” is fine.",
        ),
        Step("goals_done", run=end_of("goals")),
        Ask(
            "days",
            slot="days_per_week",
            why="The number of days sets how the plan spreads the work and the rest over your week.",
            say=ask_days,
            parse=ASKED_DAYS,
            reprompts=[
                "How many days a week can you train? Please give a number from 1 to 7.",
                "Type one number, 1 to 7.",
            ],
        ),
        Ask(
            "minutes",
            slot="minutes_per_session",
            why="The length of a session decides how many exercises fit into each workout.",
            say=ask_minutes,
            parse=CLOSED["minutes_per_session"],
            reprompts=["How long is one session, in minutes (10 to 240)?", "Type a number of minutes, e.g. 30."],
        ),
        Ask(
            "equipment",
            meanings=MEANINGS["equipment"],
            slot="equipment",
            why="I only plan exercises you can do with what you have.",
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
            meanings=MEANINGS["diet"],
            slot="diet",
            say=ask_diet,
            parse=CLOSED["diet"],
            reprompts=[
                "Please pick one: omnivore, vegetarian, vegan, pescatarian, keto, paleo or mediterranean.",
                "Type one word, e.g. “vegetarian” or “omnivore”.",
            ],
            why="How you eat decides the meal ideas that come with your workouts.",
        ),
        Ask(
            "allergies",
            slot="allergies",
            say="Any food allergies or intolerances? Say “none” if not.",
            parse=Parser(parse_allergies, "your allergies, or “none”", known=FOOD_WORDS),
            reprompts=[
                "Any food allergies or intolerances? For example “nuts, shellfish”, or say “none”.",
                "Type the foods you can't eat, or “none”.",
            ],
            why="So that no meal idea I suggest has something you can't eat.",
        ),
        Step("diet_done", run=end_of("diet")),
        Ask(
            "preferred_days",
            slot="preferred_days",
            why="I put your workouts on the days that suit you, with rest days in between.",
            say=ask_preferred_days,
            parse=CLOSED["preferred_days"],
            reprompts=[days_reprompt, days_reprompt],
        ),
        Ask(
            "time_of_day",
            meanings=MEANINGS["time_of_day"],
            slot="time_of_day",
            why="Your plan lists each workout at the time of day you prefer.",
            say="What time of day do you prefer to train: morning, midday, afternoon or evening (or any time)?",
            parse=CLOSED["time_of_day"],
            reprompts=[
                "Please pick one: morning, midday, afternoon or evening (or a time like 7am).",
                "Type one word: morning, midday, afternoon or evening.",
            ],
        ),
        Step("schedule_done", run=end_of("schedule")),
        # the profile in one summary before it is saved: "yes", or changes in words read by the
        # questions' own parsers (flows/fitness/changes.py), each said and the summary shown again
        Ask(
            "review",
            slot="review",
            say=reviewed(review_summary),  # a change waiting to be settled is asked alone
            parse=review(PROFILE),
            why="I save your profile only once you say it is right, so your plan is built on what you meant.",
            reprompts=[
                "Say “yes” to save your profile, or tell me what to change.",
                "Type “yes” to save it, or one change, e.g. “days should be 4” or “add a kettlebell”.",
            ],
            max_attempts=4,
            # never saved without a yes: unclear answers pause the onboarding at this question
            fallback="cancel",
            ask_if_filled=True,
            phrased=False,
            interruptible=False,
            corrections=False,  # its own parser reads the changes (engine/amend.py)
        ),
        Step("revised", run=revise(PROFILE, "review"), carries_answers=True),
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
        T("next", "schedule_done", "review"),
        T("answer", "review", "revised"),
        T("next", "revised", "done", when=accepted("review")),
        T("next", "revised", "review"),
    ],
    extract=read_anytime,
    # what a message may fill before its question (several facts in one message: engine/fill.py)
    ahead=AHEAD,
    # every answer may be corrected at a later question ("change the days to five"), named by
    # these words; a current weight said on its own is kept and acknowledged when it changes
    correctable=CORRECTABLE,
    on_cancel="pause",
    pause_message="Paused. Your answers so far are kept; your next message picks up at the same question.",
    llm_calls_per_turn=2,
    # the coach reads each stage against the earlier ones (the design this bot grew from keeps
    # the last 15 messages in every prompt), so its calls carry the whole window
    window=WINDOW,
    # after the profile is saved, a change to one fact saves its new version, and a question about it
    # ("what's my plan again?") is told from it (engine/amend.py)
    amends=replace(PROFILE, names=_PROFILE_NAMES, describe=saved_profile),
)
