"""What a flow declares a message may fill before its question is asked (`Flow.ahead`).

The declaration only: engine/fill.py reads messages by it. Kept apart so that a flow's
definition, which the load stage brings in, imports nothing that reads messages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.extract import Parser


@dataclass(frozen=True)
class Ahead:
    """A slot a message may fill before its question is asked (`Flow.ahead`).

    `parser`: how a clause gives its value; None takes the parser of the Ask state that fills it
    (or the flow's `fills` reader); a callable picks it from the slots, as an Ask's may.
    `cues`: words that name the slot in a clause ("kg", "min", "allergic"); the slot's name and
    its `Correctable` names name it too. `alone`: may a value count in a clause that names no
    slot, where the asked question does not read that clause (a closed choice whose words only
    this slot takes: "vegan", "evenings")? A number never does. `whole`: the reader reads the
    whole message, not a clause (a value whose meaning comes from the clauses around it: "I'm 90 kg
    now and want 80" is a target only beside the unit), and takes no clause from the asked question
    unless the question reads its answer only without them. `beside`: for a `whole` reader, the
    other slots the same words set with its value (the unit a weight was written in, so a later
    number without one is read in it), set quietly (`SetSlot.noted` False) whenever its value is
    set. `plan`: the slot holds what the user will or can do (days a week to train, a goal, a time to
    train), not what they are or do now: a clause that tells a habit of now ("i run twice a week",
    engine/fact_clauses.py `habit`) fills it not, though a plan said as one ("i can run 3 days a week") does.
    `named_by`: slots whose value means the words naming this slot were said earlier in the conversation
    (the unit the weights were written in): with one filled, a `whole` reader reads the message
    without its cue words ("i'm 92 now so 82" after "lose 10 kilos").
    `catch_all`: the values that say nothing in particular (a goal of general health, a time of "any
    time"): the words that give them ("get fit", "in shape") are why anyone starts the flow, so out of
    turn such a value counts only in a clause that names the slot or says a word of the value's own name
    ("general fitness", "my goal is general health"); a specific value ("lose weight": fat loss) still
    does, and at its own question the question's parser reads them as ever.
    """

    slot: str
    parser: Parser | Callable[[Any], Parser] | None = None
    cues: Sequence[str] = ()
    alone: bool = False
    whole: bool = False
    beside: Callable[[str], Mapping[str, object]] | None = None
    plan: bool = False
    named_by: Sequence[str] = ()
    catch_all: Sequence[object] = ()


def declared(entry: str | Ahead) -> Ahead:
    """A flow's `ahead` entry as an `Ahead`: a bare slot name is read by its question's parser and
    its values name it by themselves."""
    return Ahead(entry, alone=True) if isinstance(entry, str) else entry
