"""The database schema: sqlmodel tables, the recorded schema version, and migrations.

Every table a turn writes is declared here once; `migrate` creates them in a new
database, upgrades an older one step by step inside one transaction (a failed step
leaves the file as it was), and refuses a newer or foreign database with a message
that says what to do.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import TIMESTAMP, Connection, LargeBinary, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.schema import CreateIndex, CreateTable
from sqlmodel import Field, Index, SQLModel, Text, UniqueConstraint

from engine.errors import SchemaError
from engine.store.dialect import dialect_key

SCHEMA_VERSION = 4

metadata = SQLModel.metadata

# A point in time, written as ISO 8601 text: stored as that text on SQLite, which has no time
# type, and as timestamptz on PostgreSQL (8 bytes instead of 33, typed in SQL), which reads
# back as an aware datetime (rows.py turns it into the same text).
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
    rows keep their old keys in `context` until loaded: rows.py moves them then."""
    conn.exec_driver_sql("ALTER TABLE sessions ADD COLUMN carry TEXT NOT NULL DEFAULT '{}'")


def _declined(conn: Connection) -> None:
    """3 -> 4: sessions gain `flow_declined`, the active frame's questions declined ahead (a frame on the
    stack keeps them in its JSON already). Rows stored before had none to keep."""
    conn.exec_driver_sql("ALTER TABLE sessions ADD COLUMN flow_declined TEXT NOT NULL DEFAULT '[]'")


# version n -> function upgrading a connection from n to n + 1, run in one transaction
MIGRATIONS: dict[int, Callable[[Connection], None]] = {1: _packs_and_instants, 2: _carry, 3: _declined}


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
