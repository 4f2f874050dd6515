"""The load stage of a turn: the stored session brought to the code and to the clock, before
the message is read.

`load` is a function of values: the bot, the session as stored and the time. It migrates the
frames of flows whose version moved on, drops those that no longer fit (saying why), closes
the runs left idle past their flow's `idle_timeout`, and takes what the last turn left for this
one (`CarryOver`) off the session. It returns what it did as a `Loaded` value; the turn records
it (engine/turn.py) and nothing here phrases, executes or writes.

Stored frames against the code (`reconcile`): a session stores values (flow name, version, state
name, slots), never a machine, so a deploy can leave a frame pointing at a flow version, state or
slot shape that no longer exists. A frame continues on the version it started on while the code
still ships it (`Flow.older`); otherwise the flow's `migrations` carry its slots to the current
version one step at a time; a frame with neither, or that no longer fits after them, is dropped
with the reason. The slots of every frame kept are validated once for the turn that follows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from pydantic import ValidationError

from engine.bot import MAIN, Bot
from engine.flow import Flow
from engine.models import CarryOver, FlowFrame, JsonObject, NoticeKind, Outcome, SessionState, Slots
from engine.states import Ask


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
    # what the last turn left for this one, when the load took it (`take_carry`; else nothing)
    carried: CarryOver = field(default_factory=CarryOver)
    # the flow the active run continues on, found while its frame was brought to the code (None with no
    # run open): the read and execute stages take it from here instead of looking it up again
    flow: Flow[Any] | None = None


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


def load(bot: Bot, session: SessionState, now: datetime, *, take: bool = False) -> Loaded:
    """Bring `session`'s stored frames to the code: migrate what can move, drop what no longer
    fits; then close the runs left idle past their flow's `idle_timeout` (the message is then
    routed as usual: it is not an answer to a question asked days ago). `take`: a message's turn,
    which also takes what the last turn left off the session (`take_carry`)."""
    carried = take_carry(session) if take else CarryOver()
    if session.active is None and not session.stack:
        return Loaded(carried=carried)  # the main conversation: no stored run to bring to the code or the clock
    found = reconcile(bot, session)
    out = Loaded(checked=found.slots, migrated=found.migrated, carried=carried)
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
    if session.active is not None:
        out.flow = found.flows.get(id(session.active))
    return out


@dataclass
class Reconciled:
    """What `reconcile` found: frames dropped (with why), and the slots of those kept."""

    dropped: list[tuple[FlowFrame, str]] = field(default_factory=list)
    slots: dict[int, Slots] = field(default_factory=dict)  # by id() of the kept frame
    migrated: list[tuple[FlowFrame, int]] = field(default_factory=list)  # (frame, version it had)
    flows: dict[int, Flow[Any]] = field(default_factory=dict)  # the flow each kept frame continues on, by id()


def reconcile(bot: Bot, session: SessionState) -> Reconciled:
    """Drop `session`'s frames that no longer fit `bot`'s flows; migrate those that can move."""
    out = Reconciled()
    frames = ([session.active] if session.active else []) + list(session.stack)
    kept: list[FlowFrame] = []
    for f in frames:
        problem = _misfit(bot, f, out)
        if problem is not None:
            out.dropped.append((f, problem))
            continue
        kept.append(f)
    if out.dropped:
        was_active = session.active
        session.active = kept[0] if kept and was_active is not None and kept[0] is was_active else None
        session.stack = [f for f in kept if f is not session.active]
    return out


def _misfit(bot: Bot, f: FlowFrame, out: Reconciled) -> str | None:
    current = bot.named.get(f.flow)
    if current is None or f.flow == MAIN:
        return f"flow {f.flow!r} no longer exists"
    flow = current if f.version == current.version else current.at(f.version)
    if flow is None:
        migrated = _migrate(current, f)
        if isinstance(migrated, str):
            return migrated
        out.migrated.append((f, f.version))
        f.slots, f.version, flow = migrated, current.version, current
    if not isinstance(flow.named.get(f.state), Ask):
        return f"state {f.state!r} no longer exists in {f.flow} v{flow.version}"
    try:
        out.slots[id(f)] = flow.slots.model_validate(f.slots)
    except ValidationError:
        return f"its saved answers no longer fit {f.flow} v{flow.version}"
    out.flows[id(f)] = flow  # as `Bot.flow_for` finds it: the version it started on while that is shipped
    return None


def _migrate(current: Flow[Any], f: FlowFrame) -> JsonObject | str:
    """`f`'s slots carried from its version to `current`'s, or why they cannot be."""
    slots = dict(f.slots)
    if f.version > current.version:
        return f"it was started on {f.flow} v{f.version}, newer than this bot's v{current.version}"
    for version in range(f.version, current.version):
        step = current.migrations.get(version)
        if step is None:
            shipped = f"{f.flow} v{f.version} is no longer shipped"
            return f"{shipped} and v{version + 1} declares no migration from v{version}"
        try:
            slots = step(slots)
        except Exception as e:  # a migration is flow code: its failure resets the run, not the session
            return f"migrating its answers from {f.flow} v{version} failed: {e}"
    return slots


# a carry-over holding nothing (every field at its default), as its fields compare
_NOTHING_CARRIED = CarryOver().__dict__


def take_carry(session: SessionState) -> CarryOver:
    """What the last turn left, taken off `session`: this message's only (a question asked back, a
    suggestion or an offer is answered now or not at all); the kept requests stay on the session
    until the flow they wait for is done."""
    carried = session.carry
    if carried.__dict__ == _NOTHING_CARRIED:
        # most turns: the last left nothing, and a fresh carry-over would equal this one; it stays on the session
        # (no new model made and assigned). The turn reads what it took (`carried`) only in its read stage, before
        # anything executes and fills the session's carry-over for the next
        return carried
    session.carry = CarryOver()
    session.carry.requests = carried.requests
    return carried


def _duration(d: timedelta) -> str:
    if d >= timedelta(days=2):
        return f"{d.days} days"
    if d >= timedelta(hours=2):
        return f"{d.seconds // 3600 + d.days * 24} hours"
    return f"{max(1, int(d.total_seconds() // 60))} minutes"
