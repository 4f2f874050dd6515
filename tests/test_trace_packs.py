"""A finished inner loop's traces are packed into one row (engine/store/tracerow.py).

Packing is the SQL store's storage detail: every test here reads the traces back through
`traces()` and checks they are exactly what the single rows held, on SQLite and PostgreSQL.
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

import engine.store.schema as schema
import engine.store.sql as sqlstore
import engine.store.tracerow as tracerow
from engine import Bot, Engine, Registry, SqlStore, StoreError
from engine.models import TurnTrace
from flows.language_buddy.bot import FEEDBACK
from flows.shared.feedback import feedback

BOT = "pack-feedback"
BOTS = Registry([Bot(name=BOT, persona="a test bot", flows=[feedback], intents=[FEEDBACK], capabilities="c")])
LOOP = ["I want to give feedback", "4", "I would like more speaking practice", "content"]


def event_rows(store: SqlStore, session_id: str) -> list[tuple[int, bool]]:
    """(turn, packed) of each turn_events row of the session, oldest first."""
    with store.engine.connect() as conn:
        rows = conn.execute(
            text("SELECT turn, pack IS NOT NULL FROM turn_events WHERE session_id = :s ORDER BY id"), {"s": session_id}
        ).all()
    return [(int(turn), bool(packed)) for turn, packed in rows]


def session_id(store: SqlStore, user: str) -> str:
    s = store.load(BOT, user)
    assert s is not None
    return s.id


def dumps(traces: list[TurnTrace]) -> list[dict[str, object]]:
    return [t.model_dump() for t in traces]


def test_a_finished_loop_leaves_one_row_that_reads_back_as_its_turns(store_url: str) -> None:
    store = SqlStore(store_url)
    engine = Engine(store, bots=BOTS)
    engine.turn(BOT, "ann", "hello")
    for message in LOOP[:-1]:
        engine.turn(BOT, "ann", message)
    sid = session_id(store, "ann")
    before = dumps(store.traces(sid))
    assert event_rows(store, sid) == [(1, False), (2, False), (3, False), (4, False)]

    engine.turn(BOT, "ann", LOOP[-1])  # the loop ends: its turns and the greeting before it are packed
    assert event_rows(store, sid) == [(5, True)]
    after = store.traces(sid)
    assert dumps(after[:-1]) == before
    assert [t.turn for t in after] == [1, 2, 3, 4, 5] and after[-1].records == ["feedback"]

    engine.turn(BOT, "ann", "thanks")  # the next turn is a single readable row again
    assert event_rows(store, sid) == [(5, True), (6, False)]
    everything = store.traces(sid)
    for n in range(1, 8):
        assert dumps(store.traces(sid, limit=n)) == dumps(everything[-n:])
    store.close()
    # another process reads the same
    again = SqlStore(store_url)
    assert dumps(again.traces(sid)) == dumps(everything)
    again.close()


def test_loops_after_loops_pack_only_their_own_turns(store_url: str) -> None:
    store = SqlStore(store_url)
    engine = Engine(store, bots=BOTS)
    for _ in range(3):
        for message in LOOP:
            engine.turn(BOT, "bo", message)
    sid = session_id(store, "bo")
    assert event_rows(store, sid) == [(4, True), (8, True), (12, True)]
    traces = store.traces(sid)
    assert [t.turn for t in traces] == list(range(1, 13))
    assert [t.route for t in traces[:4]] == ["intent:feedback", "flow", "flow", "flow"]
    assert [t.slots_after for t in traces[4:8]] == [t.slots_after for t in traces[:4]]
    store.close()


def test_a_retried_message_is_found_in_a_pack(store_url: str) -> None:
    store = SqlStore(store_url)
    engine = Engine(store, bots=BOTS)
    results = [engine.turn(BOT, "cy", m, message_id=f"m{i}") for i, m in enumerate(LOOP)]
    sid = session_id(store, "cy")
    assert event_rows(store, sid) == [(4, True)]
    again = engine.turn(BOT, "cy", LOOP[1], message_id="m1")  # a client retrying its second message
    assert again.duplicate and again.reply == results[1].reply
    assert store.load(BOT, "cy").turns == 4  # type: ignore[union-attr]
    store.close()


def test_a_main_conversation_is_packed_every_so_many_turns(store_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sqlstore, "PACK_EVERY", 5)
    store = SqlStore(store_url)
    engine = Engine(store, bots=BOTS)
    for i in range(12):
        engine.turn(BOT, "di", f"hello {i}")
    sid = session_id(store, "di")
    assert event_rows(store, sid) == [(5, True), (10, True), (11, False), (12, False)]
    assert [t.user_text for t in store.traces(sid)] == [f"hello {i}" for i in range(12)]
    store.close()


def test_a_pack_takes_at_most_pack_max_rows(store_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Single rows past PACK_MAX (left by a database from before packs) stay single rows."""
    monkeypatch.setattr(sqlstore, "PACK_MAX", 3)
    store = SqlStore(store_url)
    engine = Engine(store, bots=BOTS)
    for i in range(3):
        engine.turn(BOT, "ed", f"hello {i}")
    for message in LOOP:
        engine.turn(BOT, "ed", message)
    sid = session_id(store, "ed")
    assert event_rows(store, sid) == [(1, False), (2, False), (3, False), (7, True)]
    assert [t.turn for t in store.traces(sid)] == list(range(1, 8))
    assert [t.turn for t in store.traces(sid, limit=5)] == list(range(3, 8))
    store.close()


def test_a_turn_that_fails_while_packing_leaves_the_rows_it_would_have_packed(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = SqlStore(str(path))
    engine = Engine(store, bots=BOTS)
    for message in LOOP[:-1]:
        engine.turn(BOT, "fa", message)
    sid = session_id(store, "fa")
    before = dumps(store.traces(sid))
    with sqlite3.connect(path) as db:  # the pack's insert fails after the single rows were deleted
        db.execute(
            "CREATE TRIGGER no_packs BEFORE INSERT ON turn_events WHEN NEW.pack IS NOT NULL "
            "BEGIN SELECT RAISE(ABORT, 'disk says no'); END"
        )
    with pytest.raises(StoreError, match="disk says no"):
        engine.turn(BOT, "fa", LOOP[-1])
    assert event_rows(store, sid) == [(1, False), (2, False), (3, False)]
    assert dumps(store.traces(sid)) == before and store.runs(sid) == []
    with sqlite3.connect(path) as db:
        db.execute("DROP TRIGGER no_packs")
    engine.turn(BOT, "fa", LOOP[-1])
    assert event_rows(store, sid) == [(4, True)] and dumps(store.traces(sid)[:3]) == before
    store.close()


def test_a_damaged_pack_is_a_store_error_naming_the_session(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = SqlStore(str(path))
    engine = Engine(store, bots=BOTS)
    for message in LOOP:
        engine.turn(BOT, "gu", message)
    sid = session_id(store, "gu")
    for damage in (b"\x01garbage", b"\x09" + b"x" * 20, b""):
        with sqlite3.connect(path) as db:
            db.execute("UPDATE turn_events SET pack = ? WHERE session_id = ?", (damage, sid))
        with pytest.raises(StoreError, match="packed up to turn 4 cannot be read") as caught:
            store.traces(sid)
        assert caught.value.session == sid
    store.close()


def test_the_pack_dictionary_never_changes() -> None:
    """Stored packs inflate only with the dictionary they were deflated with: a new
    dictionary needs a new format byte, never an edit of format 1's."""
    digest = hashlib.sha256(tracerow.DICTIONARY_1).hexdigest()
    assert digest == "aa4e51e3d75ddf9096bd682fe484d6f8015ae04c693be3e152d395dd0fc5c76a"


def make_schema_1(url: str) -> None:
    """Turn a new database into what innerloop's schema 1 was: no `pack`, and on PostgreSQL
    times as text; with one session whose rows are single traces, the oldest in the long
    form of the first trace rows (with its turn and time in the JSON)."""
    store = SqlStore(url)
    engine = Engine(store, bots=BOTS)
    engine.turn(BOT, "old", "hello")
    engine.turn(BOT, "old", LOOP[0])
    sid = session_id(store, "old")
    long_form = store.traces(sid)[0].model_dump_json(exclude_defaults=True)
    store.close()
    db = create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    with db.begin() as conn:
        conn.execute(text("UPDATE turn_events SET trace = :t WHERE turn = 1"), {"t": long_form})
        conn.execute(text("ALTER TABLE turn_events DROP COLUMN pack"))
        conn.execute(text("ALTER TABLE sessions DROP COLUMN carry"))  # schema 3's
        conn.execute(text("ALTER TABLE sessions DROP COLUMN flow_declined"))  # schema 4's
        if db.dialect.name == "postgresql":
            for table, column in (
                ("sessions", "flow_started_at"), ("sessions", "created_at"), ("sessions", "updated_at"),
                ("messages", "created_at"), ("flow_runs", "started_at"), ("flow_runs", "ended_at"),
                ("turn_events", "created_at"), ("records", "created_at"),
            ):  # fmt: skip
                conn.execute(text(f"ALTER TABLE {table} ALTER COLUMN {column} TYPE text"))
        conn.execute(text("UPDATE innerloop_meta SET value = '1' WHERE key = 'schema_version'"))
    db.dispose()


def test_a_schema_1_database_is_migrated_and_its_rows_packed(store_url: str) -> None:
    url = store_url if "://" in store_url else f"sqlite:///{store_url}"
    make_schema_1(url)
    store = SqlStore(url)
    assert store.schema_version == schema.SCHEMA_VERSION
    sid = session_id(store, "old")
    stored = dumps(store.traces(sid))
    assert [t["turn"] for t in stored] == [1, 2] and stored[0]["user_text"] == "hello"
    engine = Engine(store, bots=BOTS)
    for message in LOOP[1:]:
        engine.turn(BOT, "old", message)
    assert event_rows(store, sid) == [(5, True)]
    traces = store.traces(sid)
    assert dumps(traces[:2]) == stored and [t.turn for t in traces] == [1, 2, 3, 4, 5]
    s = store.load(BOT, "old")
    assert s is not None and s.updated_at == traces[-1].at
    store.close()


def test_a_single_row_that_cannot_be_read_stays_and_the_loop_still_ends(tmp_path: Path) -> None:
    """A damaged row must not stop every later loop from finishing: it and the rows before
    it stay single rows (reading them reports the damage), the newer rows are packed."""
    path = tmp_path / "s.db"
    store = SqlStore(str(path))
    engine = Engine(store, bots=BOTS)
    engine.turn(BOT, "hal", "hello")
    for message in LOOP[:-1]:
        engine.turn(BOT, "hal", message)
    sid = session_id(store, "hal")
    with sqlite3.connect(path) as db:
        db.execute("UPDATE turn_events SET trace = '{not json' WHERE session_id = ? AND turn = 2", (sid,))
    result = engine.turn(BOT, "hal", LOOP[-1])
    assert "saved your feedback" in result.reply
    assert event_rows(store, sid) == [(1, False), (2, False), (5, True)]
    with pytest.raises(StoreError, match="turn 2's stored trace cannot be read"):
        store.traces(sid)
    assert [t.turn for t in store.traces(sid, limit=3)] == [3, 4, 5]
    store.close()


def test_rows_that_cannot_be_read_stay_as_they_were_on_every_backend(store_url: str) -> None:
    """A turn takes the rows to pack and deletes them in one statement (DELETE ... RETURNING):
    a damaged row, and the rows older than it, are put back exactly, ids and all, on both
    backends (their order is the order `traces()` reads them in)."""
    store = SqlStore(store_url)
    engine = Engine(store, bots=BOTS)
    engine.turn(BOT, "ida", "hello")
    for message in LOOP[:-1]:
        engine.turn(BOT, "ida", message)
    sid = session_id(store, "ida")
    columns = "id, turn, trace, created_at, pack IS NULL"
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE turn_events SET trace = '{not json' WHERE session_id = :s AND turn = 2"), {"s": sid})
        kept = conn.execute(
            text(f"SELECT {columns} FROM turn_events WHERE session_id = :s AND turn <= 2 ORDER BY id"), {"s": sid}
        ).all()
    engine.turn(BOT, "ida", LOOP[-1])
    with store.engine.connect() as conn:
        after = conn.execute(text(f"SELECT {columns} FROM turn_events WHERE session_id = :s ORDER BY id"), {"s": sid})
        rows = after.all()
    assert [tuple(r) for r in rows[:2]] == [tuple(r) for r in kept]
    assert event_rows(store, sid) == [(1, False), (2, False), (5, True)] and rows[2][0] > rows[1][0]
    assert [t.turn for t in store.traces(sid, limit=3)] == [3, 4, 5]
    store.close()


def test_a_turn_runs_only_the_statements_it_needs(tmp_path: Path) -> None:
    """SQLite: a turn in a flow is the floor's statements (the load's SELECT; BEGIN IMMEDIATE, the
    UPDATE under the version check, the trace's INSERT, COMMIT), and the turn that ends the loop
    takes its single trace rows out in one DELETE ... RETURNING, not a SELECT and a DELETE."""
    store = SqlStore(str(tmp_path / "s.db"))
    engine = Engine(store, bots=BOTS)
    engine.turn(BOT, "jo", LOOP[0])
    seen: list[str] = []
    store._driver.set_trace_callback(seen.append)  # the store's own connection (engine/store/sql.py)
    engine.turn(BOT, "jo", LOOP[1])
    assert [s.split()[0] for s in seen] == ["SELECT", "BEGIN", "UPDATE", "INSERT", "COMMIT"]
    engine.turn(BOT, "jo", LOOP[2])
    seen.clear()
    engine.turn(BOT, "jo", LOOP[3])
    verbs = [s.split()[0] for s in seen]
    assert verbs[:3] == ["SELECT", "BEGIN", "UPDATE"] and verbs[-1] == "COMMIT"
    assert verbs.count("SELECT") == 1 and verbs.count("DELETE") == 1
    assert event_rows(store, session_id(store, "jo")) == [(4, True)]
    store.close()
