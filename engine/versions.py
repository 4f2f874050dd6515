"""Stored frames against the code: which still fit the flows a bot has now.

A session stores values (flow name, version, state name, slots), never a machine, so a
deploy can leave a frame pointing at a flow version, state or slot shape that no longer
exists. A frame continues on the version it started on while the code still ships it
(`Flow.older`); otherwise the flow's `migrations` carry its slots to the current version
one step at a time; a frame with neither, or that no longer fits after them, is dropped
with the reason. The slots of every frame kept are validated once for the turn that follows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from engine.bot import MAIN, Bot
from engine.flow import Flow
from engine.models import FlowFrame, JsonObject, SessionState, Slots
from engine.states import Ask


@dataclass
class Reconciled:
    """What `reconcile` found: frames dropped (with why), and the slots of those kept."""

    dropped: list[tuple[FlowFrame, str]] = field(default_factory=list)
    slots: dict[int, Slots] = field(default_factory=dict)  # by id() of the kept frame
    migrated: list[tuple[FlowFrame, int]] = field(default_factory=list)  # (frame, version it had)


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
