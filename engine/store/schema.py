"""The database schema: sqlmodel tables, the recorded schema version, migrations, and the
statements the store runs on the tables.

Every table a turn writes is declared here once; `migrate` creates them in a new
database, upgrades an older one step by step inside one transaction (a failed step
leaves the file as it was), and refuses a newer or foreign database with a message
that says what to do. `statements` compiles the store's statements once per dialect.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import (
    TIMESTAMP,
    Connection,
    LargeBinary,
    bindparam,
    cast,
    func,
    insert,
    literal_column,
    null,
    select,
    union_all,
    update,
)
from sqlalchemy.engine import Dialect, Engine
from sqlalchemy.schema import CreateIndex, CreateTable
from sqlalchemy.sql.elements import BindParameter
from sqlmodel import Field, Index, SQLModel, Text, UniqueConstraint

from engine.errors import SchemaError
from engine.store.dialect import Prepared, dialect_key

SCHEMA_VERSION = 5

metadata = SQLModel.metadata

# A point in time, written as ISO 8601 text: stored as that text on SQLite, which has no time
# type, and as timestamptz on PostgreSQL (8 bytes instead of 33, typed in SQL), which reads
# back as an aware datetime (tracerow.py `instant_text` turns it into the same text).
Instant = Text().with_variant(TIMESTAMP(timezone=True), "postgresql")


class MetaRow(SQLModel, table=True):
    __tablename__ = "innerloop_meta"
    key: str = Field(primary_key=True)
    value: str


class SessionRow(SQLModel, table=True):
    __tablename__ = "sessions"
    __table_args__ = (UniqueConstraint("bot", "user"),)
    id: str = Field(primary_key=True)
    bot: str
    user: str
    flow: str | None = None
    state: str | None = None
    flow_version: int | None = None
    slots: str = Field(default="{}", sa_type=Text)
    scratchpad: str = Field(default="[]", sa_type=Text)
    attempts: int = 0
    flow_turns: int = 0
    flow_started_at: str | None = Field(default=None, sa_type=Instant)
    # the active frame's questions declined before they were asked (models.FlowFrame.declined), a JSON list
    flow_declined: str = Field(default="[]", sa_type=Text)
    stack: str = Field(default="[]", sa_type=Text)
    context: str = Field(default="{}", sa_type=Text)
    carry: str = Field(default="{}", sa_type=Text)
    turns: int = 0
    version: int = 0
    created_at: str = Field(sa_type=Instant)
    updated_at: str = Field(sa_type=Instant)
    # The traces of the turns since the session's last pack, each `,[turn, compact doc]` appended
    # by the turn's own UPDATE (tracerow.py): a turn writes one row, not its row and a trace row
    # with its index entry. Never loaded with the session; `traces()` reads it.
    pending: str = Field(default="", sa_type=Text, sa_column_kwargs={"server_default": ""})


class MessageRow(SQLModel, table=True):
    __tablename__ = "messages"
    __table_args__ = (Index("ix_messages_session", "session_id", "id"),)
    id: int | None = Field(default=None, primary_key=True)
    session_id: str = Field(foreign_key="sessions.id")
    role: str
    content: str = Field(sa_type=Text)
    created_at: str = Field(sa_type=Instant)


class FlowRunRow(SQLModel, table=True):
    __tablename__ = "flow_runs"
    id: int | None = Field(default=None, primary_key=True)
    session_id: str = Field(foreign_key="sessions.id", index=True)
    flow: str
    outcome: str
    summary: str = Field(sa_type=Text)
    slots: str = Field(sa_type=Text)
    turns: int
    started_at: str = Field(sa_type=Instant)
    ended_at: str = Field(sa_type=Instant)


class TurnEventRow(SQLModel, table=True):
    """One turn's trace as JSON (`trace`), or the traces of the turns up to `turn` packed
    (`pack`, with `trace` empty): see tracerow.py."""

    __tablename__ = "turn_events"
    __table_args__ = (Index("ix_turn_events_session", "session_id", "turn"),)
    id: int | None = Field(default=None, primary_key=True)
    session_id: str = Field(foreign_key="sessions.id")
    turn: int
    trace: str = Field(sa_type=Text)
    created_at: str = Field(sa_type=Instant)
    pack: bytes | None = Field(default=None, sa_type=LargeBinary)


class RecordRow(SQLModel, table=True):
    __tablename__ = "records"
    __table_args__ = (Index("ix_records_kind_user", "kind", "bot", "user"),)
    id: int | None = Field(default=None, primary_key=True)
    kind: str
    bot: str
    user: str
    session_id: str
    data: str = Field(sa_type=Text)
    created_at: str = Field(sa_type=Instant)


SESSIONS = SessionRow.__table__  # type: ignore[attr-defined]
MESSAGES = MessageRow.__table__  # type: ignore[attr-defined]
RUNS = FlowRunRow.__table__  # type: ignore[attr-defined]
EVENTS = TurnEventRow.__table__  # type: ignore[attr-defined]
RECORDS = RecordRow.__table__  # type: ignore[attr-defined]
META = MetaRow.__table__  # type: ignore[attr-defined]


def _packs_and_instants(conn: Connection) -> None:
    """1 -> 2: turn_events gains `pack` (rows stored before stay single rows); on
    PostgreSQL the times become timestamptz."""
    kind = LargeBinary().compile(dialect=conn.dialect)  # BLOB on SQLite, BYTEA on PostgreSQL
    conn.exec_driver_sql(f"ALTER TABLE turn_events ADD COLUMN pack {kind}")
    if conn.dialect.name != "postgresql":
        return
    for table, columns in (
        ("sessions", ("flow_started_at", "created_at", "updated_at")),
        ("messages", ("created_at",)),
        ("flow_runs", ("started_at", "ended_at")),
        ("turn_events", ("created_at",)),
        ("records", ("created_at",)),
    ):
        changes = ", ".join(f"ALTER COLUMN {c} TYPE timestamptz USING {c}::timestamptz" for c in columns)
        conn.exec_driver_sql(f"ALTER TABLE {table} {changes}")


def _carry(conn: Connection) -> None:
    """2 -> 3: sessions gain `carry`, what a turn leaves for the next (models.CarryOver). The
    rows keep their old keys in `context` until loaded: sql.py moves them then."""
    conn.exec_driver_sql("ALTER TABLE sessions ADD COLUMN carry TEXT NOT NULL DEFAULT '{}'")


def _declined(conn: Connection) -> None:
    """3 -> 4: sessions gain `flow_declined`, the active frame's questions declined ahead (a frame on the
    stack keeps them in its JSON already). Rows stored before had none to keep."""
    conn.exec_driver_sql("ALTER TABLE sessions ADD COLUMN flow_declined TEXT NOT NULL DEFAULT '[]'")


def _pending(conn: Connection) -> None:
    """4 -> 5: sessions gain `pending`, the traces of the turns since the last pack. The single
    trace rows stored before stay in turn_events as they are, older than anything pending, and are
    read from there (they are no longer packed: a pack takes only what is pending)."""
    conn.exec_driver_sql("ALTER TABLE sessions ADD COLUMN pending TEXT NOT NULL DEFAULT ''")


# version n -> function upgrading a connection from n to n + 1, run in one transaction
MIGRATIONS: dict[int, Callable[[Connection], None]] = {1: _packs_and_instants, 2: _carry, 3: _declined, 4: _pending}


def migrate(engine: Engine, url: str) -> None:
    """Create the schema, or migrate an older one in one transaction; SchemaError if it cannot."""
    # The usual case, a current schema, needs only a read: opening a store then never
    # waits behind (or starves on) busy writers for the write lock.
    with engine.connect() as conn:
        tables = set(conn.dialect.get_table_names(conn))
        if "innerloop_meta" in tables and set(metadata.tables) <= tables:
            found = conn.execute(select(META.c.value).where(META.c.key == "schema_version")).scalar()
            if found == str(SCHEMA_VERSION):
                return
    # innerloop_write makes the SQLite transaction BEGIN IMMEDIATE: two processes opening
    # a new file at once then serialize on the check-then-create instead of both creating.
    with engine.execution_options(innerloop_write=True).begin() as conn:
        tables = set(conn.dialect.get_table_names(conn))
        if "innerloop_meta" not in tables:
            if tables & {"sessions", "messages", "records"}:
                raise SchemaError(
                    f"{url} holds tables {sorted(tables)} but no innerloop schema version; "
                    "it was not written by innerloop. Point --db at another file."
                )
            _create(conn, tables)
            conn.execute(insert(META).values(key="schema_version", value=str(SCHEMA_VERSION)))
            return
        found = conn.execute(select(META.c.value).where(META.c.key == "schema_version")).scalar()
        try:
            version = int(found or 0)
        except ValueError:
            raise SchemaError(f"{url} records an unreadable schema version {found!r}") from None
        if version > SCHEMA_VERSION:
            raise SchemaError(
                f"{url} was written by a newer innerloop (schema {version}); this build reads "
                f"schema {SCHEMA_VERSION}. Upgrade innerloop or use another --db."
            )
        while version < SCHEMA_VERSION:
            step = MIGRATIONS.get(version)
            if step is None:
                raise SchemaError(
                    f"{url} has schema {version} and no migration to {version + 1} exists; "
                    "export what you need and start a new database."
                )
            step(conn)
            version += 1
            conn.execute(update(META).where(META.c.key == "schema_version").values(value=str(version)))
        metadata.create_all(conn)


# CREATE statements compiled once per dialect and table set in the process: compiling them took
# half of making a new database's schema (16 of 33 ms for SQLite), and a replay or a test makes one
# per script or test
_DDL: dict[tuple[object, ...], list[tuple[str, list[str]]]] = {}


def _create(conn: Connection, present: set[str]) -> None:
    """What `metadata.create_all(conn)` does in a database holding the tables `present`: each
    other table created, with its indexes, parents first."""
    key = (dialect_key(conn.dialect), tuple(metadata.tables))
    ddl = _DDL.get(key)
    if ddl is None:
        d = conn.dialect
        ddl = []
        for t in metadata.sorted_tables:
            indexes = [str(CreateIndex(i).compile(dialect=d)) for i in t.indexes]
            ddl.append((t.name, [str(CreateTable(t).compile(dialect=d)), *indexes]))
        _DDL[key] = ddl
    for table, statements in ddl:
        if table not in present:
            for statement in statements:
                conn.exec_driver_sql(statement)


def schema_version(engine: Engine) -> int:
    """The schema version the database records (0 when it records none)."""
    with engine.connect() as conn:
        return int(conn.execute(select(META.c.value).where(META.c.key == "schema_version")).scalar() or 0)


# -- the statements the store runs, compiled once ------------------------------------------

# the order the store unpacks a sessions row in (checked against the table below)
SESSION_COLUMNS = (
    "id", "bot", "user", "flow", "state", "flow_version", "slots", "scratchpad", "attempts", "flow_turns",
    "flow_started_at", "flow_declined", "stack", "context", "carry", "turns", "version", "created_at", "updated_at",
)  # fmt: skip
assert tuple(c.name for c in SESSIONS.columns) == (*SESSION_COLUMNS, "pending"), "the sessions table's columns moved"
RUN_COLUMNS = ("flow", "outcome", "summary", "slots", "turns", "started_at", "ended_at")
RECORD_COLUMNS = ("id", "kind", "bot", "user", "session_id", "data", "created_at")
# A session's identity never changes; leaving these out of the UPDATE also spares SQLite
# rewriting the primary-key and (bot, user) index entries on every turn.
SESSION_FIXED = frozenset({"id", "bot", "user", "created_at"})


@dataclass(frozen=True)
class Statements:
    """The statements of the turn path and the store's reads, compiled for one dialect."""

    load: Prepared
    get: Prepared
    # a session's first turn: its row, with the turn's trace pending (`pending`) unless it packs
    insert_session: Prepared
    # a turn in the usual case: the row under its version check, the turn's trace appended to
    # what is pending (`item`) while that holds at most `room` characters (else no row changes)
    append_session: Prepared
    # a turn that packs: the row, nothing left pending; `held` is what was pending, read first
    # in the same transaction
    pack_session: Prepared
    held: Prepared
    insert_message: Prepared
    insert_run: Prepared
    insert_record: Prepared
    # what was pending and could not be read, kept as a single row (`pack` NULL) for someone to look at
    insert_event: Prepared
    insert_pack: Prepared
    history: Prepared
    runs: Prepared
    # a session's traces: what is pending (one row, first, when the session exists), then its
    # turn_events rows newest first; `traces_last` the first `limit` of those rows
    traces_all: Prepared
    traces_last: Prepared
    # a user's records: by which of (kind, bot, user) are given; the latest of a kind
    records: dict[tuple[bool, bool, bool], Prepared]
    latest: Prepared


def _compile(d: Dialect) -> Statements:
    s, m, e = SESSIONS.c, MESSAGES.c, EVENTS.c
    session: BindParameter[str] = bindparam("session_id")
    # the pending row sorts first (part 0), then the rows newest first
    traces = union_all(
        select(
            literal_column("0").label("part"),
            literal_column("0").label("seq"),
            s.pending.label("trace"),
            s.turns.label("turn"),
            s.updated_at.label("created_at"),
            cast(null(), LargeBinary).label("pack"),
        ).where(s.id == session),
        select(literal_column("1"), e.id, e.trace, e.turn, e.created_at, e.pack).where(e.session_id == session),
    ).order_by(literal_column("part"), literal_column("seq").desc())
    loaded = select(*(s[c] for c in SESSION_COLUMNS))
    changed: dict[str, object] = {c: bindparam(c) for c in SESSION_COLUMNS if c not in SESSION_FIXED}
    this_version = (s.id == bindparam("id"), s.version == bindparam("expected_version"))
    r = RECORDS.c
    stored = select(*(r[c] for c in RECORD_COLUMNS))
    records: dict[tuple[bool, bool, bool], Prepared] = {}
    for kind, bot, user in itertools.product((False, True), repeat=3):
        given = (kind, bot, user)
        chosen = stored.order_by(r.id)
        for column, present in zip(("kind", "bot", "user"), given, strict=True):
            if present:
                chosen = chosen.where(r[column] == bindparam(column))
        records[given] = Prepared(chosen, d)
    latest = stored.where(r.kind == bindparam("kind"), r.bot == bindparam("bot"), r.user == bindparam("user"))
    return Statements(
        load=Prepared(loaded.where(s.bot == bindparam("bot"), s.user == bindparam("user")), d),
        get=Prepared(loaded.where(s.id == bindparam("id")), d),
        insert_session=Prepared(insert(SESSIONS).values({c: bindparam(c) for c in (*SESSION_COLUMNS, "pending")}), d),
        append_session=Prepared(
            update(SESSIONS)
            .where(*this_version, func.length(s.pending) <= bindparam("room"))
            .values({**changed, "pending": s.pending + bindparam("item")}),
            d,
        ),
        pack_session=Prepared(
            update(SESSIONS).where(*this_version).values({**changed, "pending": bindparam("pending")}), d
        ),
        held=Prepared(select(s.version, s.pending).where(s.id == bindparam("id")), d),
        insert_message=Prepared(
            insert(MESSAGES).values({c: bindparam(c) for c in ("session_id", "role", "content", "created_at")}), d
        ),
        insert_run=Prepared(insert(RUNS).values({c: bindparam(c) for c in ("session_id", *RUN_COLUMNS)}), d),
        insert_record=Prepared(insert(RECORDS).values({c: bindparam(c) for c in RECORD_COLUMNS if c != "id"}), d),
        insert_event=Prepared(
            insert(EVENTS).values({c: bindparam(c) for c in ("session_id", "turn", "trace", "created_at")}), d
        ),
        insert_pack=Prepared(
            insert(EVENTS).values({c: bindparam(c) for c in ("session_id", "turn", "trace", "created_at", "pack")}), d
        ),
        history=Prepared(
            select(m.role, m.content).where(m.session_id == session).order_by(m.id.desc()).limit(bindparam("limit")),
            d,
        ),
        runs=Prepared(
            select(*(RUNS.c[c] for c in RUN_COLUMNS)).where(RUNS.c.session_id == session).order_by(RUNS.c.id), d
        ),
        traces_all=Prepared(traces, d),
        traces_last=Prepared(traces.limit(bindparam("limit")), d),
        records=records,
        latest=Prepared(latest.order_by(r.id.desc()).limit(1), d),
    )


# compiled per dialect once per process, shared by its stores (Prepared holds no connection state):
# every store of a replay or a test suite would otherwise compile the same statements again
_COMPILED: dict[tuple[object, ...], Statements] = {}


def statements(d: Dialect) -> Statements:
    key = dialect_key(d)
    found = _COMPILED.get(key)
    if found is None:
        found = _COMPILED[key] = _compile(d)
    return found
