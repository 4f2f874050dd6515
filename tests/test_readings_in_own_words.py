"""Readings of answers said in the user's own way (docs/own-way-readings.md): a yes or no echoing the
question (engine/echo.py), numbers inside product names (flows/support/products.py), the choice with the
problem among several named (flows/support/sides.py), amounts in another unit read ahead."""

from __future__ import annotations

import pytest

from engine.echo import read_yes_no_to
from flows.support.ahead import read_answer
from flows.support.kb import Question
from flows.support.questions import ClarificationSlots, choice_words, in_asked_units, number_parser
from flows.support.sides import troubled

HELPED = "Did reinstalling the app help?"
SAVER = "Is battery saver or Low Power Mode turned on?"


@pytest.mark.parametrize(
    ("question", "text", "said"),
    [
        (HELPED, "tried that already, didnt help", False),
        (HELPED, "it did not really help", False),
        (HELPED, "it did", True),
        (HELPED, "worked!", True),
        (HELPED, "that fixed it, thanks", True),
        (HELPED, "no luck", False),
        (HELPED, "still the same", False),
        (SAVER, "it's on", True),
        (SAVER, "it isn't", False),
        ("Does the sync icon show a red exclamation mark?", "there's a little red thing next to it yeah", True),
        # none of these says yes or no to the question
        (HELPED, "it did crash again", None),
        (HELPED, "i reinstalled it yeah", None),
        ("Does the sync icon show a red exclamation mark?", "i have no idea what that is yeah", None),
        (HELPED, "can you help me?", None),
        (HELPED, "i want it fixed", None),
        (HELPED, "it helped a bit but it still crashes", None),
        (SAVER, "it's off", None),
        # the auxiliary as the verb of a doing says what was done, not that it helped ("did that" was a yes)
        (HELPED, "did that already", None),
        (HELPED, "did it", None),
        (HELPED, "did that, didnt help", False),
        (HELPED, "yes it did", True),
    ],
)
def test_a_yes_or_no_said_in_the_questions_words(question: str, text: str, said: bool | None) -> None:
    assert read_yes_no_to(question, text) is said


LATE = Question(text="About how many minutes late do they arrive?", type="number", min=1, max=1440)
DEVICE = Question(
    text="Which device shows the late reminders?",
    type="choice",
    choices=["Android", "iPhone", "web", "desktop"],
    synonyms={"Android": ["pixel", "samsung"], "iPhone": ["ios", "ipad"], "desktop": ["mac", "laptop"]},
)
SLOTS = ClarificationSlots(questions=[DEVICE, LATE], current_index=1, opened=True)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("on my iPhone 12 mini", None),
        ("the ipad mini 6", None),
        ("my pixel 8, around 20 min", 20),
        ("reminders on android 30 minutes late", 30),
        ("like half an hour late", 30),
        ("an hour and a half late", 90),
    ],
)
def test_numbers_read_ahead_leave_product_names_alone(text: str, value: int | None) -> None:
    assert read_answer(LATE, text, SLOTS.questions) == value


def test_the_asked_number_question_leaves_product_names_alone() -> None:
    assert number_parser(SLOTS)("iphone 12 mini, about 20") == 20
    assert number_parser(SLOTS)("iphone 12") is None


def test_amounts_are_restated_in_the_questions_unit() -> None:
    assert in_asked_units(LATE, "a quarter of an hour late") == "15 minutes late"
    assert in_asked_units(LATE, "20 minutes") == "20 minutes"


SYNC = choice_words(
    ["phone", "tablet", "web", "desktop"],
    {"phone": ["iphone", "android"], "tablet": ["ipad"], "web": ["browser"], "desktop": ["mac", "laptop"]},
)


@pytest.mark.parametrize(
    ("text", "choice"),
    [
        ("the tasks i add on my phone never show up on my laptop", "desktop"),
        ("lists I create in the browser never appear on the ipad", "tablet"),
        ("fine on my iphone but missing on my mac", "desktop"),
        ("missing on the laptop, the phone works", "desktop"),
        ("changes from my phone dont reach the ipad", "tablet"),
        ("my phone and my laptop", None),  # both named alike: unclear
    ],
)
def test_the_choice_with_the_problem(text: str, choice: str | None) -> None:
    assert troubled(SYNC, text) == choice
