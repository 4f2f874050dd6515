"""What a flow is made of: its states (`Ask`, `Aside`, `Step`, `Final`), transitions (`T`)
and the templates they say.

`Ask` says a template and parses the answer into one slot, `Step` runs code between asks
and fires `next`, `Final` collapses the flow into a summary. Transitions fire on `answer`
(from an Ask) or `next` (from a Step), guarded by conditions over the typed slots.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal

from pydantic import BaseModel
from typing_extensions import TypeVar

from engine.context import StepContext
from engine.extract import Parser
from engine.meanings import Meanings
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
# a flow's own way past a question the user skips (a lesson goes on to its next part): where a flow
# declares a `skip` transition from a question, a skip there fires it instead of leaving the slot empty
SKIP = "skip"


@dataclass(frozen=True)
class Ask(Generic[S_in]):
    """Say `say`, then parse the user's answer with `parse` into `slot`.

    `reprompts` are the ladder of more explicit phrasings after a failed parse; after
    `max_attempts` failures the flow takes `fallback`. A state whose slot is already
    filled (several slots given at once) is passed through without asking. `again`, when
    given, is the question asked again (after help, an aside, a reprompt, a pause) in place
    of `say`, whose first-time lead ("Nice to meet you, Max!") would repeat. `why` is the
    state's reason for asking, a template over the slots: what a question back ("why do you
    need that?") is answered with before the question is asked again, and what `help` says
    first (engine/askback.py). `meanings` say what its terms mean (its options, a level name, a
    word it uses), term -> `Meaning` or sentence, or a function of the slots giving them: what
    answers a question back about a term ("what do you mean by endurance?", engine/meanings.py).
    """

    name: str
    slot: str
    say: str | Callable[[S_in], str]
    parse: Parser | Callable[[S_in], Parser]
    reprompts: Sequence[str | Callable[[S_in], str]] = ()
    again: str | Callable[[S_in], str] | None = None
    help: str = ""
    why: str | None = None
    meanings: Meanings | None = None
    max_attempts: int = 3
    fallback: Fallback = "skip"
    initial: bool = False
    ask_if_filled: bool = False
    prefill: bool = False
    # False where an answer may look like an intent (a quiz answer "complaint" is not feedback)
    interruptible: bool = True
    # False: the question is said as written, never reworded by a model (a summary of facts to
    # confirm, where a rewording could only drop or change one)
    phrased: bool = True
    # False where the question itself reads changes to earlier answers (a review of the whole
    # record): the engine's correction reader (engine/corrections.py) leaves its messages to it
    corrections: bool = True

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
    trigger to fire from the current state (e.g. "exit"). `requests`: see below.
    """

    name: str
    match: Callable[[str], bool]
    handle: Callable[[StepContext[S_in]], str | None]
    # whether it also hears a message the read stage took for a request for something else
    # (engine/requests.py): an aside that answers any question from the flow's own material says
    # no, so "can you also remind me to drink water?" is kept for later, not answered from a lesson
    requests: bool = True
    # the requests that are its own, whatever words they are asked in: the read stage leaves a part
    # of the message this says yes to (the message's part and the flow's slots) to the flow, not
    # kept for later ("could you remind me what a limit is" is the lesson's question, "how do i
    # export my notes?" is not). The request reader cannot tell a request about what the open flow
    # is about from one about something else; the flow's own reader of that subject can.
    owns: Callable[[str, S_in], bool] | None = None
    # the command it carries out when it takes a message and asks the question again, for the trace: "ask_back"
    # for an aside that answers a question about the question from the flow's own material (study-pal's lesson
    # answers "does x approach 2 from the left?" from the course), "chitchat" for small talk. The read stage
    # notes the questions back and small talk it reads; one the flow's aside reads is noted the same way
    # (an `ask_back` or `chitchat` notice, detail "aside: <name>"), so a reader of the trace sees what was done
    command: Literal["ask_back", "chitchat"] | None = None


@dataclass(frozen=True)
class Step(Generic[S_in]):
    """Code between asks (grading, lookups, generation); fires `next` when done."""

    name: str
    run: Callable[[StepContext[S_in]], None]
    initial: bool = False
    # slots its result depends on: when a later message corrects one of them, the step runs
    # again (a sentiment derived from a rating follows the new rating). Only for a step whose
    # result is worked out from the slots alone: a re-run reads the correction's message as its
    # text and says and does again what it did (a step that reads the request would read the
    # correction as the request; one that starts a test would start it over). Such a step's
    # result is derived instead where it is used (study-pal's `plan` tells the subjects as they are).
    reads: tuple[str, ...] = ()
    # the step carries out what the message said (a review's changes applied, an answer moved to where the flow
    # keeps answers): what it sets is the message's. Any other step's changes to slots are values the flow derives,
    # noted in the turn's trace as `derived` (engine/models.py `NoticeKind`)
    carries_answers: bool = False

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


# Correctable.by_value: a value alone corrects the slot only right after its own question
JUST_BEFORE: Literal["just_before"] = "just_before"


@dataclass(frozen=True)
class Correctable:
    """A filled slot a later message may correct while the flow is open (engine/corrections.py).

    `names`: the words that name it in a message ("days", "días", "jours"), any language the
    flow reads; a slot named in the message is the one corrected ("change the days to five").
    `parser`: how its new value reads; None takes the parser of the Ask state that fills it
    (or the flow's `fills` reader). `by_value`: may a value alone pick it ("wait, I meant 3")?
    False where the parser takes almost any word (a name): then it must be named, or its old
    value said ("it's Ana not Anna"); JUST_BEFORE: a value alone picks it only at the question
    right after its own, where it is the answer just given ("anzi no, il tedesco" at the timezone
    question, after the language to learn), never further on where another slot may hold the same
    value. `key`/`current`: one answer of a dict slot (a support
    question's, by its text) and the value it holds now, for flows whose questions are data.
    """

    slot: str
    names: Sequence[str] = ()
    parser: Parser | Callable[[Any], Parser] | None = None
    by_value: bool | Literal["just_before"] = True
    key: str | None = None
    current: object = None


State = Ask[Any] | Step[Any] | Final[Any]


@dataclass(frozen=True)
class T(Generic[S_in]):
    """A transition: on `trigger` in `source`, go to `dest` when `when(slots)` holds."""

    trigger: str
    source: str
    dest: str
    when: Callable[[S_in], bool] | None = None


# `{slot|words}`: the words said in place of a slot left empty (its question was skipped).
_ALTERNATIVE = re.compile(r"\{(\w+)\|([^{}]*)\}")
# What a summary line shows for an empty slot written without an alternative.
NOT_GIVEN = "not given"


def alternatives(template: str) -> dict[str, str]:
    """The slots a template gives words for when they are empty: `{day|that day}` -> {"day": "that day"}."""
    return {m.group(1): m.group(2) for m in _ALTERNATIVE.finditer(template)}


def _plain(template: str, values: Mapping[str, object]) -> str:
    """`template` with each `{slot|words}` made `{slot}`, or the words (escaped) where the slot is empty."""

    def one(m: re.Match[str]) -> str:
        if values.get(m.group(1)) is None:
            return m.group(2).replace("{", "{{").replace("}", "}}")
        return "{" + m.group(1) + "}"

    return _ALTERNATIVE.sub(one, template)


def template_fields(template: Template) -> list[str]:
    if not isinstance(template, str):
        return []
    plain = _ALTERNATIVE.sub(lambda m: "{" + m.group(1) + "}", template)
    return [f.split(".")[0].split("[")[0] for _, f, _, _ in string.Formatter().parse(plain) if f]


def render(template: Template, slots: BaseModel, **extra: str) -> str:
    """Fill a template from slots; `extra` adds names like `flow`.

    An empty slot (None) written `{slot|words}` shows the words; written `{slot}` it shows
    "not given", which only a summary line may say: `Flow` refuses a question or a closing
    line that names a skippable slot without words for it.
    """
    if callable(template):
        return template(slots)
    if "{" not in template:
        return template  # nothing to fill: spare dumping the slots
    dumped = slots.model_dump(mode="json")
    values = {k: (NOT_GIVEN if v is None else v) for k, v in dumped.items()}
    return _plain(template, dumped).format(**{**values, **extra})


# -- saying a thing once --------------------------------------------------------------------
# A reprompt joins a parser's reason, what it expects and the question again; where one part
# already says what another would ("please give a whole number from 1 to 5" beside "Please
# rate ... from 1 (poor) to 5 (excellent)"), the repeat is left out.

_FILLER = frozenset({
    "a", "an", "the", "and", "or", "of", "for", "from", "to", "one", "just", "whole", "single",
    "your", "own", "few", "with", "any", "please", "give", "pick", "reply", "answer", "words", "word", "yes",
})  # fmt: skip


def _content(text: str) -> set[str]:
    return {w for w in re.findall(r"\w+", text.casefold()) if w not in _FILLER and (len(w) > 2 or w.isdigit())}


def says(text: str, expects: str) -> bool:
    """Whether `text` already says what `expects` describes: most of its content words are in it."""
    wanted = _content(expects)
    return len(wanted) >= 2 and len(wanted & _content(text)) >= 0.75 * len(wanted)


def without_clause(reason: str, said: str) -> str:
    """`reason` without the clauses that `said` says already ("7 is out of range; please give a
    whole number from 1 to 5." beside a question that gives the range -> "7 is out of range.")."""
    clauses = re.split(r"(?<=[;.])\s+", reason.strip())
    kept = [c for c in clauses if not says(said, c)]
    if not kept or len(kept) == len(clauses):
        return reason
    text = " ".join(kept).rstrip(";,: ")
    return text if text.endswith((".", "!", "?")) else text + "."
