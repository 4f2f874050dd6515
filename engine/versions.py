"""Stored frames against the code: which still fit the flows a bot has now.

A session stores values (flow name, version, state name, slots), never a machine, so a
deploy can leave a frame pointing at a flow, state or slot shape that no longer exists.
Such a frame is dropped with the reason; a frame that still fits is brought to the flow's
current version, its slots validated once for the turn that follows.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import ValidationError

from engine.bot import MAIN, Bot
from engine.flow import Ask
from engine.models import FlowFrame, SessionState, Slots


@dataclass
class Reconciled:
    """What `reconcile` found: frames dropped (with why), and the slots of those kept."""

    dropped: list[tuple[FlowFrame, str]] = field(default_factory=list)
    slots: dict[int, Slots] = field(default_factory=dict)  # by id() of the kept frame


def reconcile(bot: Bot, session: SessionState) -> Reconciled:
    """Drop `session`'s frames that no longer fit `bot`'s flows; update the versions of the rest."""
    out = Reconciled()
    frames = ([session.active] if session.active else []) + list(session.stack)
    kept: list[FlowFrame] = []
    for f in frames:
        problem = _misfit(bot, f, out.slots)
        if problem is not None:
            out.dropped.append((f, problem))
            continue
        version = bot.flow(f.flow).version
        if f.version != version:
            f.version = version
        kept.append(f)
    if out.dropped:
        was_active = session.active
        session.active = kept[0] if kept and was_active is not None and kept[0] is was_active else None
        session.stack = [f for f in kept if f is not session.active]
    return out


def _misfit(bot: Bot, f: FlowFrame, checked: dict[int, Slots]) -> str | None:
    if not bot.has_flow(f.flow) or f.flow == MAIN:
        return f"flow {f.flow!r} no longer exists"
    flow = bot.flow(f.flow)
    if not flow.has_state(f.state) or not isinstance(flow.state(f.state), Ask):
        return f"state {f.state!r} no longer exists in {f.flow} v{flow.version}"
    try:
        checked[id(f)] = flow.new_slots(f.slots)
    except ValidationError:
        return f"its saved answers no longer fit {f.flow} v{flow.version}"
    return None
