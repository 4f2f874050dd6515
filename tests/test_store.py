"""The store contract, run against every backend; then what only SqlStore promises.

Every contract test takes the one parametrized `store` fixture, so `MemoryStore` (the
fake other tests run on) and `SqlStore` (the real thing) are held to the same behaviour.
The SqlStore-only tests below are named `test_sqlstore_*`.
"""

from __future__ import annotations

import functools
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, suppress
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection
from sqlmodel import create_engine

import engine.store.connection as connection
import engine.store.schema as schema
from engine import ConflictError, MemoryStore, SchemaError, SessionBusy, SqlStore, Store, StoreError
from engine.models import (
    FlowFrame,
    FlowRun,
    LLMCall,
    Message,
    RecordDraft,
    SessionState,
    TurnTrace,
    TurnWrite,
    utcnow,
)
from engine.store.locks import FileLocks, ThreadLocks, ThreadsFirst, lock_digest, range_locks_work
from engine.window import LOAD_LIMIT
from tests.conftest import BACKENDS

BOT = "language-buddy"

# Content that a careless store would alter: trimmed, re-encoded, normalized or cut.
AWKWARD = [
    "  leading and trailing spaces  ",
    "line one\nline two\r\nline three\n",
    "tabs\tand\ttabs",
    "Grüße, 日本語, العربية, emoji 👍🏽 and a ZWJ family 👨‍👩‍👧",
    'quotes " and \' and a backslash \\ and {"json": [1, 2]}',
    "x" * 10_000,
    "",
]


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """Each backend: a SQLite file, the memory fake, and a real PostgreSQL database."""
    if request.param == "memory":
        s: Store = MemoryStore()
    elif request.param == "postgres":
        s = SqlStore(request.getfixturevalue("pg_url"))
    else:
        s = SqlStore(str(tmp_path / "s.db"))
    yield s
    s.close()


# -- helpers -------------------------------------------------------------------------------


def new_session(user: str = "ann", bot: str = BOT, sid: str | None = None) -> SessionState:
    return SessionState(id=sid or f"{bot[:4]}-{user}", bot=bot, user=user)


def step(
    store: Store,
    before: SessionState,
    *,
    text: str = "hi",
    messages: Sequence[Message] = (),
    runs: Sequence[FlowRun] = (),
    records: Sequence[RecordDraft] = (),
    change: dict[str, Any] | None = None,
) -> SessionState:
    """Commit one turn on top of `before` (as the engine would) and return the new state."""
    after = before.model_copy(deep=True, update=change or {})
    after.turns = before.turns + 1
    after.version = before.version + 1
    after.updated_at = utcnow()
    store.commit(stale_write(after, before.version, text=text, messages=messages, runs=runs, records=records))
    return after


def stale_write(
    session: SessionState,
    expected: int,
    *,
    text: str = "hi",
    messages: Sequence[Message] = (),
    runs: Sequence[FlowRun] = (),
    records: Sequence[RecordDraft] = (),
) -> TurnWrite:
    return TurnWrite(
        session=session,
        expected_version=expected,
        messages=list(messages),
        runs=list(runs),
        records=list(records),
        trace_doc=TurnTrace(turn=session.turns, user_text=text, reply=f"re: {text}", route="test").doc(),
    )


def run(flow: str = "feedback", summary: str = "Feedback completed.", **slots: Any) -> FlowRun:
    now = utcnow()
    return FlowRun(
        flow=flow, outcome="completed", summary=summary, slots=dict(slots), turns=3,
        started_at=now - timedelta(seconds=5), ended_at=now,
    )  # fmt: skip


def snapshot(store: Store, session_id: str) -> tuple[object, ...]:
    """Everything a store holds about one session (and all records), for before/after checks."""
    return (
        store.get(session_id),
        store.history(session_id, 1000),
        store.runs(session_id),
        [t.model_dump() for t in store.traces(session_id)],
        store.records(),
        store.sessions(),
    )


def rich_session() -> SessionState:
    """A session using every stored field, with content that must come back verbatim."""
    started = datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)
    suspended = [
        FlowFrame(
            flow="onboarding", version=3, state="name", slots={"name": None, "level": "B1"},
            scratchpad=[Message(role="user", content="hi"), Message(role="assistant", content=AWKWARD[1])],
            attempts=2, turns=4, started_at=started,
        ),
        FlowFrame(flow="tutoring", version=1, state="ask", started_at=started + timedelta(minutes=1)),
    ]  # fmt: skip
    active = FlowFrame(
        flow="feedback",
        version=2,
        state="details",
        slots={"rating": 4, "sentiment": "positive", "comment": AWKWARD[3], "score": 0.5, "ok": True, "tags": ["a"]},
        scratchpad=[Message(role="user" if i % 2 else "assistant", content=c) for i, c in enumerate(AWKWARD)],
        attempts=1,
        turns=2,
        started_at=started + timedelta(minutes=2),
        declined=["category", 'Zoë\'s ✓ "slot"'],  # the SQL store keeps the active frame's in a column of its own
    )
    return SessionState(
        id="rich-0001",
        bot=BOT,
        user="Zoë ✓",
        active=active,
        stack=suspended,
        context={"profile": {"name": "Zoë", "langs": ["de", "en"]}, "n": 3, "note": AWKWARD[4], "none": None},
        created_at=started,
        updated_at=started,
    )


# -- the contract ----------------------------------------------------------------------------


def test_nothing_is_there_before_the_first_commit(store: Store) -> None:
    assert store.load(BOT, "ann") is None
    assert store.get("lang-ann") is None
    assert store.history("lang-ann") == []
    assert store.runs("lang-ann") == []
    assert store.traces("lang-ann") == []
    assert store.records() == []
    assert store.sessions() == []


def test_a_session_round_trips_with_every_field_verbatim(store: Store) -> None:
    original = rich_session()
    first = original.model_copy(deep=True, update={"turns": 1, "version": 1})
    store.commit(stale_write(first, 0))

    loaded = store.load(BOT, "Zoë ✓")
    assert loaded == first
    assert store.get(first.id) == first
    assert loaded is not None and loaded.active is not None
    assert [m.content for m in loaded.active.scratchpad] == AWKWARD
    assert loaded.active.slots["comment"] == AWKWARD[3]
    assert [f.flow for f in loaded.stack] == ["onboarding", "tutoring"]
    assert loaded.stack[0].attempts == 2 and loaded.stack[0].scratchpad[1].content == AWKWARD[1]
    assert loaded.active.started_at == datetime(2026, 1, 2, 3, 6, 5, 678901, tzinfo=UTC)

    # the update path writes every field too, including clearing the active flow and stack
    second = step(store, first, change={"active": None, "stack": [], "context": {}})
    assert store.load(BOT, "Zoë ✓") == second
    third = step(store, second, change={"active": original.active, "stack": original.stack[:1]})
    assert store.load(BOT, "Zoë ✓") == third
    assert store.load(BOT, "someone else") is None
    assert store.load("other-bot", "Zoë ✓") is None


def test_a_loaded_session_is_a_copy(store: Store) -> None:
    s = step(store, rich_session())
    loaded = store.load(BOT, s.user)
    assert loaded is not None and loaded.active is not None
    loaded.active.slots["rating"] = 1
    loaded.active.scratchpad.append(Message(role="user", content="mutated"))
    loaded.context["n"] = 99
    assert store.load(BOT, s.user) == s


def test_committed_values_are_snapshots(store: Store) -> None:
    s = new_session()
    after = s.model_copy(update={"turns": 1, "version": 1})
    write = stale_write(after, 0, runs=[run(rating=4)], records=[RecordDraft(kind="feedback", data={"rating": 4})])
    store.commit(write)
    expected = snapshot(store, s.id)
    write.trace_doc["reply"] = "changed after commit"
    write.runs[0].slots["rating"] = 1
    write.records[0].data["rating"] = 1
    write.session.context["late"] = True
    assert snapshot(store, s.id) == expected


def test_a_stale_row_version_is_a_conflict_and_writes_nothing(store: Store) -> None:
    v1 = step(store, new_session(), messages=[Message(role="user", content="one")])
    v2 = step(store, v1, messages=[Message(role="user", content="two")])
    before = snapshot(store, v2.id)

    for expected in (1, 0, 7):  # behind, "new session", ahead
        stale = v2.model_copy(deep=True, update={"turns": 9, "version": expected + 1, "context": {"lost": True}})
        write = stale_write(
            stale,
            expected,
            text="stale",
            messages=[Message(role="user", content="stale")],
            runs=[run(rating=1)],
            records=[RecordDraft(kind="feedback", data={"rating": 1})],
        )
        with pytest.raises(ConflictError) as caught:
            store.commit(write)
        assert caught.value.session == v2.id
        assert caught.value.expected_version == expected
        assert snapshot(store, v2.id) == before

    # the current version still commits
    v3 = step(store, v2)
    assert store.load(BOT, "ann") == v3


def test_a_second_new_session_for_the_same_bot_and_user_is_a_conflict(store: Store) -> None:
    first = step(store, new_session(sid="first"), messages=[Message(role="user", content="first")])
    before = snapshot(store, first.id)

    twin = new_session(sid="second").model_copy(update={"turns": 1, "version": 1})
    with pytest.raises(ConflictError):
        store.commit(stale_write(twin, 0, messages=[Message(role="user", content="twin")], records=[
            RecordDraft(kind="feedback", data={"rating": 2})
        ]))  # fmt: skip
    assert snapshot(store, first.id) == before
    assert store.get("second") is None
    assert store.history("second") == [] and store.traces("second") == []
    assert store.load(BOT, "ann") == first

    # the same session id again as "new" is refused too
    with pytest.raises(ConflictError):
        store.commit(stale_write(first.model_copy(update={"turns": 1, "version": 1}), 0))

    # the key is the (bot, user) pair: another user or another bot is a new session
    step(store, new_session(user="bob", sid="bob"))
    step(store, new_session(bot="study-pal", sid="pal"))
    assert {(s.bot, s.user) for s in store.sessions()} == {(BOT, "ann"), (BOT, "bob"), ("study-pal", "ann")}


def test_history_is_the_most_recent_messages_oldest_first_verbatim(store: Store) -> None:
    s = new_session()
    written: list[Message] = []
    for i in range(12):
        batch = [
            Message(role="user", content=f"{i}: {AWKWARD[i % len(AWKWARD)]}"),
            Message(role="assistant" if i % 3 else "system", content=f"reply {i}\n"),
            Message(role="assistant", content=f"more {i}"),
        ]
        written += batch
        s = step(store, s, messages=batch)
    other = step(store, new_session(user="bob", sid="bob"), messages=[Message(role="user", content="bob's")])

    assert len(written) == 36
    assert store.history(s.id) == written[-LOAD_LIMIT:]
    assert LOAD_LIMIT == 20
    assert store.history(s.id, 5) == written[-5:]
    assert store.history(s.id, 1000) == written
    assert store.history(s.id, 0) == []
    assert store.history(other.id) == [Message(role="user", content="bob's")]


def test_runs_are_listed_oldest_first(store: Store) -> None:
    first = run(rating=4, comment=AWKWARD[3])
    second = run("onboarding", "Onboarding cancelled.", name=None)
    s = step(store, new_session(), runs=[first])
    s = step(store, s)
    step(store, s, runs=[second])
    assert store.runs(s.id) == [first, second]
    assert store.runs("nobody") == []


def test_traces_are_oldest_first_and_limit_keeps_the_latest(store: Store) -> None:
    s = new_session()
    for i in range(5):
        s = step(store, s, text=f"turn {i + 1} {AWKWARD[3]}")
    traces = store.traces(s.id)
    assert [t.turn for t in traces] == [1, 2, 3, 4, 5]
    assert traces[2].user_text == f"turn 3 {AWKWARD[3]}"
    assert [t.turn for t in store.traces(s.id, limit=2)] == [4, 5]
    assert [t.turn for t in store.traces(s.id, limit=50)] == [1, 2, 3, 4, 5]


def test_a_trace_keeps_every_field(store: Store) -> None:
    s = new_session().model_copy(update={"turns": 1, "version": 1})
    trace = TurnTrace(
        turn=1,
        user_text=AWKWARD[1],
        reply=AWKWARD[3],
        route="intent:feedback",
        flow_after="feedback",
        state_after="rating",
        triggers=["feedback.sentiment.next"],
        states_entered=["feedback.sentiment", "feedback.rating"],
        llm_calls=[LLMCall(purpose="phrase", backend="openai", model="m", prompt_tokens=12, latency_ms=3.5)],
        records=["feedback"],
        notices=["reprompt:feedback.rating:1"],
        retried=True,
    )
    store.commit(TurnWrite(session=s, expected_version=0, trace_doc=trace.doc()))
    assert store.traces(s.id) == [trace]


def test_records_filter_by_kind_bot_and_user_oldest_first(store: Store) -> None:
    ann = step(store, new_session(), records=[RecordDraft(kind="feedback", data={"rating": 4, "comment": AWKWARD[1]})])
    bob = step(store, new_session(user="bob", sid="bob"), records=[
        RecordDraft(kind="feedback", data={"rating": 2}),
        RecordDraft(kind="profile", data={"name": "Bob", "langs": ["de"], "level": None}),
    ])  # fmt: skip
    pal = step(store, new_session(bot="study-pal", sid="pal"), records=[RecordDraft(kind="feedback", data={"n": 1})])
    store.add_record(BOT, "ann", ann.id, RecordDraft(kind="profile", data={"name": "Ann"}))

    every = store.records()
    assert [(r.kind, r.bot, r.user) for r in every] == [
        ("feedback", BOT, "ann"),
        ("feedback", BOT, "bob"),
        ("profile", BOT, "bob"),
        ("feedback", "study-pal", "ann"),
        ("profile", BOT, "ann"),
    ]
    assert len({r.id for r in every}) == 5
    assert [r.id for r in every] == sorted(r.id for r in every)
    assert every[0].data == {"rating": 4, "comment": AWKWARD[1]}
    assert every[2].data == {"name": "Bob", "langs": ["de"], "level": None}
    assert [r.session_id for r in every] == [ann.id, bob.id, bob.id, pal.id, ann.id]

    def picked(**filters: str) -> list[tuple[str, str, str]]:
        return [(r.kind, r.bot, r.user) for r in store.records(**filters)]

    assert picked(kind="feedback") == [
        ("feedback", BOT, "ann"),
        ("feedback", BOT, "bob"),
        ("feedback", "study-pal", "ann"),
    ]
    assert picked(kind="profile", user="ann") == [("profile", BOT, "ann")]
    assert picked(bot="study-pal") == [("feedback", "study-pal", "ann")]
    assert picked(user="ann") == [("feedback", BOT, "ann"), ("feedback", "study-pal", "ann"), ("profile", BOT, "ann")]
    assert picked(kind="feedback", bot=BOT, user="bob") == [("feedback", BOT, "bob")]
    assert picked(kind="escalation") == []


def test_latest_is_the_newest_record_of_a_kind_for_one_user(store: Store) -> None:
    ann = step(store, new_session(), records=[RecordDraft(kind="profile", data={"level": "A1"})])
    store.add_record(BOT, "bob", ann.id, RecordDraft(kind="profile", data={"level": "C2"}))
    store.add_record(BOT, "ann", ann.id, RecordDraft(kind="profile", data={"level": "B1"}))
    store.add_record(BOT, "ann", ann.id, RecordDraft(kind="feedback", data={"rating": 1}))
    found = store.latest("profile", bot=BOT, user="ann")
    assert found is not None and found.data == {"level": "B1"} and found.user == "ann"
    assert store.latest("profile", bot="study-pal", user="ann") is None
    assert store.latest("escalation", bot=BOT, user="ann") is None


def test_add_record_leaves_the_session_alone(store: Store) -> None:
    s = step(store, new_session())
    before = store.get(s.id)
    store.add_record(BOT, "ann", s.id, RecordDraft(kind="profile", data={"name": "Ann", "tz": "Europe/Berlin"}))
    assert store.get(s.id) == before
    assert store.traces(s.id) == store.traces(s.id, limit=1)
    [r] = store.records("profile", bot=BOT, user="ann")
    assert r.data == {"name": "Ann", "tz": "Europe/Berlin"} and r.session_id == s.id


def test_sessions_lists_every_session_most_recent_first(store: Store) -> None:
    base = datetime(2026, 3, 1, tzinfo=UTC)
    a = step(store, new_session(user="a", sid="a"))
    b = step(
        store, new_session(user="b", sid="b"), change={"active": FlowFrame(flow="feedback", version=1, state="rating")}
    )
    c = step(store, new_session(user="c", sid="c"))
    # updated_at decides the order, not the order of commits
    for s, minutes in ((a, 3), (b, 1), (c, 2)):
        store.commit(
            stale_write(
                s.model_copy(update={"version": 2, "turns": 2, "updated_at": base + timedelta(minutes=minutes)}), 1
            )
        )
    listed = store.sessions()
    assert [x.id for x in listed] == ["a", "c", "b"]
    summary_b = listed[2]
    assert (summary_b.bot, summary_b.user, summary_b.flow, summary_b.state, summary_b.turns) == (
        BOT,
        "b",
        "feedback",
        "rating",
        2,
    )
    assert listed[0].flow is None and listed[0].state is None
    assert summary_b.updated_at == base + timedelta(minutes=1)


def test_get_finds_a_session_by_its_id(store: Store) -> None:
    s = step(store, new_session(sid="abcdef123456"))
    assert store.get("abcdef123456") == s
    assert store.get("abcdef123457") is None


# -- SqlStore only -------------------------------------------------------------------------


def pragmas(store: SqlStore) -> dict[str, object]:
    with store.engine.connect() as conn:
        return {
            name: conn.exec_driver_sql(f"PRAGMA {name}").scalar()
            for name in ("journal_mode", "busy_timeout", "synchronous", "foreign_keys")
        }


def test_sqlstore_runs_wal_with_a_busy_timeout_and_full_sync(tmp_path: Path) -> None:
    store = SqlStore(str(tmp_path / "s.db"))
    assert pragmas(store) == {"journal_mode": "wal", "busy_timeout": 10_000, "synchronous": 2, "foreign_keys": 1}
    store.close()
    tuned = SqlStore(str(tmp_path / "t.db"), busy_timeout_ms=1234, synchronous="NORMAL")
    assert pragmas(tuned) == {"journal_mode": "wal", "busy_timeout": 1234, "synchronous": 1, "foreign_keys": 1}
    tuned.close()
    with pytest.raises(StoreError, match="synchronous"):
        SqlStore(str(tmp_path / "u.db"), synchronous="SOMETIMES")  # type: ignore[arg-type]


def test_sqlstore_records_its_schema_version(tmp_path: Path) -> None:
    store = SqlStore(str(tmp_path / "s.db"))
    assert store.schema_version == schema.SCHEMA_VERSION
    store.close()
    with sqlite3.connect(tmp_path / "s.db") as db:
        rows = db.execute("SELECT key, value FROM innerloop_meta").fetchall()
    assert rows == [("schema_version", str(schema.SCHEMA_VERSION))]


def test_sqlstore_accepts_a_plain_path_or_any_sqlalchemy_url(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    by_url = SqlStore(f"sqlite:///{path}")
    assert by_url.url == f"sqlite:///{path}"
    s = step(by_url, new_session(), messages=[Message(role="user", content="via url")])
    by_path = SqlStore(str(path))
    assert by_path.url == by_url.url
    assert by_path.load(BOT, "ann") == s
    assert by_path.history(s.id) == [Message(role="user", content="via url")]
    by_url.close()
    by_path.close()


def test_sqlstore_refuses_a_newer_schema(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    SqlStore(str(path)).close()
    newer = schema.SCHEMA_VERSION + 1
    with sqlite3.connect(path) as db:
        db.execute("UPDATE innerloop_meta SET value = ? WHERE key = 'schema_version'", (str(newer),))
    with pytest.raises(SchemaError, match=rf"newer innerloop \(schema {newer}\).*reads schema {schema.SCHEMA_VERSION}"):
        SqlStore(str(path))


def test_sqlstore_refuses_a_foreign_sqlite_file_and_leaves_it_alone(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE sessions (token TEXT)")
        db.execute("INSERT INTO sessions VALUES ('keep me')")
    with pytest.raises(SchemaError, match="not written by innerloop"):
        SqlStore(str(path))
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall() == [("sessions",)]
        assert db.execute("SELECT token FROM sessions").fetchall() == [("keep me",)]


def test_sqlstore_opens_while_another_process_writes(tmp_path: Path) -> None:
    """A current schema is checked with a read: opening never waits for the write lock."""
    path = tmp_path / "s.db"
    first = SqlStore(str(path))
    s = step(first, new_session())
    first.close()
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # holds the write lock, as a long turn elsewhere would
    try:
        store = SqlStore(str(path), busy_timeout_ms=100)
        assert store.load(BOT, "ann") == s  # WAL: readers do not wait for the writer
        with pytest.raises(StoreError, match="locked"):
            step(store, s)
        assert store.load(BOT, "ann") == s
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    step(store, s)  # the failed commit left the store usable
    store.close()


def test_sqlstore_many_openers_of_a_new_file_create_it_once(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    errors: list[BaseException] = []
    barrier = threading.Barrier(8)

    def open_it() -> None:
        try:
            barrier.wait()
            SqlStore(str(path)).close()
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=open_it) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT key, value FROM innerloop_meta").fetchall() == [
            ("schema_version", str(schema.SCHEMA_VERSION))
        ]


# the migration tests add a step after this build's schema
NOW = schema.SCHEMA_VERSION
NEXT = NOW + 1


def add_note_column(conn: Connection) -> None:
    conn.exec_driver_sql("ALTER TABLE sessions ADD COLUMN note TEXT DEFAULT 'migrated'")


def make_current(path: Path) -> SessionState:
    store = SqlStore(str(path))
    s = step(store, rich_session(), messages=[Message(role="user", content=AWKWARD[3])])
    store.close()
    return s


def session_columns(path: Path) -> list[str]:
    with sqlite3.connect(path) as db:
        return [row[1] for row in db.execute("PRAGMA table_info(sessions)")]


def test_sqlstore_migrates_an_older_schema(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "s.db"
    s = make_current(path)
    assert "note" not in session_columns(path)
    monkeypatch.setattr(schema, "SCHEMA_VERSION", NEXT)
    monkeypatch.setattr(schema, "MIGRATIONS", {NOW: add_note_column})

    store = SqlStore(str(path))
    assert store.schema_version == NEXT
    assert "note" in session_columns(path)
    assert store.load(BOT, s.user) == s
    assert store.history(s.id) == [Message(role="user", content=AWKWARD[3])]
    s2 = step(store, s)  # and the migrated file takes turns
    store.close()
    # opening again does not re-run the step (a second ALTER would fail)
    again = SqlStore(str(path))
    assert again.schema_version == NEXT and again.load(BOT, s.user) == s2
    again.close()


def test_sqlstore_migrates_schema_3_to_keep_the_declined_questions(tmp_path: Path) -> None:
    # schema 3 stored the active frame's columns without `flow_declined`: the row loads with none declined,
    # and the migrated file keeps them from then on
    path = tmp_path / "s.db"
    s = make_current(path)
    with sqlite3.connect(path) as db:
        db.execute("ALTER TABLE sessions DROP COLUMN flow_declined")
        db.execute("ALTER TABLE sessions DROP COLUMN pending")  # schema 5's (make_current's trace with it)
        db.execute("UPDATE innerloop_meta SET value = '3' WHERE key = 'schema_version'")
    store = SqlStore(str(path))
    assert store.schema_version == schema.SCHEMA_VERSION and "flow_declined" in session_columns(path)
    loaded = store.load(BOT, s.user)
    assert loaded is not None and loaded.active is not None and loaded.active.declined == []
    assert loaded.model_copy(update={"active": loaded.active.model_copy(update={"declined": s.active.declined})}) == s
    s2 = step(store, loaded, change={"active": s.active})
    assert store.load(BOT, s.user) == s2 and s2.active is not None and s2.active.declined == s.active.declined
    store.close()


def test_sqlstore_rolls_back_a_failed_migration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "s.db"
    make_current(path)

    def half_done(conn: Connection) -> None:
        add_note_column(conn)
        raise RuntimeError("migration step failed")

    monkeypatch.setattr(schema, "SCHEMA_VERSION", NEXT)
    monkeypatch.setattr(schema, "MIGRATIONS", {NOW: half_done})
    with pytest.raises(RuntimeError, match="migration step failed"):
        SqlStore(str(path))
    # the DDL ran inside the migration's transaction and went with it
    assert "note" not in session_columns(path)
    monkeypatch.setattr(schema, "MIGRATIONS", {NOW: add_note_column})
    store = SqlStore(str(path))
    assert store.schema_version == NEXT and "note" in session_columns(path)
    store.close()


def test_sqlstore_refuses_an_older_schema_it_cannot_migrate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "s.db"
    s = make_current(path)
    monkeypatch.setattr(schema, "SCHEMA_VERSION", NEXT)
    monkeypatch.setattr(schema, "MIGRATIONS", {})
    with pytest.raises(SchemaError, match=f"schema {NOW} and no migration to {NEXT}"):
        SqlStore(str(path))
    monkeypatch.undo()
    store = SqlStore(str(path))  # untouched: this build still reads it
    assert store.load(BOT, s.user) == s
    store.close()


def fail_inserts_into(path: Path, table: str) -> None:
    with sqlite3.connect(path) as db:
        db.execute(
            f"CREATE TRIGGER fail_{table} BEFORE INSERT ON {table} BEGIN SELECT RAISE(ABORT, 'disk says no'); END"
        )


def test_sqlstore_a_turn_that_fails_midway_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = SqlStore(str(path))
    s = step(store, new_session(), messages=[Message(role="user", content="kept")])
    before = snapshot(store, s.id)
    # The pack's insert is the last statement of a turn that ends a loop: the session row,
    # messages, runs and records have all been written in the transaction when it fails.
    fail_inserts_into(path, "turn_events")
    changed = s.model_copy(update={"turns": 2, "version": 2, "context": {"lost": True}})
    write = stale_write(
        changed,
        1,
        messages=[Message(role="user", content="lost")],
        runs=[run(rating=5)],
        records=[RecordDraft(kind="feedback", data={"rating": 5})],
    )
    with pytest.raises(StoreError, match="disk says no"):
        store.commit(write)
    assert snapshot(store, s.id) == before
    # a brand-new session fails the same way, leaving no row behind (its trace waits in its row:
    # the message's insert, after the row's, is what fails)
    fail_inserts_into(path, "messages")
    fresh = new_session(user="bob", sid="bob").model_copy(update={"turns": 1, "version": 1})
    with pytest.raises(StoreError):
        store.commit(stale_write(fresh, 0, messages=[Message(role="user", content="lost too")]))
    assert store.get("bob") is None and store.history("bob") == [] and store.traces("bob") == []
    with sqlite3.connect(path) as db:
        db.execute("DROP TRIGGER fail_messages")

    # the store's connection is not left inside the failed transaction
    with sqlite3.connect(path) as db:
        db.execute("DROP TRIGGER fail_turn_events")
    store.commit(write)
    assert store.load(BOT, "ann") == changed
    assert [m.content for m in store.history(s.id)] == ["kept", "lost"]
    store.close()


def test_sqlstore_a_value_that_cannot_be_serialized_writes_nothing(tmp_path: Path) -> None:
    store = SqlStore(str(tmp_path / "s.db"))
    s = step(store, new_session())
    before = snapshot(store, s.id)
    bad = RecordDraft(kind="feedback", data={"rating": 4})
    bad.data["when"] = object()  # type: ignore[assignment]  # slipped past validation by mutation
    changed = s.model_copy(update={"turns": 2, "version": 2})
    with pytest.raises(StoreError, match="serialize"):
        store.commit(stale_write(changed, 1, messages=[Message(role="user", content="lost")], records=[bad]))
    assert snapshot(store, s.id) == before
    store.close()


def test_get_accepts_a_unique_id_prefix(store: Store) -> None:
    a = step(store, new_session(user="a", sid="abcd1111"))
    step(store, new_session(user="b", sid="abcd2222"))
    assert store.get("abcd1") == a
    assert store.get("abcd") is None  # ambiguous
    assert store.get("abc") is None  # too short to be a prefix
    assert store.get("ab%") is None and store.get("abc_1") is None  # LIKE wildcards are literal


def test_sqlstore_works_with_a_named_paramstyle_driver(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The prepared statements lay parameters out for the driver (dicts here, not tuples)."""
    monkeypatch.setattr(connection, "create_engine", functools.partial(create_engine, paramstyle="named"))
    store = SqlStore(str(tmp_path / "s.db"))
    assert store.engine.dialect.paramstyle == "named"
    s = step(store, rich_session(), messages=[Message(role="user", content="named")], runs=[run(rating=3)],
             records=[RecordDraft(kind="feedback", data={"rating": 3})])  # fmt: skip
    assert store.load(BOT, s.user) == s
    assert store.history(s.id, 1) == [Message(role="user", content="named")]
    assert [t.turn for t in store.traces(s.id, limit=1)] == [1]
    assert [r.data for r in store.records("feedback", user=s.user)] == [{"rating": 3}]
    with pytest.raises(ConflictError):
        store.commit(stale_write(s, 0))
    store.close()


def test_sqlstore_one_store_serves_many_threads(tmp_path: Path) -> None:
    """The store's one connection is shared under a lock: threads neither collide nor lose turns."""
    store = SqlStore(str(tmp_path / "s.db"))
    step(store, new_session(user="shared", sid="shared"))
    done: Counter[str] = Counter()
    errors: list[BaseException] = []

    def work(name: str) -> None:
        try:
            own = step(store, new_session(user=name, sid=name))
            for i in range(20):
                own = step(store, own, messages=[Message(role="user", content=f"{name} {i}")])
                while True:  # the shared session: compare-and-swap, reload on conflict
                    current = store.load(BOT, "shared")
                    assert current is not None
                    try:
                        step(store, current, text=name)
                    except ConflictError:
                        continue
                    done[name] += 1
                    break
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(f"t{i}",)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    shared = store.load(BOT, "shared")
    assert shared is not None and shared.version == shared.turns == 1 + sum(done.values()) == 121
    traces = store.traces("shared")
    assert [t.turn for t in traces] == list(range(1, 122))
    assert Counter(t.user_text for t in traces[1:]) == done
    for i in range(6):
        own = store.load(BOT, f"t{i}")
        assert own is not None and own.version == 21
        assert [m.content for m in store.history(own.id)] == [f"t{i} {n}" for n in range(20)][-LOAD_LIMIT:]
    store.close()


# -- the session writer lock (the contract, every backend) ---------------------------------


def held_elsewhere(store: Store, bot: str, user: str, timeout_s: float) -> BaseException | None:
    """Try the lock from another thread (another connection or file descriptor); what it raised."""
    found: list[BaseException | None] = [None]

    def attempt() -> None:
        try:
            with store.session_lock(bot, user, timeout_s=timeout_s):
                pass
        except BaseException as e:
            found[0] = e

    t = threading.Thread(target=attempt)
    t.start()
    t.join()
    return found[0]


def test_a_session_lock_excludes_other_holders_of_that_session_only(store: Store) -> None:
    with store.session_lock(BOT, "ann", timeout_s=1):
        busy = held_elsewhere(store, BOT, "ann", 0.2)
        assert isinstance(busy, SessionBusy) and isinstance(busy, ConflictError)
        assert (busy.bot, busy.user, busy.waited_s) == (BOT, "ann", 0.2) and busy.expected_version is None
        # another user, another bot: their own sessions, not blocked
        assert held_elsewhere(store, BOT, "bob", 0.2) is None
        assert held_elsewhere(store, "fitness", "ann", 0.2) is None
    # released at the end of the block, and taken again after a timed-out wait
    assert held_elsewhere(store, BOT, "ann", 0.2) is None
    with store.session_lock(BOT, "ann", timeout_s=1):
        pass


def test_a_session_lock_is_released_when_its_block_raises(store: Store) -> None:
    with pytest.raises(KeyError), store.session_lock(BOT, "ann", timeout_s=1):
        raise KeyError("the turn failed")
    assert held_elsewhere(store, BOT, "ann", 0.2) is None


def test_load_held_loads_holding_the_lock_until_the_hold_is_given_back(store: Store) -> None:
    """A turn's way in: the session loaded (None before its first turn) with its writer lock taken."""
    nothing, hold = store.load_held(BOT, "ann", timeout_s=1)
    with ExitStack() as held:  # the hold is entered already: the block's end gives it back, as the engine's
        held.push(hold)
        assert nothing is None
        assert isinstance(held_elsewhere(store, BOT, "ann", 0.2), SessionBusy)
    assert held_elsewhere(store, BOT, "ann", 0.2) is None
    s = step(store, new_session("ann"))
    loaded, hold = store.load_held(BOT, "ann", timeout_s=1)
    try:
        assert loaded == s
        assert isinstance(held_elsewhere(store, BOT, "ann", 0.2), SessionBusy)
        assert held_elsewhere(store, BOT, "bob", 0.2) is None
    finally:
        hold.__exit__(None, None, None)
    assert held_elsewhere(store, BOT, "ann", 0.2) is None


def test_a_session_lock_admits_one_holder_at_a_time(store: Store) -> None:
    """Four threads take one session's lock 15 times each: never two inside at once."""
    inside: list[str] = []
    overlaps: list[list[str]] = []
    errors: list[BaseException] = []

    def work(name: str) -> None:
        try:
            for _ in range(15):
                with store.session_lock(BOT, "shared", timeout_s=10):
                    inside.append(name)
                    if len(inside) > 1:
                        overlaps.append(list(inside))
                    time.sleep(0.001)
                    inside.remove(name)
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(f"t{i}",)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and overlaps == []


def test_a_session_lock_names_any_user_text(store: Store) -> None:
    # keys are hashed: no user text can escape into a file name or an SQL statement
    for user in ("../../etc/passwd", "a'; SELECT pg_sleep(10); --", "日本語" * 100, "x" * 5000):
        with store.session_lock(BOT, user, timeout_s=1):
            assert isinstance(held_elsewhere(store, BOT, user, 0.1), SessionBusy)


def test_sqlstore_session_locks_are_ranges_of_one_file(tmp_path: Path) -> None:
    if not range_locks_work():
        pytest.skip("no open-file-description locks on this system: the store uses FileLocks")
    store = SqlStore(str(tmp_path / "s.db"))
    with store.session_lock(BOT, "ann", timeout_s=1), store.session_lock(BOT, "bob", timeout_s=1):
        # one file for every session, written to never: the locks are the kernel's
        assert (tmp_path / "s.db-locks.bin").stat().st_size == 0
        assert not (tmp_path / "s.db-locks").exists()
    store.close()


def test_file_locks_go_with_their_holders(tmp_path: Path) -> None:
    # the lock of systems without open-file-description locks: a file per session being written
    folder = tmp_path / "s.db-locks"
    locks = ThreadsFirst(FileLocks(folder))
    with locks.hold(BOT, "ann", 1), locks.hold(BOT, "bob", 1):
        assert len(list(folder.iterdir())) == 2
        other = FileLocks(folder)  # another holder: its own file descriptors
        with pytest.raises(SessionBusy), other.hold(BOT, "ann", 0.1):
            pass
        with other.hold(BOT, "cy", 0.1):
            pass
    assert list(folder.iterdir()) == []


def test_thread_locks_keep_no_session_once_no_thread_holds_or_waits() -> None:
    """A session's thread lock lives only while a thread holds or waits for it: a waiter that gives
    up and one that gets the lock after its holder leave nothing behind (a server's table of locks
    does not grow with its users)."""
    locks = ThreadLocks()
    got: list[str] = []
    key = lock_digest(BOT, "ann")

    def wait(timeout_s: float, name: str) -> None:
        try:
            with locks.hold(BOT, "ann", timeout_s):
                got.append(name)
        except SessionBusy:
            got.append(f"{name} busy")

    with locks.hold(BOT, "ann", 1), locks.hold(BOT, "bob", 1):
        short = threading.Thread(target=wait, args=(0.05, "short"))
        short.start()
        short.join()
        long = threading.Thread(target=wait, args=(10.0, "long"))
        long.start()
        deadline = time.monotonic() + 10
        while locks._locks[key].count < 2 and time.monotonic() < deadline:  # the long waiter is queued
            time.sleep(0.005)
        assert locks._locks[key].count == 2
        assert len(locks._locks) == 2  # ann's and bob's
    long.join()
    assert got == ["short busy", "long"]
    assert locks._locks == {}


@pytest.mark.skipif(not range_locks_work(), reason="no open-file-description locks on this system")
def test_a_forked_child_holds_none_of_its_parents_session_locks(tmp_path: Path) -> None:
    """A child forked while its parent holds a session keeps nothing when the parent dies."""
    import os
    import signal

    store = SqlStore(str(tmp_path / "s.db"))
    ready, go = os.pipe()
    parent = os.fork()
    if parent == 0:  # pragma: no cover - the holding process
        try:
            with store.session_lock(BOT, "ann", timeout_s=1):
                child = os.fork()
                if child == 0:
                    time.sleep(30)
                    os._exit(0)
                os.write(go, str(child).encode())
                time.sleep(30)
        finally:
            os._exit(0)
    try:
        child = int(os.read(ready, 32))
        assert isinstance(held_elsewhere(store, BOT, "ann", 0.1), SessionBusy)
        os.kill(parent, signal.SIGKILL)  # the holder dies; its forked child lives on
        os.waitpid(parent, 0)
        assert held_elsewhere(store, BOT, "ann", 2) is None
    finally:
        with suppress(ProcessLookupError):
            os.kill(child, signal.SIGKILL)
        store.close()
