"""Flow definitions: every shipped flow validates; each kind of bad definition is refused by name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from pydantic import Field

from engine import Ask, DefinitionError, EngineError, Final, Flow, Slots, Step, T, default_registry
from engine.extract import integer
from engine.yesno import yes_no


class S(Slots):
    n: int | None = Field(None, ge=1, le=9)
    ok: bool | None = None


def ask_n(**kw: object) -> Ask:
    return Ask("n", slot="n", say="Pick a number", parse=integer(1, 9), **kw)  # type: ignore[arg-type]


def build(states: list[object], transitions: list[T], name: str = "bad") -> Flow:
    return Flow(name=name, slots=S, states=states, transitions=transitions)  # type: ignore[arg-type]


@pytest.mark.parametrize("flow", default_registry().flows(), ids=lambda f: f.name)
def test_every_shipped_flow_is_valid_and_rebuilds(flow: Flow) -> None:
    # Building the same declaration again runs the full validation a second time.
    again = Flow(
        name=flow.name,
        slots=flow.slots,
        states=flow.states,
        transitions=flow.transitions,
        persona=flow.persona,
        version=flow.version,
    )
    assert again.initial.name == flow.initial.name
    assert any(isinstance(s, Final) for s in flow.states)


def test_a_valid_flow_builds_one_machine() -> None:
    f = build([ask_n(initial=True), Final("done", summary="n={n}")], [T("answer", "n", "done")])
    assert f.fire("n", "answer", S(n=3)) == "done"


BAD: list[tuple[str, list[object], list[T], str]] = [
    ("no initial", [ask_n(), Final("done", summary="x")], [T("answer", "n", "done")], "exactly one"),
    (
        "two initials",
        [ask_n(initial=True), Final("done", summary="x", initial=True)],
        [T("answer", "n", "done")],
        "exactly one",
    ),
    (
        "unreachable",
        [ask_n(initial=True), Final("done", summary="x"), Final("orphan", summary="x")],
        [T("answer", "n", "done")],
        "unreachable",
    ),
    (
        "no way out",
        [ask_n(initial=True), Ask("ok", slot="ok", say="ok?", parse=yes_no()), Final("done", summary="x")],
        [T("answer", "n", "ok", when=lambda s: s.n == 1), T("answer", "n", "done")],
        "no way out",
    ),
    (
        "shadowed",
        [ask_n(initial=True), Ask("ok", slot="ok", say="ok?", parse=yes_no()), Final("done", summary="x")],
        [T("answer", "n", "done"), T("answer", "n", "ok"), T("answer", "ok", "done")],
        "can never fire",
    ),
    ("unbalanced", [ask_n(initial=True), Final("done", summary="n={n")], [T("answer", "n", "done")], "format string"),
    ("positional", [ask_n(initial=True), Final("done", summary="n={}")], [T("answer", "n", "done")], "positional"),
    (
        "format spec",
        [ask_n(initial=True), Final("done", summary="n={n:d}")],
        [T("answer", "n", "done")],
        "fails with unfilled slots",
    ),
    (
        "cannot finish",
        [
            ask_n(initial=True),
            Ask("ok", slot="ok", say="ok?", parse=yes_no()),
            Final("done", summary="x"),
        ],
        [T("answer", "n", "ok", when=lambda s: True), T("answer", "n", "done"), T("answer", "ok", "ok")],
        "cannot reach any final",
    ),
    ("unknown slot", [Ask("n", slot="m", say="?", parse=integer(), initial=True), Final("d", summary="x")], [], "slot"),
    (
        "unknown template field",
        [ask_n(initial=True), Final("done", summary="value {missing}")],
        [T("answer", "n", "done")],
        "missing",
    ),
    (
        "unknown field asked again",
        [Ask("n", slot="n", say="n?", again="{nn}?", parse=integer(), initial=True), Final("done", summary="x")],
        [T("answer", "n", "done")],
        "nn",
    ),
    ("unknown state", [ask_n(initial=True), Final("done", summary="x")], [T("answer", "n", "nowhere")], "nowhere"),
    (
        "several sources in one transition",
        [ask_n(initial=True), Final("done", summary="x")],
        [T("answer", ["n"], "done")],  # type: ignore[arg-type]
        "give one state's name",
    ),
    (
        "wrong trigger",
        [ask_n(initial=True), Final("done", summary="x")],
        [T("next", "n", "done")],
        "fire on 'answer'",
    ),
    (
        "no default",
        [ask_n(initial=True), Final("done", summary="x")],
        [T("answer", "n", "done", when=lambda s: s.n == 1)],
        "unconditional",
    ),
    (
        "duplicate state",
        [ask_n(initial=True), ask_n(), Final("done", summary="x")],
        [T("answer", "n", "done")],
        "twice",
    ),
    (
        "final with exit",
        [ask_n(initial=True), Final("done", summary="x")],
        [T("answer", "n", "done"), T("answer", "done", "n")],
        "final state",
    ),
    ("no final", [Step("s", run=lambda c: None, initial=True)], [T("next", "s", "s")], "Final"),
    (
        "bad attempts",
        [ask_n(initial=True, max_attempts=0), Final("done", summary="x")],
        [T("answer", "n", "done")],
        "max_attempts",
    ),
]


@pytest.mark.parametrize(("label", "states", "transitions", "fragment"), BAD, ids=[b[0] for b in BAD])
def test_bad_definitions_are_refused_with_flow_and_state(
    label: str, states: list[object], transitions: list[T], fragment: str
) -> None:
    with pytest.raises(DefinitionError) as err:
        build(states, transitions, name=f"bad-{label.replace(' ', '-')}")
    assert fragment in str(err.value)
    assert err.value.flow == f"bad-{label.replace(' ', '-')}"
    assert f"flow=bad-{label.replace(' ', '-')}" in str(err.value)


def test_limits_must_be_sensible() -> None:
    with pytest.raises(DefinitionError, match="max_turns"):
        Flow(name="z", slots=S, states=[ask_n(initial=True), Final("d", summary="x")],
             transitions=[T("answer", "n", "d")], max_turns=0)  # fmt: skip


def test_a_slot_named_like_an_extra_does_not_break_rendering() -> None:
    from engine.states import render

    class Clash(Slots):
        flow: str | None = "mine"

    assert render("{flow} cancelled", Clash(), flow="Survey") == "Survey cancelled"


def test_conditions_read_typed_slots_and_first_match_wins() -> None:
    f = build(
        [
            ask_n(initial=True),
            Final("low", summary="low"),
            Final("high", summary="high"),
        ],
        [T("answer", "n", "low", when=lambda s: s.n is not None and s.n < 5), T("answer", "n", "high")],
    )
    assert f.fire("n", "answer", S(n=2)) == "low"
    assert f.fire("n", "answer", S(n=7)) == "high"


def test_a_fire_fails_as_the_machine_fails() -> None:
    # Flow.fire looks the transitions up in its own table; the machine stays for what it lacks
    def broken(s: Slots) -> bool:
        raise ValueError("no n")

    f = build(
        [ask_n(initial=True), Final("low", summary="low"), Final("high", summary="high")],
        [T("answer", "n", "low"), T("check", "n", "high", when=broken), T("check", "n", "low")],
    )
    with pytest.raises(EngineError, match="trigger 'check' failed: no n") as raised:
        f.fire("n", "check", S(n=7))
    assert isinstance(raised.value.__cause__, ValueError)
    for trigger, state in [("nope", "n"), ("answer", "low"), ("answer", "gone")]:
        with pytest.raises(EngineError) as table:
            f.fire(state, trigger, S(n=2))
        with pytest.raises(EngineError) as machine:
            f._fire_machine(state, trigger, S(n=2))
        assert str(table.value) == str(machine.value)


@pytest.mark.parametrize("flow", default_registry().flows(), ids=lambda f: f.name)
def test_every_shipped_transition_fires_as_the_machine_does(flow: Flow[Any]) -> None:
    def outcome(fire: Callable[[str, str, Slots], str], source: str, trigger: str, slots: Slots) -> str:
        try:
            return fire(source, trigger, slots)
        except EngineError as e:
            return f"{type(e).__name__}: {e}"

    empty = flow.new_slots({})
    for t in flow.expanded_transitions():
        table = outcome(flow.fire, t.source, t.trigger, empty)
        assert table == outcome(flow._fire_machine, t.source, t.trigger, empty), (t.source, t.trigger)


def test_answer_schema_is_nullable_so_a_model_can_say_not_given() -> None:
    f = build([ask_n(initial=True), Final("done", summary="x")], [T("answer", "n", "done")])
    model = f.answer_models["n"]
    assert model.model_validate({"value": None}).value is None  # type: ignore[attr-defined]
    assert model.model_validate({"value": 4}).value == 4  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        model.model_validate({"value": 12})


def test_fills_and_correctable_must_name_slots() -> None:
    import dataclasses

    from engine.extract import free_text
    from flows.shared.feedback import feedback

    with pytest.raises(DefinitionError, match=r"fills, correctable or ahead name unknown slots \['comentario'\]"):
        dataclasses.replace(feedback, fills={"comentario": free_text()})
    with pytest.raises(DefinitionError, match=r"unknown slots \['ratng'\]"):
        dataclasses.replace(feedback, correctable=("ratng",))


def test_a_step_must_read_slots_the_flow_has() -> None:
    class Two(Slots):
        a: int | None = None

    with pytest.raises(DefinitionError, match=r"step reads unknown slots \['b'\]"):
        Flow(
            name="reads",
            slots=Two,
            states=[
                Ask("a", slot="a", say="A?", parse=integer(1, 9), initial=True),
                Step("derive", run=lambda ctx: None, reads=("b",)),
                Final("done", summary="done"),
            ],
            transitions=[T("answer", "a", "derive"), T("next", "derive", "done")],
        )


def test_the_steps_behind_a_state_are_those_that_ran_on_the_way_to_it() -> None:
    from flows.shared.feedback import feedback

    assert [s.name for s in feedback.steps_behind("details", ["rating"])] == ["mood"]
    assert [s.name for s in feedback.steps_behind("category", ["rating"])] == ["mood"]
    # the mood step comes after the rating question: nothing has run yet that reads a rating
    assert feedback.steps_behind("rating", ["rating"]) == []
    assert feedback.steps_behind("details", ["comment"]) == []
