"""`SqlStore`: the session store on sqlmodel; SQLite by default, any SQLAlchemy URL accepted.

A turn's share of the store reads in two methods: `load` (one SELECT, the row validated in one
pydantic call; `load_held`, a turn's way in, takes the session's writer lock first, in the same
call) and `commit` (the turn serialized, then one transaction: usually the session row's UPDATE
alone, the turn's trace appended to the row until a turn packs them). Neither goes through ORM objects
nor even through Core execution: building and flushing ORM instances costs several times the SQL
itself, and Core re-derives a cache key for every statement it runs (about as much again). Each
statement is compiled once from the sqlmodel tables (schema.py `statements`) and run straight on
the store's own DBAPI connection, which it keeps checked out; the turn path calls nothing outside
this module but the driver, pydantic and the writer lock (locks.py), and connection.py's `gone`
when a statement fails: the trace's stored form and its pack are written here too (tracerow.py
has the format and reads it back), and `load_held` takes the lock itself.
The engine and the reconnect policy are connection.py's, each database's settings dialect.py's,
the writer locks locks.py's. A turn's statements are exactly one transaction, and DDL in a
migration rolls back with it.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from json.encoder import encode_basestring_ascii
from typing import Any, TypeVar

from pydantic import JsonValue, TypeAdapter, ValidationError
from pydantic_core import to_json
from sqlalchemy import Connection, event, exc, func, insert, select
from sqlalchemy.pool import PoolProxiedConnection

from engine.errors import ConflictError, StoreError
from engine.models import (
    CarryOver,
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
    carry_from_context,
    utcnow,
)
from engine.store.connection import Database, gone, once_more_if_gone, operation
from engine.store.contract import summarize
from engine.store.dialect import Prepared, advisory_schema_lock, connect_url, reason
from engine.store.locks import FORKS
from engine.store.schema import (
    EVENTS,
    MESSAGES,
    RECORDS,
    RUNS,
    SESSION_COLUMNS,
    SESSIONS,
    migrate,
    schema_version,
    statements,
)
from engine.store.tracerow import DICTIONARY_1, FORMAT_1, PACK_EVERY, PENDING_MAX, pending_items, traces_from_rows
from engine.window import LOAD_LIMIT

T = TypeVar("T")

# a carry-over's fields when it carries nothing, compared as a dict: a model's __eq__ also
# compares its private and extra parts, several times slower
_NO_CARRY = CarryOver().__dict__
_object_json: TypeAdapter[JsonObject] = TypeAdapter(JsonObject)
# pydantic-core's own calls, without the Python wrappers of TypeAdapter.dump_json and
# BaseModel.model_validate_json (their argument handling costs as much as a short list's JSON)
_messages_json = TypeAdapter(list[Message]).serializer.to_json
_frames_json = TypeAdapter(list[FlowFrame]).serializer.to_json
_session_from_json = SessionState.__pydantic_validator__.validate_json
# a session row as `_session` reads it: what is pending is never loaded with the session
_SESSION_ROW = select(*(SESSIONS.c[c] for c in SESSION_COLUMNS))


class SqlStore(Database):
    """The real store. SQLite files run in WAL mode, synchronous=FULL, with a busy timeout.

    Every public method raises StoreError naming itself (`operation`) when the database fails.
    """

    def _opened(self) -> None:
        """The schema made or migrated, and the statements compiled, once the engine is up."""
        self._own: PoolProxiedConnection | None = None
        self._own_forks = -1  # FORKS[0] when `_own` was opened
        self._cur: Any = None
        self._driver: Any = None  # the DBAPI connection of `_own`
        self._inherited: list[PoolProxiedConnection] = []
        if not self._sqlite:
            event.listen(self.engine, "begin", advisory_schema_lock)
        try:
            migrate(self.engine, self.url)
        except exc.SQLAlchemyError as e:
            raise StoreError(f"cannot open database {self.url!r}: {reason(e)}") from e
        # compiled once per dialect in the process: every store of a replay or a test suite
        # would otherwise compile the same statements again
        self._q = statements(self.engine.dialect)
        self._writers = self._writer_locks()

    def session_lock(self, bot: str, user: str, *, timeout_s: float) -> AbstractContextManager[None]:
        """The writers of one session queue (see locks.py)."""
        return self._writers.hold(bot, user, timeout_s)

    @property
    @operation()
    def schema_version(self) -> int:
        return schema_version(self.engine)

    # -- the turn path ---------------------------------------------------------------------

    def load(self, bot: str, user: str) -> SessionState | None:
        """The session of `user` with `bot`: one SELECT, the row validated in one pydantic call."""
        try:
            rows = self._rows(self._q.load, {"bot": bot, "user": user})
            return _session(rows[0]) if rows else None
        except StoreError as e:
            e.operation = e.operation or "load"
            raise

    def load_held(
        self, bot: str, user: str, *, timeout_s: float
    ) -> tuple[SessionState | None, AbstractContextManager[None]]:
        """`load`, holding the session's writer lock (the Store contract's `load_held`): a turn enters
        the store once to take its lock and load its session."""
        # contract.py's `load_holding`, written out here: the turn's way in stays in this module
        hold = self._writers.hold(bot, user, timeout_s)
        hold.__enter__()
        try:
            return self.load(bot, user), hold
        except BaseException:
            hold.__exit__(None, None, None)
            raise

    def commit(self, write: TurnWrite) -> None:
        """Write the turn in one transaction, or nothing; ConflictError when the row version moved.

        A turn's trace waits in its session row (`pending`, see tracerow.py) until a turn packs, so
        the usual turn is one statement: the session row's UPDATE ... WHERE version = the version
        loaded, appending the trace to what is pending. On SQLite that statement is the whole
        transaction (an autocommitted write takes the write lock when it starts, waiting out the busy
        timeout as BEGIN IMMEDIATE does); on PostgreSQL it runs between BEGIN and COMMIT, so that a
        connection lost under it never leaves the caller unsure whether a turn it retries landed.
        A turn with more to write runs BEGIN (IMMEDIATE on SQLite); the row's INSERT (its first turn)
        or UPDATE; the main-history messages, the finished runs and the records; COMMIT. A turn that
        packs (it ends an inner loop, is a PACK_EVERY-th one, or finds `pending` full: the append
        then changed nothing) reads what is pending, empties it in its UPDATE and writes the pack.
        """
        s, a, q = write.session, write.session.active, self._q
        doc = write.trace_doc
        # Serialize everything before the transaction: the write lock is held only for the SQL,
        # and a value that cannot be stored fails before anything is written.
        try:
            # the turn's time, as each of its rows holds it (the write stage's text of it, when it made one)
            now = write.at if write.at is not None else s.updated_at.isoformat()
            values: dict[str, object] = {
                "id": s.id,
                "bot": s.bot,
                "user": s.user,
                "flow": a.flow if a else None,
                "state": a.state if a else None,
                "flow_version": a.version if a else None,
                # a frame's slots are always JSON values already (a model_dump(mode="json") or a loaded row)
                "slots": to_json(a.slots).decode() if a else "{}",
                "scratchpad": _messages_json(a.scratchpad).decode() if a and a.scratchpad else "[]",
                "attempts": a.attempts if a else 0,
                "flow_turns": a.turns if a else 0,
                "flow_started_at": a.started_at.isoformat() if a else None,
                "flow_declined": json.dumps(a.declined) if a and a.declined else "[]",
                "stack": _frames_json(s.stack).decode() if s.stack else "[]",
                "context": json.dumps(s.context) if s.context else "{}",
                "carry": "{}" if s.carry.__dict__ == _NO_CARRY else s.carry.model_dump_json(exclude_defaults=True),
                "turns": s.turns,
                "version": s.version,
                "updated_at": now,
            }
            turn = doc["turn"]
            # A turn that ends an inner loop packs the loop's traces (see tracerow.py), and so
            # does every PACK_EVERY-th turn of a long stay in the main conversation.
            packing = bool(write.runs) or (isinstance(turn, int) and turn % PACK_EVERY == 0)
            if write.expected_version == 0:
                values["created_at"] = s.created_at.isoformat()  # never rewritten by an update
                values["pending"] = "" if packing else pending_item(doc)
                first: Prepared | None = q.insert_session
            else:
                values["expected_version"] = write.expected_version
                if packing:
                    first = None  # the pack's UPDATE, once what is pending has been read
                else:
                    item = values["item"] = pending_item(doc)
                    values["room"] = PENDING_MAX - len(item)
                    first = q.append_session
            row = first.bind(values) if first is not None else None
            # most turns have no message, run or record to write: no list is built for them
            m = q.insert_message.bind
            messages = (
                [
                    m({"session_id": s.id, "role": x.role, "content": x.content, "created_at": now})
                    for x in write.messages
                ]
                if write.messages
                else []
            )
            r = q.insert_run.bind
            runs = [
                r({
                    "session_id": s.id, "flow": x.flow, "outcome": x.outcome, "summary": x.summary,
                    "slots": json.dumps(x.slots), "turns": x.turns,
                    "started_at": x.started_at.isoformat(),
                    "ended_at": now if x.ended_at is s.updated_at else x.ended_at.isoformat(),  # the turn's, mostly
                })
                for x in write.runs
            ] if write.runs else []  # fmt: skip
            d = q.insert_record.bind
            records = [
                d({
                    "kind": x.kind, "bot": s.bot, "user": s.user, "session_id": s.id,
                    "data": json.dumps(x.data), "created_at": now,
                })
                for x in write.records
            ] if write.records else []  # fmt: skip
        except (TypeError, ValueError) as e:
            raise StoreError(f"could not serialize the turn: {e}", session=s.id, operation="commit") from e
        # the usual turn: its one statement is its transaction (see above)
        alone = self._sqlite and first is q.append_session and not messages and not records
        with self._lock:
            begun = False
            for again in (False, True):
                conn = self._connection("commit")
                cur = self._cur
                try:
                    if alone:
                        cur.execute(first.sql, row)  # type: ignore[union-attr]
                        if cur.rowcount == 1:
                            return
                    # Both drivers autocommit (see sqlite_connect, `_connection`): the transaction
                    # is begun here, and on SQLite takes the write lock up front, so that the busy
                    # timeout, not a failed lock upgrade, handles contention.
                    cur.execute("BEGIN IMMEDIATE" if self._sqlite else "BEGIN")
                    full = first is None or alone
                    if not full:
                        try:
                            cur.execute(first.sql, row)  # type: ignore[union-attr]
                        except self._dbapi.IntegrityError as e:
                            # only the new-session insert can violate a key: id or (bot, user) taken
                            raise ConflictError(s.id, write.expected_version) from e
                        begun = True
                        if cur.rowcount != 1:
                            if first is q.insert_session:
                                raise ConflictError(s.id, write.expected_version)
                            full = True  # the version moved, or `pending` is full: `_held` tells which
                    held = ""
                    if (full or packing) and write.expected_version:  # a first turn has nothing pending
                        held = self._held(cur, s.id, write.expected_version)
                        cur.execute(q.pack_session.sql, q.pack_session.bind({**values, "pending": ""}))
                        begun = True
                        if cur.rowcount != 1:
                            raise ConflictError(s.id, write.expected_version)
                    if len(messages) == 1:
                        cur.execute(q.insert_message.sql, messages[0])
                    elif messages:
                        cur.executemany(q.insert_message.sql, messages)
                    # one row alone (the usual finished run, saved record) without executemany's setup
                    if len(runs) == 1:
                        cur.execute(q.insert_run.sql, runs[0])
                    elif runs:
                        cur.executemany(q.insert_run.sql, runs)
                    if len(records) == 1:
                        cur.execute(q.insert_record.sql, records[0])
                    elif records:
                        cur.executemany(q.insert_record.sql, records)
                    if full or packing:
                        self._write_pack(cur, s.id, held, doc, now)
                    conn.commit()
                    return
                except self._dbapi.Error as e:
                    self._recover(conn)
                    # Lost before the first statement ran: nothing reached the server, so the
                    # turn is written on a new connection. Lost later, the commit may or may not
                    # have landed: the caller is told, and the row version settles it on the next load.
                    if again or begun or not gone(e, self._dbapi):
                        raise StoreError(f"could not write the turn: {e}", session=s.id, operation="commit") from e
                except BaseException:
                    self._recover(conn)
                    raise

    def _held(self, cur: Any, session_id: str, expected_version: int) -> str:
        """Inside the turn's transaction, before its UPDATE: what the session row holds pending;
        ConflictError when the row is gone or its version moved (the UPDATE would change nothing)."""
        cur.execute(self._q.held.sql, self._q.held.bind({"id": session_id}))
        found = cur.fetchone()
        if found is None or found[0] != expected_version:
            raise ConflictError(session_id, expected_version)
        return str(found[1])

    def _write_pack(self, cur: Any, session_id: str, held: str, current: JsonObject, at: str) -> None:
        """Inside the turn's transaction: what was pending (`held`) and the turn being written, as
        one pack row. Pending text that cannot be read is kept as a single row, as it was, for
        someone to look at; the turn is then packed alone."""
        q = self._q
        try:
            items = pending_items(held, session_id)
        except StoreError:
            last = current["turn"]  # the row's turn: the last one it could hold
            last = last - 1 if isinstance(last, int) else last
            cur.execute(
                q.insert_event.sql,
                q.insert_event.bind({"session_id": session_id, "turn": last, "trace": held, "created_at": at}),
            )
            items = []
        # an item keeps its `at` unless it is the pack's own time (the row's `created_at` says it then)
        kept: list[JsonValue] = []
        for n, doc in items:
            if doc.get("at") == at:
                del doc["at"]
            kept.append([n, doc])
        values = {
            "session_id": session_id,
            "turn": current["turn"],
            "trace": "",
            "created_at": at,
            "pack": pack(kept, current, at),
        }
        cur.execute(q.insert_pack.sql, q.insert_pack.params(values))

    # -- the store's own connection --------------------------------------------------------

    def _connection(self, operation: str | None = None) -> Any:
        """The store's own DBAPI connection; call with `_lock` held (`operation`: what a
        StoreError saying it cannot be had names).

        Checking a connection out of the pool and back in for every load and commit cost
        more than the SQL of a turn, so the store keeps one checked out and serializes its
        use with a lock (SQLite runs one writer at a time anyway). SQLAlchemy opens file
        databases with check_same_thread=False, so any thread may use it under the lock.
        It autocommits: a read is one statement, with no transaction to end after it (on
        PostgreSQL a BEGIN and a ROLLBACK less per read), and `commit` begins its own.
        """
        own = self._own
        if own is not None and self._own_forks == FORKS[0]:
            return self._driver  # own.driver_connection, kept: SQLAlchemy asks its dialect on every read
        if own is not None:
            # Forked child: SQLite forbids using a connection carried across fork(); leave the
            # parent's alone (never closed or rolled back here) and open a fresh pool.
            self._inherited.append(own)
            self.engine.dispose(close=False)
        try:
            own = self.engine.raw_connection()
            driver: Any = own.driver_connection
            if not self._sqlite:  # SQLite's autocommits already (sqlite_connect)
                driver.rollback()  # the pool's ping may have begun a transaction
                driver.autocommit = True
            cur = driver.cursor()
        except (exc.SQLAlchemyError, self._dbapi.Error) as e:
            raise StoreError(f"cannot reach database {self.url!r}: {e}", operation=operation) from e
        self._own, self._own_forks = own, FORKS[0]
        self._driver, self._cur = driver, cur
        return driver

    def _recover(self, conn: Any) -> None:
        """After a failed statement: roll back, or drop the connection if even that fails."""
        try:
            if getattr(conn, "closed", False):
                raise ConnectionError("closed")
            conn.rollback()
        except Exception:
            own, self._own = self._own, None
            if own is not None:
                own.invalidate()

    def _rows(self, q: Prepared, values: Mapping[str, object]) -> list[tuple[Any, ...]]:
        """`q`'s rows on the store's own connection; once more on a new one if it was gone."""
        with self._lock:
            for again in (False, True):
                conn = self._connection()
                try:
                    self._cur.execute(q.sql, q.bind(values))
                    rows: list[tuple[Any, ...]] = self._cur.fetchall()
                    return rows
                except self._dbapi.Error as e:
                    self._recover(conn)
                    if again or not gone(e, self._dbapi):
                        raise StoreError(f"could not read from {self.url!r}: {e}") from e
        raise AssertionError("unreachable")  # pragma: no cover

    # -- reading ---------------------------------------------------------------------------

    @operation()
    def get(self, session_id: str) -> SessionState | None:
        rows = self._rows(self._q.get, {"id": session_id})
        if rows:
            return _session(rows[0])
        if len(session_id) < 4:
            return None
        # A unique prefix of at least four characters names a session too (CLI convenience).
        prefixed = _SESSION_ROW.where(SESSIONS.c.id.startswith(session_id, autoescape=True)).limit(2)
        found = self._select(lambda conn: conn.execute(prefixed).all())
        return _session(tuple(found[0])) if len(found) == 1 else None

    @operation()
    def history(self, session_id: str, limit: int = LOAD_LIMIT) -> list[Message]:
        if limit <= 0:
            return []
        rows = self._rows(self._q.history, {"session_id": session_id, "limit": limit})
        return [Message(role=role, content=content) for role, content in reversed(rows)]

    @operation()
    def runs(self, session_id: str) -> list[FlowRun]:
        return [
            FlowRun(
                flow=flow, outcome=outcome, summary=summary, slots=_object_json.validate_json(slots),
                turns=turns, started_at=started_at, ended_at=ended_at,
            )
            for flow, outcome, summary, slots, turns, started_at, ended_at in self._rows(
                self._q.runs, {"session_id": session_id}
            )
        ]  # fmt: skip

    @operation()
    def traces(self, session_id: str, limit: int | None = None) -> list[TurnTrace]:
        if limit:
            # a row holds at least one turn, and the pending row (first) none or more: the newest
            # `limit` + 1 rows hold the newest `limit` turns
            rows = self._rows(self._q.traces_last, {"session_id": session_id, "limit": limit + 1})
        else:
            rows = self._rows(self._q.traces_all, {"session_id": session_id})
        held = None
        if rows and rows[0][0] == 0:  # the session row's part: what is pending, and the row's time
            held, rows = (rows[0][2], rows[0][4]), rows[1:]
        return traces_from_rows([r[2:] for r in rows], session_id, limit or None, held)

    @operation()
    def records(
        self, kind: str | None = None, *, bot: str | None = None, user: str | None = None
    ) -> list[StoredRecord]:
        q = self._q.records[(kind is not None, bot is not None, user is not None)]
        values = {k: v for k, v in (("kind", kind), ("bot", bot), ("user", user)) if v is not None}
        return [_record(row) for row in self._rows(q, values)]

    @operation()
    def latest(self, kind: str, *, bot: str, user: str) -> StoredRecord | None:
        rows = self._rows(self._q.latest, {"kind": kind, "bot": bot, "user": user})
        return _record(rows[0]) if rows else None

    @operation()
    def add_record(self, bot: str, user: str, session_id: str, draft: RecordDraft) -> None:
        try:
            data = json.dumps(draft.data)
        except (TypeError, ValueError) as e:
            raise StoreError(f"could not serialize the {draft.kind} record: {e}", session=session_id) from e
        with self.engine.execution_options(innerloop_write=True).begin() as conn:
            conn.execute(
                insert(RECORDS).values(
                    kind=draft.kind, bot=bot, user=user, session_id=session_id,
                    data=data, created_at=utcnow().isoformat(),
                )
            )  # fmt: skip

    @operation()
    def sessions(self) -> list[SessionSummary]:
        rows = self._select(lambda conn: conn.execute(_SESSION_ROW.order_by(SESSIONS.c.updated_at.desc())).all())
        return [summarize(_session(tuple(r))) for r in rows]

    @operation()
    def count(self, table: str, session_id: str) -> int:
        """Rows of `table` for a session (used by integrity checks)."""
        t = {"messages": MESSAGES, "flow_runs": RUNS, "turn_events": EVENTS}[table]
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
        with self._lock:
            own, self._own = getattr(self, "_own", None), None
            if own is not None and self._own_forks == FORKS[0]:
                own.close()
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


def _session(row: Sequence[Any]) -> SessionState:
    """A sessions row as a SessionState, validated in one pydantic (Rust) call.

    The JSON columns are spliced verbatim into one JSON document with the scalar columns:
    one `validate_json` is cheaper than parsing each column and validating the frame and the
    session separately, and it validates exactly as strictly.
    """
    (sid, bot, user, flow, state, flow_version, slots, scratchpad, attempts, flow_turns,
     flow_started_at, flow_declined, stack, context, carry, turns, version, created_at, updated_at) = row  # fmt: skip
    q = _quote
    if flow is None:
        active = "null"
    else:
        active = (
            f'{{"flow":{q(flow)},"version":{_number(flow_version or 0)},"state":{q(state or "")},'
            f'"slots":{slots},"scratchpad":{scratchpad},"attempts":{_number(attempts)},'
            f'"turns":{_number(flow_turns)},"started_at":{q(_instant(flow_started_at))},'
            f'"declined":{flow_declined}}}'
        )
    doc = (
        f'{{"id":{q(sid)},"bot":{q(bot)},"user":{q(user)},"active":{active},"stack":{stack},'
        f'"context":{context},"carry":{carry},"turns":{_number(turns)},"version":{_number(version)},'
        f'"created_at":{q(_instant(created_at))},"updated_at":{q(_instant(updated_at))}}}'
    )
    try:
        session: SessionState = _session_from_json(doc)
    except ValidationError as e:
        raise StoreError(f"stored session row is invalid: {e}", session=str(sid)) from e
    # a session last written before `carry` existed keeps it in its memory's old keys
    return carry_from_context(session) if '"innerloop.' in context else session


def _instant(value: object) -> str:
    """A stored time as the ISO text it was written as: SQLite's as it is, PostgreSQL's datetime (in
    UTC) formatted (tracerow.py's `instant_text`, here so that a load calls nothing out of this module)."""
    if type(value) is str:
        return value
    return value.isoformat() if isinstance(value, datetime) else str(value)


def _quote(value: object) -> str:
    """`json.dumps(value)`, without the encoder's Python-level setup for the usual plain str."""
    return encode_basestring_ascii(value) if type(value) is str else json.dumps(value)


def _number(value: object) -> str:
    return str(value) if type(value) is int else json.dumps(value)


def _record(row: Sequence[Any]) -> StoredRecord:
    rid, kind, bot, user, sid, data, created_at = row
    return StoredRecord(
        id=rid,
        kind=kind,
        bot=bot,
        user=user,
        session_id=sid,
        data=_object_json.validate_json(data),
        created_at=created_at,
    )


# -- a turn's trace as its row: the writing half of tracerow.py's format ---------------------------
# Here, not in tracerow.py, so that a turn's commit calls no function of another module.


def pending_item(doc: JsonObject) -> str:
    """What a turn whose trace is `doc` (a `TurnTrace.doc()`) appends to its session row's
    `pending`: `,[turn, compact doc]`, the doc keeping its `at` (the row's time moves on)."""
    return "," + to_json([doc["turn"], _compact(doc, "")]).decode()


def _compact(doc: JsonObject, created_at: str) -> JsonObject:
    """A trace's stored document, before it is written as JSON (a pack holds it as a value): the
    trace without its `turn`, its `at` when the row's time says it, the trace's flow on each
    fire, and the entered states that fires' destinations say (tracerow.py's docstring)."""
    out = dict(doc)  # a copy and two deletions: less than a comprehension testing every key
    out.pop("turn", None)
    if out.get("at") == created_at:
        del out["at"]
    own = doc.get("flow_after") or doc.get("flow_before")
    listed = doc.get("fired")
    fired = [f for f in listed if isinstance(f, dict)] if isinstance(listed, list) else []
    if fired:
        kept: list[JsonValue] = []
        for f in fired:
            if "flow" in f and f["flow"] == own:
                f = dict(f)  # a copy and a deletion: the fire's other keys in their order
                del f["flow"]
            kept.append(f)
        out["fired"] = kept
    listed = doc.get("entered")
    started = _starts([e for e in listed if isinstance(e, dict)] if isinstance(listed, list) else [], fired)
    if started is not None:
        out.pop("entered", None)
        if started:
            out["started"] = started
    return out


def _starts(entered: list[JsonObject], fired: list[JsonObject]) -> list[JsonValue] | None:
    """The flow starts among `entered`, each with the count of fires before it; None when
    `entered` is not exactly the starts and the fires' destinations in order."""
    starts: list[JsonValue] = []
    j = 0
    for e in entered:
        if j < len(fired) and (e.get("flow"), e.get("state")) == (fired[j].get("flow"), fired[j].get("dest")):
            j += 1
        else:
            starts.append({**e, "after": j} if j else dict(e))
    return starts if j == len(fired) else None


def pack(items: Sequence[JsonValue], current: JsonObject, at: str) -> bytes:
    """One row's `pack`: the `[turn, compact doc]` items of earlier turns, oldest first, and the turn
    being written, `current` (a `TurnTrace.doc()`), in a row written at `at`."""
    everything = [*items, [current["turn"], _compact(current, at)]]
    # A 4 KiB window and a small hash (memLevel 5) deflate a pack as well as zlib's largest
    # (traces repeat within a few hundred bytes) in 70 KiB of memory instead of 420; the
    # reader's 32 KiB window inflates any smaller one.
    deflate = zlib.compressobj(9, zlib.DEFLATED, -12, 5, zlib.Z_DEFAULT_STRATEGY, DICTIONARY_1)
    return FORMAT_1 + deflate.compress(to_json(everything)) + deflate.flush()
