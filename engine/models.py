"""Typed values that cross module borders: messages, frames, sessions, records, traces."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

Role = Literal["system", "user", "assistant"]
Outcome = Literal["completed", "cancelled", "escalated", "reset", "expired"]
JsonObject = dict[str, JsonValue]


def utcnow() -> datetime:
    return datetime.now(UTC)


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Resources(Frozen):
    """Data files a run points its bots at instead of the shipped ones (None: the default)."""

    assessment: Path | None = None
    kb: Path | None = None
    course: Path | None = None


class Message(Frozen):
    """One chat message; content is kept exactly as given."""

    role: Role
    content: str


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


class SessionState(BaseModel):
    """One user's session with one bot, as stored; `version` is the compare-and-swap counter."""

    model_config = ConfigDict(extra="forbid")

    id: str
    bot: str
    user: str
    active: FlowFrame | None = None
    stack: list[FlowFrame] = Field(default_factory=list)
    context: JsonObject = Field(default_factory=dict)
    turns: int = 0
    version: int = 0
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


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


class TurnTrace(BaseModel):
    """What one turn did; stored as the turn's event-log entry."""

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
    triggers: list[str] = Field(default_factory=list)
    states_entered: list[str] = Field(default_factory=list)
    llm_calls: list[LLMCall] = Field(default_factory=list)
    records: list[str] = Field(default_factory=list)
    notices: list[str] = Field(default_factory=list)
    retried: bool = False
    at: datetime = Field(default_factory=utcnow)

    def doc(self) -> JsonObject:
        """The trace as stored: JSON values, defaults left out."""
        return self.model_dump(mode="json", exclude_defaults=True)


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
