"""A database opened for the store, and what a failure of it means.

`Database` makes the SQLAlchemy engine from a URL and the store's options (the driver's
absence and each database's settings are handled here), and the writer locks it allows;
`SqlStore` is built on it and keeps
one DBAPI connection of it checked out for the turn path. `gone` knows when a failed statement
means the server went away, so that a read, or a turn that had not begun, is run again on a
new connection.

The reconnect policy (`gone`, `once_more_if_gone`) and the wrapping of every failure of a
public method in a `StoreError` naming it (`operation`) live here, for the store and for the
text indexes in its database (textindex.py); the store's `load` and `commit` run the same
policy in a loop of their own (sql.py), so that a turn's statements call nothing out of there.
"""

from __future__ import annotations

import functools
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from sqlalchemy import event, exc
from sqlalchemy.engine import Engine
from sqlmodel import create_engine

from engine.errors import StoreError
from engine.store.dialect import (
    Synchronous,
    connect_url,
    reason,
    remember,
    scrub,
    sqlite_begin,
    sqlite_connect,
    sqlite_url,
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

T = TypeVar("T")
P = ParamSpec("P")


class _OnADatabase(Protocol):
    url: str  # as shown: no password
    dbapi: Any  # the driver's module (its exception classes)


D = TypeVar("D", bound=_OnADatabase)


def gone(e: BaseException, dbapi: Any) -> bool:
    """Whether `e`, raised by a statement, means its connection is gone (a server restart, a
    failover) rather than that the statement failed: SQLAlchemy saw the connection die, or the
    server's driver raised an OperationalError that is no timeout (a lock or statement timeout
    is the statement's own doing). SQLite has no connection to lose."""
    cause: BaseException | None = e
    if isinstance(e, exc.DBAPIError):
        if e.connection_invalidated:
            return True
        cause = e.orig
    if dbapi is sqlite3:
        return False
    return isinstance(cause, dbapi.OperationalError) and "timeout" not in str(cause).lower()


def _always() -> bool:
    return True


def once_more_if_gone(attempt: Callable[[], T], dbapi: Any, *, repeatable: Callable[[], bool] = _always) -> T:
    """Run `attempt`; when its connection turned out to be gone, run it once more, on a new one.

    The one reconnect policy of the turn path, the store's other methods and the text indexes:
    a read, or a write whose first statement never ran, is safe to repeat (`repeatable` says
    whether that still holds when the loss is seen). `attempt` leaves no dead connection behind
    (the store drops its own; SQLAlchemy's pool invalidates its connections on a disconnect).
    """
    try:
        return attempt()
    except Exception as e:
        if not (gone(e, dbapi) and repeatable()):
            raise
    return attempt()


def operation(
    prefix: str = "", *, reconnect: bool = False
) -> Callable[[Callable[Concatenate[D, P], T]], Callable[Concatenate[D, P], T]]:
    """A public method whose every failure is a StoreError carrying its name as `operation`:
    the database's own errors (SQLAlchemy's, the driver's) never reach a caller. With
    `reconnect`, the whole method is repeatable and runs once more when its connection was gone."""

    def wrap(method: Callable[Concatenate[D, P], T]) -> Callable[Concatenate[D, P], T]:
        name = prefix + method.__name__.lstrip("_")

        @functools.wraps(method)
        def run(self: D, /, *args: P.args, **kwargs: P.kwargs) -> T:
            try:
                if reconnect:
                    return once_more_if_gone(lambda: method(self, *args, **kwargs), self.dbapi)
                return method(self, *args, **kwargs)
            except StoreError as e:
                if e.operation is None:
                    e.operation = name
                raise
            except (exc.SQLAlchemyError, sqlite3.Error, self.dbapi.Error) as e:
                why = reason(e) if isinstance(e, exc.SQLAlchemyError) else str(e)
                raise StoreError(f"{name} failed on {self.url!r}: {why}", operation=name) from e

        return run

    return wrap


class Database:
    """An engine on `url` with the store's options, and the store's own DBAPI connection."""

    def __init__(
        self,
        url: str,
        *,
        busy_timeout_ms: int = 10_000,
        synchronous: Synchronous = "FULL",
        statement_timeout_ms: int = 30_000,
    ) -> None:
        if not url.strip():
            # sqlite_url("") is SQLite's in-memory database: a store that keeps nothing
            raise StoreError(
                'no database given: the path is empty (is INNERLOOP_DB set to ""?); give a SQLite '
                "file or a SQLAlchemy URL (sqlite:///:memory: for a database that keeps nothing)",
                operation="open",
            )
        if synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise StoreError(f"synchronous must be OFF, NORMAL, FULL or EXTRA, not {synchronous!r}", operation="open")
        full = sqlite_url(url)
        # shown everywhere (errors, repr, the chat's header) without its password; connect_url gives it back
        self.url = remember(full)
        self._options: tuple[int, Synchronous, int] = (busy_timeout_ms, synchronous, statement_timeout_ms)
        postgres = full.startswith("postgresql")
        if postgres and synchronous != "FULL":
            raise StoreError(
                "synchronous applies to SQLite only; PostgreSQL's durability is the server's synchronous_commit",
                operation="open",
            )
        # PostgreSQL: waiting for a lock is bounded like SQLite's busy timeout, and a statement
        # that runs away is stopped rather than holding a session's row lock for ever.
        connect_args = (
            {
                "options": f"-c lock_timeout={int(busy_timeout_ms)} -c statement_timeout={int(statement_timeout_ms)}"
                " -c TimeZone=UTC"  # times read back in the UTC they were written in
            }
            if postgres
            else {}
        )
        try:
            self.engine: Engine = create_engine(full, connect_args=connect_args, pool_pre_ping=postgres)
        except ModuleNotFoundError as e:
            raise StoreError(
                f"cannot open database {self.url!r}: the driver {e.name!r} is not installed"
                + (" (pip install 'innerloop[postgres]')" if postgres else ""),
                operation="open",
            ) from e
        except Exception as e:
            # not `from e`: SQLAlchemy quotes a URL it cannot parse whole, password and all
            raise StoreError(f"cannot open database {self.url!r}: {scrub(str(e), full)}", operation="open") from None
        self._sqlite = self.engine.dialect.name == "sqlite"
        if self._sqlite:
            event.listen(self.engine, "connect", sqlite_connect(busy_timeout_ms, synchronous))
            event.listen(self.engine, "begin", sqlite_begin)
        # DBAPI exceptions are module-specific; the direct paths catch the driver's own.
        self.dbapi: Any = self.engine.dialect.loaded_dbapi
        self._dbapi = self.dbapi
        self._lock = threading.Lock()  # held while the store's own connection is in use (sql.py)
        try:
            self._opened()
        except StoreError as e:
            e.operation = e.operation or "open"
            self.engine.dispose()
            raise

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.url!r})"

    def _opened(self) -> None:
        """What a subclass does once the engine is up (SqlStore: its schema and statements)."""

    @operation()
    def close(self) -> None:
        self.engine.dispose()

    def _writer_locks(self) -> SessionLocks:
        """The locks the writers of one session queue on, as this database allows (locks.py)."""
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
