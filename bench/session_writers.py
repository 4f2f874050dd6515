"""Writers of one session: racing to the row-version check (before) against queueing on the session lock (after).

    python bench/session_writers.py [--writers 2,4,8,16] [--turns 960] [--pause-ms 2] [--no-postgres]

For each backend (a SQLite file, WAL, synchronous=FULL; and PostgreSQL on a server this script
starts itself with tests/pg.py, when the binaries and psycopg are there) and each number of
writer processes N, N processes (tests/_workers.py race) open a fresh database, wait for a
common start signal, then send `--turns`/N messages each to ONE shared session as fast as
they can, with a random think time of up to `--pause-ms` between messages; half of them
talk, half fill in the feedback flow. Each run twice, side by side:

- before: `Engine(queue_writers=False)`, the compare-and-swap path alone: a turn that loses the
  row-version check is played again on the state the winner left;
- after: the default, writers queue on the store's session lock and each turn is played once.

Printed per run: turns committed; replays (turns played beyond the committed ones, i.e. work
thrown away); callers that got a ConflictError (SessionBusy included) after the engine's
10 s `conflict_wait_s`; the time of an `Engine.turn` call as its caller sees it (waiting for
the lock or replaying included), median, p99 and max; and turns committed per second.

A benchmark, not a test: it prints figures measured side by side in one run.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parents[1]
# in place of this script's folder: there, `import queue` (psycopg does) would find this file
sys.path[0] = str(ROOT)

WORKER = ROOT / "tests" / "_workers.py"
USER = "shared"
SMALL_TALK = ["hello", "what can you do?"]
FEEDBACK = ["I want to give feedback", "4", "the bot is too slow"]


class Run(NamedTuple):
    committed: int
    replays: int
    conflicts: int
    median_ms: float
    p99_ms: float
    max_ms: float
    per_s: float


def race(db: str, writers: int, turns: int, pause_ms: float, queued: bool) -> Run:
    """N worker processes on one session; their pooled figures."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = []
    for i in range(writers):
        texts = FEEDBACK if i % 2 else SMALL_TALK
        cmd = [sys.executable, str(WORKER), "race", db, "--user", USER, "--turns", str(turns),
               "--texts", "|".join(texts), "--pause-ms", str(pause_ms)]  # fmt: skip
        if not queued:
            cmd.append("--no-queue")
        procs.append(
            subprocess.Popen(
                cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
            )
        )
    for proc in procs:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 120)
        line = proc.stdout.readline() if ready else ""
        if line.strip() != "ready":
            for p in procs:
                p.kill()
            raise SystemExit(f"a worker did not start: {line!r}\n{proc.communicate()[1]}")
    started = time.monotonic()
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    results: list[dict[str, Any]] = []
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        if proc.returncode != 0:
            raise SystemExit(f"a worker failed:\n{err}")
        results.append(json.loads(out.strip().splitlines()[-1]))
    wall = max(end for r in results for _, end in r["spans"]) - started
    times = sorted((end - start) * 1000 for r in results for start, end in r["spans"])
    committed = sum(r["committed"] for r in results)
    return Run(
        committed=committed,
        replays=sum(r["played"] for r in results) - committed,
        conflicts=sum(r["conflicts"] for r in results),
        median_ms=statistics.median(times),
        p99_ms=times[min(len(times) - 1, int(len(times) * 0.99))],
        max_ms=times[-1],
        per_s=committed / wall,
    )


def backend(name: str, fresh: Callable[[], str], counts: list[int], total: int, pause_ms: float) -> None:
    print(f"{name}: one session, {total} turns in all, think time up to {pause_ms:g} ms")
    print(f"  {'writers':>7}  {'path':<7} {'turns':>5} {'replays':>7} {'conflicts':>9} "
          f"{'median ms':>9} {'p99 ms':>8} {'max ms':>8} {'turns/s':>7}")  # fmt: skip
    for n in counts:
        for label, queued in (("before", False), ("after", True)):
            r = race(fresh(), n, total // n, pause_ms, queued)
            print(
                f"  {n:>7}  {label:<7} {r.committed:>5} {r.replays:>7} {r.conflicts:>9} "
                f"{r.median_ms:>9.1f} {r.p99_ms:>8.1f} {r.max_ms:>8.1f} {r.per_s:>7.0f}",
                flush=True,
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--writers", default="2,4,8,16", help="numbers of writer processes, comma-separated")
    ap.add_argument("--turns", type=int, default=960, help="turns per run, shared among the writers")
    ap.add_argument("--pause-ms", type=float, default=2.0, help="longest think time between a writer's turns")
    ap.add_argument("--no-postgres", action="store_true")
    args = ap.parse_args()
    counts = [int(n) for n in args.writers.split(",")]
    import sqlite3

    print(f"python {sys.version.split()[0]}, SQLite {sqlite3.sqlite_version}, {os.cpu_count()} cpus")
    with tempfile.TemporaryDirectory(prefix="innerloop-queue-") as d:
        runs = iter(range(1_000_000))
        backend(
            "SQLite file (WAL, synchronous=FULL)",
            lambda: str(Path(d) / f"q{next(runs)}.db"),
            counts,
            args.turns,
            args.pause_ms,
        )
    if args.no_postgres:
        return
    from tests.pg import PgServer, why_not

    reason = why_not()
    if reason is not None:
        print(f"PostgreSQL: skipped, {reason}")
        return
    server = PgServer()
    try:
        backend("PostgreSQL (the suite's server, fsync off)", server.database, counts, args.turns, args.pause_ms)
    finally:
        server.close()


if __name__ == "__main__":
    main()
