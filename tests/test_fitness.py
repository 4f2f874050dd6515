"""fitness-coach onboarding: five stages, the typed accumulated context, corrections, and conversation memory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from _restart import replay_in_processes

from engine import (
    Engine,
    Invalid,
    MemoryStore,
    Message,
    Parsed,
    ParseRequest,
    Phrased,
    PhraseRequest,
    SqlStore,
    TurnResult,
)
from engine.extract import EMPTY
from engine.window import WINDOW
from flows.fitness.anytime import days_parser
from flows.fitness.food import parse_allergies, read_diet
from flows.fitness.limits import limitation_in, parse_limitations, plan_around
from flows.fitness.onboarding import fitness_onboarding
from flows.fitness.profile import FitnessContext, FitnessSlots, accumulated
from flows.fitness.readers import (
    days_per_week_rule,
    minutes_in,
    parse_equipment,
    parse_time_of_day,
    parse_weight,
    read_goal,
    read_level,
    weekdays_in,
)

BOT = "fitness-coach"
ROOT = Path(__file__).resolve().parent.parent
RESTART = Path(__file__).parent / "replays" / "restart"
HAPPY = [
    "hi",
    "beginner",
    "none",
    "lose weight",
    "160 lb",
    "3",
    "45 minutes",
    "dumbbells and a mat",
    "vegetarian",
    "peanuts",
    "Mon, Wed, Fri",
    "7am",
    "yes",  # the review before saving
]


class RecordingLLM:
    """Answers like the rules backend, but keeps every prompt the engine sends."""

    name = "recording"
    model = "recording"

    def __init__(self) -> None:
        self.prompts: list[tuple[str, list[Message]]] = []
        self.contents: list[tuple[str, str]] = []

    def phrase(self, request: PhraseRequest) -> Phrased:
        self.prompts.append((request.purpose, list(request.messages)))
        self.contents.append((request.purpose, request.content))
        return Phrased(text=request.content)

    def parse(self, request: ParseRequest) -> Parsed:
        self.prompts.append((request.purpose, list(request.messages)))
        return Parsed(value=None)

    def last(self, purpose: str) -> list[Message]:
        return next(m for p, m in reversed(self.prompts) if p == purpose)


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "fitness.db")


@pytest.fixture
def engine(db: str) -> Iterator[Engine]:
    store = SqlStore(db)
    yield Engine(store)
    store.close()


def talk(engine: Engine, *lines: str, user: str = "ann") -> TurnResult:
    result = None
    for line in lines:
        result = engine.turn(BOT, user, line)
    assert result is not None
    return result


def context_of(engine: Engine, user: str = "ann") -> FitnessContext:
    s = engine.session(BOT, user)
    assert s is not None and s.active is not None and s.active.flow == "onboarding"
    return accumulated(FitnessSlots.model_validate(s.active.slots))


def profile(engine: Engine, user: str = "ann") -> dict[str, object]:
    [row] = engine.store.records("fitness_profile", bot=BOT, user=user)
    return dict(row.data)


def history(engine: Engine, user: str = "ann") -> list[str]:
    s = engine.session(BOT, user)
    return [m.content for m in engine.store.history(s.id, 1000)] if s else []


# -- the five stages ----------------------------------------------------------------------


def test_a_new_user_is_onboarded_first(engine: Engine) -> None:
    r = talk(engine, "hello there")
    assert (r.flow, r.state) == ("onboarding", "level")
    assert "five short stages" in r.reply and "Stage 1 of 5" in r.reply


def test_happy_path_through_all_five_stages(engine: Engine) -> None:
    stages = []
    for line in HAPPY[:-2]:
        talk(engine, line)
        stages.append(list(context_of(engine).model_dump(exclude_none=True)))
    # each stage's result joins the context when the stage ends, in order
    assert stages[2] == ["assessment"] and stages[4] == ["assessment", "goals"]
    assert stages[7] == ["assessment", "goals", "workout"] and stages[9][-1] == "diet"
    r = talk(engine, HAPPY[-2])
    # nothing is saved before the user has seen the profile and said yes
    assert (r.flow, r.state) == ("onboarding", "review") and "3 days a week (Mon, Wed, Fri)" in r.reply
    assert engine.store.records("fitness_profile", bot=BOT, user="ann") == []
    r = talk(engine, HAPPY[-1])
    assert r.flow == "main" and "You're all set!" in r.reply
    assert profile(engine) == {
        "assessment": {"level": "beginner", "limitations": "none"},
        "goals": {"goal": "fat_loss", "target_weight_kg": 72.6},
        "workout": {"days_per_week": 3, "minutes_per_session": 45, "equipment": ["dumbbells", "yoga mat"]},
        "diet": {"diet": "vegetarian", "allergies": ["peanuts"]},
        "schedule": {"days": ["Mon", "Wed", "Fri"], "time_of_day": "morning"},
    }
    summary = next(h for h in history(engine) if h.startswith("Fitness onboarding completed."))
    assert "Goal: fat loss (target 72.6 kg)" in summary and "Workouts: 3 days/week, 45 min" in summary
    assert "Schedule: Mon, Wed, Fri, morning." in summary
    assert talk(engine, "hi").flow == "main"


def test_later_stages_phrase_their_questions_around_the_limitation(engine: Engine) -> None:
    r = talk(engine, "hi", "intermediate", "I have a bad knee")
    assert context_of(engine).limitation == "bad knee"
    assert "As an intermediate" in r.reply  # the goals stage reads the assessment
    r = talk(engine, "endurance", "none")
    assert "I'll plan around your bad knee" in r.reply
    r = talk(engine, "4")
    assert "warm-up for your bad knee" in r.reply
    r = talk(engine, "30 minutes")
    assert "safe with your bad knee" in r.reply
    r = talk(engine, "none")
    assert "To support your goal of endurance" in r.reply
    r = talk(engine, "omnivore", "none")
    assert "Which 4 days" in r.reply


def test_a_correction_of_an_earlier_stage_is_seen_by_later_stages(engine: Engine) -> None:
    talk(engine, "hi", "beginner", "none", "general health")
    r = talk(engine, "actually I have a knee injury")
    assert r.state == "target_weight" and r.reply.startswith("OK, limitations changed to knee injury.")
    assert context_of(engine).assessment is not None
    assert context_of(engine).limitation == "knee injury"
    r = talk(engine, "none")
    assert "I'll plan around your knee injury" in r.reply
    talk(engine, "3", "an hour", "none", "vegan", "none", "weekends", "Tue to Thu")
    r = talk(engine, "evening")
    assert r.state == "review" and "planning around your knee injury" in r.reply
    r = talk(engine, "looks good")
    assert "planned around your knee injury" in r.reply
    assert profile(engine)["assessment"] == {"level": "beginner", "limitations": "knee injury"}
    assert any("Limitations: knee injury." in h for h in history(engine))


def test_several_answers_in_one_message_are_not_asked_again(engine: Engine) -> None:
    r = talk(engine, "Hi, I'm a beginner with a bad knee and I want to build muscle, 3 days a week")
    assert r.state == "target_weight"
    assert (r.slots["fitness_level"], r.slots["limitations"], r.slots["goal"]) == (
        "beginner",
        "bad knee",
        "muscle_gain",
    )
    assert "Noted so far: fitness level: beginner; limitations: bad knee; goal: muscle gain" in r.reply
    r = talk(engine, "80 kg")
    assert r.state == "minutes"  # days per week was given in the first message


def test_invalid_answers_are_reprompted_then_skipped(engine: Engine) -> None:
    talk(engine, "hi", "beginner", "none", "fat loss")
    r = talk(engine, "150")  # 150 kg and 150 lb are both a body weight ("75" is 75 kg: tests/test_user_misreadings.py)
    assert r.state == "target_weight" and "Please add the unit" in r.reply
    r = talk(engine, "900 lb")
    assert "outside 30-300 kg" in r.reply
    r = talk(engine, "a lot")
    assert "Let's skip that one for now." in r.reply and r.state == "days"
    r = talk(engine, "9")
    assert "9 is out of range" in r.reply
    talk(engine, "2", "30", "none", "keto", "none")
    r = talk(engine, "Mon, Tue, Wed")
    assert "You picked 3 day(s) (Mon, Tue, Wed) but planned 2 a week" in r.reply
    r = talk(engine, "Mon and Thu", "noon")
    assert "no target weight" in r.reply  # the skipped question reads as what it left
    talk(engine, "yes")
    assert profile(engine)["goals"] == {"goal": "fat_loss", "target_weight_kg": None}


def test_cancel_pauses_and_resumes_at_the_same_question(engine: Engine) -> None:
    talk(engine, "hi", "advanced", "none")
    r = talk(engine, "cancel")
    assert r.flow == "main" and "Paused" in r.reply
    assert engine.store.records("fitness_profile", bot=BOT, user="ann") == []
    r = talk(engine, "I'm back")
    assert (r.flow, r.state) == ("onboarding", "goal") and r.reply.startswith("Welcome back!")
    assert context_of(engine).assessment is not None


def test_the_onboarding_can_be_redone_from_the_main_conversation(engine: Engine) -> None:
    talk(engine, *HAPPY)
    r = talk(engine, "I'd like to update my plan")
    assert (r.flow, r.state) == ("onboarding", "level")


def test_a_restart_keeps_the_accumulated_context(db: str) -> None:
    first = SqlStore(db)
    talk(Engine(first), "hi", "beginner", "I have back pain", "muscle gain")
    first.close()
    second = SqlStore(db)
    engine = Engine(second)
    assert context_of(engine).limitation == "back pain"
    r = talk(engine, "none")
    assert "I'll plan around your back pain" in r.reply
    second.close()


def test_a_restart_between_two_replay_runs_on_one_database(tmp_path: Path) -> None:
    """tests/replays/restart/fitness.part1 then .part2, each `innerloop replay --db` its own process."""
    replay_in_processes(tmp_path / "shared.db", "fitness.part1", "fitness.part2")


# -- conversation memory: what each prompt carries ----------------------------------------


def assert_window(prompt: list[Message], current: str) -> None:
    assert prompt[0].role == "system" and "fitness coach" in prompt[0].content
    assert prompt[-1] == Message(role="user", content=current)
    assert len(prompt) <= WINDOW + 2
    assert all(m.role != "system" for m in prompt[1:])


def test_prompts_carry_the_earlier_stages_in_order(db: str) -> None:
    llm = RecordingLLM()
    store = SqlStore(db)
    engine = Engine(store, llm)
    talk(engine, "hi", "beginner", "none", "lose weight", "70 kg")
    prompt = llm.last("ask:onboarding.days")  # stage 3's first question
    assert_window(prompt, "70 kg")
    said = [(m.role, m.content) for m in prompt[1:-1]]
    user_said = [c for r, c in said if r == "user"]
    assert user_said == ["hi", "beginner", "none", "lose weight"]  # stage 1 and 2 answers, oldest first
    assert any("Stage 1 of 5" in c for r, c in said if r == "assistant")
    assert any("target weight" in c for r, c in said if r == "assistant")
    store.close()


def test_prompts_keep_only_the_last_fifteen_messages(db: str) -> None:
    llm = RecordingLLM()
    store = SqlStore(db)
    engine = Engine(store, llm)
    talk(engine, *HAPPY[:-3])
    s = engine.session(BOT, "ann")
    assert s is not None and s.active is not None
    pad = s.active.scratchpad
    assert len(pad) > WINDOW + 1  # more than fits, so the oldest must drop
    talk(engine, "Mon, Wed, Fri")
    prompt = llm.last("ask:onboarding.time_of_day")
    assert_window(prompt, "Mon, Wed, Fri")
    assert len(prompt) == WINDOW + 2
    assert prompt[1:-1] == pad[-WINDOW:]  # the most recent, in order, content untouched
    store.close()


def test_prompts_after_a_restart_include_messages_from_before_it(db: str) -> None:
    store = SqlStore(db)
    talk(Engine(store, RecordingLLM()), "hi", "beginner", "I have a bad knee", "endurance")
    store.close()
    llm = RecordingLLM()
    store = SqlStore(db)
    talk(Engine(store, llm), "none")  # a new process answers the target weight
    prompt = llm.last("ask:onboarding.days")
    assert_window(prompt, "none")
    users = [m.content for m in prompt if m.role == "user"]
    assert users == ["hi", "beginner", "I have a bad knee", "endurance", "none"]
    store.close()


def test_what_the_llm_is_asked_to_say_reads_the_accumulated_context(db: str) -> None:
    llm = RecordingLLM()
    store = SqlStore(db)
    talk(Engine(store, llm), "hi", "beginner", "I have a bad knee", "endurance", "none", "3")
    said = dict(llm.contents)
    assert "I'll plan around your bad knee" in said["ask:onboarding.days"]
    assert "warm-up for your bad knee" in said["ask:onboarding.minutes"]
    assert "As a beginner" in said["ask:onboarding.goal"]
    store.close()


# -- parsers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kg"),
    [("72 kg", 72.0), ("72kg", 72.0), ("160 lb", 72.6), ("160 lbs", 72.6), ("165 pounds", 74.8), ("80,5 kilos", 80.5)],
)
def test_weights_are_stored_in_kilograms(text: str, kg: float) -> None:
    assert parse_weight(text) == kg


@pytest.mark.parametrize("text", ["none", "no target", "no", "I don't have one"])
def test_no_target_weight(text: str) -> None:
    assert parse_weight(text) is EMPTY  # no target: the slot stays empty, never the word


def test_weight_edge_cases() -> None:
    bare = parse_weight("120")  # 120 kg and 120 lb (54 kg) alike: its unit is asked for
    assert isinstance(bare, Invalid) and "unit" in bare.reason
    heavy = parse_weight("900 lb")
    assert isinstance(heavy, Invalid) and "408.2 kg" in heavy.reason
    assert parse_weight("I'm not sure yet") is None


def test_limitations() -> None:
    assert parse_limitations("none") == "none"
    assert parse_limitations("No injuries") == "none"
    assert parse_limitations("I have a bad knee") == "bad knee"
    assert parse_limitations("lower back pain from sitting") == "lower back pain from sitting"
    # none, then a remark naming no limitation, is none; a part naming one keeps it
    assert parse_limitations("none, thankfully") == parse_limitations("nothing, I'm injury free") == "none"
    assert "asthma" in str(parse_limitations("no injuries, but asthma"))
    assert "knee" in str(parse_limitations("nope, but my knee hurts sometimes"))
    assert limitation_in("actually I have a knee injury") == "knee injury"
    assert limitation_in("actually I have no injuries") == "none"
    assert limitation_in("I want to lose weight") is None
    # what is wrong with which part of the body, in the user's words to the clause's end
    assert limitation_in("advanced, torn acl in my left knee, want to bulk") == "torn acl in my left knee"
    assert limitation_in("my right shoulder hurts lol") == "my right shoulder hurts"
    assert limitation_in("i'm back") is None and limitation_in("old school back squats") is None
    # a part named in the plural, with the plural verb
    assert limitation_in("my knees hurt sometimes when running") == "my knees hurt sometimes when running"
    assert limitation_in("both shoulders are sore") == "shoulders are sore"


def test_a_weight_said_at_the_injuries_question_is_no_injury(tmp_path: Path) -> None:
    e = Engine(SqlStore(str(tmp_path / "s.db")))
    for text in ("set me up", "beginner"):
        e.turn("fitness-coach", "u", text)
    r = e.turn("fitness-coach", "u", "I'm 200 lbs now")
    # the weight is kept and said; the injuries question, which takes any words, is asked again
    assert r.state == "limitations" and r.reply.startswith("Noted (current weight: 90.7 kg).")
    assert "limitations" not in r.slots or r.slots["limitations"] is None
    r = e.turn("fitness-coach", "u", "bad knee, and i'm 80 kg")  # an injury beside a weight stays the answer
    assert (r.state, r.slots["limitations"], r.slots["current_weight_kg"]) == ("goal", "bad knee", 80.0)


def test_an_injury_said_with_a_sport_is_the_injury_not_a_goal(tmp_path: Path) -> None:
    e = Engine(SqlStore(str(tmp_path / "s.db")))
    for text in ("set me up", "beginner"):
        e.turn("fitness-coach", "u", text)
    r = e.turn("fitness-coach", "u", "my knees hurt sometimes when running")
    assert r.state == "goal" and "Noted" not in r.reply


def test_equipment_named_in_other_languages() -> None:
    assert parse_equipment("nur eine Gymnastikmatte") == ["yoga mat"]
    assert parse_equipment("unas mancuernas y una comba") == ["dumbbells", "jump rope"]
    assert parse_equipment("un rameur") == ["rowing machine"]
    # a name is guessed from a misspelling, never from an English word ("matter" ~ German "Matte")
    assert parse_equipment("doesn't matter") == ["doesn't matter"]


def test_a_comment_beside_a_list_is_no_item_of_it() -> None:
    assert parse_allergies("peanuts, sadly") == ["peanuts"]
    assert parse_allergies("unfortunately shellfish and eggs") == ["shellfish", "eggs"]
    assert parse_equipment("a kettlebell, luckily") == ["kettlebell"]
    assert parse_allergies("leider") is None  # a comment alone names no food


def test_minutes_equipment_allergies_and_time() -> None:
    assert minutes_in("45 minutes") == 45
    assert minutes_in("an hour") == 60
    assert minutes_in("1.5 hours") == 90
    assert minutes_in("half an hour") == 30
    assert parse_equipment("dumbbells, a bench and resistance bands") == ["dumbbells", "resistance bands", "bench"]
    assert parse_equipment("just bodyweight") == []  # typed: no equipment is an empty list
    assert parse_equipment("a sandbag") == ["a sandbag"]  # equipment it has no name for is kept as typed
    assert parse_allergies("none") == []
    assert parse_allergies("I'm allergic to nuts and shellfish") == ["nuts", "shellfish"]
    assert parse_time_of_day("7am") == "morning"
    assert parse_time_of_day("6 pm") == "evening"
    assert parse_time_of_day("18:30") == "evening"
    assert parse_time_of_day("after work") == "evening"
    assert parse_time_of_day("lunchtime") == "midday"


def test_weekdays() -> None:
    assert weekdays_in("Mon, Wed, Fri") == ["Mon", "Wed", "Fri"]
    assert weekdays_in("weekends") == ["Sat", "Sun"]
    assert weekdays_in("Tuesday to Thursday") == ["Tue", "Wed", "Thu"]
    assert weekdays_in("Fri-Mon") == ["Mon", "Fri", "Sat", "Sun"]
    assert weekdays_in("every day") == list(weekdays_in("Mon-Sun"))
    assert weekdays_in("whenever") == []


def test_preferred_days_must_match_the_planned_days_per_week() -> None:
    s = FitnessSlots(days_per_week=2, completed=["assessment", "goals", "workout"])
    parser = days_parser(s)
    assert parser("Mon and Thu") == ["Mon", "Thu"]
    wrong = parser("Mon, Tue and Wed")
    assert isinstance(wrong, Invalid) and "planned 2 a week" in wrong.reason
    # days said as a set to choose from are narrowed to it, with days spread over it as an example
    for said, narrowed in [("weekdays", "Any 2 of Mon–Fri"), ("any day except sunday", "Any 2 of Mon–Sat")]:
        found = parser(said)
        assert isinstance(found, Invalid) and narrowed in found.reason, said
    assert parser("every day except the weekend") == parser("weekdays")
    assert "2 weekdays" in parser.expects


def _filled(*messages: str) -> tuple[str | None, dict[str, object]]:
    """The state and the filled slots after `messages`, through the engine: what the flow declares a message
    may fill ahead (`Flow.ahead`) is read by engine/fill.py, not by a fitness reader of its own."""
    e = Engine(MemoryStore())
    for text in messages:
        r = e.turn("fitness-coach", "u", text)
    return r.state, {k: v for k, v in r.slots.items() if v not in (None, [], {}) and k != "completed"}


def test_answers_given_out_of_turn_are_read_by_the_engine() -> None:
    said = "I'm a beginner with a bad knee, I want to lose weight, target 70 kg, 3 days a week"
    assert _filled("set me up", said) == (
        "minutes",
        {
            "fitness_level": "beginner",
            "limitations": "bad knee",
            "goal": "fat_loss",
            "target_weight_kg": 70.0,
            "weight_unit": "kg",
            "days_per_week": 3,
        },
    )
    state, found = _filled("set me up", "beginner", "none", "I'm allergic to peanuts and I prefer mornings")
    assert state == "goal" and found["allergies"] == ["peanuts"] and found["time_of_day"] == "morning"
    assert _filled("set me up", "beginner", "none", "sounds good") == (
        "goal",
        {"fitness_level": "beginner", "limitations": "none"},
    )


def test_the_flow_is_the_fitness_coach_onboarding() -> None:
    assert fitness_onboarding.name == "onboarding" and fitness_onboarding.on_cancel == "pause"


# -- found in review: messy answers -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "level"),
    [("pretty fit", "intermediate"), ("not very fit", "beginner"), ("intermidiate", "intermediate"),
     ("couch potato", "beginner"), ("I'm not a pro", None), ("soon", None)],
)  # fmt: skip
def test_levels_from_descriptions_without_fuzzy_guesses(text: str, level: str | None) -> None:
    assert read_level(text) == level


@pytest.mark.parametrize(
    ("text", "level"),
    [("never really did before", "beginner"), ("i've never worked out", "beginner"),
     ("I used to play football but haven't trained in years", "beginner"), ("first time at the gym lol", "beginner"),
     ("been lifting for 5 years", None), ("i never did like running", None),
     ("nunca he hecho ejercicio la verdad", "beginner"), ("j'ai jamais fait de sport", "beginner"),
     ("ich habe noch nie Sport gemacht", "beginner"),
     # a long time away, however it is said; a few weeks off says no level
     ("haven't set foot in a gym for like 5 years tbh", "beginner"), ("havent been in a gym since forever", "beginner"),
     ("haven't trained for 2 weeks", None),
     # never having trained says beginner whatever level word is beside it (the level words are read first)
     ("never trained, but my friends call me a pro", "beginner"),
     ("haven't exercised in years, was advanced back then", "beginner")],
)  # fmt: skip
def test_a_beginner_told_by_experience_and_years_of_training_asked(text: str, level: str | None) -> None:
    assert read_level(text) == level


def test_never_having_trained_is_the_level_out_of_turn_too() -> None:
    assert _filled("hey! I wanna start working out, never really did before") == (
        "limitations",
        {"fitness_level": "beginner"},
    )


@pytest.mark.parametrize(
    ("text", "goal"),
    [("not lose weight, build muscle", "muscle_gain"), ("lose belly fat", "fat_loss"), ("tone up", "muscle_gain"),
     ("run a 10k", "endurance"), ("muscle", "muscle_gain"),
     # the goals in the five other languages (data/words.yaml)
     ("ich möchte ein bisschen abnehmen", "fat_loss"), ("quiero ganar músculo", "muscle_gain"),
     ("je veux courir plus longtemps", "endurance"), ("vorrei stare in forma", "general_health"),
     # an amount to lose or gain says the goal
     ("want to lose about 5 kg before summer", "fat_loss"), ("drop 10 lbs", "fat_loss"),
     ("gain 3 kg of muscle", "muscle_gain"), ("i weigh 80 kg", None)],
)  # fmt: skip
def test_goals_from_everyday_words_and_negations(text: str, goal: str | None) -> None:
    assert read_goal(text) == goal


@pytest.mark.parametrize(
    ("text", "kg"),
    [("I weigh 90 kg and want to get to 80 kg", 80.0), ("I'm 90kg, target 80kg", 80.0), ("11 stone", 69.9),
     ("11 st 4 lb", 71.7), ("maintain", EMPTY),
     # a weight wished for, the wish after it
     ("im 88 kg, 79 would be great", 79.0), ("70 Kilo wären ein Traum", 70.0)],
)  # fmt: skip
def test_the_target_among_several_weights(text: str, kg: object) -> None:
    assert parse_weight(text) == kg


@pytest.mark.parametrize(
    ("text", "reason"),
    [("I weigh 200 lbs", "current weight"), ("lose 10 kg", "how much to lose"), ("90 kg or 85 kg", "more than one"),
     ("10 kg", "10 kg is outside 30-300 kg")],
)  # fmt: skip
def test_weights_that_are_not_a_target_are_asked_about(text: str, reason: str) -> None:
    out = parse_weight(text)
    assert isinstance(out, Invalid) and reason in out.reason


@pytest.mark.parametrize(("text", "days"), [("every day", 7), ("daily", 7), ("twice a week", 2), ("once a week", 1),
                                            ("3x", 3), ("3x a week", 3)])  # fmt: skip
def test_days_per_week_in_words(text: str, days: int) -> None:
    assert days_per_week_rule(text) == days


@pytest.mark.parametrize(("text", "minutes"), [("1 hr 30 min", 90), ("an hour and a half", 90), ("1h30", 90),
                                               ("1 hour 3 days a week", 60)])  # fmt: skip
def test_hours_and_minutes_together(text: str, minutes: int) -> None:
    assert minutes_in(text) == minutes


@pytest.mark.parametrize(
    ("text", "minutes"),
    [("forty five minutes, an hour max", 45), ("at most an hour but usually 30 min", 30)],
)  # fmt: skip
def test_a_length_said_as_the_most_it_may_be_is_no_answer_beside_one_that_is(text: str, minutes: int) -> None:
    # "45 minutes, an hour max" was read as 60: the hours were looked for first (each bound word of the six
    # languages, engine/data/bounds.yaml, is tried in tests/test_word_tables.py)
    assert minutes_in(text) == minutes


def test_none_answers_with_politeness_and_bare_yes() -> None:
    for text in ("None, thanks", "nope, none", "Not really, thanks", "not that I know of", "I'm healthy"):
        assert parse_limitations(text) == "none", text
        assert parse_allergies(text) == [], text
    assert parse_equipment("I don't have any") == []
    for parse in (parse_limitations, parse_allergies, parse_equipment):
        assert isinstance(parse("yes"), Invalid)  # "yes" says there is something, not what
    assert parse_limitations("I have a bad knee and asthma") == "bad knee and asthma"  # the whole answer


def test_equipment_the_user_does_not_have_is_left_out() -> None:
    assert parse_equipment("no gym, just bands") == ["resistance bands"]
    assert parse_equipment("dumbbells but no bench") == ["dumbbells"]
    assert parse_equipment("a couple of kettlebells and a pull up bar") == ["kettlebell", "pull-up bar"]


def test_diets_by_what_people_say() -> None:
    assert read_diet("I eat meat") == "omnivore"
    assert read_diet("I don't eat meat") == "vegetarian"
    assert read_diet("vegetarian but I eat fish") == "pescatarian"


def test_a_food_given_up_is_not_eaten() -> None:
    # "stop"/"quit" there says what is not eaten: no cancel, and no meat eater
    assert read_diet("i stopped eating meat") == "vegetarian"
    assert read_diet("i quit meat last year, vegetarian now") == "vegetarian"
    assert read_diet("i stopped eating meat but still fish") == "pescatarian"
    assert read_diet("i stopped eating pork") == "omnivore"  # some meats given up: an omnivore's restriction


def test_times_of_day_around_midnight_and_no_preference() -> None:
    assert parse_time_of_day("12am") == "evening" and parse_time_of_day("1am") == "evening"
    assert parse_time_of_day("12pm") == "midday"
    assert parse_time_of_day("whenever") == "anytime"
    assert parse_time_of_day("soon") is None  # not "noon"


def test_questions_quote_a_free_text_limitation() -> None:
    assert plan_around("bad knee") == "your bad knee"
    assert plan_around("my lower back hurts sometimes") == "your limitation (“my lower back hurts sometimes”)"


def test_an_injury_word_is_a_whole_word() -> None:
    from flows.fitness.limits import BODY

    assert not BODY.search("i sold my dumbbells")  # "old my" inside "sold my" is no injury
    assert BODY.search("an old shoulder injury") and BODY.search("i have a bad back")


def test_a_choice_between_weekdays_fills_no_preferred_days_ahead() -> None:
    # "mon or tue" at the days question was noted as both days (preferred days: Mon, Tue)
    from flows.fitness.readers import weekdays_said

    assert weekdays_said("mon or tue") == []
    assert weekdays_said("mon and tue") == ["Mon", "Tue"]
    assert weekdays_said("monday") == ["Mon"]


def test_a_new_user_told_a_habit_and_a_unit_in_passing(engine: Engine) -> None:
    # a run told at the level question is no days a week: the days question is asked and "4" answers it
    r = talk(engine, "hi", "Intermediate i think, i run twice a week")
    assert r.state == "limitations" and "Noted" not in r.reply
    # the kilos of the amount to lose are the unit of the bare weights at the target question, the weight
    # of now and the target said together
    talk(engine, "nope all good", "honestly i just wanna lose like 10 kilos")
    r = talk(engine, "i'm 92 now so 82 i guess")
    assert r.state == "days"
    r = talk(engine, "4")
    assert r.state == "minutes"
    assert (r.slots["days_per_week"], r.slots["target_weight_kg"], r.slots["current_weight_kg"]) == (4, 82.0, 92.0)


def test_days_named_at_the_count_question_and_a_set_of_days_narrowed(engine: Engine) -> None:
    talk(engine, "hi", "beginner", "none", "general health", "no")
    r = talk(engine, "mon wed fri")
    assert r.state == "minutes"
    r = talk(engine, "an hour", "a gym", "vegan", "none")
    # the days named are kept: the schedule question left is the time of day
    assert r.state == "time_of_day"
