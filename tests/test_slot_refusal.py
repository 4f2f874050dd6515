"""Slots set by flow code are validated where they are set; a refused value becomes a reprompt
saying why, never an exception out of the turn, and nothing of the refused turn is kept."""

from __future__ import annotations

from pathlib import Path
from typing import Self

import pytest
from pydantic import Field, model_validator

from engine import (
    Aside,
    Ask,
    Bot,
    Engine,
    Final,
    Flow,
    Intent,
    Registry,
    SlotRejected,
    Slots,
    SqlStore,
    Step,
    StepContext,
    T,
    default_registry,
)
from engine.extract import integer


class Pair(Slots):
    a: int | None = Field(None, ge=1, le=9)
    b: int | None = Field(None, ge=1, le=9)
    total: int | None = Field(None, le=10)

    @model_validator(mode="after")
    def _differ(self) -> Self:
        if self.a is not None and self.a == self.b:
            raise ValueError("the two numbers must differ")
        return self


def copy_a(ctx: StepContext[Pair]) -> str | None:
    """An aside that sets b to a: refused by the model validator."""
    ctx.slots.b = ctx.slots.a
    ctx.say("Copied.")
    return "copied"


def sum_up(ctx: StepContext[Pair]) -> None:
    """A step whose result the slot refuses when it is over 10."""
    ctx.record("summed", {"a": ctx.slots.a, "b": ctx.slots.b})
    ctx.slots.total = (ctx.slots.a or 0) + (ctx.slots.b or 0)


pair = Flow(
    name="pair",
    slots=Pair,
    states=[Ask("qa", slot="a", say="First number?", parse=integer(1, 9), initial=True),
            Ask("qb", slot="b", say="Second number?", parse=integer(1, 9)),
            Step("sum", run=sum_up),
            Ask("qc", slot="a", say="Anything else?", parse=integer(1, 9), ask_if_filled=True),
            Final("done", summary="pair {a} {b}")],
    transitions=[T("answer", "qa", "qb"), T("answer", "qb", "sum"), T("next", "sum", "qc"), T("answer", "qc", "done"),
                 T("copied", "*", "qc")],
    asides=[Aside("copy", match=lambda t: t == "same again", handle=copy_a)],
)  # fmt: skip
BOTS = Registry(default_registry())
BOTS.add(Bot(name="pair-bot", persona="p", flows=[pair], intents=[Intent("pair", [r"\bpair\b"], "p")],
             capabilities="pairs"))  # fmt: skip


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    return Engine(SqlStore(str(tmp_path / "pair.db")), bots=BOTS)


def test_a_refused_assignment_raises_an_engine_error_and_keeps_the_old_value() -> None:
    s = Pair(a=3, b=4)
    with pytest.raises(SlotRejected) as info:
        s.b = 3
    assert s.b == 4
    assert info.value.slots == {"b": 3} and info.value.reason == "the two numbers must differ"
    with pytest.raises(SlotRejected) as typed:
        s.a = 12
    assert s.a == 3 and typed.value.reason.startswith("a: Input should be less than or equal to 9")
    fresh = Pair(a=3)
    with pytest.raises(SlotRejected):
        fresh.b = 3
    assert fresh.b is None and fresh.model_fields_set == {"a"}


def test_slots_valid_only_together_are_assigned_together() -> None:
    s = Pair(a=3, b=4)
    with pytest.raises(SlotRejected):
        s.a = 4  # one at a time, a swap passes through a=b
    s.assign(a=4, b=3)
    assert (s.a, s.b) == (4, 3) and {"a", "b"} <= s.model_fields_set
    with pytest.raises(SlotRejected) as info:
        s.assign(a=5, b=5)
    assert (s.a, s.b) == (4, 3) and info.value.slots == {"a": 5, "b": 5}


def test_an_aside_setting_a_refused_value_is_a_reprompt_with_the_reason(engine: Engine) -> None:
    engine.turn("pair-bot", "u", "pair")
    engine.turn("pair-bot", "u", "3")
    r = engine.turn("pair-bot", "u", "same again")
    assert (r.flow, r.state, r.slots["a"], r.slots["b"]) == ("pair", "qb", 3, None)
    assert r.reply == "That can't be right (the two numbers must differ). Second number?"
    assert "Copied." not in r.reply  # nothing said or set by the refused play is kept
    assert r.trace is not None and [n.kind for n in r.trace.notices] == ["slot_rejected"]
    session = engine.session("pair-bot", "u")
    assert session is not None and session.turns == 3  # the turn is saved, as a reprompt
    assert "same again" in [m.content for m in session.active.scratchpad] if session.active else False
    r = engine.turn("pair-bot", "u", "4")
    assert (r.state, r.slots["b"], r.slots["total"]) == ("qc", 4, 7)


def test_a_step_setting_a_refused_value_undoes_the_whole_turn(engine: Engine) -> None:
    engine.turn("pair-bot", "u", "pair")
    engine.turn("pair-bot", "u", "8")
    r = engine.turn("pair-bot", "u", "9")  # 8 + 9 = 17: the step's total is refused
    assert (r.flow, r.state, r.slots["b"], r.slots["total"]) == ("pair", "qb", None, None)
    assert "less than or equal to 10" in r.reply and r.reply.endswith("Second number?")
    assert engine.store.records("summed", bot="pair-bot", user="u") == []  # the step's record went too
    r = engine.turn("pair-bot", "u", "1")
    assert (r.state, r.slots["total"]) == ("qc", 9)
