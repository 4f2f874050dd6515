"""The message as what the last turn left reads it: a yes to what it put to the user, a refused answer completed.

The last turn may have suggested a value or offered a message ("Did you mean English?"): a yes or a no
is read as its answer (`replies`), a yes to an offer as the message offered (`as_read`). After a refused
answer ("Please add the unit"), a fragment that only adds the missing part ("kg") is read with it
(`completed`).
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from engine.commands import (
    Command,
    YesNo,
)
from engine.extract import Empty, Invalid, Parser
from engine.flow import Flow
from engine.models import CarryOver, FlowFrame, Slots
from engine.states import Ask, State
from engine.yesno import read_yes_no


def carried_replies(carried: CarryOver, text: str) -> list[Command]:
    """A yes or a no to what the last turn put to the user at the open question: a suggested
    value first, then an offered message (the flow's executor decides what each does)."""
    if carried.suggested is None and carried.offered is None:
        return []
    yes = read_yes_no(text)
    out: list[Command] = []
    if carried.suggested is not None:
        out.append(YesNo(words=text, to="suggested", subject=carried.suggested, yes=yes))
    if carried.offered is not None and not (yes is True and carried.suggested is None):
        out.append(YesNo(words=text, to="offered", subject=carried.offered, yes=yes))
    return out


# a reply that completes the refused answer is a fragment: "kg", "in pounds", "pm please"
_COMPLETING_WORDS = 3


def completed(
    flow: Flow[Any], state: State | None, frame: FlowFrame, carried: CarryOver, text: str, checked: Slots | None
) -> str:
    """The message as the open question reads it: after "Please add the unit" to "I weigh 78 and want to
    be 70", a reply that only adds the missing part ("kg") is read with the refused message ("I weigh 78
    and want to be 70 kg"), when the question reads nothing at all from the reply alone (a new answer,
    even a refused one, is its own: "lose 10 kg") and an answer from both."""
    if carried.refused is None or carried.refused_at != f"{frame.flow}.{frame.state}" or not isinstance(state, Ask):
        return text
    if len(text.split()) > _COMPLETING_WORDS:
        return text
    try:
        parser = state.parser(checked if checked is not None else flow.new_slots(frame.slots))
    except (ValidationError, ValueError):
        return text
    if parser.greedy or _read(parser, text) is not None:
        return text  # a free text takes any words: "x" then "k" is no comment "x k"
    both = f"{carried.refused.rstrip(' .!')} {text.strip()}"
    found = _read(parser, both)
    return both if found is not None and not isinstance(found, Invalid | Empty) else text


def _read(parser: Parser, text: str) -> object:
    try:
        return parser(text)
    except (ValueError, TypeError):
        return None


def as_read(carried: CarryOver, text: str) -> str:
    """The message the open question reads: after an aside's "Did you mean English?", a yes is
    read as the message it offered ("I want to learn English"); a value suggested at the same
    time is answered first (its executor takes the yes)."""
    if carried.offered is not None and carried.suggested is None and read_yes_no(text) is True:
        return carried.offered
    return text
