"""A stored session as one document: `innerloop sessions show ID --json` prints `SessionReport`.

The JSON shape (every timestamp an ISO 8601 string in UTC)::

    {
      "format": "innerloop.session/1",
      "session": {"id", "bot", "user", "turns", "version", "created_at", "updated_at"},
      "active": FlowFrame | null,        # {"flow", "version", "state", "slots", "scratchpad": [Message],
                                         #  "attempts", "turns", "started_at"}
      "stack": [FlowFrame],              # suspended flows, innermost last
      "history": [Message],              # main history, oldest first: {"role", "content"}
      "runs": [FlowRun],                 # finished flows: {"flow", "outcome", "summary", "slots", "turns",
                                         #  "started_at", "ended_at"}
      "turns": [TurnReport]              # every turn, oldest first
    }

A `TurnReport` is the stored `TurnTrace` plus the transitions read back from it::

    {"turn", "at", "user_text", "reply",
     "route",                            # the router's decision: "flow", "main", "intent:feedback",
                                         #  "entry:onboarding", "interrupt:feedback", "command:cancel", ...
     "flow_before", "state_before", "flow_after", "state_after",
     "triggers": ["feedback.rating.answer"],          # flow.source.trigger, in order
     "states_entered": ["feedback.mood", ...],        # flow.state, in order (flow starts included)
     "transitions": [{"flow", "source", "trigger", "dest"}],
     "llm_calls": [{"purpose", "backend", "model", "prompt_tokens", "completion_tokens",
                    "latency_ms", "ok", "detail"}],
     "records": ["feedback"],                         # kinds of the records the turn saved
     "notices": ["reprompt:feedback.rating:1", ...],  # reprompts, fallbacks, asides, handoffs, resumes, ...
     "retried": false}

Fields the engine adds to `TurnTrace` later appear in each turn as they are.
"""

from __future__ import annotations

from datetime import datetime
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.authoring.coverage import moves
from engine.authoring.replay import ALL_HISTORY
from engine.bot import get_bot
from engine.errors import EngineError, UnknownNameError
from engine.models import FlowFrame, FlowRun, Message, TurnTrace
from engine.store import Store

FORMAT: Final = "innerloop.session/1"


class SessionInfo(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    bot: str
    user: str
    turns: int
    version: int
    created_at: datetime
    updated_at: datetime


class TransitionFired(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    flow: str
    source: str
    trigger: str
    dest: str


class TurnReport(TurnTrace):
    """A turn's trace plus the transitions it fired, paired up from triggers and states entered."""

    transitions: list[TransitionFired] = Field(default_factory=list)


class SessionReport(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format: Literal["innerloop.session/1"] = FORMAT
    session: SessionInfo
    active: FlowFrame | None
    stack: list[FlowFrame]
    history: list[Message]
    runs: list[FlowRun]
    turns: list[TurnReport]


def session_report(store: Store, session_id: str) -> SessionReport:
    """Everything stored about one session (an id or a unique prefix); EngineError if none matches."""
    s = store.get(session_id)
    if s is None:
        raise EngineError(f"no session matches {session_id!r}", session=session_id)
    try:
        bot = get_bot(s.bot)
    except UnknownNameError:
        bot = None  # a session of a bot this build no longer has: its traces still show
    turns = []
    for t in store.traces(s.id):
        fired = [TransitionFired(**vars(m)) for m in moves(t, bot)] if bot else []
        turns.append(TurnReport(**t.model_dump(), transitions=fired))
    return SessionReport(
        session=SessionInfo(
            id=s.id,
            bot=s.bot,
            user=s.user,
            turns=s.turns,
            version=s.version,
            created_at=s.created_at,
            updated_at=s.updated_at,
        ),
        active=s.active,
        stack=s.stack,
        history=store.history(s.id, ALL_HISTORY),
        runs=store.runs(s.id),
        turns=turns,
    )
