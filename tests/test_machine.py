"""QuietMachine behaves exactly as the stock `transitions.Machine`, callbacks and all."""

from __future__ import annotations

from typing import Any

import pytest
from transitions import Machine, MachineError

from engine.machine import QuietMachine


class Model:
    def __init__(self) -> None:
        self.calls: list[str] = []
        self.allow = True
        self.fail_in: str | None = None


def build(cls: type[Machine], model: Model, **options: Any) -> Machine:
    def note(name: str) -> Any:
        def cb(event: Any) -> None:
            model.calls.append(f"{name}:{event.event.name}:{event.state.name}")
            if model.fail_in == name:
                raise RuntimeError(name)

        return cb

    def cond(event: Any) -> bool:
        model.calls.append("condition")
        return model.allow

    def unless(event: Any) -> bool:
        model.calls.append("unless")
        return False

    m = cls(
        model=model,
        states=[
            {"name": "a", "on_enter": note("enter_a"), "on_exit": note("exit_a")},
            {"name": "b", "on_enter": note("enter_b"), "on_exit": note("exit_b")},
            {"name": "end", "final": True, "on_enter": note("enter_end")},
        ],
        initial="a",
        auto_transitions=False,
        send_event=True,
        prepare_event=note("prepare_event"),
        before_state_change=note("before_state_change"),
        after_state_change=note("after_state_change"),
        finalize_event=note("finalize_event"),
        on_final=note("on_final"),
        **options,
    )
    m.add_transition(
        "go",
        "a",
        "b",
        conditions=cond,
        unless=unless,
        prepare=note("prepare"),
        before=note("before"),
        after=note("after"),
    )
    m.add_transition("go", "b", "end", before=note("before_end"))
    m.add_transition("stay", "a", None, after=note("internal"))
    return m


def play(cls: type[Machine], steps: list[tuple[str, dict[str, Any]]], **options: Any) -> list[str]:
    """Run `steps` (trigger, model changes) and record every callback, result and error in order."""
    model = Model()
    build(cls, model, **options)
    for trigger, changes in steps:
        for k, v in changes.items():
            setattr(model, k, v)
        try:
            moved = model.trigger(trigger)
            model.calls.append(f"-> {moved} {model.state}")
        except (MachineError, RuntimeError) as e:
            model.calls.append(f"!! {type(e).__name__}: {e}")
    return model.calls


SCENARIOS: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "condition blocks, then passes, to a final state": [
        ("go", {"allow": False}),
        ("go", {"allow": True}),
        ("go", {}),
    ],
    "internal transition": [("stay", {}), ("go", {})],
    "trigger invalid in the current state": [("go", {}), ("stay", {})],
    "callback raises": [("go", {"fail_in": "before"}), ("go", {"fail_in": None})],
    "finalizer raises (logged, not raised)": [("go", {"fail_in": "finalize_event"})],
    "enter callback raises": [("go", {"fail_in": "enter_b"})],
}


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_quiet_machine_makes_the_same_calls_as_the_stock_machine(scenario: str) -> None:
    steps = SCENARIOS[scenario]
    expected = play(Machine, steps)
    assert play(QuietMachine, steps) == expected
    assert any(c.startswith("-> True") or c.startswith("!!") for c in expected)  # the scenario did something


def test_on_exception_is_honoured_like_the_stock_machine() -> None:
    handled: list[str] = []

    def on_exception(event: Any) -> None:
        handled.append(type(event.error).__name__)

    steps = [("go", {"fail_in": "after"})]
    expected = play(Machine, steps, on_exception=on_exception)
    assert play(QuietMachine, steps, on_exception=on_exception) == expected
    assert handled == ["RuntimeError", "RuntimeError"]


def test_quiet_machine_logs_nothing_per_step(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("DEBUG")
    play(QuietMachine, SCENARIOS["condition blocks, then passes, to a final state"])
    assert [r for r in caplog.records if r.name.startswith("transitions")] == []
