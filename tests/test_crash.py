"""Crash safety: SIGKILL worker processes mid-turn, many times, then check every session is whole.

Two workers at a time run feedback conversations on one SQLite file (some users shared,
so conflicts happen too) and are killed with a real `kill -9` at random moments. They are
forked from a fork server (tests/_workers.py zygote), so each round costs milliseconds
of startup instead of a fresh interpreter's second of imports. Inside a
write transaction their SQLite statements pause at random (tests/_workers.py), so a good
share of the kills land in a half-written turn. A turn must then be wholly there or not
at all: the checks below compare every table with the per-turn event log.
"""

from __future__ import annotations

import json
import os
import queue
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from engine import SqlStore
from engine.store.tracerow import traces_from_rows

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")

WORKER = Path(__file__).with_name("_workers.py")
ROUNDS = 15  # two workers each: 30 kills
GROUPS = {"a": [f"u{i}" for i in range(0, 8)], "b": [f"u{i}" for i in range(5, 13)]}  # u5..u7 shared


class Zygote:
    """The fork server of tests/_workers.py: forks worker processes without paying imports."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(WORKER), "zygote"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        # A thread reads the lines: select() on the pipe would miss a second line already
        # pulled into the reader's buffer together with the first.
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        assert self.line() == "zygote ready"

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.strip())

    def line(self, timeout: float = 30.0) -> str:
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            self.proc.kill()
            pytest.fail(f"worker went silent:\n{self.proc.communicate()[1]}")

    def start(self, db: Path | str, users: list[str], status: Path, *, slow: bool = True) -> None:
        assert self.proc.stdin is not None
        extra = " --slow" if slow else ""  # the slowing hooks SQLite's progress handler
        self.proc.stdin.write(f"turns {db} --users {','.join(users)} --status {status}{extra}\n")
        self.proc.stdin.flush()

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


def sigkill(zygote: Zygote, pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        zygote.proc.kill()
        pytest.fail(f"worker {pid} died before it was killed:\n{zygote.proc.communicate()[1]}")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # the zygote ignores SIGCHLD: the kernel reaps it
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.001)
    pytest.fail(f"worker {pid} survived SIGKILL")


def kill_after_first_commit(zygote: Zygote, workers: dict[int, Path], rng: random.Random) -> int:
    """SIGKILL each worker at its own random moment after its first committed turn.

    Timed from its start instead, a worker on a machine busy with other tests could die before
    doing any work, and the progress check would measure the machine's load, not the store.
    """
    delay = {pid: rng.uniform(0.01, 0.3) for pid in workers}
    kill_at: dict[int, float] = {}
    deadline = time.monotonic() + 60
    while workers:
        now = time.monotonic()
        for pid, status in workers.items():
            if pid not in kill_at and status.read_bytes()[1:2] == b"C":
                kill_at[pid] = now + delay[pid]
        for pid in [pid for pid, at in kill_at.items() if at <= now]:
            sigkill(zygote, pid)
            del workers[pid], kill_at[pid]
        if now > deadline:
            pytest.fail(f"workers {sorted(workers)} committed no turn in 60 s")
        time.sleep(0.001)
    return len(delay)


def committed_turns(db: Path) -> int:
    with sqlite3.connect(db, timeout=30) as conn:
        return int(conn.execute("SELECT coalesce(sum(turns), 0) FROM sessions").fetchone()[0])


def test_sigkill_mid_turn_leaves_every_session_whole(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    rng = random.Random(20260522)
    kills = mid_transaction = 0
    progress: list[int] = []
    zygote = Zygote()
    try:
        for round_no in range(ROUNDS):
            statuses = {name: tmp_path / f"status-{round_no}-{name}" for name in GROUPS}
            waiting: dict[int, Path] = {}
            for name, users in GROUPS.items():  # one at a time: the "ready PID" line names its status file
                zygote.start(db, users, statuses[name])
                waiting[int(zygote.line().split()[1])] = statuses[name]
            kills += kill_after_first_commit(zygote, waiting, rng)
            mid_transaction += sum(status.read_bytes()[:1] == b"T" for status in statuses.values())
            progress.append(committed_turns(db))
    finally:
        zygote.close()

    assert kills == 2 * ROUNDS
    # the kills did hit half-written turns, and the workers got real work done between them
    assert mid_transaction >= 3, f"only {mid_transaction} of {kills} kills landed inside a write transaction"
    assert progress[-1] >= 10 * ROUNDS, progress
    assert len(set(progress)) > ROUNDS // 2, f"turns committed after each round: {progress}"
    print(f"\n{kills} kills, {mid_transaction} inside a write transaction; turns committed by round: {progress}")

    check_whole(db)
    next_turn_works(db)


def check_whole(db: Path) -> None:
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        sessions = conn.execute("SELECT id, bot, user, turns, version, flow, state FROM sessions").fetchall()
        users = {u for group in GROUPS.values() for u in group}
        assert {row[2] for row in sessions} == users, "every user took at least one turn"
        for sid, _bot, user, turns, version, flow, state in sessions:
            where = f"session {sid} ({user})"
            # event rows hold the turns of a finished loop packed, or one turn's trace (tracerow.py)
            rows = "SELECT trace, turn, created_at, pack FROM turn_events WHERE session_id = ? ORDER BY id DESC"
            # and the turns since the last pack wait in the session row (`pending`)
            held = conn.execute("SELECT pending, updated_at FROM sessions WHERE id = ?", (sid,)).fetchone()
            traces = traces_from_rows(conn.execute(rows, (sid,)), sid, pending=(held[0], held[1]))
            numbers = [t.turn for t in traces]
            # one trace per committed turn, numbered 1..n with no gap or repeat
            assert turns == version == len(numbers), f"{where}: turns={turns} version={version} events={len(numbers)}"
            assert numbers == list(range(1, turns + 1)), f"{where}: event turn numbers {numbers}"
            last = traces[-1]
            assert (last.flow_after, last.state_after) == (flow, state), f"{where}: row and last trace disagree"

            saved = [t.turn for t in traces if "feedback" in t.records]
            runs = conn.execute(
                "SELECT slots FROM flow_runs WHERE session_id = ? AND flow = 'feedback' AND outcome = 'completed' "
                "ORDER BY id",
                (sid,),
            ).fetchall()
            records = conn.execute(
                "SELECT data FROM records WHERE session_id = ? AND kind = 'feedback' ORDER BY id", (sid,)
            ).fetchall()
            roles = Counter(role for (role,) in conn.execute("SELECT role FROM messages WHERE session_id = ?", (sid,)))
            summaries = conn.execute(
                "SELECT count(*) FROM messages WHERE session_id = ? AND role = 'system' "
                "AND content LIKE 'Feedback completed.%'",
                (sid,),
            ).fetchone()[0]
            # each completed feedback run: one run row, one record, one summary line, one trace saying so
            assert len(runs) == len(records) == summaries == len(saved), (
                f"{where}: runs={len(runs)} records={len(records)} summaries={summaries} traces={len(saved)}"
            )
            for (slots,), (data,) in zip(runs, records, strict=True):
                assert json.loads(slots) == json.loads(data), f"{where}: record differs from its run"
            # every turn taken in the main conversation stored the user's message there
            main_turns = sum(1 for t in traces if t.flow_before is None)
            assert roles["user"] == main_turns, f"{where}: {roles['user']} user messages, {main_turns} main turns"


def test_sigkill_mid_turn_on_postgresql_leaves_every_session_whole(pg_url: str, tmp_path: Path) -> None:
    """The same workers killed at random moments, on PostgreSQL: the server aborts what a dead
    connection left open, so every committed turn is whole and nothing half-written remains."""
    rng = random.Random(20261125)
    zygote = Zygote()
    progress: list[int] = []
    try:
        for round_no in range(10):
            waiting: dict[int, Path] = {}
            for name, users in GROUPS.items():
                status = tmp_path / f"status-{round_no}-{name}"
                zygote.start(pg_url, users, status, slow=False)
                waiting[int(zygote.line().split()[1])] = status
            kill_after_first_commit(zygote, waiting, rng)
            store = SqlStore(pg_url)
            progress.append(sum(s.turns for s in store.sessions()))
            store.close()
    finally:
        zygote.close()
    assert progress[-1] >= 100 and len(set(progress)) > 5, progress
    store = SqlStore(pg_url)
    sessions = store.sessions()
    assert {s.user for s in sessions} == {u for group in GROUPS.values() for u in group}
    for summary in sessions:
        s = store.load(summary.bot, summary.user)
        assert s is not None
        traces = store.traces(s.id)
        assert s.turns == s.version == len(traces) and [t.turn for t in traces] == list(range(1, s.turns + 1))
        last = traces[-1]
        assert (last.flow_after, last.state_after) == (s.active.flow, s.active.state) if s.active else (None, None)
        saved = sum(1 for t in traces if "feedback" in t.records)
        runs = [r for r in store.runs(s.id) if r.flow == "feedback" and r.outcome == "completed"]
        records = [r for r in store.records("feedback", user=s.user) if r.session_id == s.id]
        assert len(runs) == len(records) == saved, (s.user, len(runs), len(records), saved)
    store.close()
    next_turn_works(pg_url)


def next_turn_works(db: Path | str) -> None:
    # in a fresh process: the workers' bot is registered there, not in the test session
    out = subprocess.run([sys.executable, str(WORKER), "next", str(db)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    users = {u for group in GROUPS.values() for u in group}
    assert json.loads(out.stdout) == {"checked": len(users)}
