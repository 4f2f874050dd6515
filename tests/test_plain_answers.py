"""A message that is only the open question's value, written as the question writes it ("4" at a
rating, "content" at a menu naming it), is read by that question alone (engine/reading.py
`plain_answer`, engine/extract.py `Parser.reads_plainly`): the same reading the whole reader chain
gives, without asking the other readers. Each check compares with the whole chain, so a shortcut
that reads anything differently fails here."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from pydantic import Field

from engine import Ask, Final, Flow, Slots, T, default_registry
from engine import reading as reading_module
from engine import said as said_module
from engine.bot import Bot
from engine.commands import AnswerFlow, Reading
from engine.extract import Parser, choice, free_text, integer, rating
from engine.models import CarryOver, FlowFrame, SessionState
from engine.reading import plain_answer, read
from flows.language_buddy.bot import FEEDBACK
from flows.language_buddy.onboarding import onboarding
from flows.shared.feedback import feedback

AT = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


class Menu(Slots):
    pick: str | None = None
    n: int | None = Field(None, ge=1, le=9)


# options that are also words the engine's own readers know: "later" puts off, "skip" skips, "help" asks for it
MENU = Flow(
    name="menu",
    slots=Menu,
    states=[
        Ask(
            "pick",
            slot="pick",
            say="Which one?",
            parse=choice({"pasta": [], "later": [], "none": [], "skip": [], "help": [], "salad": ["greens"]}),
            initial=True,
        ),
        Ask("n", slot="n", say="How many?", parse=integer(1, 9)),
        Final("done", summary="{pick}"),
    ],
    transitions=[T("answer", "pick", "n"), T("answer", "n", "done")],
)
BOT = Bot(name="plain", persona="p", flows=[feedback, onboarding, MENU], intents=[FEEDBACK], capabilities="c")
FITNESS = default_registry().get("fitness-coach")


def bot_of(flow: str) -> Bot:
    return FITNESS if flow == "fitness" else BOT


def at(flow: str, state: str) -> SessionState:
    bot = bot_of(flow)
    name = "onboarding" if flow == "fitness" else flow  # the fitness coach's onboarding
    active = FlowFrame(flow=name, version=1, state=state, started_at=AT)
    return SessionState(id="s", bot=bot.name, user="u", active=active)


def reads(flow: str, s: SessionState, text: str, carried: CarryOver | None = None) -> Reading:
    return read(bot_of(flow), s, carried or CarryOver(), text, lambda: None)


def whole(flow: str, s: SessionState, text: str, monkeypatch: pytest.MonkeyPatch) -> Reading:
    """The reading through every reader, the shortcut off."""
    with monkeypatch.context() as m:
        m.setattr(reading_module, "plain_answer", lambda *_a, **_k: None)
        return reads(flow, s, text)


def unflagged(reading: Reading) -> Reading:
    """`reading` without the plain answer's flag (`AnswerFlow.plain`, which says who read it, not what it
    reads), to compare with the whole chain's."""
    commands = [c.model_copy(update={"plain": False}) if isinstance(c, AnswerFlow) else c for c in reading.commands]
    return Reading(text=reading.text, commands=commands)


@pytest.mark.parametrize(
    ("flow", "state", "text"),
    [
        ("feedback", "rating", "4"),
        ("feedback", "rating", "04"),
        ("feedback", "category", "content"),
        ("feedback", "category", "Content"),
        ("menu", "pick", "pasta"),
        ("menu", "pick", "none"),  # an option named "none" is that option, as the whole chain reads it
        ("menu", "n", "7"),
        ("fitness", "level", "beginner"),
        ("fitness", "level", "ADVANCED"),
    ],
)
def test_a_plain_value_is_read_by_the_question_alone(
    flow: str, state: str, text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = at(flow, state)
    assert s.active is not None
    got = plain_answer(bot_of(flow), s, CarryOver(), text)
    assert got == Reading(text=text, commands=[AnswerFlow(words=text, flow=s.active.flow, state=state, plain=True)])
    assert reads(flow, s, text) == got
    assert unflagged(got) == whole(flow, s, text, monkeypatch)


def test_no_other_reader_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    def asked(*_a: object, **_k: object) -> object:
        raise AssertionError("another reader was asked about a plain value")

    for name in ("correction_commands", "request_at", "facts_ahead", "at_question", "completed"):
        monkeypatch.setattr(reading_module, name, asked)
    got = read(BOT, at("feedback", "rating"), CarryOver(), "4", lambda: None)
    assert got.commands == [AnswerFlow(words="4", flow="feedback", state="rating", plain=True)]


@pytest.mark.parametrize(
    ("flow", "state", "text", "why"),
    [
        ("menu", "pick", "later", "an option that puts off"),
        ("menu", "pick", "skip", "an option that skips"),
        ("menu", "pick", "help", "an option that asks for help"),
        ("menu", "pick", "greens", "a synonym: not the value as written"),
        ("menu", "pick", "pastaa", "a typo: read by the whole chain"),
        ("menu", "n", "seven", "a number in words: not written as the value"),
        ("menu", "n", "12", "out of range: refused by the whole chain"),
        ("feedback", "rating", "4?", "a question mark around it"),
        ("feedback", "rating", "4 stars", "more than the value"),
        ("feedback", "details", "great", "free text takes any words"),
        ("fitness", "limitations", "nothign", "a reader that copies the words back has not read them as written"),
    ],
)
def test_anything_else_goes_the_whole_way(
    flow: str, state: str, text: str, why: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = at(flow, state)
    assert plain_answer(bot_of(flow), s, CarryOver(), text) is None, why
    assert reads(flow, s, text) == whole(flow, s, text, monkeypatch)


@pytest.mark.parametrize(
    "carried",
    [
        CarryOver(suggested="pasta"),
        CarryOver(offered="I want pasta"),
        CarryOver(refused_at="menu.n", refused="about"),
        CarryOver(amending="menu.pick"),
    ],
)
def test_after_an_offer_or_a_refusal_the_whole_chain_reads(carried: CarryOver) -> None:
    assert plain_answer(BOT, at("menu", "n"), carried, "7") is None


@pytest.mark.parametrize("number", [*map(str, range(0, 1001)), "0000", "9" * 40, "١٢", "４", "৭"])
def test_no_command_is_a_whole_number(number: str) -> None:
    # a whole number alone is never one of the engine's commands: `plain_answer` asks none of their readers
    # about one (engine/reading.py); a command phrase or reader that took a number would fail here
    assert number.isdecimal()
    for activity in (None, "feedback", "onboarding"):
        assert not said_module.says_any(number, activity)


def test_a_held_session_is_the_persons() -> None:
    s = at("feedback", "rating")
    s.context["innerloop.agent"] = {"since": AT.isoformat(), "reason": "r"}
    assert plain_answer(BOT, s, CarryOver(), "4") is None


@pytest.mark.parametrize(
    ("parser", "text", "plain"),
    [
        (integer(1, 9), "4", True),
        (integer(1, 9), "four", False),
        (integer(1, 9), "12", False),
        (integer(1, 99999), "9" * 400, False),  # no overflow: hundreds of digits are no number
        (rating(), "4", True),
        (rating(), "4/5", False),
        (choice({"content": [], "app": []}), "Content", True),
        (choice({"content": [], "app": []}), "contnt", False),
        (free_text(), "hello", False),
    ],
)
def test_reads_plainly(parser: Parser, text: str, plain: bool) -> None:
    assert parser.reads_plainly(text) is plain
