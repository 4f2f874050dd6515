"""The session writer lock across real processes: a holder blocks only its session, for a bounded
time, and a holder killed with SIGKILL blocks nobody (the OS drops its flock, the server its
advisory lock). Each test runs on a SQLite file and on the suite's PostgreSQL server.

Many writers of one session, each turn played once: tests/test_concurrency.py.
"""

from __future__ import annotations

import select
import signal
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from engine import ConflictError, Engine, SessionBusy, SqlStore
from tests._workers import BOTS, READY_SECONDS

WORKER = Path(__file__).with_name("_workers.py")
BOT = "durability"  # the workers' bot
USER = "shared"


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgres":
        url: str = request.getfixturevalue("pg_url")
        return url
    return str(tmp_path / "q.db")


def holder(db: str) -> subprocess.Popen[str]:
    """A process holding the writer lock of USER's session until it is killed."""
    proc = subprocess.Popen(
        [sys.executable, str(WORKER), "hold", db, "--user", USER],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], READY_SECONDS)
    line = proc.stdout.readline() if ready else ""
    if line.strip() != "held":
        proc.kill()
        pytest.fail(f"the holder did not start: {line!r}\n{proc.communicate()[1]}")
    return proc


def test_a_held_session_makes_its_turn_wait_then_fail_as_busy_and_others_go_on(db: str) -> None:
    store = SqlStore(db)
    engine = Engine(store, bots=BOTS, conflict_wait_s=0.5)
    engine.turn(BOT, USER, "hello")
    proc = holder(db)
    try:
        started = time.monotonic()
        with pytest.raises(SessionBusy) as busy:
            engine.turn(BOT, USER, "I want to give feedback")
        waited = time.monotonic() - started
        assert isinstance(busy.value, ConflictError) and busy.value.user == USER
        assert waited >= 0.45, waited  # it did wait for the holder, then gave up
        # nothing of the refused turn was written; another user's session is not held
        s = engine.session(BOT, USER)
        assert s is not None and s.turns == 1
        assert engine.turn(BOT, "someone-else", "hello").reply
    finally:
        proc.kill()
        proc.wait()
    store.close()


def test_a_killed_lock_holder_blocks_nobody(db: str) -> None:
    store = SqlStore(db)
    engine = Engine(store, bots=BOTS, conflict_wait_s=10)
    proc = holder(db)
    with pytest.raises(SessionBusy), store.session_lock(BOT, USER, timeout_s=0.2):
        pass  # the other process really holds it
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    # the lock died with its holder: the next writer gets it well before its 10 s wait is up
    started = time.monotonic()
    r = engine.turn(BOT, USER, "I want to give feedback")
    assert time.monotonic() - started < 5
    assert r.flow == "feedback" and r.trace is not None and not r.trace.retried
    store.close()


def test_expiry_skips_a_session_held_by_a_turn_and_sweeps_the_others(db: str) -> None:
    now = [datetime(2026, 1, 5, 12, 0, tzinfo=UTC)]
    store = SqlStore(db)
    engine = Engine(store, bots=BOTS, clock=lambda: now[0], conflict_wait_s=0.3)
    for user in (USER, "idle-too"):
        assert engine.turn(BOT, user, "I want to give feedback").flow == "feedback"
    now[0] += timedelta(days=3)  # past the feedback flow's one-day idle timeout
    proc = holder(db)
    try:
        assert engine.expire_idle() == 1  # the other one; the held session is left for later
    finally:
        proc.kill()
        proc.wait()
    held, other = engine.session(BOT, USER), engine.session(BOT, "idle-too")
    assert held is not None and held.active is not None and held.active.flow == "feedback"
    assert other is not None and other.active is None
    assert engine.expire_idle() == 1  # released: now it is swept
    store.close()


def test_threads_of_one_process_wait_for_a_session_on_one_postgresql_connection(pg_url: str) -> None:
    """Many threads waiting for one busy session queue in the process: one waits on the server."""
    store = SqlStore(pg_url)
    probe = SqlStore(pg_url)
    waiting: list[int] = []
    busy: list[SessionBusy] = []

    def wait() -> None:
        try:
            with store.session_lock(BOT, USER, timeout_s=1.5):
                pass
        except SessionBusy as e:
            busy.append(e)

    proc = holder(pg_url)
    try:
        threads = [threading.Thread(target=wait) for _ in range(6)]
        for t in threads:
            t.start()
        time.sleep(0.5)
        with probe.engine.connect() as conn:
            waiting.append(
                conn.exec_driver_sql(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                ).scalar_one()
            )
        for t in threads:
            t.join()
    finally:
        proc.kill()
        proc.wait()
    assert waiting == [1]
    assert len(busy) == 6 and all(e.waited_s == 1.5 for e in busy)
    store.close()
    probe.close()
