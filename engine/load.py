"""The load stage of a turn: the stored session brought to the code and to the clock, before
the message is read.

`load` is a function of values: the bot, the session as stored and the time. It migrates the
frames of flows whose version moved on, drops those that no longer fit (saying why), closes
the runs left idle past their flow's `idle_timeout`, and takes what the last turn left for this
one (`CarryOver`) off the session. It returns what it did as a `Loaded` value; the turn records
it (engine/turn.py) and nothing here phrases, executes or writes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from engine.bot import Bot
from engine.models import CarryOver, FlowFrame, NoticeKind, Outcome, SessionState, Slots
from engine.versions import reconcile


@dataclass(frozen=True)
class Closed:
    """A stored run the load stage ended: why (its notice), its summary line, and what the user is told."""

    frame: FlowFrame
    notice: NoticeKind
    detail: str
    outcome: Outcome
    summary: str
    told: str


@dataclass
class Loaded:
    """What loading found and did."""

    # the slots of the frames kept, validated once (by id() of the frame): readers need not again
    checked: dict[int, Slots] = field(default_factory=dict)
    migrated: list[tuple[FlowFrame, int]] = field(default_factory=list)  # (frame, version it had)
    closed: list[Closed] = field(default_factory=list)


def idle_frames(bot: Bot, session: SessionState, now: datetime) -> list[tuple[FlowFrame, timedelta]]:
    """The open runs (active or paused) whose flow's `idle_timeout` passed since the user's last turn."""
    idle = now - session.updated_at
    frames = ([session.active] if session.active else []) + list(session.stack)
    out = []
    for f in frames:
        flow = bot.named.get(f.flow)
        timeout = flow.idle_timeout if flow is not None else None
        if timeout is not None and idle > timeout:
            out.append((f, idle))
    return out


def load(bot: Bot, session: SessionState, now: datetime) -> Loaded:
    """Bring `session`'s stored frames to the code: migrate what can move, drop what no longer
    fits; then close the runs left idle past their flow's `idle_timeout` (the message is then
    routed as usual: it is not an answer to a question asked days ago)."""
    found = reconcile(bot, session)
    out = Loaded(checked=found.slots, migrated=found.migrated)
    for f, problem in found.dropped:
        told = f"(Your unfinished {f.flow} was reset because the bot was updated: {problem}.)"
        out.closed.append(Closed(f, "reset", problem, "reset", f"{f.flow} was reset: {problem}.", told))
    for f, idle in idle_frames(bot, session, now):
        out.checked.pop(id(f), None)
        if session.active is f:
            session.active = None
        else:
            session.stack = [x for x in session.stack if x is not f]
        summary = f"{f.flow.capitalize()} expired after {_duration(idle)} without a reply."
        told = f"(Your unfinished {f.flow} was closed: nothing was said in it for {_duration(idle)}.)"
        out.closed.append(Closed(f, "expired", str(idle), "expired", summary, told))
    return out


def take_carry(session: SessionState) -> CarryOver:
    """What the last turn left, taken off `session`: this message's only (a question asked back, a
    suggestion or an offer is answered now or not at all); the kept requests stay on the session
    until the flow they wait for is done."""
    carried, session.carry = session.carry, CarryOver()
    session.carry.requests = carried.requests
    return carried


def _duration(d: timedelta) -> str:
    if d >= timedelta(days=2):
        return f"{d.days} days"
    if d >= timedelta(hours=2):
        return f"{d.seconds // 3600 + d.days * 24} hours"
    return f"{max(1, int(d.total_seconds() // 60))} minutes"
