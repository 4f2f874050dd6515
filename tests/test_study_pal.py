"""study-pal end to end through the engine: tutoring with grading, hints and mastery,
prerequisite offers, asides, exit intent (rules and a model), analysis, scheduling,
loop prevention, turn limits and course selection."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from pydantic import JsonValue

from engine import DataFileError, Engine, Resources, SqlStore, TurnResult
from engine.errors import LLMUnavailable
from engine.llm import Parsed, ParseRequest, Phrased, PhraseRequest
from engine.models import JsonObject, LLMCall
from flows.study_pal import timewindow
from flows.study_pal.exits import exit_by_rules, may_exit

BOT = "study-pal"
FRACTIONS = Path(__file__).parent / "replays" / "courses" / "fractions.yaml"
NOW = datetime(2025, 5, 7, 10, 0)  # a Wednesday morning


class Clock:
    """The scheduler's and the exercise timer's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now

    def tick(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    c = Clock()
    monkeypatch.setattr(timewindow, "now", c)
    return c


class Chat:
    def __init__(self, engine: Engine, user: str = "u") -> None:
        self.engine = engine
        self.user = user
        self.last: TurnResult | None = None

    def say(self, text: str) -> TurnResult:
        self.last = self.engine.turn(BOT, self.user, text)
        return self.last

    def records(self, kind: str) -> list[JsonObject]:
        return [r.data for r in self.engine.store.records(kind, bot=BOT, user=self.user)]

    def history(self) -> list[str]:
        s = self.engine.session(BOT, self.user)
        return [m.content for m in self.engine.store.history(s.id, 1000)] if s else []

    @property
    def context(self) -> JsonObject:
        s = self.engine.session(BOT, self.user)
        return s.context if s else {}


@pytest.fixture
def chat(tmp_path: Path, clock: Clock) -> Iterator[Chat]:
    store = SqlStore(str(tmp_path / "study.db"))
    yield Chat(Engine(store))
    store.close()


def course_chat(tmp_path: Path, course: Path, llm: object = None) -> Chat:
    store = SqlStore(str(tmp_path / f"{course.stem}.db"))
    return Chat(Engine(store, llm=llm, resources=Resources(course=course)))  # type: ignore[arg-type]


class FakeModel:
    """A model that phrases by returning the content and parses from answers keyed by purpose.

    An `Exception` answer is raised (as a failing server would); a missing purpose fails the test.
    """

    name = "fake"
    model = "fake"

    def __init__(self, answers: Mapping[str, JsonValue | Exception]) -> None:
        self.answers = dict(answers)
        self.calls: list[str] = []

    def phrase(self, request: PhraseRequest) -> Phrased:
        return Phrased(text=request.content, call=LLMCall(purpose=request.purpose, backend="fake", model="fake"))

    def parse(self, request: ParseRequest) -> Parsed:
        self.calls.append(request.purpose)
        answer = self.answers[request.purpose]
        if isinstance(answer, Exception):
            raise answer
        call = LLMCall(purpose=request.purpose, backend="fake", model="fake")
        return Parsed(value=None if answer is None else request.schema_model.model_validate(answer), call=call)


# -- tutoring --------------------------------------------------------------------------------


def test_a_lesson_starts_from_main_with_the_first_chunk(chat: Chat) -> None:
    r = chat.say("what is a limit?")
    assert (r.flow, r.state) == ("tutoring", "exercise")
    assert r.slots["concept"] == "limits" and r.slots["chunk"] == 1
    assert "Part 1/3" in r.reply and "Exercise 1/3: What is lim_{x→3} (2x + 1)?" in r.reply


def test_a_right_answer_records_the_exercise_and_mastery(chat: Chat, clock: Clock) -> None:
    chat.say("teach me limits")
    clock.tick(42)
    r = chat.say(" 7 ")
    assert r.reply.startswith("Correct!") and r.slots["chunk"] == 2
    assert chat.records("exercise") == [{"concept": "limits", "chunk": 1, "correct": True, "attempts": 1, "time": 42.0}]
    assert chat.records("mastery") == [{"concept": "limits", "score": 0.33}]


def test_a_wrong_answer_gets_the_hint_then_one_retry_then_the_answer(chat: Chat) -> None:
    chat.say("teach me limits")
    r = chat.say("6")
    assert "Hint: 2x + 1 is a polynomial" in r.reply and "Try again:" in r.reply
    assert (r.state, r.slots["chunk"], r.slots["attempts"]) == ("exercise", 1, 1)
    assert chat.records("exercise") == []
    r = chat.say("8")
    assert "The answer is 7" in r.reply and "Exercise 2/3" in r.reply
    assert chat.records("exercise")[0] | {"time": 0} == {
        "concept": "limits", "chunk": 1, "correct": False, "attempts": 2, "time": 0,
    }  # fmt: skip
    assert chat.records("mastery") == [{"concept": "limits", "score": 0.0}]


def test_right_after_the_hint_scores_half(chat: Chat) -> None:
    chat.say("teach me limits")
    chat.say("6")
    r = chat.say("7")
    assert r.reply.startswith("Correct, well done!")
    assert chat.records("mastery") == [{"concept": "limits", "score": round(0.5 / 3, 2)}]


def test_completing_a_concept_names_the_mastery_and_suggests_the_next(chat: Chat) -> None:
    chat.say("teach me limits")
    chat.say("7")
    chat.say("4")
    r = chat.say("C")
    assert "Limits is complete! Your mastery of Limits: 100%." in r.reply
    assert (r.state, r.slots["suggestion"]) == ("next_topic", "continuity")
    r = chat.say("I'm done for today")
    assert r.flow == "analysis" or r.flow == "main"
    assert "Tutoring ended. Limits: complete, mastery 100%." in chat.history()


def test_a_mid_lesson_question_is_answered_and_the_chunk_stays(chat: Chat) -> None:
    chat.say("teach me limits")
    chat.say("7")
    before = chat.say("6")  # a wrong first try on chunk 2
    r = chat.say("why is that?")
    assert r.reply.startswith("Good question. Sometimes plugging in gives 0/0.")
    assert r.reply.endswith("Try again: What is lim_{x→2} (x² − 4)/(x − 2)?")
    assert (r.state, r.slots["chunk"], r.slots["attempts"]) == (before.state, 2, 1)
    assert chat.say("4").reply.startswith("Correct")


def test_a_question_about_another_concept_is_answered_from_it(chat: Chat) -> None:
    chat.say("teach me limits")
    r = chat.say("what is a derivative?")
    assert "Derivatives: The derivative f'(a)" in r.reply
    assert (r.slots["concept"], r.slots["chunk"]) == ("limits", 1)


def test_asking_for_a_hint_or_saying_thanks_is_not_an_attempt(chat: Chat) -> None:
    chat.say("teach me limits")
    r = chat.say("can you give me a hint?")
    assert r.reply.startswith("Here's a hint: 2x + 1 is a polynomial") and r.slots["attempts"] == 0
    r = chat.say("thanks")
    assert r.reply.startswith("You're welcome!") and r.slots["attempts"] == 0
    assert chat.say("7").reply.startswith("Correct!")


def test_the_motivator_encourages_and_the_lesson_resumes(chat: Chat) -> None:
    chat.say("teach me limits")
    chat.say("7")
    r = chat.say("this is too hard")
    assert "completely normal" in r.reply and "33% mastery of Limits" in r.reply
    assert r.reply.endswith("Exercise 2/3: What is lim_{x→2} (x² − 4)/(x − 2)?")
    assert (r.flow, r.state, r.slots["chunk"], r.slots["attempts"]) == ("tutoring", "exercise", 2, 0)
    assert chat.records("exercise") == [{"concept": "limits", "chunk": 1, "correct": True, "attempts": 1, "time": 0.0}]


def test_the_motivator_in_the_main_conversation(chat: Chat) -> None:
    r = chat.say("I'm tired")
    assert r.flow == "main" and "completely normal" in r.reply and "teach me limits" in r.reply


def test_a_prerequisite_below_the_threshold_is_offered_first(chat: Chat) -> None:
    r = chat.say("teach me integration")
    assert (r.state, r.slots["offer"]) == ("offer", "limits")
    assert "Integration builds on Limits (0%), Derivatives (0%)" in r.reply
    r = chat.say("yes")
    assert (r.state, r.slots["concept"], r.slots["target"]) == ("exercise", "limits", "integration")
    chat.say("7")
    chat.say("4")
    r = chat.say("c")
    # the deferred goal follows at once (no "shall we go on?"), its other prerequisite offered in turn
    assert (r.state, r.slots["concept"], r.slots["offer"]) == ("offer", "integration", "derivatives")
    assert "Now on to Integration, which you asked for." in r.reply


@pytest.mark.parametrize("insist", ["no", "no, teach me integration anyway", "skip it"])
def test_the_user_may_insist_on_the_concept(chat: Chat, insist: str) -> None:
    chat.say("teach me integration")
    r = chat.say(insist)
    assert (r.state, r.slots["concept"], r.slots["target"]) == ("exercise", "integration", None)


def test_a_mastered_prerequisite_is_not_offered(chat: Chat) -> None:
    chat.say("teach me limits")
    for answer in ("7", "4", "c"):
        chat.say(answer)
    r = chat.say("derivatives")
    assert (r.state, r.slots["concept"]) == ("exercise", "derivatives")


def test_an_unknown_topic_asks_which_one(chat: Chat) -> None:
    r = chat.say("teach me physics")
    assert r.state == "choose" and "Limits, Continuity, Derivatives, Integration" in r.reply
    r = chat.say("continuity please")
    assert (r.state, r.slots["concept"]) == ("offer", "continuity")


def test_the_course_as_a_whole_starts_where_the_learner_stands(chat: Chat) -> None:
    assert chat.say("What is calculus?").slots["concept"] == "limits"


@pytest.mark.parametrize("text", ["hey can we do some calculus", "i need help with calculus", "let's do calculus"])
def test_wanting_the_course_as_a_whole_starts_a_lesson(chat: Chat, text: str) -> None:
    assert chat.say(text).slots["concept"] == "limits"


@pytest.mark.parametrize("text", ["calculus was a pain at school", "my friend hates calculus"])
def test_talking_of_the_course_asks_for_no_lesson(chat: Chat, text: str) -> None:
    assert chat.say(text).flow == "main"


def test_a_topic_said_known_outside_a_lesson_is_kept_and_not_offered(chat: Chat) -> None:
    r = chat.say("i think i know limits already")
    assert r.flow == "main" and "you know Limits" in r.reply and "Continuity" in r.reply
    r = chat.say("teach me continuity")  # builds on limits: taught at once, limits not offered
    assert (r.state, r.slots["concept"]) == ("exercise", "continuity")


def test_hint_and_answer_requests_in_any_wording(chat: Chat) -> None:
    chat.say("teach me limits")
    for text in ("hint", "give me a hint", "I'm stuck"):
        r = chat.say(text)
        assert r.reply.startswith("Here's a hint") and r.slots["attempts"] == 0
    r = chat.say("what's the answer?")
    assert r.reply.startswith("The answer is 7.") and r.slots["chunk"] == 2
    assert chat.records("exercise") == [{"concept": "limits", "chunk": 1, "correct": False, "attempts": 0, "time": 0.0}]


@pytest.mark.parametrize("text", ["ok thanks", "great, thanks!", "thank you so much"])
def test_pleasantries_are_not_attempts(chat: Chat, text: str) -> None:
    chat.say("teach me limits")
    r = chat.say(text)
    assert r.slots["attempts"] == 0 and "Not quite" not in r.reply


def test_another_topic_named_as_a_question_is_answered_but_a_number_with_a_question_mark_is_graded(chat: Chat) -> None:
    chat.say("teach me limits")
    r = chat.say("derivatives?")
    assert "Derivatives: The derivative" in r.reply and r.slots["attempts"] == 0
    assert chat.say("7?").reply.startswith("Correct!")


@pytest.mark.parametrize(
    "text", ["derivatives please", "actually I need derivatives", "mostly derivatives and integrals"]
)
def test_another_topic_said_instead_of_an_answer_is_a_switch_not_an_attempt(chat: Chat, text: str) -> None:
    chat.say("teach me limits")
    r = chat.say(text)
    assert "Not quite" not in r.reply and r.slots["attempts"] == 0 and chat.records("exercise") == []
    assert r.reply.startswith("Derivatives builds on Limits") and r.slots["offer"] == "limits"


@pytest.mark.parametrize("text", ["wait my mom is calling me", "sorry my laptop froze again"])
def test_talk_that_is_no_attempt_at_the_exercise_uses_no_try(chat: Chat, text: str) -> None:
    chat.say("teach me limits")
    r = chat.say(text)
    assert "doesn't look like an answer to the exercise" in r.reply and "a number or an expression" in r.reply
    assert (r.state, r.slots["attempts"]) == ("exercise", 0) and chat.records("exercise") == []
    assert chat.say("7").reply.startswith("Correct!")


@pytest.mark.parametrize(
    ("text", "correct"),
    [("the function gets close to seven", True), ("it doesn't exist", False), ("no idea", False), ("infinity", False)],
)
def test_attempts_in_words_are_graded(chat: Chat, text: str, correct: bool) -> None:
    chat.say("teach me limits")
    r = chat.say(text)
    assert r.reply.startswith("Correct!" if correct else "Not quite")


def test_continue_takes_the_lesson_up_where_it_stopped(chat: Chat) -> None:
    chat.say("teach me derivatives")
    chat.say("no")  # no prerequisite first
    chat.say("5")
    chat.say("cancel")
    r = chat.say("let's continue")
    assert (r.flow, r.state, r.slots["concept"], r.slots["chunk"]) == ("tutoring", "exercise", "derivatives", 2)
    assert "pick up Derivatives where we left off: part 2 of 4" in r.reply  # and no prerequisite offer again


def test_cancelling_names_what_was_reached(chat: Chat) -> None:
    chat.say("teach me limits")
    chat.say("7")
    chat.say("cancel")
    assert "Tutoring cancelled by the user. Limits: mastery 33%." in chat.history()


def test_repeated_encouragement_varies_and_praises_no_zero(chat: Chat) -> None:
    chat.say("teach me limits")
    first, second = chat.say("I'm tired").reply, chat.say("I'm tired").reply
    assert first.split(".")[0] != second.split(".")[0]
    assert "mastery" not in first and "part" not in first.split("Exercise")[0]


def test_help_explains_the_exercise_without_consuming_it(chat: Chat) -> None:
    chat.say("teach me limits")
    r = chat.say("help")
    assert "give me another" in r.reply and r.slots["chunk"] == 1


# -- exit intent -----------------------------------------------------------------------------

END = ["I'm done for today", "thanks, that's all", "can you analyze my session?"]
CONTINUE = ["I'm done with this problem, give me another", "that's all for limits, can you help me with derivatives?"]


# the seed's exit signals and everyday variations
MORE_END = ["Thanks for your help", "Let's schedule a study plan", "I'm finished", "done", "gotta go",
            "see you tomorrow", "that's it for today", "Thanks, that's all I needed", "can you help me plan my week?",
            "let's stop here", "end the session", "I'm done for today, can you analyze my weak points?",
            "I need a break", "let's continue later", "finish", "I'm done", "that's all", "ok, finish",
            "Thanks, I'm done!", "let's finish here"]  # fmt: skip
MORE_CONTINUE = ["I'm done with this exercise", "done with this one, next", "thanks!", "ok thanks",
                 "I'm done with limits, what about derivatives?", "let's go on",
                 "can we do derivatives later?", "done with this one, give me the next",
                 "That's all for calculus, can you help me with physics?"]  # fmt: skip


@pytest.mark.parametrize("text", END + MORE_END)
def test_exit_rules_end(text: str) -> None:
    assert may_exit(text) and exit_by_rules(text) == "END"


@pytest.mark.parametrize("text", CONTINUE + MORE_CONTINUE)
def test_exit_rules_continue(text: str) -> None:
    assert exit_by_rules(text) == "CONTINUE"


@pytest.mark.parametrize(
    ("text", "meant"),
    [("yes", "limits"), ("sure, why not", "limits"), ("ok", "limits"), ("y", "limits"), ("I guess so", "limits"),
     ("no", "derivatives"), ("nah", "derivatives"), ("definitely not", "derivatives"), ("not now", "derivatives"),
     ("nope, not really", "derivatives"), ("not sure", None), ("I don't know", None), ("maybe", None),
     ("yes but not sure", None)],
)  # fmt: skip
def test_yes_or_no_to_an_offer_is_read_by_the_one_reader(chat: Chat, text: str, meant: str | None) -> None:
    chat.say("teach me derivatives")
    r = chat.say(text)
    if meant is None:
        assert r.state == "offer" and "Yes to start with Limits" in r.reply  # unclear: asked again, never a yes
    else:
        assert (r.state, r.slots["concept"]) == ("exercise", meant)


@pytest.mark.parametrize("text", END)
def test_ending_tutoring_hands_off_to_analysis(chat: Chat, text: str) -> None:
    chat.say("teach me limits")
    chat.say("6")
    chat.say("8")  # revealed: a severe weak point
    r = chat.say(text)
    assert r.flow == "analysis" and r.state == "offer_plan"
    assert "Limits: severe difficulty" in r.reply
    assert r.trace is not None and ("tutoring", "analysis") in handoffs(r)


def test_give_me_another_skips_to_the_next_chunk(chat: Chat) -> None:
    chat.say("teach me limits")
    r = chat.say(CONTINUE[0])
    assert (r.flow, r.state, r.slots["chunk"]) == ("tutoring", "exercise", 2)
    assert chat.records("exercise") == []


def test_asking_for_another_topic_continues_tutoring_with_it(chat: Chat) -> None:
    chat.say("teach me limits")
    r = chat.say(CONTINUE[1])
    assert (r.flow, r.state, r.slots["concept"]) == ("tutoring", "offer", "derivatives")


def tutoring_with(tmp_path: Path, answers: Mapping[str, JsonValue | Exception]) -> tuple[Chat, FakeModel]:
    model = FakeModel(answers)
    chat = course_chat(tmp_path, FRACTIONS, llm=model)
    chat.say("teach me fractions")
    return chat, model


def test_a_model_decides_exit_only_when_the_keywords_cannot(tmp_path: Path, clock: Clock) -> None:
    chat, model = tutoring_with(tmp_path, {"classify:exit": {"decision": "END"}})
    assert chat.say("0.5").slots["chunk"] == 2
    assert model.calls == []  # no exit keyword, no classification
    r = chat.say("I might stop soon")  # an exit word the keywords cannot settle
    assert model.calls[0] == "classify:exit"
    assert r.trace is not None and ("tutoring", "analysis") in handoffs(r)


@pytest.mark.parametrize(
    ("text", "flow"),
    [("that's all, analyze my session", "analysis"), ("thanks, that's all", "analysis"),
     ("done with this one, give me the next", "tutoring"), ("I'm done with this problem, give me another", "tutoring")],
)  # fmt: skip
def test_with_a_model_the_keywords_still_decide_what_they_can(
    tmp_path: Path, clock: Clock, text: str, flow: str
) -> None:
    # the model would say the opposite every time; it is never asked
    opposite = {"decision": "CONTINUE" if flow == "analysis" else "END"}
    chat, model = tutoring_with(tmp_path, {"classify:exit": opposite, "grade:tutoring": None})
    r = chat.say(text)
    assert r.trace is not None and "classify:exit" not in model.calls
    ended = ("tutoring", "analysis") in handoffs(r)
    assert ended if flow == "analysis" else (r.flow == "tutoring" and not ended)


@pytest.mark.parametrize("verdict", [{"decision": "CONTINUE"}, None, LLMUnavailable("down", backend="fake")])
def test_with_a_model_anything_but_end_continues(tmp_path: Path, clock: Clock, verdict: JsonValue | Exception) -> None:
    chat, model = tutoring_with(tmp_path, {"classify:exit": verdict, "grade:tutoring": None})
    r = chat.say("I might stop soon")
    assert r.flow == "tutoring" and "classify:exit" in model.calls


def test_no_classification_without_an_exit_keyword(tmp_path: Path, clock: Clock) -> None:
    chat, model = tutoring_with(tmp_path, {"grade:tutoring": None})
    chat.say("let's go on")
    assert "classify:exit" not in model.calls


def plan_offer_with(tmp_path: Path, answers: Mapping[str, JsonValue | Exception]) -> tuple[Chat, FakeModel]:
    """At the plan offer after a lesson with a revealed exercise, a model configured."""
    chat, model = tutoring_with(tmp_path, {**answers, "grade:tutoring": None})
    chat.say("7")
    chat.say("8")
    assert chat.say("I'm done for today").state == "offer_plan"
    return chat, model


@pytest.mark.parametrize(("text", "plans"), [("nope, maybe another day", 0), ("not yet", 0), ("sure", 1)])
def test_with_a_model_the_plan_offer_keywords_still_decide(tmp_path: Path, clock: Clock, text: str, plans: int) -> None:
    opposite = {"value": plans == 0}
    chat, model = plan_offer_with(tmp_path, {"parse:analysis.offer_plan": opposite})
    chat.say(text)
    assert len(chat.records("study_plan")) == plans and "parse:analysis.offer_plan" not in model.calls


def test_with_a_model_an_undecided_plan_answer_is_the_models(tmp_path: Path, clock: Clock) -> None:
    chat, model = plan_offer_with(tmp_path, {"parse:analysis.offer_plan": {"value": True}})
    chat.say("that would help I suppose")
    assert "parse:analysis.offer_plan" in model.calls and len(chat.records("study_plan")) == 1


def test_a_plan_nobody_asked_for_is_never_made(tmp_path: Path, clock: Clock) -> None:
    # "analyze my session" asks for no plan; the model is not asked whether it meant one
    chat, model = tutoring_with(tmp_path, {"grade:tutoring": None})
    chat.say("7")
    chat.say("8")
    r = chat.say("that's all, analyze my session")
    assert r.state == "offer_plan" and chat.records("study_plan") == [] and "classify:plan" not in model.calls


def test_a_model_may_accept_an_equivalent_open_answer(tmp_path: Path, clock: Clock) -> None:
    chat, model = tutoring_with(tmp_path, {"grade:tutoring": {"correct": True}})
    r = chat.say("five tenths")  # the rules read number words, not this
    assert r.reply.startswith("Correct!") and model.calls == ["grade:tutoring"]
    assert chat.records("exercise")[0]["correct"] is True


# -- analysis and scheduling ------------------------------------------------------------------


def weak_session(chat: Chat) -> None:
    """Limits: right after the hint (0.5, moderate); derivatives: revealed (0.0, severe)."""
    chat.say("teach me limits")
    chat.say("6")
    chat.say("7")
    chat.say("can you help me with derivatives?")
    chat.say("no")
    chat.say("1")
    chat.say("2")


def test_analysis_orders_weak_points_by_severity_and_asks_about_a_plan(chat: Chat) -> None:
    weak_session(chat)
    r = chat.say("I'm done for today")
    assert r.reply.index("Derivatives: severe difficulty (0%)") < r.reply.index("Limits: moderate difficulty (50%)")
    assert r.reply.endswith("Would you like me to create a study schedule focusing on these topics?")
    r = chat.say("no thanks")
    assert r.flow == "main" and chat.records("study_plan") == []
    assert "Analysis completed. Weak points: Derivatives (severe, 0%), Limits (moderate, 50%)." in chat.history()


def test_yes_to_the_plan_schedules_weak_topics_first(chat: Chat) -> None:
    weak_session(chat)
    chat.say("I'm done for today")
    r = chat.say("Yes, create a schedule for me from 14-16 tomorrow")
    assert r.flow == "main" and "Prioritised from your analysis: Derivatives (severe), Limits (moderate)." in r.reply
    [plan] = chat.records("study_plan")
    assert plan["date"] == "2025-05-08" and plan["window"] == "14:00-16:00" and plan["prioritized"] is True
    assert plan["sessions"] == [
        {"start": "14:00", "end": "14:25", "topic": "Derivatives"},
        {"start": "14:30", "end": "14:55", "topic": "Derivatives"},
        {"start": "15:00", "end": "15:25", "topic": "Derivatives"},  # D'Hondt: weight 3 vs 2
        {"start": "15:30", "end": "15:55", "topic": "Limits"},
    ]
    assert any(m.startswith("Study plan saved (prioritised by the analysis) for 2025-05-08") for m in chat.history())


def test_an_exit_that_asks_for_a_plan_runs_analysis_and_scheduling_at_once(chat: Chat) -> None:
    weak_session(chat)
    r = chat.say("Got it! Can you analyze my session and create a study plan?")
    assert r.flow == "main"
    assert handoffs(r) == [("tutoring", "analysis"), ("analysis", "scheduling")]
    [plan] = chat.records("study_plan")
    sessions = plan["sessions"]
    assert isinstance(sessions, list) and sessions[0] == {"start": "16:00", "end": "16:25", "topic": "Derivatives"}
    assert plan["window"] == "16:00-18:00"  # the default window


def test_definitely_not_is_no_plan(chat: Chat) -> None:
    weak_session(chat)
    chat.say("I'm done for today")
    r = chat.say("definitely not")
    assert r.flow == "main" and "no plan for now" in r.reply and chat.records("study_plan") == []


def test_an_analysis_made_out_of_date_by_new_results_no_longer_prioritises(chat: Chat) -> None:
    weak_session(chat)
    chat.say("I'm done for today")
    chat.say("no thanks")
    chat.say("teach me limits")
    chat.say("7")
    chat.say("cancel")
    r = chat.say("schedule study from 14-16 tomorrow")
    assert "Prioritised" not in r.reply and chat.records("study_plan")[0]["prioritized"] is False


def test_direct_analysis_without_results(chat: Chat) -> None:
    r = chat.say("Analyze my weak points")
    assert r.flow == "main" and "don't have any exercise results" in r.reply
    assert "Analysis completed. No exercise results yet." in chat.history()


def test_direct_scheduling_without_analysis_is_not_prioritised(chat: Chat) -> None:
    r = chat.say("Schedule study from 14-15 tomorrow for Math")
    assert r.flow == "main" and "Prioritised" not in r.reply
    assert chat.records("study_plan") == [
        {
            "date": "2025-05-08",
            "window": "14:00-15:00",
            "prioritized": False,
            "sessions": [
                {"start": "14:00", "end": "14:25", "topic": "Math"},
                {"start": "14:30", "end": "14:55", "topic": "Math"},
            ],
        }
    ]
    assert "Study plan saved for 2025-05-08 14:00-15:00: 14:00-14:25 Math; 14:30-14:55 Math." in chat.history()


def test_small_talk_after_a_plan_does_not_move_it(chat: Chat) -> None:
    chat.say("schedule study 3-5pm tomorrow")
    for text in ("ok thanks, see you later", "it took longer than I thought", "bye"):
        assert chat.say(text).flow == "main"
    assert [p["window"] for p in chat.records("study_plan")] == ["15:00-17:00"]
    r = chat.say("make it an hour later")
    assert "Moved from" in r.reply and [p["window"] for p in chat.records("study_plan")] == [
        "15:00-17:00",
        "16:00-18:00",
    ]


def test_an_impossible_window_is_asked_again(chat: Chat) -> None:
    r = chat.say("schedule study from 16-14 tomorrow")
    assert (r.flow, r.state) == ("scheduling", "window") and "ends (14:00) before it starts (16:00)" in r.reply
    r = chat.say("from 2pm to 4pm on Friday")
    assert r.flow == "main" and chat.records("study_plan")[0]["date"] == "2025-05-09"


def test_after_analysis_nothing_leads_back_into_tutoring_unasked(chat: Chat) -> None:
    chat.say("teach me limits")
    chat.say("7")
    r = chat.say("cancel")
    assert r.flow == "main"
    r = chat.say("continue")  # the lesson is still open: it resumes
    assert (r.flow, r.slots["concept"]) == ("tutoring", "limits")
    chat.say("I'm done for today")
    assert chat.context["tutoring_active"] is False
    for text in ("continue", "another one", "yes"):
        assert chat.say(text).flow == "main"
    assert chat.say("teach me limits").flow == "tutoring"


def test_a_flow_that_runs_too_long_ends_with_a_summary(chat: Chat) -> None:
    chat.say("teach me limits")
    for _ in range(80):
        assert chat.say("why?").flow == "tutoring"
    r = chat.say("why?")
    assert r.flow == "main" and "stopped the tutoring" in r.reply
    assert "Tutoring ended after 80 turns without finishing." in chat.history()


# -- courses ---------------------------------------------------------------------------------


def test_another_course_can_be_selected(tmp_path: Path, clock: Clock) -> None:
    chat = course_chat(tmp_path, FRACTIONS)
    r = chat.say("teach me percentages")
    assert (r.state, r.slots["offer"]) == ("offer", "fractions")
    r = chat.say("yes")
    assert "What is 1/2 as a decimal?" in r.reply
    assert chat.say("1/2").reply.startswith("Correct!")  # numbers compare numerically


@pytest.mark.parametrize("text", ["hello", "Analyze my weak points"])
def test_a_broken_or_missing_course_is_refused_on_the_first_message(tmp_path: Path, clock: Clock, text: str) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("concepts:\n  - {id: a, title: A, prerequisites: [zz], chunks: []}\n", encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        course_chat(tmp_path, bad).say(text)
    assert info.value.problems == [
        "concept 'a' has no chunks; each concept needs 3 to 6",
        "concept 'a': unknown prerequisite 'zz'",
    ]
    with pytest.raises(DataFileError, match="cannot read the course file"):
        course_chat(tmp_path, tmp_path / "missing.yaml").say(text)


def test_an_invalid_course_is_refused_with_what_to_fix(tmp_path: Path, clock: Clock) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "concepts:\n  - {id: a, title: A, prerequisites: [b], chunks: []}\n"
        "  - {id: b, title: B, prerequisites: [a], chunks: []}\n",
        encoding="utf-8",
    )
    chat = course_chat(tmp_path, bad)
    with pytest.raises(DataFileError) as info:
        chat.say("teach me a")
    assert "concept 'a': prerequisite cycle a -> b -> a" in info.value.problems
    assert "concept 'a' has no chunks; each concept needs 3 to 6" in info.value.problems


def handoffs(r: TurnResult) -> list[tuple[str | None, str]]:
    """The (from, to) flow handoffs the turn made."""
    return [(n.flow, n.detail) for n in (r.trace.noticed("handoff") if r.trace else [])]
