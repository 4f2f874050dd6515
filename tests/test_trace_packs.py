"""A turn's trace waits in its session row until packed, and a finished inner loop's traces are
packed into one row (engine/store/tracerow.py).

Packing is the SQL store's storage detail: every test here reads the traces back through
`traces()` and checks they are exactly what was written, on SQLite and PostgreSQL.
"""

from __future__ import annotations

import hashlib
import json
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


def pending_turns(store: SqlStore, session_id: str) -> list[int]:
    """The turns whose traces wait in the session row (`pending`), oldest first."""
    return [turn for turn, _ in tracerow.pending_items(pending_text(store, session_id), session_id)]


def pending_text(store: SqlStore, session_id: str) -> str:
    with store.engine.connect() as conn:
        return str(conn.execute(text("SELECT pending FROM sessions WHERE id = :s"), {"s": session_id}).scalar_one())


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
    assert event_rows(store, sid) == [] and pending_turns(store, sid) == [1, 2, 3, 4]
    assert [t.turn for t in store.traces(sid)] == [1, 2, 3, 4]

    engine.turn(BOT, "ann", LOOP[-1])  # the loop ends: its turns and the greeting before it are packed
    assert event_rows(store, sid) == [(5, True)] and pending_turns(store, sid) == []
    after = store.traces(sid)
    assert dumps(after[:-1]) == before
    assert [t.turn for t in after] == [1, 2, 3, 4, 5] and after[-1].records == ["feedback"]

    engine.turn(BOT, "ann", "thanks")  # the next turn waits in the session row again
    assert event_rows(store, sid) == [(5, True)] and pending_turns(store, sid) == [6]
    everything = store.traces(sid)
    assert [t.turn for t in everything] == [1, 2, 3, 4, 5, 6]
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
    assert event_rows(store, sid) == [(4, True), (8, True), (12, True)] and pending_turns(store, sid) == []
    traces = store.traces(sid)
    assert [t.turn for t in traces] == list(range(1, 13))
    assert [t.route for t in traces[:4]] == ["intent:feedback", "flow", "flow", "flow"]
    assert [t.slots_after for t in traces[4:8]] == [t.slots_after for t in traces[:4]]
    store.close()


def test_a_retried_message_is_found_pending_and_in_a_pack(store_url: str) -> None:
    store = SqlStore(store_url)
    engine = Engine(store, bots=BOTS)
    results = [engine.turn(BOT, "cy", m, message_id=f"m{i}") for i, m in enumerate(LOOP[:-1])]
    sid = session_id(store, "cy")
    assert event_rows(store, sid) == [] and pending_turns(store, sid) == [1, 2, 3]
    again = engine.turn(BOT, "cy", LOOP[1], message_id="m1")  # a client retrying its second message
    assert again.duplicate and again.reply == results[1].reply
    results.append(engine.turn(BOT, "cy", LOOP[-1], message_id="m3"))
    assert event_rows(store, sid) == [(4, True)]
    again = engine.turn(BOT, "cy", LOOP[1], message_id="m1")
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
    assert event_rows(store, sid) == [(5, True), (10, True)] and pending_turns(store, sid) == [11, 12]
    assert [t.user_text for t in store.traces(sid)] == [f"hello {i}" for i in range(12)]
    store.close()


def test_what_is_pending_is_packed_once_it_would_hold_more_than_pending_max(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The session row a turn rewrites stays small: a turn whose trace would take what is pending
    past PENDING_MAX characters packs it instead (the append's own condition, on both backends)."""
    monkeypatch.setattr(sqlstore, "PENDING_MAX", 700)
    store = SqlStore(store_url)
    engine = Engine(store, bots=BOTS)
    sizes = []
    for i in range(12):
        engine.turn(BOT, "ev", f"hello {i} " + "x" * (i * 20))
        sid = session_id(store, "ev")
        sizes.append(len(pending_text(store, sid)))
    # a turn that packs leaves nothing pending; the others stay within PENDING_MAX
    assert all(n <= 700 for n in sizes) and sizes[0] > 0, sizes
    packs = event_rows(store, sid)
    assert len(packs) == sizes.count(0) >= 3 and all(packed for _, packed in packs), (packs, sizes)
    assert [t.user_text.split()[:2] for t in store.traces(sid)] == [["hello", str(i)] for i in range(12)]
    for n in (1, 2, 5, 12):
        assert [t.turn for t in store.traces(sid, limit=n)] == list(range(13 - n, 13))
    store.close()


def test_a_turn_that_fails_while_packing_leaves_what_was_pending(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = SqlStore(str(path))
    engine = Engine(store, bots=BOTS)
    for message in LOOP[:-1]:
        engine.turn(BOT, "fa", message)
    sid = session_id(store, "fa")
    before = dumps(store.traces(sid))
    with sqlite3.connect(path) as db:  # the pack's insert fails after the session row was updated
        db.execute(
            "CREATE TRIGGER no_packs BEFORE INSERT ON turn_events WHEN NEW.pack IS NOT NULL "
            "BEGIN SELECT RAISE(ABORT, 'disk says no'); END"
        )
    with pytest.raises(StoreError, match="disk says no"):
        engine.turn(BOT, "fa", LOOP[-1])
    assert event_rows(store, sid) == [] and pending_turns(store, sid) == [1, 2, 3]
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
    as_single_rows(url)
    db = create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    with db.begin() as conn:
        conn.execute(text("UPDATE turn_events SET trace = :t WHERE turn = 1"), {"t": long_form})
        conn.execute(text("ALTER TABLE turn_events DROP COLUMN pack"))
        conn.execute(text("ALTER TABLE sessions DROP COLUMN carry"))  # schema 3's
        conn.execute(text("ALTER TABLE sessions DROP COLUMN flow_declined"))  # schema 4's
        conn.execute(text("ALTER TABLE sessions DROP COLUMN pending"))  # schema 5's
        if db.dialect.name == "postgresql":
            for table, column in (
                ("sessions", "flow_started_at"), ("sessions", "created_at"), ("sessions", "updated_at"),
                ("messages", "created_at"), ("flow_runs", "started_at"), ("flow_runs", "ended_at"),
                ("turn_events", "created_at"), ("records", "created_at"),
            ):  # fmt: skip
                conn.execute(text(f"ALTER TABLE {table} ALTER COLUMN {column} TYPE text"))
        conn.execute(text("UPDATE innerloop_meta SET value = '1' WHERE key = 'schema_version'"))
    db.dispose()


def test_a_schema_1_database_is_migrated_and_its_rows_read(store_url: str) -> None:
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
    # the rows stored as single rows stay so; the turns since are packed
    assert event_rows(store, sid) == [(1, False), (2, False), (5, True)]
    traces = store.traces(sid)
    assert dumps(traces[:2]) == stored and [t.turn for t in traces] == [1, 2, 3, 4, 5]
    s = store.load(BOT, "old")
    assert s is not None and s.updated_at == traces[-1].at
    store.close()


def as_single_rows(url: str) -> None:
    """Every session's pending traces as the single turn_events rows schemas 1-4 wrote (the
    compact form without `turn`, `at` left out when the row's time says it), none pending."""
    db = create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    with db.begin() as conn:
        held = conn.execute(text("SELECT id, pending FROM sessions")).all()
        for sid, pending in held:
            for turn, doc in tracerow.pending_items(pending, sid):
                at = doc.pop("at")
                conn.execute(
                    text("INSERT INTO turn_events (session_id, turn, trace, created_at) VALUES (:s, :n, :t, :at)"),
                    {"s": sid, "n": turn, "t": json.dumps(doc), "at": at},
                )
        conn.execute(text("UPDATE sessions SET pending = ''"))
    db.dispose()


def make_schema_4(url: str) -> tuple[str, list[dict[str, object]]]:
    """A database as schema 4 left it: one session mid-loop after a finished loop (a pack, then
    single rows), no `pending` column. Its session's id and its traces as they read."""
    store = SqlStore(url)
    engine = Engine(store, bots=BOTS)
    for message in [*LOOP, "hello", *LOOP[:2]]:
        engine.turn(BOT, "four", message)
    sid = session_id(store, "four")
    traces = dumps(store.traces(sid))
    store.close()
    as_single_rows(url)
    db = create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    with db.begin() as conn:
        conn.execute(text("ALTER TABLE sessions DROP COLUMN pending"))
        conn.execute(text("UPDATE innerloop_meta SET value = '4' WHERE key = 'schema_version'"))
    db.dispose()
    return sid, traces


def test_a_schema_4_database_keeps_its_single_rows_and_takes_turns(store_url: str) -> None:
    url = store_url if "://" in store_url else f"sqlite:///{store_url}"
    sid, before = make_schema_4(url)
    store = SqlStore(url)
    assert store.schema_version == schema.SCHEMA_VERSION == 5
    assert event_rows(store, sid) == [(4, True), (5, False), (6, False), (7, False)]
    assert dumps(store.traces(sid)) == before and pending_turns(store, sid) == []
    for n in (1, 3, 4, 7):
        assert dumps(store.traces(sid, limit=n)) == before[-n:]
    engine = Engine(store, bots=BOTS)
    for message in LOOP[2:]:  # the loop begun under schema 4 ends: only what is pending is packed
        engine.turn(BOT, "four", message)
    assert event_rows(store, sid) == [(4, True), (5, False), (6, False), (7, False), (9, True)]
    traces = dumps(store.traces(sid))
    assert traces[:7] == before and [t["turn"] for t in traces] == list(range(1, 10))
    assert len(store.runs(sid)) == 2
    store.close()


def test_pending_text_that_cannot_be_read_is_kept_and_the_loop_still_ends(store_url: str) -> None:
    """Damaged pending text must not stop every later loop from finishing: it is kept as a single
    row (reading it reports the damage) and the turn is packed alone, on both backends."""
    store = SqlStore(store_url)
    engine = Engine(store, bots=BOTS)
    engine.turn(BOT, "hal", "hello")
    for message in LOOP[:-1]:
        engine.turn(BOT, "hal", message)
    sid = session_id(store, "hal")
    damaged = pending_text(store, sid)[:-7] + "{not json"
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE sessions SET pending = :p WHERE id = :s"), {"p": damaged, "s": sid})
    with pytest.raises(StoreError, match="pending traces cannot be read"):
        store.traces(sid)
    result = engine.turn(BOT, "hal", LOOP[-1])
    assert "saved your feedback" in result.reply
    assert event_rows(store, sid) == [(4, False), (5, True)] and pending_text(store, sid) == ""
    with store.engine.connect() as conn:
        kept = conn.execute(text("SELECT trace FROM turn_events WHERE session_id = :s AND turn = 4"), {"s": sid})
        assert kept.scalar_one() == damaged
    with pytest.raises(StoreError, match="turn 4's stored trace cannot be read"):
        store.traces(sid)
    assert [t.turn for t in store.traces(sid, limit=1)] == [5]
    store.close()


def test_a_turn_runs_only_the_statements_it_needs(tmp_path: Path) -> None:
    """SQLite: a turn in a flow is one statement, the session row's UPDATE under the version check
    appending the trace (its own transaction), after the load's SELECT; the turn that ends the loop
    reads what is pending, updates the row and writes the pack in one transaction."""
    store = SqlStore(str(tmp_path / "s.db"))
    engine = Engine(store, bots=BOTS)
    engine.turn(BOT, "jo", LOOP[0])
    seen: list[str] = []
    store._driver.set_trace_callback(seen.append)  # the store's own connection (engine/store/sql.py)
    engine.turn(BOT, "jo", LOOP[1])
    assert [s.split()[0] for s in seen] == ["SELECT", "UPDATE"]
    engine.turn(BOT, "jo", LOOP[2])
    seen.clear()
    engine.turn(BOT, "jo", LOOP[3])
    verbs = [s.split()[0] for s in seen]
    assert verbs[:4] == ["SELECT", "BEGIN", "SELECT", "UPDATE"] and verbs[-1] == "COMMIT"
    assert verbs.count("SELECT") == 2 and "DELETE" not in verbs
    assert event_rows(store, session_id(store, "jo")) == [(4, True)]
    store.close()
