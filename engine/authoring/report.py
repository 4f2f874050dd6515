"""A stored session as one document: `innerloop sessions show ID --json` prints `SessionReport`.

The JSON shape (every timestamp an ISO 8601 string in UTC)::

    {
      "format": "innerloop.session/2",
      "session": {"id", "bot", "user", "turns", "version", "created_at", "updated_at"},
      "active": FlowFrame | null,        # {"flow", "version", "state", "slots", "scratchpad": [Message],
                                         #  "attempts", "turns", "started_at"}
      "stack": [FlowFrame],              # suspended flows, innermost last
      "history": [Message],              # main history, oldest first: {"role", "content"}
      "runs": [FlowRun],                 # finished flows: {"flow", "outcome", "summary", "slots", "turns",
                                         #  "started_at", "ended_at"}
      "turns": [TurnReport]              # every turn, oldest first
    }

A turn is its stored `TurnTrace`::

    {"turn", "at", "user_text", "reply",
     "route",                            # the router's decision: "flow", "main", "intent:feedback",
                                         #  "entry:onboarding", "interrupt:feedback", "command:cancel", ...
     "flow_before", "state_before", "flow_after", "state_after",
     "entered": [{"flow", "state"}],                  # in order; flow starts included
     "fired": [{"flow", "source", "trigger", "dest"}],  # the transitions, in order
     "llm_calls": [{"purpose", "backend", "model", "prompt_tokens", "completion_tokens",
                    "latency_ms", "ok", "detail"}],
     "records": ["feedback"],                         # kinds of the records the turn saved
     "notices": [{"kind", "flow", "state", "detail"}],  # kind: reprompt, fallback, aside, pause, resume,
                                                      #  handoff, reset, tool, budget, ... (models.NoticeKind)
     "retried": false}

Fields the engine adds to `TurnTrace` later appear in each turn as they are.
"""

from __future__ import annotations

from datetime import datetime
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict

from engine.authoring.replay import ALL_HISTORY
from engine.errors import SessionNotFound
from engine.models import FlowFrame, FlowRun, Message, TurnTrace
from engine.store import Store

# /2: trace events are typed objects (entered, fired, notices), no more strings
FORMAT: Final = "innerloop.session/2"


class SessionInfo(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    bot: str
    user: str
    turns: int
    version: int
    created_at: datetime
    updated_at: datetime


class SessionReport(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format: Literal["innerloop.session/2"] = FORMAT
    session: SessionInfo
    active: FlowFrame | None
    stack: list[FlowFrame]
    history: list[Message]
    runs: list[FlowRun]
    turns: list[TurnTrace]


def session_report(store: Store, session_id: str) -> SessionReport:
    """Everything stored about one session (an id or a unique prefix); EngineError if none matches."""
    s = store.get(session_id)
    if s is None:
        raise SessionNotFound(session_id)
    turns = store.traces(s.id)
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
