"""Flow hooks the later bots rely on: any-time extraction and corrections, asides, pause,
typed (per-slot) parsers, a bot's own main handler with seeded slots, and resources."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import BaseModel, Field

from engine import (
    Aside,
    Ask,
    Bot,
    Engine,
    Final,
    Flow,
    MainContext,
    MemoryStore,
    Registry,
    Resources,
    Slots,
    SqlStore,
    StepContext,
    T,
    default_registry,
)
from engine.effects import load_shared
from engine.extract import Parser, choice, free_text, integer
from engine.names import person_name

# this module's bots, beside the installed ones
BOTS = Registry(default_registry())


class Profile(Slots):
    name: str | None = None
    city: str | None = None
    age: int | None = Field(None, ge=1, le=120)
    kind: str | None = None
    answer: int | str | None = None


def anytime(text: str, slots: Profile, asking: str | None) -> dict[str, object]:
    found: dict[str, object] = {}
    if m := re.search(r"(?:my name is|i'm|call me)\s+([A-Z]\w+)", text, re.I):
        found["name"] = m.group(1)
    if m := re.search(r"\bfrom ([A-Z]\w+)", text):
        found["city"] = m.group(1)
    return found


def explain(ctx: StepContext[Profile]) -> str | None:
    ctx.say("A city is a place where you live.")
    return ""


def leave(ctx: StepContext[Profile]) -> str | None:
    return "exit"


def typed(slots: Profile) -> Parser:
    return integer(1, 120) if slots.kind == "number" else free_text()


profile = Flow(
    name="profile",
    slots=Profile,
    states=[
        Ask("name", slot="name", say="Your name?", parse=person_name(), initial=True),
        Ask("city", slot="city", say="Where do you live, {name|friend}?", parse=free_text()),
        Ask("age", slot="age", say="How old are you?", parse=integer(1, 120)),
        Final("done", summary="Profile: {name} from {city}, {age}."),
        Final("left", summary="Profile left early.", outcome="cancelled"),
    ],
    transitions=[
        T("answer", "name", "city"),
        T("answer", "city", "age"),
        T("answer", "age", "done"),
        T("exit", "*", "left"),
    ],
    extract=anytime,
    asides=[
        Aside("what-is", match=lambda t: t.lower().startswith("what is"), handle=explain),
        Aside("leave", match=lambda t: "bye" in t.lower(), handle=leave),
    ],
    on_cancel="pause",
)

quiz = Flow(
    name="quiz",
    slots=Profile,
    states=[
        Ask("answer", slot="answer", say="Answer ({kind}):", parse=typed, initial=True, ask_if_filled=True),
        Final("done", summary="Quiz answer: {answer}."),
    ],
    transitions=[T("answer", "answer", "done")],
)


def converse(ctx: MainContext) -> None:
    if "quiz" in ctx.text:
        ctx.event("lookup", "quiz bank")
        ctx.start("quiz", Profile(kind="number" if "number" in ctx.text else "text"))
    elif ctx.text == "where":
        ctx.say(f"kb={ctx.resources.kb}")
    else:
        ctx.default()


BOTS.add(
    Bot(
        name="hooks-bot",
        persona="a test bot",
        flows=[profile, quiz],
        intents=[],
        capabilities="I do profiles.",
        entry=lambda ctx: "profile" if ctx.user != "v" and "quiz" not in ctx.text else None,
        converse=converse,
    )
)


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    return Engine(SqlStore(str(tmp_path / "hooks.db")), resources=Resources(kb=tmp_path / "kb"), bots=BOTS)


def test_several_slots_in_one_message_are_not_asked_again(engine: Engine) -> None:
    r = engine.turn("hooks-bot", "u", "Hi, I'm Max from Berlin")
    assert (r.state, r.slots["name"], r.slots["city"]) == ("age", "Max", "Berlin")
    assert r.reply == "How old are you?"


def test_a_correction_updates_the_slot_and_the_flow_continues_where_it_was(engine: Engine) -> None:
    engine.turn("hooks-bot", "u", "hello")
    engine.turn("hooks-bot", "u", "Max")
    r = engine.turn("hooks-bot", "u", "actually my name is Maxim")
    assert (r.state, r.slots["name"]) == ("city", "Maxim")
    assert r.reply.startswith("Noted (name: Maxim).") and "Where do you live, Maxim?" in r.reply
    s = engine.session("hooks-bot", "u")
    assert s is not None and s.active is not None and s.active.attempts == 0


def test_an_aside_answers_and_asks_again_without_consuming_the_step(engine: Engine) -> None:
    engine.turn("hooks-bot", "u", "hello")
    engine.turn("hooks-bot", "u", "Max")
    r = engine.turn("hooks-bot", "u", "what is a city?")
    assert r.reply == "A city is a place where you live.\n\nWhere do you live, Max?"
    assert r.state == "city"
    assert r.trace is not None and ("aside", "profile", "what-is") in [
        (n.kind, n.flow, n.detail) for n in r.trace.notices
    ]


def test_an_aside_can_fire_a_trigger_from_any_ask(engine: Engine) -> None:
    engine.turn("hooks-bot", "u", "hello")
    r = engine.turn("hooks-bot", "u", "bye for now")
    assert r.flow == "main"
    assert engine.store.runs(r.session_id or "")[-1].summary == "Profile left early."


def test_pause_keeps_the_answers_and_the_next_message_resumes_the_question(engine: Engine) -> None:
    engine.turn("hooks-bot", "u", "hello")
    engine.turn("hooks-bot", "u", "Max")
    r = engine.turn("hooks-bot", "u", "cancel")
    assert r.flow == "main" and "Paused" in r.reply
    assert not engine.store.runs(r.session_id or "")
    r = engine.turn("hooks-bot", "u", "hi again")
    assert (r.flow, r.state, r.slots["name"]) == ("profile", "city", "Max")
    assert r.reply == "Welcome back! Let's continue. Where do you live, Max?"


def test_a_bots_main_handler_starts_a_flow_with_seeded_slots_and_typed_parser(engine: Engine) -> None:
    r = engine.turn("hooks-bot", "u", "number quiz please")
    assert (r.flow, r.slots["kind"]) == ("quiz", "number")
    assert r.trace is not None and ("tool", "lookup: quiz bank") in [(n.kind, n.detail) for n in r.trace.notices]
    bad = engine.turn("hooks-bot", "u", "lots")
    assert bad.state == "answer"
    assert engine.turn("hooks-bot", "u", "42").flow == "main"
    assert engine.store.runs(r.session_id or "")[-1].slots["answer"] == 42


def test_resources_reach_the_bot(engine: Engine, tmp_path: Path) -> None:
    engine.turn("hooks-bot", "v", "quiz")  # skip the entry rule
    engine.turn("hooks-bot", "v", "cancel")
    assert engine.turn("hooks-bot", "v", "where").reply == f"kb={tmp_path / 'kb'}"


def test_choice_parser_is_used_when_given_by_slots() -> None:
    assert choice({"a": ["alpha"]})("alpha") == "a"


def test_the_extractor_is_told_which_slot_the_open_question_fills(engine: Engine) -> None:
    seen: list[str | None] = []
    original = profile.extract
    assert original is not None

    def spy(text: str, slots: Profile, asking: str | None) -> dict[str, object]:
        seen.append(asking)
        return original(text, slots, asking)

    object.__setattr__(profile, "extract", spy)
    try:
        engine.turn("hooks-bot", "w", "hello")
        engine.turn("hooks-bot", "w", "Max")
        engine.turn("hooks-bot", "w", "Berlin")
    finally:
        object.__setattr__(profile, "extract", original)
    assert seen == [None, "name", "city"]


class Memory(BaseModel):
    seen: list[str] = []
    count: int = Field(0, ge=0)


def test_shared_memory_reads_typed_fields_and_a_refused_value_falls_back_to_its_default() -> None:
    m = load_shared(Memory, {"seen": ["a"], "count": -3, "other": "kept apart"})
    assert (m.seen, m.count) == (["a"], 0)
    assert load_shared(Memory, {}) == Memory()


def test_shared_memory_is_one_instance_per_turn_and_stored_with_it(tmp_path: Path) -> None:
    store = SqlStore(str(tmp_path / "m.db"))

    def note(ctx: MainContext) -> None:
        first, again = ctx.shared(Memory), ctx.shared(Memory)
        assert first is again
        first.seen = [*first.seen, ctx.text]
        first.count += 1
        ctx.say(f"{first.count}")

    bot = Bot(name="memo", persona="p", flows=[], intents=[], capabilities="c", converse=note)
    e = Engine(store, bots=Registry([bot]))
    assert [e.turn("memo", "u", t).reply for t in ("a", "b")] == ["1", "2"]
    s = e.session("memo", "u")
    assert s is not None and s.context == {"seen": ["a", "b"], "count": 2}
    store.close()


def test_a_cancel_said_of_something_with_nothing_open_is_the_bots_own_main_conversations() -> None:
    # "drop it" after a plan is about the plan the bot keeps (study-pal drops it), not the engine's
    # cancel; a bare "cancel", or a bot with no main conversation of its own, has nothing to cancel
    heard: list[str] = []

    def keeps(ctx: MainContext) -> None:
        heard.append(ctx.text)
        ctx.say("Dropped it.")

    own = Bot(name="keeper", persona="p", flows=[], intents=[], capabilities="c", converse=keeps)
    plain = Bot(name="plain", persona="p", flows=[], intents=[], capabilities="c")
    e = Engine(MemoryStore(), bots=Registry([own, plain]))
    assert e.turn("keeper", "u", "drop it").reply == "Dropped it."
    assert e.turn("keeper", "u", "cancel that one please").reply == "Dropped it."
    assert heard == ["drop it", "cancel that one please"]
    assert "nothing to cancel" in e.turn("keeper", "u", "cancel").reply
    assert "nothing to cancel" in e.turn("plain", "u", "drop it").reply
