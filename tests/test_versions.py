"""Reconciling stored frames with the flows the code has now (engine/versions.py)."""

from __future__ import annotations

from engine.models import FlowFrame, SessionState
from engine.registry import default_registry
from engine.versions import reconcile
from flows.shared.feedback import feedback

BOT = default_registry().get("language-buddy")


def frame(flow: str = "feedback", state: str = "rating", version: int = 1, **slots: object) -> FlowFrame:
    return FlowFrame(flow=flow, version=version, state=state, slots=dict(slots))


def session(active: FlowFrame | None, *stack: FlowFrame) -> SessionState:
    return SessionState(id="s", bot=BOT.name, user="u", active=active, stack=list(stack))


def test_frames_that_fit_are_kept_with_their_slots_validated_once() -> None:
    a, paused = frame(rating=4), frame(state="details", rating=2)
    s = session(a, paused)
    found = reconcile(BOT, s)
    assert found.dropped == [] and s.active is a and s.stack == [paused]
    assert found.slots[id(a)].rating == 4 and found.slots[id(paused)].rating == 2  # type: ignore[attr-defined]


def test_an_older_version_that_still_fits_is_brought_to_the_current_one() -> None:
    a = frame(version=feedback.version - 1 if feedback.version > 1 else 0)
    reconcile(BOT, session(a))
    assert a.version == feedback.version


def test_frames_that_no_longer_fit_are_dropped_with_the_reason() -> None:
    gone, renamed, misfit = frame(flow="vanished"), frame(state="renamed"), frame(rating="banana")
    main, step = frame(flow="main"), frame(state="mood")  # never a resting place
    s = session(gone, renamed, misfit, main, step)
    found = reconcile(BOT, s)
    reasons = {id(f): why for f, why in found.dropped}
    assert "flow 'vanished' no longer exists" in reasons[id(gone)]
    assert "state 'renamed' no longer exists in feedback" in reasons[id(renamed)]
    assert "saved answers no longer fit feedback" in reasons[id(misfit)]
    assert "flow 'main' no longer exists" in reasons[id(main)]
    assert "state 'mood' no longer exists" in reasons[id(step)]
    assert s.active is None and s.stack == [] and found.slots == {}


def test_when_the_active_frame_is_dropped_the_stack_stays_suspended() -> None:
    paused = frame(state="details", rating=3)
    s = session(frame(flow="vanished"), paused)
    found = reconcile(BOT, s)
    # a suspended frame does not become active by itself: the turn resumes it, with a greeting
    assert [why for _, why in found.dropped] == ["flow 'vanished' no longer exists"]
    assert s.active is None and s.stack == [paused]
