"""Does a turn slow down as the store fills up, and what does a finished inner loop cost on disk?

    python bench/store_scale.py [--sessions 1000000] [--turns 400] [--no-postgres]

For each backend (a SQLite file, WAL, synchronous=FULL; and PostgreSQL on a server this
script starts itself with tests/pg.py, when the binaries and psycopg are there):

1. per-turn time on an empty database: the 4-turn feedback conversation for new users,
   `--turns` turns through `Engine.turn`, median and p90;
2. the same after seeding `--sessions` stored sessions (each with one message and one
   turn event, written with bulk SQL, not turns), on other new users; the ratio of the two
   medians is the figure (goal: at most 1.2x);
3. stored bytes per finished inner loop: a feedback conversation, start to collapse, measured
   as the growth of the database (SQLite: pages in use; PostgreSQL: the tables' and indexes'
   total relation size) over 500 conversations (goal: at most 2 KB). Two figures each: as
   written, and live, after a VACUUM (PostgreSQL: VACUUM FULL) has reclaimed what was deleted
   (a finished loop's single trace rows, replaced by their pack) and what MVCC left behind
   (every turn's new version of the session row), as autovacuum does in a running database.

A benchmark, not a test: it prints figures and ratios measured side by side in one run.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Bot, Engine, Registry, SqlStore
from flows.language_buddy.bot import FEEDBACK
from flows.shared.feedback import feedback

BOT = "scale-feedback"
BOTS = Registry([Bot(name=BOT, persona="a benchmark bot", flows=[feedback], intents=[FEEDBACK], capabilities="c")])
SCRIPT = ["I want to give feedback", "4", "I would like more speaking practice", "content"]
NOW = "2026-01-01T00:00:00+00:00"
TABLES = ("sessions", "messages", "flow_runs", "turn_events", "records")


def turn_times(engine: Engine, prefix: str, turns: int) -> list[float]:
    out: list[float] = []
    for i in range(turns // len(SCRIPT)):
        for text in SCRIPT:
            t = time.perf_counter()
            engine.turn(BOT, f"{prefix}{i}", text)
            out.append((time.perf_counter() - t) * 1e6)
    return out


SEED_SQLITE = """
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < {last})
INSERT INTO {table} {columns} SELECT {values} FROM n
"""


def seed(store: SqlStore, sessions: int) -> float:
    """`sessions` stored sessions with one message and one event each, by bulk SQL; seconds taken."""
    started = time.perf_counter()
    sid = "'s' || i" if store.url.startswith("sqlite") else "'s' || i::text"
    user = "'u' || i" if store.url.startswith("sqlite") else "'u' || i::text"
    trace = '\'{"turn": 1, "user_text": "hello", "reply": "hi", "route": "main", "at": "' + NOW + "\"}'"
    session_columns = (
        "(id, bot, user, slots, scratchpad, attempts, flow_turns, stack, context, turns, version, "
        "created_at, updated_at)"
    )
    row = f"{sid}, 'seeded', {user}, '{{}}', '[]', 0, 0, '[]', '{{}}', 1, 1, '{NOW}', '{NOW}'"
    statements = [
        ("sessions", session_columns, row),
        ("messages", "(session_id, role, content, created_at)", f"{sid}, 'user', 'hello', '{NOW}'"),
        ("turn_events", "(session_id, turn, trace, created_at)", f"{sid}, 1, {trace}, '{NOW}'"),
    ]  # fmt: skip
    with store.engine.begin() as conn:
        for table, columns, values in statements:
            if store.url.startswith("sqlite"):
                sql = SEED_SQLITE.format(last=sessions - 1, table=table, columns=columns, values=values)
            else:
                columns = columns.replace("user,", '"user",')
                sql = f"INSERT INTO {table} {columns} SELECT {values} FROM generate_series(0, {sessions - 1}) AS i"
            conn.exec_driver_sql(sql)
    if not store.url.startswith("sqlite"):
        with store.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.exec_driver_sql("ANALYZE")
    return time.perf_counter() - started


def stored_bytes(store: SqlStore, *, vacuum: bool = False) -> int:
    if vacuum and store.url.startswith("sqlite"):
        with sqlite3.connect(store.url.removeprefix("sqlite:///")) as db:
            db.execute("VACUUM")
    elif vacuum:
        with store.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.exec_driver_sql("VACUUM FULL")
    with store.engine.connect() as conn:
        if store.url.startswith("sqlite"):
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
            pages = conn.exec_driver_sql("PRAGMA page_count").scalar() or 0
            free = conn.exec_driver_sql("PRAGMA freelist_count").scalar() or 0
            size = conn.exec_driver_sql("PRAGMA page_size").scalar() or 0
            return int((pages - free) * size)
        total = 0
        for table in TABLES:
            total += int(conn.exec_driver_sql(f"SELECT pg_total_relation_size('{table}')").scalar() or 0)
        return total


class LoopBytes(NamedTuple):
    """Bytes per finished loop: one user giving feedback again and again, and new users."""

    returning: float
    returning_live: float
    new_user: float
    new_user_live: float


def bytes_per_loop(url: str, loops: int = 500) -> LoopBytes:
    store = SqlStore(url)
    engine = Engine(store, bots=BOTS)
    turn_times(engine, "warm", len(SCRIPT) * 5)  # tables and indexes past their first pages
    sizes = [stored_bytes(store, vacuum=True)]
    for _ in range(loops):
        for text in SCRIPT:
            engine.turn(BOT, "regular", text)
    sizes += [stored_bytes(store), stored_bytes(store, vacuum=True)]
    turn_times(engine, "new", len(SCRIPT) * loops)
    sizes += [stored_bytes(store), stored_bytes(store, vacuum=True)]
    store.close()
    start, written, live, new_written, new_live = sizes
    return LoopBytes(
        (written - start) / loops, (live - start) / loops, (new_written - live) / loops, (new_live - live) / loops
    )


def median_p90(xs: list[float]) -> tuple[float, float]:
    return statistics.median(xs), statistics.quantiles(xs, n=10)[-1]


def run(name: str, fresh_url: str, bytes_url: str, sessions: int, turns: int) -> None:
    store = SqlStore(fresh_url)
    engine = Engine(store, bots=BOTS)
    turn_times(engine, "warmup", 40)
    empty = turn_times(engine, "empty", turns)
    took = seed(store, sessions)
    full = turn_times(engine, "full", turns)
    again = turn_times(engine, "again", turns)  # once more, to see the noise between two runs
    store.close()
    e_med, e_p90 = median_p90(empty)
    f_med, f_p90 = median_p90(full + again)
    print(f"{name}: seeded {sessions:,} sessions in {took:.1f} s")
    print(f"  per turn, empty database:      median {e_med:7.0f} µs   p90 {e_p90:7.0f} µs")
    print(f"  per turn, {sessions:>9,} sessions: median {f_med:7.0f} µs   p90 {f_p90:7.0f} µs")
    print(f"  ratio full/empty: median {f_med / e_med:.2f}x (goal: at most 1.2x)")
    b = bytes_per_loop(bytes_url)
    print("  stored bytes per finished inner loop (feedback, 4 turns; goal: at most 2,048 B):")
    print(f"    a returning user:             {b.returning_live:6,.0f} B live   ({b.returning:,.0f} B as written)")
    print(f"    a new user (+ a session row): {b.new_user_live:6,.0f} B live   ({b.new_user:,.0f} B as written)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sessions", type=int, default=1_000_000)
    ap.add_argument("--turns", type=int, default=400)
    ap.add_argument("--no-postgres", action="store_true")
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]}, SQLite {sqlite3.sqlite_version}, {os.cpu_count()} cpus")
    with tempfile.TemporaryDirectory(prefix="innerloop-scale-") as tmp:
        run("SQLite (WAL, synchronous=FULL)", f"{tmp}/scale.db", f"{tmp}/bytes.db", args.sessions, args.turns)
    if args.no_postgres:
        return
    from tests.pg import PgServer, why_not

    reason = why_not()
    if reason:
        print(f"PostgreSQL: not measured ({reason})")
        return
    server = PgServer()
    try:
        run("PostgreSQL 15 (fsync off: the suite's throwaway server)", server.database(), server.database(),
            args.sessions, args.turns)  # fmt: skip
    finally:
        server.close()


if __name__ == "__main__":
    main()
