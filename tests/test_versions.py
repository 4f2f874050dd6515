"""Reconciling stored frames with the flows the code has now (engine/load.py)."""

from __future__ import annotations

import dataclasses
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from engine import DefinitionError, Engine, Flow, Registry, SqlStore
from engine.authoring.replay import seed_profile
from engine.load import reconcile
from engine.models import FlowFrame, JsonObject, SessionState
from engine.registry import default_registry
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


def test_an_older_version_neither_shipped_nor_migratable_is_reset_even_when_it_fits() -> None:
    a = frame(version=feedback.version - 1 if feedback.version > 1 else 0)
    s = session(a)
    found = reconcile(BOT, s)
    assert [why for _, why in found.dropped] == [
        f"feedback v{a.version} is no longer shipped and v{a.version + 1} declares no migration from v{a.version}"
    ]
    assert s.active is None


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


# -- two versions of the shipped feedback flow --------------------------------------------


def halve(slots: JsonObject) -> JsonObject:
    """v1 -> v2 of the test: ratings were 1-10, the flow now asks 1-5."""
    rating = slots.get("rating")
    return {**slots, "rating": None if not isinstance(rating, int) else max(1, round(rating / 2))}


def with_feedback(flow: Flow[Any]) -> Registry:
    return Registry([dataclasses.replace(BOT, flows=[flow if f.name == "feedback" else f for f in BOT.flows])])


PROFILE: JsonObject = {"name": "Ann", "native_language": "de", "target_language": "en", "level": "B1"}
V1 = dataclasses.replace(feedback, version=1)
V2_SHIPPING_V1 = dataclasses.replace(feedback, version=2, older=[V1])
V2_MIGRATING = dataclasses.replace(feedback, version=2, migrations={1: halve})
V2_ALONE = dataclasses.replace(feedback, version=2)


def started_on_v1(tmp_path: Path) -> str:
    db = str(tmp_path / "v.db")
    store = SqlStore(db)
    e = Engine(store, bots=with_feedback(V1))
    seed_profile(store, "language-buddy", "u", PROFILE)  # onboarded already
    r = e.turn("language-buddy", "u", "I want to give feedback")
    assert (r.flow, r.state) == ("feedback", "rating")
    store.close()
    return db


def test_a_run_continues_on_the_version_it_started_on_while_that_is_shipped(tmp_path: Path) -> None:
    db = started_on_v1(tmp_path)
    store = SqlStore(db)
    e = Engine(store, bots=with_feedback(V2_SHIPPING_V1))
    r = e.turn("language-buddy", "u", "4")
    s = e.session("language-buddy", "u")
    assert s is not None and s.active is not None and (s.active.version, r.state) == (1, "details")
    assert r.trace is not None and r.trace.noticed("migrated") == [] and r.trace.noticed("reset") == []
    store.close()


def test_a_run_moves_to_the_next_version_through_the_flows_migration(tmp_path: Path) -> None:
    db = started_on_v1(tmp_path)
    store = SqlStore(db)
    s = store.load("language-buddy", "u")
    assert s is not None and s.active is not None
    s.active.slots = {**s.active.slots, "sentiment": "positive", "rating": 8}  # as v1 stored it
    found = reconcile(with_feedback(V2_MIGRATING).get("language-buddy"), s)
    assert found.dropped == [] and s.active.version == 2 and s.active.slots["rating"] == 4
    e = Engine(store, bots=with_feedback(V2_MIGRATING))
    r = e.turn("language-buddy", "u", "3")
    assert r.trace is not None and [n.detail for n in r.trace.noticed("migrated")] == ["v1 -> v2"]
    assert e.session("language-buddy", "u").active.version == 2  # type: ignore[union-attr]
    store.close()


def test_a_run_with_neither_its_version_nor_a_migration_is_reset_and_the_user_told(tmp_path: Path) -> None:
    db = started_on_v1(tmp_path)
    store = SqlStore(db)
    r = Engine(store, bots=with_feedback(V2_ALONE)).turn("language-buddy", "u", "4")
    assert r.reply.startswith("(Your unfinished feedback was reset because the bot was updated: feedback v1")
    assert r.flow == "main" and [run.outcome for run in store.runs(r.session_id or "")][-1] == "reset"
    store.close()


def test_a_failing_migration_resets_the_run_not_the_session() -> None:
    def broken(slots: JsonObject) -> JsonObject:
        raise KeyError("score")

    bot = with_feedback(dataclasses.replace(feedback, version=2, migrations={1: broken})).get("language-buddy")
    s = session(frame(version=1, rating=2))
    found = reconcile(bot, s)
    assert [why for _, why in found.dropped] == ["migrating its answers from feedback v1 failed: 'score'"]


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"version": 2, "older": [dataclasses.replace(feedback, version=3)]}, "older version 'feedback' v3 must be"),
        ({"version": 2, "migrations": {2: halve}}, "migrations from [2] cannot lead to v2"),
        ({"idle_timeout": timedelta(0)}, "idle_timeout must be positive"),
    ],
)
def test_version_declarations_are_checked(change: dict[str, Any], problem: str) -> None:
    with pytest.raises(DefinitionError, match=re.escape(problem)):
        dataclasses.replace(feedback, **change)


# -- idle expiry ----------------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


IDLE = with_feedback(dataclasses.replace(feedback, idle_timeout=timedelta(hours=1)))


def feedback_open(tmp_path: Path, clock: Clock) -> tuple[SqlStore, Engine]:
    store = SqlStore(str(tmp_path / "idle.db"))
    e = Engine(store, bots=IDLE, clock=clock)
    seed_profile(store, "language-buddy", "u", PROFILE)
    e.turn("language-buddy", "u", "I want to give feedback")
    return store, e


def test_a_run_idle_past_its_timeout_is_closed_on_the_next_message_which_is_then_routed(tmp_path: Path) -> None:
    clock = Clock()
    store, e = feedback_open(tmp_path, clock)
    clock.now += timedelta(minutes=59)
    assert e.turn("language-buddy", "u", "4").state == "details"  # within the hour: an answer
    clock.now += timedelta(hours=3)
    r = e.turn("language-buddy", "u", "I want to give feedback")
    assert r.reply.startswith("(Your unfinished feedback was closed: nothing was said in it for 3 hours.)")
    assert (r.flow, r.state) == ("feedback", "rating")  # the message started a new run
    runs = store.runs(r.session_id or "")
    assert runs[-1].outcome == "expired" and runs[-1].summary == "Feedback expired after 3 hours without a reply."
    assert r.trace is not None and [n.flow for n in r.trace.noticed("expired")] == ["feedback"]
    store.close()


def test_a_batch_expiry_closes_idle_runs_and_the_user_is_told_next_time(tmp_path: Path) -> None:
    clock = Clock()
    store, e = feedback_open(tmp_path, clock)
    Engine(store, bots=IDLE, clock=clock).turn("language-buddy", "fresh", "hi")  # onboarding: no timeout
    assert e.expire_idle() == 0
    clock.now += timedelta(days=3)
    assert e.expire_idle() == 1 and e.expire_idle() == 0
    s = e.session("language-buddy", "u")
    assert s is not None and s.active is None
    r = e.turn("language-buddy", "u", "hello")
    assert r.reply.startswith("(Your unfinished feedback was closed: nothing was said in it for 3 days.)")
    told = e.session("language-buddy", "u") or s
    assert told.carry.pending == [] and not told.context  # told once, nothing left over
    assert e.session("language-buddy", "fresh").active is not None  # type: ignore[union-attr]
    store.close()
