"""The router and the turn: commands, inner flows, interrupts, the reprompt ladder, collapse, LLM budget."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import Field

from engine import (
    Ask,
    Bot,
    ConflictError,
    Engine,
    Final,
    Flow,
    InputRejected,
    Intent,
    LLMUnavailable,
    Message,
    Parsed,
    ParseRequest,
    Phrased,
    PhraseRequest,
    RecordDraft,
    Registry,
    ScriptedLLM,
    Slots,
    SqlStore,
    T,
    default_registry,
)
from engine.extract import integer
from engine.yesno import yes_no
from flows.language_buddy.bot import FEEDBACK
from flows.shared.feedback import feedback

# this module's bots, beside the installed ones
BOTS = Registry(default_registry())


class SurveySlots(Slots):
    n: int | None = Field(None, ge=1, le=9)
    ok: bool | None = None


survey = Flow(
    name="survey",
    slots=SurveySlots,
    states=[
        Ask(
            "n",
            slot="n",
            say="Pick a number from 1 to 9.",
            parse=integer(1, 9),
            reprompts=["Tier one: a digit 1-9, please.", "Tier two: type one digit."],
            max_attempts=3,
            fallback="cancel",
            initial=True,
        ),
        Ask("ok", slot="ok", say="Happy with {n}?", parse=yes_no(), max_attempts=2, fallback="escalate"),
        Final("done", summary="Survey done: n={n}, ok={ok}.", say="Thanks."),
    ],
    transitions=[T("answer", "n", "ok"), T("answer", "ok", "done")],
    interrupts=["feedback"],
    max_turns=6,
)

BOTS.add(
    Bot(
        name="test-bot",
        persona="a test bot",
        flows=[survey, feedback],
        intents=[Intent("survey", [r"\bsurvey\b"], "take the survey"), FEEDBACK],
        capabilities="I can run a survey or take feedback.",
    )
)


@pytest.fixture
def store(tmp_path: Path) -> SqlStore:
    return SqlStore(str(tmp_path / "turns.db"))


def talk(engine: Engine, *lines: str, user: str = "u") -> list[str]:
    return [engine.turn("test-bot", user, line).reply for line in lines]


def test_main_small_talk_is_honest_and_commands_in_main(store: SqlStore) -> None:
    e = Engine(store, bots=BOTS)
    assert e.turn("test-bot", "u", "hi there").reply == "Hello! I can run a survey or take feedback."
    assert "nothing to cancel" in e.turn("test-bot", "u", "cancel").reply
    assert e.turn("test-bot", "u", "help").flow == "main"


def test_inner_turns_stay_out_of_main_history_and_collapse_to_a_summary(store: SqlStore) -> None:
    e = Engine(store, bots=BOTS)
    talk(e, "let's do the survey", "4")
    mid = e.session("test-bot", "u")
    assert mid is not None and mid.active is not None
    assert [m.content for m in mid.active.scratchpad] == [
        "let's do the survey",
        "Pick a number from 1 to 9.",
        "4",
        "Happy with 4?",
    ]
    r = e.turn("test-bot", "u", "yes")
    assert r.flow == "main"
    history = [m.content for m in store.history(r.session_id or "")]
    assert history == ["let's do the survey", "Survey done: n=4, ok=True.", "Thanks."]
    after = e.session("test-bot", "u")
    assert after is not None and after.active is None
    (run,) = store.runs(r.session_id or "")
    assert run.outcome == "completed" and run.slots == {"n": 4, "ok": True} and run.turns == 2


def test_reprompt_ladder_uses_more_explicit_tiers_then_the_fallback(store: SqlStore) -> None:
    e = Engine(store, bots=BOTS)
    talk(e, "survey")
    first, second = talk(e, "banana", "purple")
    assert first == "Tier one: a digit 1-9, please."
    assert second == "Tier two: type one digit."
    s = e.session("test-bot", "u")
    assert s is not None and s.active is not None and s.active.attempts == 2
    third = e.turn("test-bot", "u", "still no")
    assert third.flow == "main"
    assert "couldn't understand" in third.reply
    (run,) = store.runs(third.session_id or "")
    assert run.outcome == "cancelled" and "after 3 attempts" in run.summary


def test_a_rule_reason_is_given_on_an_invalid_answer(store: SqlStore) -> None:
    e = Engine(store, bots=BOTS)
    talk(e, "survey")
    assert e.turn("test-bot", "u", "12").reply.startswith("12 is out of range")


def test_escalate_fallback_saves_an_escalation(store: SqlStore) -> None:
    e = Engine(store, bots=BOTS)
    talk(e, "survey", "3", "hmm", "dunno")  # "what?" would be a question back: no attempt
    (rec,) = store.records("escalation")
    assert rec.data["flow"] == "survey" and rec.data["state"] == "ok"
    assert store.runs(rec.session_id)[0].outcome == "escalated"


def test_help_explains_without_consuming_the_step(store: SqlStore) -> None:
    e = Engine(store, bots=BOTS)
    talk(e, "survey", "banana")
    r = e.turn("test-bot", "u", "help")
    assert "a whole number from 1 to 9" in r.reply and "cancel" in r.reply
    s = e.session("test-bot", "u")
    assert s is not None and s.active is not None
    assert (s.active.state, s.active.attempts) == ("n", 1)


def test_cancel_abandons_with_a_summary_that_says_so(store: SqlStore) -> None:
    e = Engine(store, bots=BOTS)
    r = e.turn("test-bot", "u", "survey")
    e.turn("test-bot", "u", "cancel")
    (run,) = store.runs(r.session_id or "")
    assert run.outcome == "cancelled" and "cancelled" in run.summary
    assert store.history(r.session_id or "")[-2].content == run.summary


def test_interrupt_suspends_and_resumes_at_the_exact_state(store: SqlStore) -> None:
    e = Engine(store, bots=BOTS)
    talk(e, "survey", "5")
    r = e.turn("test-bot", "u", "I want to give feedback")
    assert (r.flow, r.state) == ("feedback", "rating")
    s = e.session("test-bot", "u")
    assert s is not None and [f.flow for f in s.stack] == ["survey"]
    suspended = s.stack[0]
    assert (suspended.state, suspended.slots["n"]) == ("ok", 5)
    e.turn("test-bot", "u", "2")
    r = e.turn("test-bot", "u", "lessons are wrong")  # category read from the details: feedback ends
    assert (r.flow, r.state) == ("survey", "ok")
    assert "Back to the survey: Happy with 5?" in r.reply
    s = e.session("test-bot", "u")
    assert s is not None and s.active is not None and not s.stack
    assert s.active.scratchpad[:-1] == suspended.scratchpad  # plus the re-asked question
    assert e.turn("test-bot", "u", "yes").flow == "main"
    assert [run.flow for run in store.runs(r.session_id or "")] == ["feedback", "survey"]


def test_cancel_in_the_interrupting_flow_resumes_the_suspended_one(store: SqlStore) -> None:
    e = Engine(store, bots=BOTS)
    talk(e, "survey", "I want to give feedback")
    r = e.turn("test-bot", "u", "stop")
    assert (r.flow, r.state) == ("survey", "n")


def test_a_flow_cannot_run_forever(store: SqlStore) -> None:
    e = Engine(store, bots=BOTS)
    talk(e, "survey", "3")
    for _ in range(5):
        e.turn("test-bot", "u", "help")
    r = e.turn("test-bot", "u", "maybe")
    assert r.flow == "main"
    assert store.runs(r.session_id or "")[-1].outcome == "expired"


def test_stale_flow_state_is_reset_with_a_notice(store: SqlStore) -> None:
    e = Engine(store, bots=BOTS)
    r = e.turn("test-bot", "u", "survey")
    s = store.get(r.session_id or "")
    assert s is not None and s.active is not None
    s.active.state = "renamed_state"
    stale = s.model_copy(update={"version": s.version + 1, "turns": s.turns + 1})
    from engine.models import TurnTrace, TurnWrite

    store.commit(
        TurnWrite(
            session=stale,
            expected_version=s.version,
            trace_doc=TurnTrace(turn=2, user_text="", reply="", route="test").doc(),
        )
    )
    out = e.turn("test-bot", "u", "hello")
    assert "reset" in out.reply and out.flow == "main"
    assert store.runs(r.session_id or "")[-1].outcome == "reset"


def test_rules_backend_makes_no_llm_calls(store: SqlStore) -> None:
    e = Engine(store, bots=BOTS)
    talk(e, "survey", "banana", "4", "yes")
    s = e.session("test-bot", "u")
    assert s is not None
    assert all(not t.llm_calls for t in store.traces(s.id))


def test_llm_parses_only_when_rules_cannot_and_stays_within_budget(store: SqlStore) -> None:
    llm = ScriptedLLM(["Pick a number, friend!"])
    e = Engine(store, llm, bots=BOTS)
    e.turn("test-bot", "u", "survey")
    assert llm.calls == ["ask:survey.n"]
    llm.push({"value": 7})
    r = e.turn("test-bot", "u", "seven-ish, I suppose")
    assert (r.state, r.slots["n"]) == ("ok", 7)
    # one call per turn: the parse used it, so the next question is the plain template
    assert llm.calls[-1] == "parse:survey.n" and r.reply == "Happy with 7?"
    assert r.trace is not None and len(r.trace.llm_calls) == 1
    r = e.turn("test-bot", "u", "no")  # rules decide: no parse call
    # and "Thanks." is too short for a rewording to add anything: no call at all
    assert llm.calls[-1] == "parse:survey.n" and r.reply == "Thanks."


def test_llm_not_given_becomes_a_reprompt_not_a_value(store: SqlStore) -> None:
    llm = ScriptedLLM(["Pick one!", None])
    e = Engine(store, llm, bots=BOTS)
    e.turn("test-bot", "u", "survey")
    r = e.turn("test-bot", "u", "banana")
    assert (r.state, r.slots["n"]) == ("n", None)
    assert "Tier one" in r.reply


def test_a_model_reading_an_intent_is_asked_back_and_yes_starts_the_flow(store: SqlStore) -> None:
    llm = ScriptedLLM([{"value": "feedback", "evidence": "keeps freezing"}])
    e = Engine(store, llm, bots=BOTS)
    r = e.turn("test-bot", "u", "the app keeps freezing on me")
    assert (r.flow, r.reply) == ("main", "Do you want to give feedback about the app?")
    assert llm.calls == ["classify:intent"]
    llm.push("How would you rate us, 1 to 5?")
    r = e.turn("test-bot", "u", "yes please")
    assert (r.flow, r.reply) == ("feedback", "How would you rate us, 1 to 5?")
    assert r.trace is not None and r.trace.route == "confirmed:feedback"


def test_declining_the_question_costs_nothing_and_leaves_no_record(store: SqlStore) -> None:
    llm = ScriptedLLM([{"value": "feedback", "evidence": "keeps freezing"}])
    e = Engine(store, llm, bots=BOTS)
    e.turn("test-bot", "u", "the app keeps freezing on me")
    r = e.turn("test-bot", "u", "no, just venting")
    assert (r.flow, r.reply) == ("main", "OK, no problem.") and llm.calls == ["classify:intent"]
    assert store.runs(r.session_id or "") == [] and store.records("feedback") == []
    # a different message instead of an answer: the question lapses, the message is handled as usual
    llm.push({"value": "feedback", "evidence": "crashes"})
    e.turn("test-bot", "u", "it crashes too")
    llm.push("Sure, we can do the survey!")
    r = e.turn("test-bot", "u", "survey")
    assert r.flow == "survey"


@pytest.mark.parametrize(
    ("text", "answer", "calls"),
    [
        ("how are you today?", None, []),  # no cue word: the model is not asked at all
        ("the app keeps freezing on me", {"value": "feedback", "evidence": "I want to complain"}, ["classify:intent"]),
        ("the app keeps freezing on me", {"value": "feedback", "evidence": None}, ["classify:intent"]),
        ("the app keeps freezing on me", {"value": "feedback", "evidence": "on me"}, ["classify:intent"]),
    ],
)
def test_a_models_intent_without_evidence_from_the_message_starts_nothing(
    store: SqlStore, text: str, answer: dict[str, object] | None, calls: list[str]
) -> None:
    llm = ScriptedLLM([*([answer] if calls else []), "I can run a survey or take feedback."])
    r = Engine(store, llm, bots=BOTS).turn("test-bot", "u", text)
    assert r.flow == "main" and "Do you want" not in r.reply
    assert llm.calls == [*calls, "reply:main"]


class Broken:
    name = "broken"
    model = "none"

    def phrase(self, request: PhraseRequest) -> Phrased:
        raise LLMUnavailable("server down", backend=self.name)

    def parse(self, request: ParseRequest) -> Parsed:
        raise LLMUnavailable("server down", backend=self.name)


def test_llm_failure_degrades_to_templates_and_is_logged(store: SqlStore) -> None:
    r = Engine(store, Broken(), bots=BOTS).turn("test-bot", "u", "survey")
    assert r.reply == "Pick a number from 1 to 9."
    assert r.trace is not None and r.trace.llm_calls[0].ok is False


def test_conflict_is_retried_once_on_fresh_state_then_reported(
    store: SqlStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    e = Engine(store, bots=BOTS)
    e.turn("test-bot", "u", "survey")
    real = store.commit
    failures = {"left": 1}

    def flaky(write):  # type: ignore[no-untyped-def]
        if failures["left"]:
            failures["left"] -= 1
            # another writer lands a turn first (one that takes no session lock, as an older build)
            Engine(SqlStore(store.url), bots=BOTS, queue_writers=False).turn("test-bot", "u", "3")
        real(write)

    monkeypatch.setattr(store, "commit", flaky)
    r = e.turn("test-bot", "u", "yes")
    assert r.trace is not None and r.trace.retried
    assert r.flow == "main"  # the retry saw the other writer's "3" and answered the next question
    failures["left"] = 5

    def always(write):  # type: ignore[no-untyped-def]
        raise ConflictError(write.session.id, write.expected_version)

    monkeypatch.setattr(store, "commit", always)
    e.conflict_wait_s = 0.3  # the retries go on until this wait is over (10 s by default)
    with pytest.raises(ConflictError) as err:
        e.turn("test-bot", "u", "hello")
    assert err.value.session


def test_reset_leaves_every_flow_as_one_logged_turn(store: SqlStore) -> None:
    e = Engine(store, bots=BOTS)
    talk(e, "survey", "5", "I want to give feedback")
    r = e.reset("test-bot", "u")
    assert r.flow == "main" and "Started over" in r.reply
    s = e.session("test-bot", "u")
    assert s is not None and s.active is None and not s.stack
    runs = store.runs(s.id)
    assert [(x.flow, x.outcome) for x in runs] == [("feedback", "reset"), ("survey", "reset")]
    assert store.traces(s.id)[-1].route == "command:reset"


def test_a_scripted_llm_out_of_step_fails_loudly(store: SqlStore) -> None:
    from engine import UnexpectedLLMCall

    with pytest.raises(UnexpectedLLMCall):
        Engine(store, ScriptedLLM(), bots=BOTS).turn("test-bot", "u", "survey")
    assert not store.sessions()  # the failed turn wrote nothing


def test_an_ask_can_refuse_interrupts(store: SqlStore) -> None:
    from dataclasses import replace

    closed = Flow(
        name="closed",
        slots=SurveySlots,
        states=[replace(s, interruptible=False) if isinstance(s, Ask) else s for s in survey.states],
        transitions=survey.transitions,
        interrupts=["feedback"],
    )
    quiz = Intent("closed", [r"\bquiz\b"], "q")
    BOTS.add(Bot(name="closed-bot", persona="p", flows=[closed, feedback], intents=[quiz], capabilities="c"))
    e = Engine(store, bots=BOTS)
    e.turn("closed-bot", "u", "quiz")
    r = e.turn("closed-bot", "u", "I want to give feedback")
    assert (r.flow, r.state) == ("closed", "n")  # read as a (bad) answer, not as the feedback intent


def test_no_machine_is_built_and_no_model_added_on_the_hot_path(
    store: SqlStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from transitions import Machine

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("Machine construction or add_model during a turn")

    monkeypatch.setattr(Machine, "__init__", forbidden)
    monkeypatch.setattr(Machine, "add_model", forbidden)
    talk(Engine(store, bots=BOTS), "survey", "4", "I want to give feedback", "3", "slow", "yes")
    assert store.runs(store.sessions()[0].id)  # the flows really ran


class Recorder:
    """An LLM that records every prompt and answers with the content it was asked to say."""

    name = "recorder"
    model = "recorder"

    def __init__(self) -> None:
        self.prompts: list[list[Message]] = []

    def phrase(self, request: PhraseRequest) -> Phrased:
        self.prompts.append(request.messages)
        return Phrased(text=request.content)

    def parse(self, request: ParseRequest) -> Parsed:
        self.prompts.append(request.messages)
        return Parsed(value=None)


def test_inner_prompts_see_the_recent_scratchpad_not_main_history_nor_the_profile(store: SqlStore) -> None:
    """A flow's phrasing and parsing carry its last few turns only: what the bot knows of the
    user is for the main conversation's replies (tests/test_main_reply.py)."""
    llm = Recorder()
    e = Engine(store, llm, bots=BOTS)
    store.add_record("test-bot", "u", "", RecordDraft(kind="profile", data={"name": "Max"}))
    e.turn("test-bot", "u", "a secret main-only remark")
    e.turn("test-bot", "u", "survey please")
    llm.prompts.clear()
    e.turn("test-bot", "u", "4")
    (prompt,) = llm.prompts
    assert prompt[0].role == "system" and "Max" not in prompt[0].content
    assert prompt[-1] == Message(role="user", content="4")
    texts = [m.content for m in prompt]
    assert "survey please" in texts and "Pick a number from 1 to 9." in texts
    assert not any("secret" in t for t in texts)


def test_main_prompts_see_main_history_with_summaries(store: SqlStore) -> None:
    llm = Recorder()
    e = Engine(store, llm, bots=BOTS)
    for line in ("survey", "4", "yes"):
        e.turn("test-bot", "u", line)
    llm.prompts.clear()
    e.turn("test-bot", "u", "what did we do?")
    main = llm.prompts[-1]
    texts = [m.content for m in main]
    assert "Survey done: n=4, ok=True." in texts
    assert "Pick a number from 1 to 9." not in texts  # inner turns were collapsed away
    assert main[-1] == Message(role="user", content="what did we do?")


def test_every_rung_of_the_ladder_is_new_even_past_the_declared_reprompts(store: SqlStore) -> None:
    plain = Flow(
        name="plain",
        slots=SurveySlots,
        states=[Ask("n", slot="n", say="Pick 1-9.", parse=integer(1, 9), initial=True, max_attempts=4),
                Final("done", summary="n={n}")],
        transitions=[T("answer", "n", "done")],
    )  # fmt: skip
    BOTS.add(
        Bot(name="plain-bot", persona="p", flows=[plain], intents=[Intent("plain", [r"go"], "g")], capabilities="c")
    )
    e = Engine(store, bots=BOTS)
    e.turn("plain-bot", "u", "go")
    replies = [e.turn("plain-bot", "u", text).reply for text in ("banana", "kiwi", "mango")]
    assert len(set(replies)) == 2  # tier 1, then the more explicit tier 2 (and beyond)
    assert replies[0].startswith("I need a whole number from 1 to 9.")
    assert replies[1].startswith("Please reply with just a whole number from 1 to 9.")


def test_the_trace_a_turn_writes_is_what_turntrace_would_write(store: SqlStore) -> None:
    """The turn builds its trace as JSON without the model; it must equal the model's own doc()."""
    llm = ScriptedLLM(["Pick a number, friend!", {"value": 7}])
    e = Engine(store, llm, bots=BOTS)
    results = [e.turn("test-bot", "u", "survey"), e.turn("test-bot", "u", "seven-ish, I suppose")]
    e = Engine(store, bots=BOTS)
    results += [e.turn("test-bot", "u", t) for t in ("banana", "feedback", "4", "the app is too slow", "yes", "hello")]
    keys: set[str] = set()
    for r in results:
        assert r.trace_doc is not None and r.trace is not None
        doc = dict(r.trace_doc)
        stored = r.trace.doc()
        assert r.trace.at.isoformat() == doc.pop("at") and stored.pop("at")
        assert stored == doc
        keys |= set(doc)
    # the turns above exercised every optional part of a trace
    assert keys >= {"flow_before", "state_before", "flow_after", "state_after", "slots_after", "entered",
                    "fired", "llm_calls", "records", "notices"}  # fmt: skip
    s = e.session("test-bot", "u")
    assert s is not None and [t.turn for t in store.traces(s.id)] == list(range(1, len(results) + 1))


def test_a_repeated_message_id_returns_the_stored_reply_and_changes_nothing(tmp_path: Path) -> None:
    store = SqlStore(str(tmp_path / "ids.db"))
    e = Engine(store, bots=BOTS)
    first = e.turn("test-bot", "u", "survey", message_id="abc-1")
    again = e.turn("test-bot", "u", "survey", message_id="abc-1")
    assert (again.duplicate, again.reply, again.state) == (True, first.reply, first.state)
    other = e.turn("test-bot", "u", "4", message_id="abc-2")
    assert not other.duplicate
    s = e.session("test-bot", "u")
    assert s is not None and s.turns == 2
    assert [t.message_id for t in store.traces(s.id)] == ["abc-1", "abc-2"]
    with pytest.raises(InputRejected, match="message id"):
        e.turn("test-bot", "u", "5", message_id="bad\x00id")
    store.close()
