"""How `SqlStore` talks to each database: URLs, per-connection settings, statements compiled once.

A URL is shown (errors, repr, the chat's header, logs) without its password: `shown_url`.
A URL given with one is remembered in this process under its shown form, so what is handed
around (`Store.url`, a knowledge base's index location) never holds the password, and
`connect_url` gives it back only where a connection is made. A password can also come from
PGPASSWORD, which libpq reads itself.

SQLite: the driver autocommits and every transaction is begun explicitly (BEGIN, or BEGIN
IMMEDIATE for a write), in WAL mode with a busy timeout. PostgreSQL: a first open takes an
advisory lock, so processes opening a new database at once create its schema once.
"""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter
from typing import Any, Literal

from sqlalchemy import Connection, exc
from sqlalchemy.engine import Dialect, make_url
from sqlalchemy.sql.expression import ClauseElement

from engine.errors import StoreError

Synchronous = Literal["OFF", "NORMAL", "FULL", "EXTRA"]
Params = Sequence[object] | Mapping[str, object]


def sqlite_url(path: str) -> str:
    """A SQLAlchemy URL: a plain path is a SQLite file, and PostgreSQL goes through psycopg 3."""
    if "://" not in path:
        return f"sqlite:///{path}"
    scheme, rest = path.split("://", 1)
    if scheme in ("postgresql", "postgres"):
        return f"postgresql+psycopg://{rest}"
    return path


HIDDEN = "***"
# user:password@ in a URL SQLAlchemy cannot parse
_USERINFO = re.compile(r"(?<=://)([^/@:]*):[^/@]*@")
# libpq also takes the password as a query parameter
_QUERY_PASSWORD = re.compile(r"([?&]password=)[^&\s'\"]*", re.IGNORECASE)
_CONNECT: dict[str, str] = {}  # shown URL -> the URL with its password
_CONNECT_LOCK = threading.Lock()


def _password(url: str) -> str | None:
    try:
        parsed = make_url(url)
    except (exc.ArgumentError, ValueError):
        m = _USERINFO.search(url)
        return url[m.end(1) + 1 : m.end() - 1] if m else None
    return parsed.password if isinstance(parsed.password, str) else None


def shown_url(url: str) -> str:
    """`url` as it may be shown: its password, if any, as *** (in the user part or the query)."""
    shown = url
    try:
        parsed = make_url(url)
        if parsed.password is not None:
            shown = parsed.render_as_string(hide_password=True)
    except (exc.ArgumentError, ValueError):
        shown = _USERINFO.sub(rf"\1:{HIDDEN}@", url)
    return _QUERY_PASSWORD.sub(rf"\g<1>{HIDDEN}", shown)


def scrub(message: str, url: str) -> str:
    """A driver's or SQLAlchemy's `message` without the password of `url`: SQLAlchemy quotes a
    URL it cannot parse whole, and libpq never echoes a password, so the URL's own forms are
    what is looked for (a bare word is left alone: "postgres" may be a password and a word)."""
    message = _QUERY_PASSWORD.sub(rf"\g<1>{HIDDEN}", message.replace(url, shown_url(url)))
    password = _password(url)
    return message.replace(f":{password}@", f":{HIDDEN}@") if password else message


def remember(url: str) -> str:
    """The shown form of `url`, remembered so that `connect_url` gives `url` back in this process."""
    shown = shown_url(url)
    if shown != url:
        with _CONNECT_LOCK:
            _CONNECT[shown] = url
    return shown


def connect_url(url: str) -> str:
    """The URL to connect with: `url` itself, or the one with a password remembered under it."""
    with _CONNECT_LOCK:
        return _CONNECT.get(url, url)


# A constant of ours: the key of the advisory lock first opens of a PostgreSQL database take.
SCHEMA_LOCK = 0x1A_1009


def dialect_key(dialect: Dialect) -> tuple[object, ...]:
    """What a statement's compiled form depends on: two engines with equal keys compile any
    statement alike, so what one compiled another of the process may reuse (a replay opens a
    store per script, a test one per test: compiling the same statements took ~20 ms each time)."""
    return (type(dialect), dialect.driver, dialect.paramstyle, dialect.positional, dialect.server_version_info)


class Prepared:
    """A Core statement compiled once for one dialect, run directly on a DBAPI cursor.

    Parameters are given by bind name; they are laid out for the dialect's paramstyle
    (a tuple for qmark/format, a dict for named/pyformat) without SQLAlchemy's
    per-execution compile-cache lookup. `bind` does it: C code where nothing needs converting
    (the turn's statements), so that a turn's parameters run no Python of this module.
    """

    __slots__ = ("_fixed", "_pick", "_processors", "bind", "sql")

    def __init__(self, stmt: ClauseElement, dialect: Dialect) -> None:
        compiled = stmt.compile(dialect=dialect)
        self.sql: str = compiled.string
        escaped = getattr(compiled, "escaped_bind_names", None)
        if escaped:  # pragma: no cover - our bind names are plain identifiers
            raise StoreError(f"bind names need escaping for {dialect.name}: {dict(escaped)}")
        positional = getattr(compiled, "positiontup", None)
        names: tuple[str, ...] | None = tuple(positional) if dialect.positional and positional else None
        # itemgetter lays a dict out as the positional tuple in C (a one-name getter returns a bare value)
        self._pick: Callable[[Mapping[str, object]], tuple[object, ...]] | None = None
        if names and len(names) > 1:
            self._pick = itemgetter(*names)
        elif names:
            only = names[0]
            self._pick = lambda values: (values[only],)
        # Text/Integer need no conversion on SQLite; other dialects may declare some.
        processors: Mapping[str, Callable[[Any], Any]] = getattr(compiled, "_bind_processors", None) or {}
        self._processors = dict(processors)
        # Binds the dialect adds with a fixed value (SQLite's "OFFSET ?" after a bound LIMIT).
        bind_names: Mapping[Any, str] = getattr(compiled, "bind_names", None) or {}
        self._fixed = {name: b.effective_value for b, name in bind_names.items() if not b.required}
        # itemgetter(*names) lays a dict out as the positional tuple, `dict` copies it for a
        # named paramstyle; a fixed bind, a processor or a lone positional name needs `params`
        self.bind: Callable[[Mapping[str, object]], Sequence[object] | Mapping[str, object]]
        if self._fixed or self._processors or (names is not None and len(names) == 1):
            self.bind = self.params
        elif names:
            self.bind = itemgetter(*names)
        else:
            self.bind = dict

    def params(self, values: Mapping[str, object]) -> Sequence[object] | Mapping[str, object]:
        if self._fixed:
            values = {**self._fixed, **values}
        if self._processors:
            # only the few columns with a processor (a BLOB's) are converted, not every value
            values = dict(values)
            for k, convert in self._processors.items():
                if k in values:
                    values[k] = convert(values[k])
        if self._pick is None:
            return values
        return self._pick(values)


def sqlite_connect(busy_timeout_ms: int, synchronous: Synchronous) -> Callable[[Any, Any], None]:
    def on_connect(dbapi_conn: Any, _record: Any) -> None:
        # Autocommit at the driver: transactions are begun explicitly (BEGIN / BEGIN IMMEDIATE)
        # instead of by pysqlite's implicit BEGIN before the first DML statement, which
        # SQLAlchemy cannot see and which never covers a SELECT.
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        _enable_wal(cur, busy_timeout_ms / 1000)
        # FULL: a committed turn survives power loss, not only a process crash.
        cur.execute(f"PRAGMA synchronous={synchronous}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    return on_connect


def _enable_wal(cur: Any, patience_s: float) -> None:
    """Switch a connection's database to WAL, waiting out other openers of a new file.

    Changing the journal mode needs an exclusive lock, and SQLite reports "database is
    locked" for it at once, without its busy handler, while another connection is opening
    the same new file: so this retries for as long as the busy timeout would have waited.
    """
    deadline = time.monotonic() + patience_s
    while True:
        try:
            cur.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() > deadline:
                raise
            time.sleep(0.005)


def advisory_schema_lock(conn: Connection) -> None:
    """PostgreSQL: a write transaction of `migrate` first takes the schema lock, so any number
    of processes opening a new database at once create it once (others wait, then see it)."""
    if conn.get_execution_options().get("innerloop_write", False):
        conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({SCHEMA_LOCK})")


def reason(e: exc.SQLAlchemyError) -> str:
    """The driver's message without SQLAlchemy's statement dump and background link."""
    orig = getattr(e, "orig", None)
    return str(orig).strip() if orig is not None else str(e).split("\n")[0]


def sqlite_begin(conn: Connection) -> None:
    """Begin SQLAlchemy-managed transactions ourselves, as the driver now autocommits."""
    immediate = conn.get_execution_options().get("innerloop_write", False)
    conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")
