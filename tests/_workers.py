"""Worker processes for the crash and concurrency tests (run as scripts, not collected by pytest).

python tests/_workers.py turns DB --users u0,u1,... --status FILE [--slow]
    Runs feedback conversations round-robin over the users until killed; prints
    "ready" once the store is open. With --slow, SQLite statements inside a write
    transaction pause at random, so a kill often lands mid-transaction; the byte in
    FILE says where the worker was: "T" inside a write transaction, "-" outside.

python tests/_workers.py race DB --user U --turns K --texts A|B|C [--no-queue]
    Prints "ready", waits for a line on stdin, then runs K turns cycling through the
    texts on one shared session; prints one JSON line with what it committed, how many
    times a turn was played (a replay after a lost compare-and-swap plays it again) and
    each turn's start and end (time.monotonic, one clock for all processes of the machine).
    With --no-queue the engine takes no session lock (the compare-and-swap path alone).

python tests/_workers.py hold DB --user U
    Takes the writer lock of U's session with the workers' bot, prints "held", and sleeps
    until killed (or MAX_SECONDS).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import signal
import sys
import time
import traceback
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import event

from engine import Bot, ConflictError, Engine, Registry, SqlStore, default_registry
from engine.reading import warm_up
from engine.runtime import TurnResult
from engine.turn import Turn
from flows.language_buddy.bot import FEEDBACK
from flows.shared.feedback import feedback

# The workers' own bot: the main conversation plus the shipped feedback flow, and nothing a
# shipped bot may add later (onboarding first, ...). Registered only in these processes.
BOT = "durability"
# this module's bots, beside the installed ones
BOTS = Registry(default_registry())

BOTS.add(
    Bot(
        name=BOT,
        persona="a test bot",
        flows=[feedback],
        intents=[FEEDBACK],
        capabilities="I can take your feedback.",
    )
)
# The conversation the crash test drives: what to say in each (flow, state).
SCRIPT = {
    ("main", None): "I want to give feedback",
    ("feedback", "rating"): "4",
    ("feedback", "details"): "the bot is too slow",
    ("feedback", "category"): "latency",
}
MAX_SECONDS = 60.0  # a worker whose parent died stops on its own
# How long a test waits for a worker to say it is ready (interpreter start, imports, the store
# opened). About 3 s of CPU each: eight started at once on 2 busy cores (load 8) took over 60 s.
READY_SECONDS = 180.0


class Status:
    """Where the worker is, readable after it was SIGKILLed: byte 0 is "T" inside a write
    transaction and "-" outside; byte 1 becomes "C" once a turn of this worker has committed."""

    def __init__(self, path: str) -> None:
        self.fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        self.value = b""
        self.has_committed = False
        self.set(b"-")

    def set(self, value: bytes) -> None:
        if value != self.value:
            os.pwrite(self.fd, value, 0)
            self.value = value

    def committed(self) -> None:
        if not self.has_committed:
            os.pwrite(self.fd, b"C", 1)
            self.has_committed = True


def slow_transactions(store: SqlStore, status: Status, rng: random.Random) -> None:
    """Pause inside write transactions, at random, through SQLite's progress handler.

    The handler runs between VM instructions of the statements of a turn's transaction
    (after BEGIN IMMEDIATE, before COMMIT returns), so a SIGKILL during the pause hits a
    half-written turn. The engine's code is untouched; only this process's connections get it.
    """

    def on_checkout(dbapi_conn: Any, _record: Any, _proxy: Any) -> None:
        def progress() -> int:
            if dbapi_conn.in_transaction:
                status.set(b"T")
                if rng.random() < 0.02:
                    time.sleep(rng.uniform(0.0005, 0.004))
            return 0

        dbapi_conn.set_progress_handler(progress, 50)

    event.listen(store.engine, "checkout", on_checkout)


def report_commits(status: Status) -> None:
    """Keep the status file's transaction byte and first-commit byte up to date."""
    original = SqlStore.commit

    def commit(self: SqlStore, write: Any) -> None:
        try:
            original(self, write)
            status.committed()
        finally:
            status.set(b"-")

    SqlStore.commit = commit  # type: ignore[method-assign]


def turns(args: argparse.Namespace) -> None:
    store = SqlStore(args.db)
    status = Status(args.status)
    report_commits(status)
    if args.slow:
        slow_transactions(store, status, random.Random(os.getpid()))
    engine = Engine(store, bots=BOTS)
    users: list[str] = args.users.split(",")
    where: dict[str, tuple[str, str | None]] = {}
    for u in users:
        s = engine.session(BOT, u)
        where[u] = (s.active.flow, s.active.state) if s and s.active else ("main", None)
    # one write(2) of a short line is atomic on a pipe: two workers' lines never interleave
    # (print may issue the text and the newline as two writes, e.g. under PYTHONUNBUFFERED)
    os.write(sys.stdout.fileno(), f"ready {os.getpid()}\n".encode())
    deadline = time.monotonic() + MAX_SECONDS
    while time.monotonic() < deadline:
        for u in users:
            text = SCRIPT.get(where[u], "cancel")
            try:
                r: TurnResult = engine.turn(BOT, u, text)
            except ConflictError:
                # another worker shares this user; the turn was retried once and reported
                s = engine.session(BOT, u)
                where[u] = (s.active.flow, s.active.state) if s and s.active else ("main", None)
                continue
            where[u] = (r.flow, r.state)


def zygote(parser: argparse.ArgumentParser) -> None:
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    warm_up()  # the forked workers inherit the loaded tables, as a preforking server's would
    print("zygote ready", flush=True)
    for line in sys.stdin:
        args = parser.parse_args(shlex.split(line))
        sys.stdout.flush()  # or the child would flush the zygote's buffered output again
        if os.fork() == 0:
            code = 0
            try:
                args.run(args)
            except BaseException:
                traceback.print_exc()
                sys.stderr.flush()
                code = 1
            os._exit(code)


def next_turn(args: argparse.Namespace) -> None:
    store = SqlStore(args.db)
    engine = Engine(store, bots=BOTS)
    checked = 0
    for summary in store.sessions():
        s = store.load(summary.bot, summary.user)  # validates the stored row
        assert s is not None and s == store.get(summary.id), f"{summary.id}: load and get disagree"
        text = SCRIPT.get((s.active.flow, s.active.state) if s.active else ("main", None), "cancel")
        r = engine.turn(summary.bot, summary.user, text)
        assert not r.rejected and r.trace is not None and r.trace.turn == s.turns + 1, f"{summary.id}: {r}"
        after = store.load(summary.bot, summary.user)
        assert after is not None and after.version == s.version + 1 == after.turns, f"{summary.id}: {after}"
        assert len(store.traces(s.id)) == after.turns, f"{summary.id}: traces and turns disagree"
        checked += 1
    store.close()
    print(json.dumps({"checked": checked}), flush=True)


def race(args: argparse.Namespace) -> None:
    store = SqlStore(args.db)
    engine = Engine(store, bots=BOTS, queue_writers=not args.no_queue)
    texts: list[str] = args.texts.split("|")
    played = 0
    run = Turn.run

    def counted(turn: Turn) -> Any:
        nonlocal played
        played += 1
        return run(turn)

    Turn.run = counted  # type: ignore[method-assign,assignment]
    warm_up()
    print("ready", flush=True)
    sys.stdin.readline()  # the start signal: both workers are open and waiting
    committed = conflicts = retried = duplicates = 0
    spans: list[tuple[float, float]] = []
    rng = random.Random(os.getpid())
    for i in range(args.turns):
        if args.pause_ms:
            # a user's think time: without it one process can hold the write lock for a long
            # burst while the other sits in SQLite's busy-handler backoff
            time.sleep(rng.uniform(0, args.pause_ms / 1000))
        started = time.monotonic()
        try:
            r = engine.turn(BOT, args.user, texts[i % len(texts)], message_id=f"m{i}" if args.same_ids else None)
        except ConflictError:
            conflicts += 1
            continue
        finally:
            spans.append((started, time.monotonic()))
        if r.duplicate:
            duplicates += 1
            continue
        committed += 1
        retried += bool(r.trace and r.trace.retried)
    store.close()
    print(
        json.dumps(
            {
                "committed": committed,
                "conflicts": conflicts,
                "retried": retried,
                "duplicates": duplicates,
                "played": played,
                "spans": spans,
            }
        ),
        flush=True,
    )


def hold(args: argparse.Namespace) -> None:
    store = SqlStore(args.db)
    with store.session_lock(BOT, args.user, timeout_s=MAX_SECONDS):
        print("held", flush=True)
        time.sleep(MAX_SECONDS)


def main() -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="command", required=True)
    t = sub.add_parser("turns")
    t.add_argument("db")
    t.add_argument("--users", required=True)
    t.add_argument("--status", required=True)
    t.add_argument("--slow", action="store_true")
    t.set_defaults(run=turns)
    sub.add_parser("zygote")
    n = sub.add_parser("next")
    n.add_argument("db")
    r = sub.add_parser("race")
    r.add_argument("db")
    r.add_argument("--user", required=True)
    r.add_argument("--turns", type=int, required=True)
    r.add_argument("--texts", required=True)
    r.add_argument("--pause-ms", type=float, default=0.0)
    # every worker sends message i with the id "m<i>": the same messages, retried from elsewhere
    r.add_argument("--same-ids", action="store_true")
    r.add_argument("--no-queue", action="store_true")
    h = sub.add_parser("hold")
    h.add_argument("db")
    h.add_argument("--user", required=True)
    args = ap.parse_args()
    if args.command == "zygote":
        zygote(ap)
        return
    {"turns": turns, "next": next_turn, "race": race, "hold": hold}[args.command](args)


if __name__ == "__main__":
    main()
