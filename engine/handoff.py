"""A session handed to a person: while an agent has it, the bot only holds the line.

The hold is a value in the session's memory (`innerloop.agent`), so it is stored, loaded
and migrated with the session like everything else. It begins when a flow ends
"escalated" or a bot's code hands the user over; while it lasts every message goes into
the main history and gets the bot's short holding reply; an agent answers with
`Engine.agent_reply` (`innerloop sessions reply`) and hands back with `Engine.release`
(`innerloop sessions release`).
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, ValidationError

from engine.models import SessionState

HOLD_KEY = "innerloop.agent"


class AgentHold(BaseModel):
    """Since when, and why, the session waits for a person."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    since: datetime
    reason: str


def hold_of(session: SessionState) -> AgentHold | None:
    """The session's hold, or None; a stored value this build cannot read counts as none."""
    value = session.context.get(HOLD_KEY)
    if value is None:
        return None
    try:
        return AgentHold.model_validate(value)
    except ValidationError:
        return None


def start_hold(session: SessionState, reason: str, now: datetime) -> None:
    if hold_of(session) is None:
        session.context[HOLD_KEY] = AgentHold(since=now, reason=reason).model_dump(mode="json")


def end_hold(session: SessionState) -> None:
    session.context.pop(HOLD_KEY, None)
