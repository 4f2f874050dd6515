"""A database opened for the store, and the one DBAPI connection the turn path keeps.

`Database` makes the SQLAlchemy engine from a URL and the store's options (the driver's
absence and each database's settings are handled here), keeps one DBAPI connection checked
out, and knows when a failed statement means the server went away, so that a read, or a
turn that had not begun, is run again on a new connection. `SqlStore` is built on it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from typing import Any

from sqlalchemy import event, exc
from sqlalchemy.engine import Engine
from sqlalchemy.pool import PoolProxiedConnection
from sqlmodel import create_engine

from engine.errors import StoreError
from engine.store.dialect import Prepared, Synchronous, sqlite_begin, sqlite_connect, sqlite_url


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
        if synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise StoreError(f"synchronous must be OFF, NORMAL, FULL or EXTRA, not {synchronous!r}")
        self.url = sqlite_url(url)
        self._options: tuple[int, Synchronous, int] = (busy_timeout_ms, synchronous, statement_timeout_ms)
        postgres = self.url.startswith("postgresql")
        if postgres and synchronous != "FULL":
            raise StoreError(
                "synchronous applies to SQLite only; PostgreSQL's durability is the server's synchronous_commit"
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
            self.engine: Engine = create_engine(self.url, connect_args=connect_args, pool_pre_ping=postgres)
        except ModuleNotFoundError as e:
            raise StoreError(
                f"cannot open database {self.url!r}: the driver {e.name!r} is not installed"
                + (" (pip install 'innerloop[postgres]')" if postgres else "")
            ) from e
        except Exception as e:
            raise StoreError(f"cannot open database {self.url!r}: {e}") from e
        self._sqlite = self.engine.dialect.name == "sqlite"
        if self._sqlite:
            event.listen(self.engine, "connect", sqlite_connect(busy_timeout_ms, synchronous))
            event.listen(self.engine, "begin", sqlite_begin)
        # DBAPI exceptions are module-specific; the direct paths catch the driver's own.
        self._dbapi: Any = self.engine.dialect.loaded_dbapi
        self._lock = threading.Lock()
        self._own: PoolProxiedConnection | None = None
        self._own_pid = 0
        self._cur: Any = None
        self._inherited: list[PoolProxiedConnection] = []
        self._opened()

    def _opened(self) -> None:
        """What a subclass does once the engine is up (SqlStore: its schema and statements)."""

    def _connection(self) -> Any:
        """The store's own DBAPI connection; call with `_lock` held.

        Checking a connection out of the pool and back in for every load and commit cost
        more than the SQL of a turn, so the store keeps one checked out and serializes its
        use with a lock (SQLite runs one writer at a time anyway). SQLAlchemy opens file
        databases with check_same_thread=False, so any thread may use it under the lock.
        """
        own = self._own
        if own is not None and self._own_pid == os.getpid():
            return own.driver_connection
        if own is not None:
            # Forked child: SQLite forbids using a connection carried across fork(); leave the
            # parent's alone (never closed or rolled back here) and open a fresh pool.
            self._inherited.append(own)
            self.engine.dispose(close=False)
        try:
            own = self.engine.raw_connection()
        except (exc.SQLAlchemyError, self._dbapi.Error) as e:
            raise StoreError(f"cannot reach database {self.url!r}: {e}") from e
        self._own, self._own_pid = own, os.getpid()
        self._cur = own.driver_connection.cursor()  # type: ignore[union-attr]
        return own.driver_connection

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
        with self._lock:
            for attempt in range(2):
                conn = self._connection()
                try:
                    self._cur.execute(q.sql, q.params(values))
                    rows: list[tuple[Any, ...]] = self._cur.fetchall()
                    if not self._sqlite:
                        conn.rollback()  # end the driver's implicit read transaction
                    return rows
                except self._dbapi.Error as e:
                    lost = self._lost(conn, e)
                    self._recover(conn)
                    if lost and not attempt:
                        continue  # a read is safe to repeat on a new connection
                    raise StoreError(f"could not read from {self.url!r}: {e}") from e
            raise AssertionError("unreachable")  # pragma: no cover

    def _lost(self, conn: Any, e: Exception) -> bool:
        """Whether `e` means the connection is gone (a server restart, a failover): reconnect then."""
        if self._sqlite:
            return False
        closed = getattr(conn, "closed", False)
        return bool(closed) or (isinstance(e, self._dbapi.OperationalError) and "timeout" not in str(e).lower())

    def close(self) -> None:
        with self._lock:
            own, self._own = self._own, None
            if own is not None and self._own_pid == os.getpid():
                own.close()
        self.engine.dispose()
