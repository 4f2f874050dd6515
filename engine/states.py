"""What a flow is made of: its states (`Ask`, `Aside`, `Step`, `Final`), transitions (`T`)
and the templates they say.

`Ask` says a template and parses the answer into one slot, `Step` runs code between asks
and fires `next`, `Final` collapses the flow into a summary. Transitions fire on `answer`
(from an Ask) or `next` (from a Step), guarded by conditions over the typed slots.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal

from pydantic import BaseModel
from typing_extensions import TypeVar

from engine.context import StepContext
from engine.extract import Parser
from engine.models import RecordDraft, Slots

Fallback = Literal["skip", "cancel", "escalate"]
Condition = Callable[[Any], bool]
Template = str | Callable[[Any], str]

# States only read slots, so a state typed for any `Slots` (the default: no callable says
# otherwise) fits every flow, while a lambda reading `s.levl` is checked against the flow's
# own model.
S_in = TypeVar("S_in", bound=Slots, contravariant=True, default=Slots)

ANSWER = "answer"
NEXT = "next"


@dataclass(frozen=True)
class Ask(Generic[S_in]):
    """Say `say`, then parse the user's answer with `parse` into `slot`.

    `reprompts` are the ladder of more explicit phrasings after a failed parse; after
    `max_attempts` failures the flow takes `fallback`. A state whose slot is already
    filled (several slots given at once) is passed through without asking. `again`, when
    given, is the question asked again (after help, an aside, a reprompt, a pause) in place
    of `say`, whose first-time lead ("Nice to meet you, Max!") would repeat.
    """

    name: str
    slot: str
    say: str | Callable[[S_in], str]
    parse: Parser | Callable[[S_in], Parser]
    reprompts: Sequence[str | Callable[[S_in], str]] = ()
    again: str | Callable[[S_in], str] | None = None
    help: str = ""
    max_attempts: int = 3
    fallback: Fallback = "skip"
    initial: bool = False
    ask_if_filled: bool = False
    prefill: bool = False
    # False where an answer may look like an intent (a quiz answer "complaint" is not feedback)
    interruptible: bool = True

    trigger = ANSWER

    @property
    def say_again(self) -> str | Callable[[S_in], str]:
        return self.say if self.again is None else self.again

    def parser(self, slots: S_in) -> Parser:
        """The parser for this turn; a callable `parse` picks one from the slots (typed questions)."""
        return self.parse if isinstance(self.parse, Parser) else self.parse(slots)


@dataclass(frozen=True)
class Aside(Generic[S_in]):
    """Something a user may say at any ask of the flow that is not an answer.

    `match` is a cheap rule; when it holds, `handle` runs and returns None (not an aside
    after all: parse as an answer), "" (handled: the question is asked again), or a
    trigger to fire from the current state (e.g. "exit").
    """

    name: str
    match: Callable[[str], bool]
    handle: Callable[[StepContext[S_in]], str | None]


@dataclass(frozen=True)
class Step(Generic[S_in]):
    """Code between asks (grading, lookups, generation); fires `next` when done."""

    name: str
    run: Callable[[StepContext[S_in]], None]
    initial: bool = False
    # slots its result depends on: when a later message corrects one of them, the step runs
    # again (a sentiment derived from a rating follows the new rating)
    reads: tuple[str, ...] = ()

    trigger = NEXT


@dataclass(frozen=True)
class Final(Generic[S_in]):
    """End of the flow: `say` closes it, `summary` is the one line kept in main history."""

    name: str
    summary: str | Callable[[S_in], str]
    say: str | Callable[[S_in], str] = ""
    outcome: Literal["completed", "cancelled", "escalated"] = "completed"
    records: Callable[[S_in], list[RecordDraft]] | None = None
    handoff: Callable[[S_in], str | None] | None = None
    initial: bool = False

    trigger = ""


State = Ask[Any] | Step[Any] | Final[Any]


@dataclass(frozen=True)
class T(Generic[S_in]):
    """A transition: on `trigger` in `source`, go to `dest` when `when(slots)` holds."""

    trigger: str
    source: str
    dest: str
    when: Callable[[S_in], bool] | None = None


def template_fields(template: Template) -> list[str]:
    if not isinstance(template, str):
        return []
    return [f.split(".")[0].split("[")[0] for _, f, _, _ in string.Formatter().parse(template) if f]


def render(template: Template, slots: BaseModel, **extra: str) -> str:
    """Fill a template from slots (None shows as "not given"); `extra` adds names like `flow`."""
    if callable(template):
        return template(slots)
    if "{" not in template:
        return template  # nothing to fill: spare dumping the slots
    values = {k: ("not given" if v is None else v) for k, v in slots.model_dump(mode="json").items()}
    return template.format(**{**values, **extra})
