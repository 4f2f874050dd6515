"""Typed values that cross module borders: messages, frames, sessions, records, traces."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError, model_validator

from engine.errors import SlotRejected

Role = Literal["system", "user", "assistant"]
Outcome = Literal["completed", "cancelled", "escalated", "reset", "expired"]
JsonObject = dict[str, JsonValue]


def utcnow() -> datetime:
    return datetime.now(UTC)


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Slots(BaseModel):
    """Base for a flow's slots: every field optional, validated on every assignment.

    An assignment the model refuses raises `SlotRejected` (an EngineError, with the
    validator's reason) and leaves the slot as it was: pydantic alone raises its own
    ValidationError and, when a model validator refuses, keeps the refused value.
    """

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    # hidden from type checkers: a __setattr__ of its own would let mypy accept any attribute
    # (a misspelt slot in a Step) instead of checking it against the model's fields
    if not TYPE_CHECKING:

        def __setattr__(self, name: str, value: object) -> None:
            if name not in type(self).__pydantic_fields__:  # not `model_fields`: a deprecation-checking property
                super().__setattr__(name, value)
                return
            before, was_set = self.__dict__.get(name), name in self.__pydantic_fields_set__
            try:
                super().__setattr__(name, value)
            except ValidationError as e:
                self.__dict__[name] = before
                if not was_set:
                    self.__pydantic_fields_set__.discard(name)
                raise SlotRejected(type(self).__name__, {name: value}, refusal(e)) from e

    def assign(self, **values: object) -> None:
        """Set several slots at once, validated together: a change only valid as a whole
        (both languages swapped) is refused by validating one slot at a time."""
        try:
            checked = self.model_validate({**self.model_dump(), **values})
        except ValidationError as e:
            raise SlotRejected(type(self).__name__, dict(values), refusal(e)) from e
        for name in values:
            self.__dict__[name] = checked.__dict__[name]
        self.__pydantic_fields_set__.update(values)


def refusal(e: ValidationError) -> str:
    """A validation error's first reason, as a user may read it ("must differ from ...")."""
    first = e.errors()[0]
    msg = str(first.get("msg", "invalid value")).removeprefix("Value error, ")
    field = ".".join(str(p) for p in first.get("loc", ()))
    return f"{field}: {msg}" if field else msg


class Resources(Frozen):
    """Data files a run points its bots at instead of the shipped ones (None: the default)."""

    assessment: Path | None = None
    kb: Path | None = None
    course: Path | None = None


class Message(Frozen):
    """One chat message; content is kept exactly as given."""

    role: Role
    content: str


@dataclass(frozen=True)
class Heard:
    """The message as one part of a turn reads it: never rewritten, a new value where the words
    read change (a yes read as the message it accepted, a request kept for a flow, the rest of
    a message after a correction).

    `text` is what is read; `whole` is the message before other facts were taken from it
    (engine/fill.py): what a phrasing carries as the user's message."""

    text: str
    whole: str | None = None

    def reading(self, text: str) -> Heard:
        """The same message, with `text` read now."""
        return Heard(text, self.whole)


class FlowFrame(BaseModel):
    """A running (or suspended) inner flow: everything needed to resume it, as values."""

    model_config = ConfigDict(extra="forbid")

    flow: str
    version: int
    state: str
    slots: JsonObject = Field(default_factory=dict)
    scratchpad: list[Message] = Field(default_factory=list)
    attempts: int = 0
    turns: int = 0
    started_at: datetime = Field(default_factory=utcnow)
    # on the stack: paused by the user (comes back only when asked for) vs. suspended by an
    # interrupt (comes back by itself when the interrupting flow ends)
    paused: bool = False
    # questions the user declined before they were asked, whose none leaves the slot empty ("muscle gain, no
    # target weight" at the level question): nothing in the slots shows they were answered, so the run keeps
    # them here and the flow does not ask them (engine/flowrun.py `advance`)
    declined: list[str] = Field(default_factory=list)


MAX_KEPT = 5  # requests a session keeps at once while a flow is open: the oldest give way


class KeptRequest(BaseModel):
    """A new request made while a flow asked its question: kept until that flow is done
    (engine/requests.py). `flow` is the bot's flow it asks for (an intent named it), None for
    the main conversation; `during` the flow it was made in."""

    model_config = ConfigDict(extra="forbid")

    text: str
    flow: str | None = None
    during: str


class CarryOver(BaseModel):
    """What one turn leaves for the next, and only the next: it takes all of it at its start.

    Everything a turn may leave behind for the following message is here, typed, rather
    than in the session's memory (`context`, which is the bots' own) or on the turn.
    """

    model_config = ConfigDict(extra="forbid")

    # the message an aside offered ("Did you mean English?" after "I want to learn englsh"):
    # a yes is read as that message
    offered: str | None = None
    # the value a refused answer suggested ("Did you mean German?"): a yes at the same question takes it
    suggested: str | None = None
    # the flow a model read in the message, asked back ("Do you want to ...?"): a yes starts it
    confirm: str | None = None
    # the words of a kept request whose flow is being offered: a yes starts the flow reading them
    # ("schedule a session for friday 4-6pm" is planned for Friday, not asked again)
    confirm_words: str | None = None
    # the message the open question refused last turn for a missing part ("I weigh 78 and want to be 70":
    # "Please add the unit"), as "flow.state" and its words: a reply that only adds the part ("kg") is
    # read with it (engine/carried.py `completed`)
    refused_at: str | None = None
    refused: str | None = None
    # the saved fact whose new value was asked for ("What should your goal be?"), as "flow.slot": the
    # next message is read as its value first (engine/amend.py `answered`)
    amending: str | None = None
    # what happened while the user was away (a person's reply, a run closed): told before
    # anything their next message causes
    pending: list[str] = Field(default_factory=list)
    # new requests made at a flow's question: the one part carried from turn to turn until the
    # session is back in the main conversation, where they are offered or carried out
    requests: list[KeptRequest] = Field(default_factory=list)


# Where sessions stored before `CarryOver` kept its parts: in the session's memory, under
# these keys. `carry_from_context` moves them when such a session is loaded.
LEGACY_CARRY_KEYS: Final = {
    "innerloop.offered": "offered",
    "innerloop.suggested": "suggested",
    "innerloop.confirm": "confirm",
    "innerloop.pending": "pending",
}


class SessionState(BaseModel):
    """One user's session with one bot, as stored; `version` is the compare-and-swap counter."""

    # keys only: pydantic's cache of every short string it reads (ids, users, states) kept up
    # to 16,384 of them alive between turns, a server's heap growing with its users
    model_config = ConfigDict(extra="forbid", cache_strings="keys")

    id: str
    bot: str
    user: str
    active: FlowFrame | None = None
    stack: list[FlowFrame] = Field(default_factory=list)
    context: JsonObject = Field(default_factory=dict)
    carry: CarryOver = Field(default_factory=CarryOver)
    turns: int = 0
    version: int = 0
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


def carry_from_context(session: SessionState) -> SessionState:
    """`session` with the carry-over it stored in its memory's old keys moved to `carry`
    (a value of the wrong type is dropped, as the turn that read it dropped it)."""
    old = {LEGACY_CARRY_KEYS[k]: session.context.pop(k) for k in list(session.context) if k in LEGACY_CARRY_KEYS}
    if not old:
        return session
    moved = session.carry.model_dump()
    for name, value in old.items():
        if name == "pending":
            if isinstance(value, list):
                moved["pending"] = [*moved["pending"], *(str(v) for v in value)]
        elif isinstance(value, str) and moved[name] is None:
            moved[name] = value
    session.carry = CarryOver.model_validate(moved)
    return session


class LLMCall(Frozen):
    """One call to a language model, as logged in the turn trace."""

    purpose: str
    backend: str
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: float = 0.0
    ok: bool = True
    detail: str = ""


class RecordDraft(Frozen):
    """A domain record a flow wants saved with the turn (feedback entry, profile, ...)."""

    kind: str
    data: JsonObject


class StoredRecord(Frozen):
    id: int
    kind: str
    bot: str
    user: str
    session_id: str
    data: JsonObject
    created_at: datetime


class FlowRun(Frozen):
    """A finished inner flow: its outcome, typed summary line and final slots."""

    flow: str
    outcome: Outcome
    summary: str
    slots: JsonObject
    turns: int
    started_at: datetime
    ended_at: datetime


class Entered(Frozen):
    """A flow entered `state`: a flow start (its initial state) or the end of a fire."""

    flow: str
    state: str


class Fired(Frozen):
    """A flow fired `trigger` from `source` and landed in `dest`.

    An `answer` fired from an asking state also says what the question was answered with: `slot`, the
    state's slot, and `value`, the value the answer left in it (JSON; None for a question answered with
    its none, "no target"). The steps that run after it may use the value up or change it (study-pal's
    prerequisite offer clears its yes once the lesson it chose begins), so the slots after the turn do
    not always show what the answer was; a reader of the trace (bench/understanding.py) needs it.
    """

    flow: str
    source: str
    trigger: str
    dest: str
    slot: str | None = None
    value: JsonValue = None

    def __str__(self) -> str:
        return f"{self.flow}: {self.source} -{self.trigger}-> {self.dest}"


NoticeKind = Literal[
    "reprompt",  # detail: the reprompt tier, "1", "2", ...
    "fallback",  # detail: what the fallback did: skip, cancel, escalate
    "skipped",  # the user asked to skip the question; detail: the slot left empty, or why not
    "aside",  # detail: the aside's name
    "proposed",  # a command the model proposed at the question, evidenced; detail: its kind and words
    "learned",  # a command the learned reader read where nothing else did (engine/learned.py); detail: kind and words
    "ask_back",  # a question back about the open question, answered; detail: why, meaning, options or other, or
    # "aside: <name>" when the flow's aside declared to answer such questions took it (`Aside.command`)
    "request",  # a new request at the open question; detail: "kept: <flow or main>", "aside: <name>" (the
    # flow's aside took it), "offered" or "started" (back in the main conversation)
    "chitchat",  # small talk at the open question, acknowledged; detail: its kinds ("greeting,away"), or
    # "aside: <name>" (as ask_back)
    "rerun",  # a step run again because a message corrected a slot it reads; detail: which
    "derived",  # a slot a flow's own Step set (feedback's area sensed from the comment, level A1 where no placement
    # test exists): a value the flow works out, not one the message carried; detail: the slot. A Step that carries
    # out what was read (`Step.carries_answers`: a review's changes applied, support's answer recorded) notes none
    "ahead",  # a slot filled before its question, by a clause of a message (engine/fill.py); detail: the slot
    "restated",  # a message only said again what filled slots hold; detail: which
    "meant",  # a question back about terms of the question, answered with their declared meanings; detail: the
    # terms, "|"-joined ("intermediate|advanced")
    "unneeded",  # facts no slot of the flow takes ("I'm 34, about 5 foot 9"), said not needed; detail: their kinds
    "correct",  # an earlier answer corrected at a later question (engine/corrections.py); detail: the slot
    "offer",  # a yes to what an aside offered ("Did you mean English?"); detail: the message read instead
    "pause",
    "resume",
    "declined",  # a question declined before it was asked, its slot left empty; detail: the slot
    "later",  # a put-off carried out: the run kept paused to come back to ("leave it for tomorrow"); detail: the flow
    "handoff",  # detail: the flow handed to
    "reset",  # a stored frame the code no longer fits; detail: why
    "migrated",  # a stored frame carried to the flow's current version; detail: "v1 -> v2"
    "expired",  # a run left idle past its flow's idle_timeout was closed; detail: how long
    "agent",  # the session went to, heard from, or came back from a person; detail: which
    "tool",  # a flow's own tool use (a search, a lookup); detail: "name: what it found"
    "budget",  # the turn's LLM call budget was spent: a template was used
    "phrase_rejected",  # a model's phrasing lost the template's facts; detail: what it lost
    "parse_rejected",  # a model's parse was inconsistent with the message; detail: why
    "slot_rejected",  # flow code set a slot its model refuses: the turn became a reprompt; detail: why
    "route",  # a routing decision worth explaining (a classification declined, confirmed)
    "legacy",  # a notice stored before notices were typed, kept as its text
]


class Notice(Frozen):
    """Something a turn did that is not a transition, for coverage, reports and readers."""

    kind: NoticeKind
    flow: str | None = None
    state: str | None = None
    detail: str = ""

    def __str__(self) -> str:
        where = ".".join(p for p in (self.flow, self.state) if p)
        return ":".join(p for p in (self.kind, where, self.detail) if p)


class TurnTrace(BaseModel):
    """What one turn did; stored as the turn's event-log entry.

    `entered` and `fired` are in the order they happened; every fire's `dest` is entered,
    and so is the initial state of every flow started. Traces stored before these were
    typed (`triggers`, `states_entered` and `notices` as strings) are read into them.
    """

    model_config = ConfigDict(extra="forbid")

    turn: int
    user_text: str
    reply: str
    route: str
    flow_before: str | None = None
    state_before: str | None = None
    flow_after: str | None = None
    state_after: str | None = None
    slots_after: JsonObject | None = None
    entered: list[Entered] = Field(default_factory=list)
    fired: list[Fired] = Field(default_factory=list)
    llm_calls: list[LLMCall] = Field(default_factory=list)
    records: list[str] = Field(default_factory=list)
    notices: list[Notice] = Field(default_factory=list)
    retried: bool = False
    # the caller's id for the message, when given: a retry with the same id is not a new turn
    message_id: str | None = None
    at: datetime = Field(default_factory=utcnow)

    @model_validator(mode="before")
    @classmethod
    def _upgrade(cls, data: object) -> object:
        if isinstance(data, dict) and ("triggers" in data or "states_entered" in data or _legacy(data)):
            return _upgrade_legacy(data)
        return data

    def doc(self) -> JsonObject:
        """The trace as stored: JSON values, defaults left out."""
        return self.model_dump(mode="json", exclude_defaults=True)

    @property
    def llm_ms(self) -> float:
        """Time the turn spent waiting on the model, failed calls included."""
        return sum(c.latency_ms for c in self.llm_calls)

    def noticed(self, kind: NoticeKind) -> list[Notice]:
        """The turn's notices of `kind`, in order."""
        return [n for n in self.notices if n.kind == kind]


def _legacy(data: dict[str, object]) -> bool:
    notices = data.get("notices")
    return isinstance(notices, list) and any(isinstance(n, str) for n in notices)


def _upgrade_legacy(data: dict[str, object]) -> dict[str, object]:
    """A trace stored with string events ("flow.state", "flow.source.trigger", "kind:where:detail")."""
    out = dict(data)
    entered = [_split(e) for e in _strings(out.pop("states_entered", []))]
    out["entered"] = [{"flow": f, "state": s} for f, s in entered if s]
    triggers = [[*t.rsplit(".", 2), "", ""][:3] for t in _strings(out.pop("triggers", []))]
    # An entry is the destination of the next trigger when that trigger's flow is at the
    # trigger's source; otherwise it is a flow start.
    cursor = {str(out["flow_before"]): str(out.get("state_before"))} if out.get("flow_before") else {}
    fired: list[dict[str, str]] = []
    j = 0
    for flow, state in entered:
        if j < len(triggers) and triggers[j][0] == flow and cursor.get(flow) == triggers[j][1]:
            fired.append({"flow": flow, "source": triggers[j][1], "trigger": triggers[j][2], "dest": state})
            j += 1
        cursor[flow] = state
    out["fired"] = fired
    out["notices"] = [n if isinstance(n, dict) else _legacy_notice(str(n)) for n in _list(out.get("notices"))]
    return out


def _legacy_notice(text: str) -> dict[str, str]:
    kind, _, rest = text.partition(":")
    if kind in ("reprompt", "fallback") and rest.count(":") >= 1:
        where, _, detail = rest.rpartition(":")
        flow, state = _split(where)
        return {"kind": kind, "flow": flow, "state": state, "detail": detail}
    if kind in ("pause", "resume") and "." in rest:
        flow, state = _split(rest)
        return {"kind": kind, "flow": flow, "state": state}
    if kind == "aside" and "." in rest:
        flow, name = _split(rest)
        return {"kind": kind, "flow": flow, "detail": name}
    if kind == "handoff" and "->" in rest:
        flow, _, nxt = rest.partition("->")
        return {"kind": kind, "flow": flow, "detail": nxt}
    if kind == "reset" and ": " in rest:
        flow, _, problem = rest.partition(": ")
        return {"kind": kind, "flow": flow, "detail": problem}
    if text.startswith("llm budget exhausted"):
        return {"kind": "budget", "detail": text}
    return {"kind": "legacy", "detail": text}


def _split(text: str) -> tuple[str, str]:
    # old entries joined flow and state with a dot: split at the last one, as flow names may
    # hold dots ("my.survey") and the shipped state names never did
    flow, _, state = text.rpartition(".")
    return flow, state


def _list(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else []


def _strings(value: object) -> list[str]:
    return [str(v) for v in _list(value)]


@dataclass
class TurnWrite:
    """Everything one turn persists, written in one transaction.

    A dataclass, not a model: its parts are models validated where they were made, and the
    turn's hot path should not check them twice. The trace travels as the JSON it is stored
    as (`TurnTrace.doc()`); it becomes a `TurnTrace` only when someone reads it.
    """

    session: SessionState
    expected_version: int
    trace_doc: JsonObject
    messages: list[Message] = field(default_factory=list)
    runs: list[FlowRun] = field(default_factory=list)
    records: list[RecordDraft] = field(default_factory=list)
    reply: str = ""
    # `session.updated_at` as ISO text, when the write stage made it already (it is the trace's
    # `at`): the store writes it as the turn's time instead of formatting the same time again
    at: str | None = None

    @functools.cached_property
    def trace(self) -> TurnTrace:
        return TurnTrace.model_validate(self.trace_doc)


class SessionSummary(Frozen):
    id: str
    bot: str
    user: str
    flow: str | None
    state: str | None
    turns: int
    updated_at: datetime
