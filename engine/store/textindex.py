"""Full-text indexes of small document sets, kept in the session store's database.

A bot's knowledge base is indexed where its sessions live, so every process sees one index:
in the SQLite file with FTS5 (bm25), or in PostgreSQL with a weighted `tsvector` column and a
GIN index (`ts_rank`). Either way a document has a title, tags and a body, weighted in that
order, and a content hash, so a sync re-indexes only what changed, whichever process did the
last one. Terms reach the database as bound parameters only.

Every failure is a StoreError naming the operation ("text index search", ...), and on
PostgreSQL a statement whose connection was gone (a server restart) runs once more on a new
one: the store's own policy (connection.py).
"""

from __future__ import annotations

import math
import re
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine

from engine.errors import StoreError
from engine.store.connection import operation
from engine.store.dialect import connect_url, remember, scrub, sqlite_url

# bm25 weights, in the FTS table's column order: title, tags, body (doc_id, hash are unindexed)
FTS_WEIGHTS = (10.0, 4.0, 1.0, 0.0, 0.0)
TOKENIZER = "porter unicode61 remove_diacritics 2"
# ts_rank weights for D, C, B, A: body, (unused), tags, title
PG_WEIGHTS = "{0.1, 0.0, 0.4, 1.0}"
_TERM = re.compile(r"^\w+$")
# how long a SQLite sync waits for another writer (the session store's own busy timeout)
BUSY_TIMEOUT_S = 10.0
_index_operation = operation("text index ", reconnect=True)


@dataclass(frozen=True)
class IndexedDoc:
    """One document as indexed: its words (already normalised by the caller) and a content hash."""

    title: str
    tags: str
    body: str
    hash: str


@dataclass(frozen=True)
class SyncReport:
    """What a sync did, by document id."""

    added: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()


class TextIndex(Protocol):
    """One document set's index. `search` ORs `terms`, keeps documents whose title or tags hold
    one of them, and ranks by relevance, higher first, on the backend's own scale."""

    backend: str

    def sync(self, documents: dict[str, IndexedDoc]) -> SyncReport: ...

    def search(self, terms: list[str], limit: int) -> list[tuple[str, float]]: ...

    def knows(self, term: str) -> bool: ...

    def drop(self, name: str) -> None: ...

    def close(self) -> None: ...


def _checked(terms: list[str]) -> list[str]:
    bad = [t for t in terms if not _TERM.match(t)]
    if bad:
        raise ValueError(f"index terms must be single words: {bad!r}")
    return terms


def location(store_url: str | None) -> str:
    """Where the index of a store at `store_url` lives: the SQLite file behind a SQLite URL, the
    PostgreSQL URL itself (as shown: without a password), or ':memory:' for a store with no database."""
    url = sqlite_url(store_url) if store_url else ""
    if url.startswith("postgresql"):
        return remember(url)
    m = re.fullmatch(r"sqlite(?:\+\w+)?:///([^?]*)(?:\?.*)?", url)
    if m is None or m.group(1) in ("", ":memory:"):
        return ":memory:"
    return str(Path(m.group(1)).resolve())


def open_text_index(where: str, name: str, *, busy_timeout_s: float = BUSY_TIMEOUT_S) -> TextIndex:
    """The index called `name` at `where` (a `location()`), created on first use."""
    if where.startswith("postgresql"):
        return PgTextIndex(where, name)
    return FtsTextIndex(where, name, busy_timeout_s=busy_timeout_s)


class FtsTextIndex:
    """SQLite FTS5, in the session store's file (or in memory)."""

    backend = "sqlite"
    dbapi: Any = sqlite3

    def __init__(self, db: str, name: str, *, busy_timeout_s: float = BUSY_TIMEOUT_S) -> None:
        self.table = name
        self.url = db
        self._lock = threading.Lock()
        try:
            # autocommit (isolation_level=None): a sync opens its own BEGIN IMMEDIATE, and reads
            # never leave a transaction open that would hold up the session store's writers
            self._conn = sqlite3.connect(db, timeout=busy_timeout_s, isolation_level=None, check_same_thread=False)
            # the index is derived from documents and rebuilt from them, so it need not be fsynced
            self._conn.execute("PRAGMA synchronous=NORMAL")
        except sqlite3.Error as e:
            raise StoreError(f"cannot open the text index {name} in {db!r}: {e}", operation="text index open") from e

    @_index_operation
    def sync(self, documents: dict[str, IndexedDoc]) -> SyncReport:
        t = self.table
        c = self._conn
        with self._lock:
            # IMMEDIATE takes the write lock up front: two processes syncing the same documents
            # queue up instead of both reading the old hashes and inserting a document twice
            c.execute("BEGIN IMMEDIATE")
            with c:  # commits, or rolls back on an exception
                c.execute(
                    f"CREATE VIRTUAL TABLE IF NOT EXISTS {t} USING fts5("
                    f"title, tags, body, doc_id UNINDEXED, hash UNINDEXED, tokenize = '{TOKENIZER}')"
                )
                indexed = {row[1]: (row[0], row[2]) for row in c.execute(f"SELECT rowid, doc_id, hash FROM {t}")}
                plan = _plan(documents, {d: h for d, (_, h) in indexed.items()})
                for doc_id in (*plan.changed, *plan.removed):
                    c.execute(f"DELETE FROM {t} WHERE rowid = ?", (indexed[doc_id][0],))
                for doc_id in (*plan.added, *plan.changed):
                    d = documents[doc_id]
                    c.execute(
                        f"INSERT INTO {t} (title, tags, body, doc_id, hash) VALUES (?, ?, ?, ?, ?)",
                        (d.title, d.tags, d.body, doc_id, d.hash),
                    )
        return plan

    @_index_operation
    def search(self, terms: list[str], limit: int) -> list[tuple[str, float]]:
        t = self.table
        weights = ", ".join(str(w) for w in FTS_WEIGHTS)
        expression = _fts_expression(_checked(terms))
        with self._lock:
            rows = self._conn.execute(
                f"SELECT doc_id, -bm25({t}, {weights}) AS score FROM {t} WHERE {t} MATCH ? "
                f"AND rowid IN (SELECT rowid FROM {t} WHERE {t} MATCH ?) ORDER BY score DESC LIMIT ?",
                (expression, f"{{title tags}} : ({expression})", limit),
            ).fetchall()
        return [(str(d), float(s)) for d, s in rows]

    @_index_operation
    def knows(self, term: str) -> bool:
        with self._lock:
            found = self._conn.execute(
                f"SELECT 1 FROM {self.table} WHERE {self.table} MATCH ? LIMIT 1", (_fts_expression(_checked([term])),)
            ).fetchone()
        return found is not None

    @_index_operation
    def drop(self, name: str) -> None:
        """Remove another index (an older layout's) from the same database."""
        with self._lock:
            self._conn.execute(f"DROP TABLE IF EXISTS {name}")

    @_index_operation
    def close(self) -> None:
        with self._lock:
            self._conn.close()


def _fts_expression(terms: list[str]) -> str:
    """An FTS5 query that ORs the terms; each is quoted, so FTS syntax is inert."""
    return " OR ".join(f'"{t}"' for t in terms)


class PgTextIndex:
    """PostgreSQL: a table with a stored, weighted `tsvector` and a GIN index over it."""

    backend = "postgresql"

    def __init__(self, url: str, name: str) -> None:
        self.table = name
        self.url = remember(url)  # shown without its password
        try:
            # no pre-ping: a pooled connection the server dropped fails its statement, which the
            # operation runs once more on a new one (a round trip each search saves)
            self._engine: Engine = create_engine(connect_url(url), pool_size=2)
        except Exception as e:  # not `from e`: SQLAlchemy quotes a URL it cannot parse whole
            raise StoreError(f"cannot open the text index {name}: {scrub(str(e), connect_url(url))}") from None
        self.dbapi: Any = self._engine.dialect.loaded_dbapi
        try:
            self._create()
        except StoreError:
            self._engine.dispose()
            raise

    @operation("text index ", reconnect=True)
    def _create(self) -> None:
        t = self.table
        with self._engine.begin() as c:
            # one creator at a time: CREATE ... IF NOT EXISTS still races on the catalog
            c.execute(text("SELECT pg_advisory_xact_lock(hashtext(:t))"), {"t": t})
            c.execute(
                text(
                    f"CREATE TABLE IF NOT EXISTS {t} (doc_id text PRIMARY KEY, hash text NOT NULL, "
                    "title text NOT NULL, tags text NOT NULL, body text NOT NULL, "
                    "tsv tsvector GENERATED ALWAYS AS ("
                    "setweight(to_tsvector('english', title), 'A') || "
                    "setweight(to_tsvector('english', tags), 'B') || "
                    "setweight(to_tsvector('english', body), 'D')) STORED)"
                )
            )
            c.execute(text(f"CREATE INDEX IF NOT EXISTS {t}_tsv ON {t} USING gin (tsv)"))

    @_index_operation
    def sync(self, documents: dict[str, IndexedDoc]) -> SyncReport:
        t = self.table
        with self._engine.begin() as c:
            c.execute(text("SELECT pg_advisory_xact_lock(hashtext(:t))"), {"t": t})
            indexed = {str(r[0]): str(r[1]) for r in c.execute(text(f"SELECT doc_id, hash FROM {t}"))}
            plan = _plan(documents, indexed)
            for doc_id in plan.removed:
                c.execute(text(f"DELETE FROM {t} WHERE doc_id = :d"), {"d": doc_id})
            for doc_id in (*plan.added, *plan.changed):
                d = documents[doc_id]
                c.execute(
                    text(
                        f"INSERT INTO {t} (doc_id, hash, title, tags, body) VALUES (:d, :h, :ti, :ta, :b) "
                        "ON CONFLICT (doc_id) DO UPDATE SET hash = excluded.hash, title = excluded.title, "
                        "tags = excluded.tags, body = excluded.body"
                    ),
                    {"d": doc_id, "h": d.hash, "ti": d.title, "ta": d.tags, "b": d.body},
                )
        return plan

    @_index_operation
    def search(self, terms: list[str], limit: int) -> list[tuple[str, float]]:
        """ts_rank of each term times its bm25 idf, summed: ts_rank alone knows no rarity, so a
        word most titles share ("account") would outrank the one word that says what is meant."""
        t = self.table
        terms = _checked(terms)
        params: dict[str, str | int] = {f"t{i}": term for i, term in enumerate(terms)}
        queries = [f"to_tsquery('english', :t{i})" for i in range(len(terms))]
        counts = ", ".join(f"count(*) FILTER (WHERE tsv @@ {q})" for q in queries)
        with self._engine.connect() as c:
            row = c.execute(text(f"SELECT count(*), {counts} FROM {t}"), params).one()
            total, frequencies = int(row[0]), [int(n) for n in row[1:]]
            weights = [_idf(total, n) for n in frequencies]
            ranks = zip(weights, queries, strict=True)
            score = " + ".join(f"{w:.6f} * ts_rank('{PG_WEIGHTS}', tsv, {q})" for w, q in ranks)
            rows = c.execute(
                text(
                    f"SELECT doc_id, {score} AS score FROM {t}, to_tsquery('english', :any) AS q "
                    "WHERE tsv @@ q AND ts_filter(tsv, '{a,b}') @@ q ORDER BY score DESC, doc_id LIMIT :n"
                ),
                {**params, "any": " | ".join(terms), "n": limit},
            ).all()
        return [(str(d), float(s)) for d, s in rows]

    @_index_operation
    def knows(self, term: str) -> bool:
        with self._engine.connect() as c:
            found = c.execute(
                text(f"SELECT 1 FROM {self.table} WHERE tsv @@ to_tsquery('english', :q) LIMIT 1"),
                {"q": _checked([term])[0]},
            ).first()
        return found is not None

    @_index_operation
    def drop(self, name: str) -> None:
        with self._engine.begin() as c:
            c.execute(text(f"DROP TABLE IF EXISTS {name}"))

    @_index_operation
    def close(self) -> None:
        self._engine.dispose()


def _idf(total: int, containing: int) -> float:
    """bm25's inverse document frequency, floored as FTS5 floors it."""
    return max(math.log((total - containing + 0.5) / (containing + 0.5)), 1e-6)


def _plan(documents: dict[str, IndexedDoc], indexed: dict[str, str]) -> SyncReport:
    """What to add, replace and remove so that an index holding `indexed` (id -> hash) holds `documents`."""
    added = tuple(d for d in documents if d not in indexed)
    changed = tuple(d for d in documents if d in indexed and indexed[d] != documents[d].hash)
    removed = tuple(d for d in indexed if d not in documents)
    return SyncReport(added, changed, removed)
