"""Typed trace events: what a turn fired, entered and noticed, as data; old string traces still read."""

from __future__ import annotations

import json
import sqlite3
import typing
from pathlib import Path

import pytest
from pydantic import ValidationError

import engine
from engine import (
    Ask,
    Bot,
    Engine,
    Entered,
    Final,
    Fired,
    Flow,
    Intent,
    Notice,
    Registry,
    Slots,
    SqlStore,
    T,
    TurnTrace,
    default_registry,
)
from engine.authoring.coverage import Coverage
from engine.authoring.replay import replay
from engine.authoring.report import session_report
from engine.authoring.script import load_script
from engine.errors import StoreError
from engine.extract import free_text, rating
from engine.models import JsonObject
from engine.store.sql import pending_item
from engine.store.tracerow import pending_items, trace_from_row, traces_from_rows


class Survey(Slots):
    score: int | None = None
    why: str | None = None


DOTTED = Flow(
    name="my.survey",
    slots=Survey,
    states=[
        Ask("score", slot="score", say="Score 1-5?", parse=rating(1, 5), initial=True),
        Ask("why", slot="why", say="Why?", parse=free_text()),
        Final("done", summary="Survey done."),
    ],
    transitions=[T("answer", "score", "why"), T("answer", "why", "done")],
)
BOTS = Registry(
    [Bot(name="dotty", persona="p", flows=[DOTTED], intents=[Intent("my.survey", [r"survey"], "s")], capabilities="c")]
)


def test_a_flow_whose_name_has_a_dot_is_covered_like_any_other(tmp_path: Path) -> None:
    store = SqlStore(str(tmp_path / "t.db"))
    e = Engine(store, bots=BOTS)
    for text in ("survey please", "4", "fine"):
        e.turn("dotty", "u", text)
    s = e.session("dotty", "u")
    assert s is not None
    traces = store.traces(s.id)
    assert traces[0].entered == [Entered(flow="my.survey", state="score")]
    # an answer says what the question was answered with (`Fired.slot`, `Fired.value`)
    assert traces[1].fired == [
        Fired(flow="my.survey", source="score", trigger="answer", dest="why", slot="score", value=4)
    ]
    cov = Coverage(BOTS, registry=BOTS)
    cov.add("dotty", traces)
    fc = cov.flow("my.survey")
    assert (fc.state_ratio.hit, fc.state_ratio.total) == (3, 3)
    assert (fc.transition_ratio.hit, fc.transition_ratio.total) == (2, 2)
    store.close()


def test_a_trace_stored_with_string_events_still_reads(tmp_path: Path) -> None:
    """A database written before events were typed: its traces load, report and count."""
    db = tmp_path / "old.db"
    store = SqlStore(str(db))
    e = Engine(store)
    e.turn("language-buddy", "ann", "hello")  # a session row to hang the old trace on
    s = e.session("language-buddy", "ann")
    assert s is not None
    store.close()
    old = {
        "turn": 2, "user_text": "3", "reply": "Thanks", "route": "flow",
        "flow_before": "feedback", "state_before": "rating",
        "triggers": ["feedback.rating.answer", "feedback.mood.next"],
        "states_entered": ["feedback.mood", "feedback.details"],
        "notices": ["reprompt:feedback.rating:1", "handoff:feedback->other", "search:'x' -> no match",
                    "llm budget exhausted: template used"],
        "at": "2025-01-01T00:00:00+00:00",
    }  # fmt: skip
    with sqlite3.connect(db) as conn:
        conn.execute(
            "INSERT INTO turn_events (session_id, turn, trace, created_at) VALUES (?, ?, ?, ?)",
            (s.id, 2, json.dumps(old), old["at"]),
        )
        # such a database kept every trace in turn_events: nothing waits in the session row
        conn.execute("UPDATE sessions SET pending = ''")
    store = SqlStore(str(db))
    trace = store.traces(s.id)[-1]
    assert trace.fired == [
        Fired(flow="feedback", source="rating", trigger="answer", dest="mood"),
        Fired(flow="feedback", source="mood", trigger="next", dest="details"),
    ]
    assert [n.kind for n in trace.notices] == ["reprompt", "handoff", "legacy", "budget"]
    assert trace.notices[0] == Notice(kind="reprompt", flow="feedback", state="rating", detail="1")
    assert trace.notices[2].detail == "search:'x' -> no match"
    report = session_report(store, s.id)
    assert report.turns[-1].fired == trace.fired
    cov = Coverage(["language-buddy"])
    cov.add("language-buddy", [trace])
    assert cov.flow("feedback").transition_ratio.hit == 2
    store.close()


def test_notice_kinds_are_a_closed_set() -> None:
    with pytest.raises(ValidationError):
        TurnTrace.model_validate(
            {"turn": 1, "user_text": "", "reply": "", "route": "main", "notices": [{"kind": "whatever"}]}
        )


@pytest.mark.parametrize("name", engine.__all__)
def test_type_hints_resolve_on_every_public_class(name: str) -> None:
    obj = getattr(engine, name)
    if isinstance(obj, type):
        typing.get_type_hints(obj)
        init = obj.__init__
        if hasattr(init, "__code__"):
            typing.get_type_hints(init)


def test_the_installed_bots_come_from_entry_points() -> None:
    assert {b.name for b in default_registry()} >= {"language-buddy", "fitness-coach", "support", "study-pal"}


# -- the stored form (engine/store/tracerow.py) -------------------------------------------------

AT = "2025-01-01T10:00:00+00:00"
START_THEN_FIRES: JsonObject = {
    "turn": 3, "user_text": "x", "reply": "y", "route": "flow",
    "flow_before": "a", "state_before": "s1", "flow_after": "b", "state_after": "t1",
    "slots_after": {"n": 1, "m": None},
    # a fires to its end, then b starts, fires once and waits; c starts and ends at once
    "entered": [{"flow": "a", "state": "end"}, {"flow": "b", "state": "t0"}, {"flow": "b", "state": "t1"},
                {"flow": "c", "state": "c0"}],
    "fired": [{"flow": "a", "source": "s1", "trigger": "answer", "dest": "end"},
              {"flow": "b", "source": "t0", "trigger": "next", "dest": "t1"}],
    "at": "2025-01-01T10:00:00+00:00",
}  # fmt: skip


def stored(doc: JsonObject) -> JsonObject:
    """`doc` as its turn stores it, appended to the session row's `pending` (its turn beside it)."""
    ((turn, row),) = pending_items(pending_item(doc), "sid")
    assert turn == doc["turn"]
    return row


def read_back(doc: JsonObject) -> tuple[TurnTrace, TurnTrace]:
    """`doc` read back as it waits in a session row, and as the single row of an older schema
    (the same compact form, its `at` in the row's time)."""
    row = stored(doc)
    at = str(row.pop("at"))
    pending = traces_from_rows([], "sid", pending=(pending_item(doc), "2025-02-02T00:00:00+00:00"))
    return pending[0], trace_from_row(json.dumps(row), 3, at, "sid")


def test_a_stored_trace_leaves_out_what_the_row_and_the_fires_already_say() -> None:
    row = stored(START_THEN_FIRES)
    assert "turn" not in row and "entered" not in row and row["at"] == AT  # a pending trace keeps its time
    assert row["started"] == [{"flow": "b", "state": "t0", "after": 1}, {"flow": "c", "state": "c0", "after": 2}]
    assert row["fired"][0]["flow"] == "a" and "flow" not in row["fired"][1]  # b is the trace's own flow
    assert row["slots_after"] == {"n": 1, "m": None}
    assert read_back(START_THEN_FIRES) == (TurnTrace.model_validate(START_THEN_FIRES),) * 2


def test_entered_states_that_do_not_split_into_starts_and_fires_are_stored_whole() -> None:
    odd: JsonObject = {**START_THEN_FIRES, "entered": [{"flow": "b", "state": "t1"}, {"flow": "a", "state": "end"}]}
    row = stored(odd)
    assert row["entered"] == odd["entered"] and "started" not in row
    for back in read_back(odd):
        assert back.entered == [Entered(flow="b", state="t1"), Entered(flow="a", state="end")]


def test_a_stored_trace_that_is_not_a_trace_is_a_store_error_naming_the_session() -> None:
    for text in ("[1, 2]", "{not json", '{"reply": 1}'):
        with pytest.raises(StoreError, match="turn 4's stored trace cannot be read") as e:
            trace_from_row(text, 4, "2025-01-01T10:00:00+00:00", "sess-1")
        assert e.value.session == "sess-1"


def test_every_shipped_conversation_reads_back_from_the_store_as_the_turn_traced_it(tmp_path: Path) -> None:
    """Engine results carry the full trace; the store's compact rows must read back to it."""
    replays = Path(__file__).parent / "replays"
    for path in sorted(replays.glob("*.yaml"))[::6]:
        result = replay(load_script(path), db=str(tmp_path / f"{path.stem}.db"))
        assert result.passed, path.name
        store = SqlStore(str(tmp_path / f"{path.stem}.db"))
        stored = [t for s in store.sessions() for t in store.traces(s.id)]
        store.close()
        turned = [r.trace for r in result.results if r.trace is not None]
        assert len(stored) >= len(turned) > 0, path.name
        by_key = {(t.turn, t.user_text, t.at): t for t in stored}
        for t in turned:
            assert by_key[(t.turn, t.user_text, t.at)] == t, path.name


def test_a_notice_of_an_unknown_kind_is_refused_where_it_is_made() -> None:
    """The draft keeps notices as JSON, not as `Notice` models; an unknown kind must still fail
    at once, not be stored and make the session's traces unreadable."""
    from engine.errors import DefinitionError
    from engine.trace import TraceDraft

    draft = TraceDraft()
    draft.notice("tool", "feedback", None, "search: x")
    with pytest.raises(DefinitionError, match="unknown notice kind 'bogus'"):
        draft.notice("bogus", "feedback")  # type: ignore[arg-type]
    assert draft.notices == [{"kind": "tool", "flow": "feedback", "detail": "search: x"}]
