"""`SqlStore`: the session store on sqlmodel; SQLite by default, any SQLAlchemy URL accepted.

The schema is declared with sqlmodel. The per-turn path (load one row, write one turn)
uses prepared Core statements on those tables rather than ORM objects: building and
flushing ORM instances cost several times the SQL itself (see bench/turn_overhead.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pydantic import TypeAdapter
from sqlalchemy import Connection, bindparam, event, exc, func, insert, select, update
from sqlalchemy.engine import Engine
from sqlmodel import Field, Index, SQLModel, Text, UniqueConstraint, create_engine

from engine.errors import ConflictError, SchemaError, StoreError
from engine.models import (
    FlowFrame,
    FlowRun,
    JsonObject,
    Message,
    RecordDraft,
    SessionState,
    SessionSummary,
    StoredRecord,
    TurnTrace,
    TurnWrite,
    utcnow,
)
from engine.store import summarize
from engine.window import LOAD_LIMIT

SCHEMA_VERSION = 1
# version n -> function upgrading a connection from n to n + 1, run in one transaction
MIGRATIONS: dict[int, Callable[[Connection], None]] = {}

_metadata = SQLModel.metadata


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
    flow_started_at: str | None = None
    stack: str = Field(default="[]", sa_type=Text)
    context: str = Field(default="{}", sa_type=Text)
    turns: int = 0
    version: int = 0
    created_at: str
    updated_at: str


class MessageRow(SQLModel, table=True):
    __tablename__ = "messages"
    __table_args__ = (Index("ix_messages_session", "session_id", "id"),)
    id: int | None = Field(default=None, primary_key=True)
    session_id: str = Field(foreign_key="sessions.id")
    role: str
    content: str = Field(sa_type=Text)
    created_at: str


class FlowRunRow(SQLModel, table=True):
    __tablename__ = "flow_runs"
    id: int | None = Field(default=None, primary_key=True)
    session_id: str = Field(foreign_key="sessions.id", index=True)
    flow: str
    outcome: str
    summary: str = Field(sa_type=Text)
    slots: str = Field(sa_type=Text)
    turns: int
    started_at: str
    ended_at: str


class TurnEventRow(SQLModel, table=True):
    __tablename__ = "turn_events"
    __table_args__ = (Index("ix_turn_events_session", "session_id", "turn"),)
    id: int | None = Field(default=None, primary_key=True)
    session_id: str = Field(foreign_key="sessions.id")
    turn: int
    trace: str = Field(sa_type=Text)
    created_at: str


class RecordRow(SQLModel, table=True):
    __tablename__ = "records"
    __table_args__ = (Index("ix_records_kind_user", "kind", "bot", "user"),)
    id: int | None = Field(default=None, primary_key=True)
    kind: str
    bot: str
    user: str
    session_id: str
    data: str = Field(sa_type=Text)
    created_at: str


_S = SessionRow.__table__  # type: ignore[attr-defined]
_M = MessageRow.__table__  # type: ignore[attr-defined]
_R = FlowRunRow.__table__  # type: ignore[attr-defined]
_E = TurnEventRow.__table__  # type: ignore[attr-defined]
_D = RecordRow.__table__  # type: ignore[attr-defined]
_META = MetaRow.__table__  # type: ignore[attr-defined]
_messages_json: TypeAdapter[list[Message]] = TypeAdapter(list[Message])
_frames_json: TypeAdapter[list[FlowFrame]] = TypeAdapter(list[FlowFrame])
_object_json: TypeAdapter[JsonObject] = TypeAdapter(JsonObject)


def sqlite_url(path: str) -> str:
    return path if "://" in path else f"sqlite:///{path}"


class SqlStore:
    """The real store. SQLite files run in WAL mode, synchronous=FULL, with a busy timeout."""

    def __init__(self, url: str, *, busy_timeout_ms: int = 10_000) -> None:
        self.url = sqlite_url(url)
        try:
            self.engine: Engine = create_engine(self.url)
        except Exception as e:
            raise StoreError(f"cannot open database {self.url!r}: {e}") from e
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas(busy_timeout_ms))
        try:
            self._migrate()
        except exc.SQLAlchemyError as e:
            raise StoreError(f"cannot open database {self.url!r}: {e}") from e
        self._load = select(_S).where(_S.c.bot == bindparam("bot"), _S.c.user == bindparam("user"))

    # -- schema ----------------------------------------------------------------------------

    def _migrate(self) -> None:
        with self.engine.begin() as conn:
            tables = set(conn.dialect.get_table_names(conn))
            if "innerloop_meta" not in tables:
                if tables & {"sessions", "messages", "records"}:
                    raise SchemaError(
                        f"{self.url} holds tables {sorted(tables)} but no innerloop schema version; "
                        "it was not written by innerloop. Point --db at another file."
                    )
                _metadata.create_all(conn)
                conn.execute(insert(_META).values(key="schema_version", value=str(SCHEMA_VERSION)))
                return
            found = conn.execute(select(_META.c.value).where(_META.c.key == "schema_version")).scalar()
            version = int(found or 0)
            if version > SCHEMA_VERSION:
                raise SchemaError(
                    f"{self.url} was written by a newer innerloop (schema {version}); this build reads "
                    f"schema {SCHEMA_VERSION}. Upgrade innerloop or use another --db."
                )
            while version < SCHEMA_VERSION:
                step = MIGRATIONS.get(version)
                if step is None:
                    raise SchemaError(
                        f"{self.url} has schema {version} and no migration to {version + 1} exists; "
                        "export what you need and start a new database."
                    )
                step(conn)
                version += 1
                conn.execute(update(_META).where(_META.c.key == "schema_version").values(value=str(version)))
            _metadata.create_all(conn)

    @property
    def schema_version(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(_META.c.value).where(_META.c.key == "schema_version")).scalar() or 0)

    # -- the turn path ---------------------------------------------------------------------

    def load(self, bot: str, user: str) -> SessionState | None:
        with self.engine.connect() as conn:
            row = conn.execute(self._load, {"bot": bot, "user": user}).mappings().first()
        return _session(row) if row else None

    def get(self, session_id: str) -> SessionState | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(_S).where(_S.c.id == session_id)).mappings().first()
            if row is None and len(session_id) >= 4:
                rows = conn.execute(select(_S).where(_S.c.id.startswith(session_id))).mappings().all()
                row = rows[0] if len(rows) == 1 else None
        return _session(row) if row else None

    def commit(self, write: TurnWrite) -> None:
        s = write.session
        values = _session_values(s)
        now = s.updated_at.isoformat()
        try:
            with self.engine.begin() as conn:
                if write.expected_version == 0:
                    try:
                        conn.execute(insert(_S).values(**values))
                    except exc.IntegrityError as e:
                        raise ConflictError(s.id, 0) from e
                else:
                    done = conn.execute(
                        update(_S).where(_S.c.id == s.id, _S.c.version == write.expected_version).values(**values)
                    )
                    if done.rowcount != 1:
                        raise ConflictError(s.id, write.expected_version)
                if write.messages:
                    conn.execute(
                        insert(_M),
                        [
                            {"session_id": s.id, "role": m.role, "content": m.content, "created_at": now}
                            for m in write.messages
                        ],
                    )
                if write.runs:
                    conn.execute(insert(_R), [_run_values(s.id, r) for r in write.runs])
                if write.records:
                    conn.execute(insert(_D), [_record_values(s, d, now) for d in write.records])
                conn.execute(
                    insert(_E).values(
                        session_id=s.id, turn=write.trace.turn, trace=write.trace.model_dump_json(), created_at=now
                    )
                )
        except (ConflictError, StoreError):
            raise
        except exc.SQLAlchemyError as e:
            raise StoreError(f"could not write the turn: {e}", session=s.id) from e

    # -- reading ---------------------------------------------------------------------------

    def history(self, session_id: str, limit: int = LOAD_LIMIT) -> list[Message]:
        q = select(_M.c.role, _M.c.content).where(_M.c.session_id == session_id).order_by(_M.c.id.desc()).limit(limit)
        with self.engine.connect() as conn:
            rows = conn.execute(q).all()
        return [Message(role=r.role, content=r.content) for r in reversed(rows)]

    def runs(self, session_id: str) -> list[FlowRun]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(_R).where(_R.c.session_id == session_id).order_by(_R.c.id)).mappings().all()
        return [
            FlowRun(
                flow=r["flow"],
                outcome=r["outcome"],
                summary=r["summary"],
                slots=_object_json.validate_json(r["slots"]),
                turns=r["turns"],
                started_at=r["started_at"],
                ended_at=r["ended_at"],
            )
            for r in rows
        ]

    def traces(self, session_id: str, limit: int | None = None) -> list[TurnTrace]:
        q = select(_E.c.trace).where(_E.c.session_id == session_id).order_by(_E.c.id.desc())
        if limit:
            q = q.limit(limit)
        with self.engine.connect() as conn:
            rows = conn.execute(q).scalars().all()
        return [TurnTrace.model_validate_json(t) for t in reversed(rows)]

    def records(
        self, kind: str | None = None, *, bot: str | None = None, user: str | None = None
    ) -> list[StoredRecord]:
        q = select(_D).order_by(_D.c.id)
        for column, value in (("kind", kind), ("bot", bot), ("user", user)):
            if value is not None:
                q = q.where(_D.c[column] == value)
        with self.engine.connect() as conn:
            rows = conn.execute(q).mappings().all()
        return [
            StoredRecord(
                id=r["id"],
                kind=r["kind"],
                bot=r["bot"],
                user=r["user"],
                session_id=r["session_id"],
                data=_object_json.validate_json(r["data"]),
                created_at=r["created_at"],
            )
            for r in rows
        ]

    def add_record(self, bot: str, user: str, session_id: str, draft: RecordDraft) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                insert(_D).values(
                    kind=draft.kind, bot=bot, user=user, session_id=session_id,
                    data=json.dumps(draft.data), created_at=utcnow().isoformat(),
                )
            )  # fmt: skip

    def sessions(self) -> list[SessionSummary]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(_S).order_by(_S.c.updated_at.desc())).mappings().all()
        return [summarize(_session(r)) for r in rows]

    def count(self, table: str, session_id: str) -> int:
        """Rows of `table` for a session (used by integrity checks)."""
        t = {"messages": _M, "flow_runs": _R, "turn_events": _E}[table]
        with self.engine.connect() as conn:
            return int(
                conn.execute(select(func.count()).select_from(t).where(t.c.session_id == session_id)).scalar() or 0
            )

    def close(self) -> None:
        self.engine.dispose()


def _sqlite_pragmas(busy_timeout_ms: int) -> Callable[[Any, Any], None]:
    def on_connect(dbapi_conn: Any, _record: Any) -> None:
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        cur.execute("PRAGMA journal_mode=WAL")
        # FULL: a committed turn survives power loss, not only a process crash.
        cur.execute("PRAGMA synchronous=FULL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    return on_connect


def _session_values(s: SessionState) -> dict[str, object]:
    a = s.active
    return {
        "id": s.id,
        "bot": s.bot,
        "user": s.user,
        "flow": a.flow if a else None,
        "state": a.state if a else None,
        "flow_version": a.version if a else None,
        "slots": json.dumps(a.slots) if a else "{}",
        "scratchpad": _messages_json.dump_json(a.scratchpad).decode() if a else "[]",
        "attempts": a.attempts if a else 0,
        "flow_turns": a.turns if a else 0,
        "flow_started_at": a.started_at.isoformat() if a else None,
        "stack": _frames_json.dump_json(s.stack).decode(),
        "context": json.dumps(s.context),
        "turns": s.turns,
        "version": s.version,
        "created_at": s.created_at.isoformat(),
        "updated_at": s.updated_at.isoformat(),
    }


def _session(r: Any) -> SessionState:
    active = None
    if r["flow"] is not None:
        active = FlowFrame(
            flow=r["flow"],
            version=r["flow_version"] or 0,
            state=r["state"] or "",
            slots=_object_json.validate_json(r["slots"]),
            scratchpad=_messages_json.validate_json(r["scratchpad"]),
            attempts=r["attempts"],
            turns=r["flow_turns"],
            started_at=r["flow_started_at"],
        )
    return SessionState(
        id=r["id"],
        bot=r["bot"],
        user=r["user"],
        active=active,
        stack=_frames_json.validate_json(r["stack"]),
        context=_object_json.validate_json(r["context"]),
        turns=r["turns"],
        version=r["version"],
        created_at=r["created_at"],
        updated_at=r["updated_at"],
    )


def _run_values(session_id: str, r: FlowRun) -> dict[str, object]:
    return {
        "session_id": session_id,
        "flow": r.flow,
        "outcome": r.outcome,
        "summary": r.summary,
        "slots": json.dumps(r.slots),
        "turns": r.turns,
        "started_at": r.started_at.isoformat(),
        "ended_at": r.ended_at.isoformat(),
    }


def _record_values(s: SessionState, d: RecordDraft, now: str) -> dict[str, object]:
    return {
        "kind": d.kind,
        "bot": s.bot,
        "user": s.user,
        "session_id": s.id,
        "data": json.dumps(d.data),
        "created_at": now,
    }
