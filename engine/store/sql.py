"""`SqlStore`: the session store on sqlmodel; SQLite by default, any SQLAlchemy URL accepted.

The schema (sqlmodel tables, versions, migrations) lives in schema.py, each database's
connection settings and the statements compiled once in dialect.py, the engine and the
store's own DBAPI connection in connection.py, a trace's row forms in tracerow.py. The
per-turn path (load one row, write one turn) does not go through ORM objects nor even
through Core execution: building and flushing ORM instances costs several times the SQL
itself, and Core re-derives a cache key for every statement it runs (about as much again).
Instead each statement is built once from the sqlmodel tables, compiled once for the
engine's dialect, and run straight on the store's own DBAPI connection, and a loaded row
is validated in one pydantic call (see bench/turn_overhead.py for the figures). A turn's
statements are exactly one transaction, and DDL in a migration rolls back with it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import JsonValue
from sqlalchemy import Connection, bindparam, delete, event, exc, func, insert, select, update
from sqlalchemy.engine import Dialect

from engine.errors import ConflictError, StoreError
from engine.models import (
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
from engine.store.connection import Database, once_more_if_gone, operation
from engine.store.contract import summarize
from engine.store.dialect import (
    Params,
    Prepared,
    advisory_schema_lock,
    connect_url,
    dialect_key,
    reason,
    scrub,
)
from engine.store.locks import (
    AdvisoryLocks,
    FileLocks,
    RangeLocks,
    SessionLocks,
    ThreadLocks,
    ThreadsFirst,
    range_locks_work,
)
from engine.store.rows import (
    RECORD_COLUMNS,
    RUN_COLUMNS,
    SESSION_COLUMNS,
    record_from_row,
    record_values,
    run_from_row,
    run_values,
    session_from_row,
    session_values,
)
from engine.store.schema import EVENTS, MESSAGES, RECORDS, RUNS, SESSIONS, migrate, schema_version
from engine.store.tracerow import PACK_EVERY, PACK_MAX, pack, packable, trace_row, traces_from_rows
from engine.window import LOAD_LIMIT

T = TypeVar("T")
_S, _M, _R, _E, _D = SESSIONS, MESSAGES, RUNS, EVENTS, RECORDS

_SESSION_COLUMNS: tuple[str, ...] = tuple(c.name for c in _S.columns)
assert _SESSION_COLUMNS == SESSION_COLUMNS, f"rows unpack {SESSION_COLUMNS}, the table has {_SESSION_COLUMNS}"
# A session's identity never changes; leaving these out of the UPDATE also spares SQLite
# rewriting the primary-key and (bot, user) index entries on every turn.
_SESSION_FIXED = frozenset({"id", "bot", "user", "created_at"})


class SqlStore(Database):
    """The real store. SQLite files run in WAL mode, synchronous=FULL, with a busy timeout.

    Every public method raises StoreError naming itself (`operation`) when the database fails.
    """

    def _opened(self) -> None:
        """The schema made or migrated, and the statements compiled, once the engine is up."""
        if not self._sqlite:
            event.listen(self.engine, "begin", advisory_schema_lock)
        try:
            migrate(self.engine, self.url)
        except exc.SQLAlchemyError as e:
            raise StoreError(f"cannot open database {self.url!r}: {reason(e)}") from e
        self._prepare()
        self._writers = self._writer_locks()

    # -- the writers of one session queue (see locks.py) -----------------------------------

    def session_lock(self, bot: str, user: str, *, timeout_s: float) -> AbstractContextManager[None]:
        return self._writers.hold(bot, user, timeout_s)

    def _writer_locks(self) -> SessionLocks:
        if not self._sqlite:
            return ThreadsFirst(AdvisoryLocks(self._lock_connection))
        database = self.engine.url.database
        if not database or database == ":memory:" or "mode=memory" in self.url:
            return ThreadLocks()  # a database in memory lives in this process only
        if range_locks_work():
            return ThreadsFirst(RangeLocks(Path(f"{database}-locks.bin")))
        return ThreadsFirst(FileLocks(Path(f"{database}-locks")))

    def _lock_connection(self) -> Any:
        """A new DBAPI connection, out of the pool's count, in autocommit: AdvisoryLocks holds one per lock."""
        try:
            raw = self.engine.raw_connection()
        except (exc.SQLAlchemyError, self.dbapi.Error) as e:
            why = reason(e) if isinstance(e, exc.SQLAlchemyError) else str(e)
            raise StoreError(
                f"cannot reach database {self.url!r} to lock the session: {scrub(why, connect_url(self.url))}",
                operation="session_lock",
            ) from e
        conn = raw.driver_connection
        assert conn is not None
        raw.detach()  # kept for as long as the store lives, never returned to the pool
        conn.rollback()  # the pool's ping may have begun a transaction
        conn.autocommit = True
        return conn

    def _prepare(self) -> None:
        # compiled once per dialect in the process (`_compiled`): every store of a replay or a
        # test suite would otherwise compile the same statements again
        q = _compiled(self.engine.dialect)
        self._q_load = q.load
        self._q_get = q.get
        self._q_insert_session = q.insert_session
        self._q_update_session = q.update_session
        self._q_insert_message = q.insert_message
        self._q_insert_run = q.insert_run
        self._q_insert_record = q.insert_record
        self._q_insert_event = q.insert_event
        self._q_segment = q.segment
        self._q_drop_segment = q.drop_segment
        self._q_history = q.history
        self._q_runs = q.runs
        self._q_traces_all = q.traces_all
        self._q_traces_last = q.traces_last
        self._q_records: dict[tuple[bool, bool, bool], Prepared] = {}
        self._q_latest: Prepared | None = None

    @property
    @operation()
    def schema_version(self) -> int:
        return schema_version(self.engine)

    # -- the turn path ---------------------------------------------------------------------

    @operation()
    def load(self, bot: str, user: str) -> SessionState | None:
        rows = self._rows(self._q_load, {"bot": bot, "user": user})
        return session_from_row(rows[0]) if rows else None

    @operation()
    def get(self, session_id: str) -> SessionState | None:
        rows = self._rows(self._q_get, {"id": session_id})
        if rows:
            return session_from_row(rows[0])
        if len(session_id) < 4:
            return None
        # A unique prefix of at least four characters names a session too (CLI convenience).
        prefixed = select(_S).where(_S.c.id.startswith(session_id, autoescape=True)).limit(2)
        found = self._select(lambda conn: conn.execute(prefixed).all())
        return session_from_row(tuple(found[0])) if len(found) == 1 else None

    @operation()
    def commit(self, write: TurnWrite) -> None:
        s = write.session
        # Serialize everything before the transaction: the write lock is held only for the SQL,
        # and a value that cannot be stored fails before anything is written.
        try:
            values = session_values(s)
            now = str(values["updated_at"])  # the turn's time, as the session row holds it
            messages = [
                self._q_insert_message.params(
                    {"session_id": s.id, "role": m.role, "content": m.content, "created_at": now}
                )
                for m in write.messages
            ]
            runs = [self._q_insert_run.params(run_values(s.id, r)) for r in write.runs]
            records = [self._q_insert_record.params(record_values(s, d, now)) for d in write.records]
            turn = write.trace_doc["turn"]
            # A turn that ends an inner loop packs the loop's traces (see tracerow.py).
            packing = bool(write.runs) or (isinstance(turn, int) and turn % PACK_EVERY == 0)
            event_row: dict[str, object] = {"session_id": s.id, "turn": turn, "created_at": now, "pack": None}
            event_row["trace"] = "" if packing else trace_row(write.trace_doc, now)
        except (TypeError, ValueError) as e:
            raise StoreError(f"could not serialize the turn: {e}", session=s.id) from e
        if write.expected_version == 0:
            values["created_at"] = s.created_at.isoformat()  # never rewritten by an update
            row_sql, row = self._q_insert_session.sql, self._q_insert_session.params(values)
        else:
            values["expected_version"] = write.expected_version
            row_sql, row = self._q_update_session.sql, self._q_update_session.params(values)
        packed = write.trace_doc if packing else None
        with self._lock:
            self._write_turn(s, write.expected_version, row_sql, row, messages, runs, records, event_row, packed)

    def _write_turn(
        self,
        s: SessionState,
        expected_version: int,
        row_sql: str,
        row: Params,
        messages: list[Params],
        runs: list[Params],
        records: list[Params],
        event_row: dict[str, object],
        packed: JsonObject | None,
    ) -> None:
        begun = False

        def attempt() -> None:
            nonlocal begun
            begun = False
            conn = self._connection()
            cur = self._cur
            try:
                if self._sqlite:
                    # The driver runs in autocommit mode (see sqlite_connect); taking the write
                    # lock up front lets the busy timeout, not a failed lock upgrade, handle contention.
                    cur.execute("BEGIN IMMEDIATE")
                try:
                    cur.execute(row_sql, row)
                except self._dbapi.IntegrityError as e:
                    # only the new-session insert can violate a key: id or (bot, user) taken
                    raise ConflictError(s.id, expected_version) from e
                begun = True
                if cur.rowcount != 1:
                    raise ConflictError(s.id, expected_version)
                if len(messages) == 1:
                    cur.execute(self._q_insert_message.sql, messages[0])
                elif messages:
                    cur.executemany(self._q_insert_message.sql, messages)
                if runs:
                    cur.executemany(self._q_insert_run.sql, runs)
                if records:
                    cur.executemany(self._q_insert_record.sql, records)
                if packed is not None:
                    event_row["pack"] = self._pack_segment(cur, s.id, packed, str(event_row["created_at"]))
                cur.execute(self._q_insert_event.sql, self._q_insert_event.params(event_row))
                conn.commit()
            except BaseException:
                self._recover(conn)
                raise

        try:
            # Lost before the first statement ran: nothing reached the server, so the turn is
            # written on a new connection. Lost later, the commit may or may not have landed:
            # the caller is told, and the row version settles it on the next load.
            once_more_if_gone(attempt, self._dbapi, repeatable=lambda: not begun)
        except self._dbapi.Error as e:
            raise StoreError(f"could not write the turn: {e}", session=s.id) from e

    def _pack_segment(self, cur: Any, session_id: str, current: JsonObject, at: str) -> bytes:
        """Inside the turn's transaction: take the session's single rows since its last pack
        out, and return them packed with the turn being written."""
        cur.execute(self._q_segment.sql, self._q_segment.params({"session_id": session_id}))
        items: list[JsonValue] = []
        first = None
        for row in cur.fetchall():  # newest first
            item = packable(row, at) if row[3] is None else None
            if item is None:
                break  # the previous pack, or a row that cannot be read: it and older rows stay
            items.append(item)
            first = row[1]
        if first is not None:
            drop = {"session_id": session_id, "first": first}
            cur.execute(self._q_drop_segment.sql, self._q_drop_segment.params(drop))
        return pack(items[::-1], current, at)

    # -- reading ---------------------------------------------------------------------------

    @operation()
    def history(self, session_id: str, limit: int = LOAD_LIMIT) -> list[Message]:
        if limit <= 0:
            return []
        rows = self._rows(self._q_history, {"session_id": session_id, "limit": limit})
        return [Message(role=role, content=content) for role, content in reversed(rows)]

    @operation()
    def runs(self, session_id: str) -> list[FlowRun]:
        return [run_from_row(row) for row in self._rows(self._q_runs, {"session_id": session_id})]

    @operation()
    def traces(self, session_id: str, limit: int | None = None) -> list[TurnTrace]:
        if limit:
            # a row holds at least one turn: the newest `limit` rows hold the newest `limit` turns
            rows = self._rows(self._q_traces_last, {"session_id": session_id, "limit": limit})
        else:
            rows = self._rows(self._q_traces_all, {"session_id": session_id})
        return traces_from_rows(rows, session_id, limit or None)

    @operation()
    def records(
        self, kind: str | None = None, *, bot: str | None = None, user: str | None = None
    ) -> list[StoredRecord]:
        given = (kind is not None, bot is not None, user is not None)
        q = self._q_records.get(given)
        if q is None:
            stmt = select(*(_D.c[c] for c in RECORD_COLUMNS)).order_by(_D.c.id)
            for column, present in zip(("kind", "bot", "user"), given, strict=True):
                if present:
                    stmt = stmt.where(_D.c[column] == bindparam(column))
            q = self._q_records[given] = Prepared(stmt, self.engine.dialect)
        values = {k: v for k, v in (("kind", kind), ("bot", bot), ("user", user)) if v is not None}
        return [record_from_row(row) for row in self._rows(q, values)]

    @operation()
    def latest(self, kind: str, *, bot: str, user: str) -> StoredRecord | None:
        if self._q_latest is None:
            stmt = (
                select(*(_D.c[c] for c in RECORD_COLUMNS))
                .where(_D.c.kind == bindparam("kind"), _D.c.bot == bindparam("bot"), _D.c.user == bindparam("user"))
                .order_by(_D.c.id.desc())
                .limit(1)
            )
            self._q_latest = Prepared(stmt, self.engine.dialect)
        rows = self._rows(self._q_latest, {"kind": kind, "bot": bot, "user": user})
        return record_from_row(rows[0]) if rows else None

    @operation()
    def add_record(self, bot: str, user: str, session_id: str, draft: RecordDraft) -> None:
        try:
            data = json.dumps(draft.data)
        except (TypeError, ValueError) as e:
            raise StoreError(f"could not serialize the {draft.kind} record: {e}", session=session_id) from e
        with self.engine.execution_options(innerloop_write=True).begin() as conn:
            conn.execute(
                insert(_D).values(
                    kind=draft.kind, bot=bot, user=user, session_id=session_id,
                    data=data, created_at=utcnow().isoformat(),
                )
            )  # fmt: skip

    @operation()
    def sessions(self) -> list[SessionSummary]:
        rows = self._select(lambda conn: conn.execute(select(_S).order_by(_S.c.updated_at.desc())).all())
        return [summarize(session_from_row(tuple(r))) for r in rows]

    @operation()
    def count(self, table: str, session_id: str) -> int:
        """Rows of `table` for a session (used by integrity checks)."""
        t = {"messages": _M, "flow_runs": _R, "turn_events": _E}[table]
        counted = select(func.count()).select_from(t).where(t.c.session_id == session_id)
        return int(self._select(lambda conn: conn.execute(counted).scalar()) or 0)

    def _select(self, read: Callable[[Connection], T]) -> T:
        """A read outside the turn path, on a pooled connection; again on a new one if that one was gone."""

        def attempt() -> T:
            with self.engine.connect() as conn:
                return read(conn)

        return once_more_if_gone(attempt, self.dbapi)

    @operation()
    def close(self) -> None:
        writers = getattr(self, "_writers", None)  # absent when the store failed to open
        if writers is not None:
            writers.close()
        super().close()

    @operation()
    def reopen(self) -> SqlStore:
        """Close this store and open a new one on the same database with the same options,
        as a restarted process would (replay's `restart: true`, the harness's `restart()`)."""
        self.close()
        busy_timeout_ms, synchronous, statement_timeout_ms = self._options
        return SqlStore(
            connect_url(self.url),
            busy_timeout_ms=busy_timeout_ms,
            synchronous=synchronous,
            statement_timeout_ms=statement_timeout_ms,
        )


@dataclass(frozen=True)
class _Statements:
    """The turn path's statements, compiled for one dialect (see `dialect_key`)."""

    load: Prepared
    get: Prepared
    insert_session: Prepared
    update_session: Prepared
    insert_message: Prepared
    insert_run: Prepared
    insert_record: Prepared
    insert_event: Prepared
    segment: Prepared
    drop_segment: Prepared
    history: Prepared
    runs: Prepared
    traces_all: Prepared
    traces_last: Prepared


def _compile(d: Dialect) -> _Statements:
    s = _S.c
    q_load = Prepared(select(_S).where(s.bot == bindparam("bot"), s.user == bindparam("user")), d)
    q_get = Prepared(select(_S).where(s.id == bindparam("id")), d)
    q_insert_session = Prepared(insert(_S).values({c: bindparam(c) for c in _SESSION_COLUMNS}), d)
    q_update_session = Prepared(
        update(_S)
        .where(s.id == bindparam("id"), s.version == bindparam("expected_version"))
        .values({c: bindparam(c) for c in _SESSION_COLUMNS if c not in _SESSION_FIXED}),
        d,
    )
    q_insert_message = Prepared(
        insert(_M).values({c: bindparam(c) for c in ("session_id", "role", "content", "created_at")}), d
    )
    q_insert_run = Prepared(insert(_R).values({c: bindparam(c) for c in ("session_id", *RUN_COLUMNS)}), d)
    q_insert_record = Prepared(insert(_D).values({c: bindparam(c) for c in RECORD_COLUMNS if c != "id"}), d)
    q_insert_event = Prepared(
        insert(_E).values({c: bindparam(c) for c in ("session_id", "turn", "trace", "created_at", "pack")}), d
    )
    e = _E.c
    events = select(e.trace, e.turn, e.created_at, e.pack).where(e.session_id == bindparam("session_id"))
    q_segment = Prepared(events.order_by(e.id.desc()).limit(PACK_MAX), d)
    q_drop_segment = Prepared(
        delete(_E).where(e.session_id == bindparam("session_id"), e.turn >= bindparam("first"), e.pack.is_(None)),
        d,
    )
    m = _M.c
    q_history = Prepared(
        select(m.role, m.content)
        .where(m.session_id == bindparam("session_id"))
        .order_by(m.id.desc())
        .limit(bindparam("limit")),
        d,
    )
    q_runs = Prepared(
        select(*(_R.c[c] for c in RUN_COLUMNS)).where(_R.c.session_id == bindparam("session_id")).order_by(_R.c.id),
        d,
    )
    q_traces_all = Prepared(events.order_by(e.id.desc()), d)
    q_traces_last = Prepared(events.order_by(e.id.desc()).limit(bindparam("limit")), d)
    return _Statements(
        load=q_load,
        get=q_get,
        insert_session=q_insert_session,
        update_session=q_update_session,
        insert_message=q_insert_message,
        insert_run=q_insert_run,
        insert_record=q_insert_record,
        insert_event=q_insert_event,
        segment=q_segment,
        drop_segment=q_drop_segment,
        history=q_history,
        runs=q_runs,
        traces_all=q_traces_all,
        traces_last=q_traces_last,
    )


# compiled per dialect once per process, shared by its stores (Prepared holds no connection state);
# keyed by PACK_MAX too, the one setting the statements read when compiled (a test lowers it)
_COMPILED: dict[tuple[object, ...], _Statements] = {}


def _compiled(d: Dialect) -> _Statements:
    key = (*dialect_key(d), PACK_MAX)
    found = _COMPILED.get(key)
    if found is None:
        found = _COMPILED[key] = _compile(d)
    return found
