"""Edge cases found in review: each test failed before its fix."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import Field

from engine import (
    Aside,
    Ask,
    Bot,
    DefinitionError,
    Engine,
    Final,
    Flow,
    Intent,
    Message,
    Parsed,
    ParseRequest,
    Phrased,
    PhraseRequest,
    Registry,
    Slots,
    SqlStore,
    StepContext,
    T,
    default_registry,
)
from engine.extract import Invalid, Parser, integer
from engine.yesno import yes_no

# this module's bots, beside the installed ones
BOTS = Registry(default_registry())


class Nums(Slots):
    a: int | None = Field(None, ge=1, le=9)
    b: int | None = Field(None, ge=1, le=9)
    ok: bool | None = None


def skip_to_b(ctx: StepContext[Nums]) -> str | None:
    return "jump"


def two_asks(name: str, **kw: object) -> Flow:
    return Flow(
        name=name,
        slots=Nums,
        states=[
            Ask(
                "qa",
                slot="a",
                say="First number?",
                parse=integer(1, 9),
                initial=True,
                max_attempts=3,
                fallback="cancel",
            ),
            Ask("qb", slot="b", say="Second number?", parse=integer(1, 9), max_attempts=3, fallback="cancel"),
            Final("done", summary=f"{name}: {{a}} and {{b}}."),
        ],
        transitions=[T("answer", "qa", "qb"), T("jump", "*", "qb"), T("answer", "qb", "done")],
        asides=[Aside("jump", match=lambda t: t == "go to question b", handle=skip_to_b)],
        **kw,  # type: ignore[arg-type]
    )


setup = two_asks("setup", on_cancel="pause")
fb = two_asks("fb")
handing = Flow(
    name="handing",
    slots=Nums,
    states=[Ask("qa", slot="a", say="How many apples?", parse=integer(1, 9), initial=True),
            Final("done", summary="apples {a}", handoff=lambda s: "fb")],
    transitions=[T("answer", "qa", "done")],
)  # fmt: skip


def offer_seven(ctx: StepContext[Nums]) -> str | None:
    ctx.say("I don't know “sevn”. Did you mean seven?")
    ctx.offer("7")
    return ""


offering = Flow(
    name="offering",
    slots=Nums,
    states=[Ask("qa", slot="a", say="Hello! Pick a number.", again="Pick a number.", parse=integer(1, 9), initial=True,
                max_attempts=5),
            Final("done", summary="picked {a}")],
    transitions=[T("answer", "qa", "done")],
    asides=[Aside("typo", match=lambda t: t == "sevn", handle=offer_seven)],
)  # fmt: skip
BOTS.add(
    Bot(
        name="edge-bot",
        persona="p",
        flows=[setup, fb, handing, offering],
        intents=[
            Intent("offering", [r"\bpick\b"], "o"),
            Intent("setup", [r"\bsetup\b"], "s"),
            Intent("fb", [r"\bfeedback\b"], "f"),
            Intent("handing", [r"\bapples\b"], "h"),
        ],
        capabilities="I do setups.",
    )
)


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    return Engine(SqlStore(str(tmp_path / "edge.db")), bots=BOTS)


def say(e: Engine, *lines: str) -> str:
    return [e.turn("edge-bot", "u", line).reply for line in lines][-1]


def test_a_paused_flow_waits_to_be_asked_for_instead_of_returning_by_itself(engine: Engine) -> None:
    say(engine, "setup", "cancel", "feedback")
    r = engine.turn("edge-bot", "u", "cancel")
    assert r.flow == "main" and "setup" not in r.reply
    r = engine.turn("edge-bot", "u", "setup again")
    assert (r.flow, r.state) == ("setup", "qa") and "Welcome back" in r.reply


def test_a_handed_off_flow_does_not_read_the_previous_answer(engine: Engine) -> None:
    r = engine.turn("edge-bot", "u", "apples")
    r = engine.turn("edge-bot", "u", "3")
    assert (r.flow, r.state, r.slots["a"]) == ("fb", "qa", None)


def test_failed_attempts_do_not_follow_an_aside_to_another_question(engine: Engine) -> None:
    say(engine, "feedback", "x", "y", "go to question b")
    r = engine.turn("edge-bot", "u", "z")
    assert (r.flow, r.state) == ("fb", "qb")  # one failure at qb, not the third


def test_reset_survives_a_stored_flow_the_code_no_longer_has(engine: Engine) -> None:
    r = engine.turn("edge-bot", "u", "feedback")
    s = engine.store.get(r.session_id or "")
    assert s is not None and s.active is not None
    from engine.models import TurnTrace, TurnWrite

    s.active.flow = "vanished"
    engine.store.commit(
        TurnWrite(session=s.model_copy(update={"version": s.version + 1, "turns": s.turns + 1}),
                  expected_version=s.version,
                  trace_doc=TurnTrace(turn=s.turns + 1, user_text="", reply="", route="t").doc())
    )  # fmt: skip
    out = engine.reset("edge-bot", "u")
    assert out.flow == "main" and "reset" in out.reply
    assert engine.store.runs(s.id)[-1].outcome == "reset"


def test_a_handoff_to_an_unknown_flow_is_a_definition_error(tmp_path: Path) -> None:
    lost = Flow(name="lost", slots=Nums,
                states=[Ask("qa", slot="a", say="n?", parse=integer(1, 9), initial=True),
                        Final("done", summary="x", handoff=lambda s: "nowhere")],
                transitions=[T("answer", "qa", "done")])  # fmt: skip
    BOTS.add(Bot(name="lost-bot", persona="p", flows=[lost], intents=[Intent("lost", [r"go"], "g")], capabilities="c"))
    e = Engine(SqlStore(str(tmp_path / "l.db")), bots=BOTS)
    e.turn("lost-bot", "u", "go")
    with pytest.raises(DefinitionError, match="nowhere") as err:
        e.turn("lost-bot", "u", "3")
    assert err.value.flow == "lost" and err.value.state == "done"


def test_a_final_state_without_words_still_answers(engine: Engine) -> None:
    say(engine, "setup", "2")
    assert say(engine, "3") == "setup: 2 and 3."


class Recorder:
    name = "recorder"
    model = "recorder"

    def __init__(self) -> None:
        self.prompts: dict[str, list[Message]] = {}

    def phrase(self, request: PhraseRequest) -> Phrased:
        self.prompts[request.purpose] = request.messages
        return Phrased(text=request.content)

    def parse(self, request: ParseRequest) -> Parsed:
        self.prompts[request.purpose] = request.messages
        return Parsed(value=None)


def test_prompts_carry_the_current_message_once_and_closings_see_the_scratchpad(tmp_path: Path) -> None:
    llm = Recorder()
    e = Engine(SqlStore(str(tmp_path / "p.db")), llm, bots=BOTS)
    quiz = Flow(name="quiz", slots=Nums, llm_calls_per_turn=5,
                states=[Ask("ok", slot="ok", say="Ready?", parse=yes_no(), initial=True, max_attempts=1),
                        Final("done", summary="quiz {ok}", say="Thanks for taking the quiz, see you soon!")],
                transitions=[T("answer", "ok", "done")])  # fmt: skip
    BOTS.add(Bot(name="rec-bot", persona="p", flows=[quiz], intents=[Intent("quiz", [r"quiz"], "q")], capabilities="c"))
    e.turn("rec-bot", "u", "quiz")
    e.turn("rec-bot", "u", "no idea")  # skipped after one attempt: the engine speaks before the close
    closing = llm.prompts["close:quiz"]
    assert [m.content for m in closing].count("no idea") == 1 and closing[-1].content == "no idea"
    assert "Ready?" in [m.content for m in closing]  # the conversation being closed


def test_a_yes_to_what_an_aside_offered_reads_as_the_offered_message(engine: Engine) -> None:
    say(engine, "pick one", "sevn")
    r = engine.turn("edge-bot", "u", "yes")
    assert r.flow == "main" and r.slots == {}
    run = engine.store.runs(r.session_id or "")[-1]
    assert run.summary == "picked 7"
    trace = engine.store.traces(r.session_id or "")[-1]
    assert trace.user_text == "yes"  # the trace keeps what was typed, and says what was read
    assert [(n.kind, n.detail) for n in trace.notices] == [("offer", "7")]


def test_a_no_to_an_offer_asks_again_and_anything_else_is_read_as_it_is(engine: Engine) -> None:
    say(engine, "pick one", "sevn")
    r = engine.turn("edge-bot", "u", "no")
    assert (r.flow, r.state) == ("offering", "qa") and r.reply == "Alright. Pick a number."
    say(engine, "sevn")
    r = engine.turn("edge-bot", "u", "no, 5")  # a no that answers is read as the answer
    assert engine.store.runs(r.session_id or "")[-1].summary == "picked 5"


def test_an_offer_lasts_one_turn(engine: Engine) -> None:
    say(engine, "pick one", "sevn", "hmm")
    r = engine.turn("edge-bot", "u", "yes")  # "hmm" came between: this yes answers nothing offered
    assert (r.flow, r.state) == ("offering", "qa")
    assert engine.store.runs(r.session_id or "") == []


def test_a_question_asked_again_leaves_out_its_first_time_lead(engine: Engine) -> None:
    """`Ask.again`: "Hello!" is said once, not after help, an aside, a no or a reprompt."""
    assert say(engine, "pick one") == "Hello! Pick a number."
    assert say(engine, "help").endswith("Pick a number. (Say 'cancel' to stop the offering.)")
    assert "Hello" not in say(engine, "help")
    assert say(engine, "sevn", "no") == "Alright. Pick a number."
    # a reason says what is needed: the question follows it without "I need ..." said twice
    assert say(engine, "zero") == "0 is out of range; please give a whole number from 1 to 9. Pick a number."
    assert say(engine, "banana") == "Please reply with just a whole number from 1 to 9. Pick a number."


def which_one(text: str) -> object:
    return Invalid("Which one, the 3 or the 4?") if text == "3 or 4" else integer(1, 9).rule(text)


asking_back = Flow(
    name="asking",
    slots=Nums,
    states=[Ask("qa", slot="a", say="Pick a number.", parse=Parser(which_one, "a number"), initial=True),
            Final("done", summary="picked {a}")],
    transitions=[T("answer", "qa", "done")],
)  # fmt: skip
BOTS.add(
    Bot(
        name="asking-bot",
        persona="p",
        flows=[asking_back],
        intents=[Intent("asking", [r"\bpick\b"], "a")],
        capabilities="I ask.",
    )
)


def test_a_reason_that_asks_a_question_is_the_one_question_asked(tmp_path: Path) -> None:
    """ "Which injury? ... Do you have any injuries?": a reason that asks its own follow-up is not followed
    by the question again (a statement still is)."""
    e = Engine(SqlStore(str(tmp_path / "ask.db")), bots=BOTS)
    e.turn("asking-bot", "u", "pick")
    assert e.turn("asking-bot", "u", "3 or 4").reply == "Which one, the 3 or the 4?"
    assert e.turn("asking-bot", "u", "0").reply.endswith("Pick a number.")
