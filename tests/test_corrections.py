"""Corrections given with their new value at "Shall I save it?" and "What should I change?"."""

from __future__ import annotations

import pytest

from flows.language_buddy.corrections import correction
from flows.language_buddy.profile import OnboardingSlots


def confirming(**changes: object) -> OnboardingSlots:
    base: dict[str, object] = dict(
        name="Max", native_language="de", target_language="en", timezone="Europe/Berlin",
        level="A1", assessed_language="en",
    )  # fmt: skip
    return OnboardingSlots.model_validate({**base, **changes})


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("no its Sam", {"name": "Sam"}),
        ("no the name should be Sam", {"name": "Sam"}),
        ("change the name to sam", {"name": "Sam"}),
        ("the name is wrong, it's Sam", {"name": "Sam"}),
        ("no my native is polish", {"native_language": "pl"}),
        ("no, native language polish", {"native_language": "pl"}),
        ("no, spanish native", {"native_language": "es"}),
        ("nah im in lisbon", {"timezone": "Europe/Lisbon"}),
        ("no - Lisbon", {"timezone": "Europe/Lisbon"}),
        ("wrong timezone, it's Tokyo", {"timezone": "Asia/Tokyo"}),
        ("no, timezone is pacific time", {"timezone": "America/Los_Angeles"}),
        ("no, target italian", {"target_language": "it"}),
        ("no, the timezone", {"confirmed": False, "amend": "timezone"}),
    ],
)
def test_a_correction_at_the_confirmation_carries_its_value(text: str, found: dict[str, object]) -> None:
    assert correction(text, confirming()) == found


@pytest.mark.parametrize("text", ["yes", "yes the name is right", "hmm not sure", "no, Polish", "no", "no, wait"])
def test_what_is_no_correction_with_a_value_sets_nothing(text: str) -> None:
    assert correction(text, confirming()) == {}


def test_at_what_should_i_change_no_marker_is_needed() -> None:
    s = confirming(confirmed=False)
    assert correction("its sam", s) == {"name": "Sam"}
    assert correction("lisbon", s) == {"timezone": "Europe/Lisbon"}
    assert correction("spanish", s) == {}  # either language: "What should I change?" asks on


def test_the_same_value_again_is_no_correction() -> None:
    assert correction("no its Max", confirming()) == {}
    assert correction("no, I'm in Berlin", confirming()) == {}
