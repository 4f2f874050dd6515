"""Per-turn engine overhead against a plain-sqlite3 floor (a benchmark, not a test).

    python bench/turn_overhead.py [--sessions 300] [--sync FULL|NORMAL] [--bot NAME] [--clock wall|cpu]
                                   [--profile] [--smoke]

Both sides run the 4-turn feedback conversation for every session on an on-disk SQLite
file, as a stateless server would: every turn loads the session from the store and
commits it back. The engine side is `Engine.turn` on `SqlStore` with the rules backend
(routing, the flow's machine, slots validation, event log, messages, row-version check),
by default on a bot made of the main conversation and the shipped feedback flow only;
`--bot language-buddy` runs the shipped bot instead, with a profile seeded per user so
its onboarding entry rule lets the feedback intent through.
The floor is the least a durable chat turn can do with `sqlite3`: read the session row,
update it under a version check, insert one message, commit. Both sides run WAL with the
same `synchronous` level, and they alternate turn by turn so disk and cache conditions
are shared. Peak memory is measured in a separate pass per side (tracemalloc slows the
code it watches, so it is kept out of the timed pass).

`--smoke` runs every part (timed pass, split, memory, profile) on a few sessions, and checks
that both sides stored what the conversation should leave: tests/test_bench.py runs it, so
the benchmark cannot break unseen. Its figures mean nothing.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import resource
import sqlite3
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, cast

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Bot, Engine, Registry, SqlStore
from engine.models import RecordDraft, SessionState, TurnWrite
from engine.store.dialect import Synchronous
from flows.language_buddy.bot import FEEDBACK
from flows.shared.feedback import feedback

BOT = "bench-feedback"
BOTS = Registry(
    [
        Bot(
            name=BOT,
            persona="a benchmark bot",
            flows=[feedback],
            intents=[FEEDBACK],
            capabilities="I can take your feedback.",
        )
    ]
)
PROFILE = {"name": "Max", "native_language": "de", "target_language": "en", "timezone": "Europe/Berlin", "level": "B1"}
# Four turns: intent -> rating -> details (names no category) -> category -> saved and collapsed.
SCRIPT = ["I want to give feedback", "4", "I would like more speaking practice", "content"]

Turn = Callable[[str, str], None]


class Floor:
    """Plain sqlite3 doing the minimum of a durable, version-checked chat turn."""

    def __init__(self, path: Path, sync: str) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute(f"PRAGMA synchronous={sync}")
        self.conn.execute("PRAGMA busy_timeout=10000")
        self.conn.executescript(
            """
            CREATE TABLE IF NOT EXISTS sessions (
                id TEXT PRIMARY KEY, bot TEXT NOT NULL, user TEXT NOT NULL,
                state TEXT NOT NULL, version INTEGER NOT NULL, updated_at TEXT NOT NULL,
                UNIQUE (bot, user));
            CREATE TABLE IF NOT EXISTS messages (
                id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL,
                content TEXT NOT NULL, created_at TEXT NOT NULL);
            CREATE INDEX IF NOT EXISTS ix_messages_session ON messages (session_id, id);
            """
        )

    def turn(self, user: str, text: str) -> None:
        c = self.conn
        state: dict[str, Any]
        row = c.execute("SELECT id, state, version FROM sessions WHERE bot = ? AND user = ?", (BOT, user)).fetchone()
        now = datetime.now(UTC).isoformat()
        c.execute("BEGIN IMMEDIATE")
        if row is None:
            sid, state, version = f"{BOT}:{user}", {"turns": 0}, 0
            c.execute(
                "INSERT INTO sessions (id, bot, user, state, version, updated_at) VALUES (?, ?, ?, ?, 0, ?)",
                (sid, BOT, user, "{}", now),
            )
        else:
            sid, state, version = row[0], json.loads(row[1]), row[2]
        state["turns"] = state.get("turns", 0) + 1
        state["last"] = text
        done = c.execute(
            "UPDATE sessions SET state = ?, version = ?, updated_at = ? WHERE id = ? AND version = ?",
            (json.dumps(state), version + 1, now, sid, version),
        )
        if done.rowcount != 1:
            c.execute("ROLLBACK")
            raise RuntimeError(f"version conflict on {sid}")
        c.execute(
            "INSERT INTO messages (session_id, role, content, created_at) VALUES (?, 'user', ?, ?)", (sid, text, now)
        )
        c.execute("COMMIT")

    def close(self) -> None:
        self.conn.close()


def engine_side(path: Path, sync: Synchronous, bot: str, users: list[str]) -> tuple[Turn, Callable[[], None]]:
    store = SqlStore(str(path), synchronous=sync)
    engine = Engine(store, bots=BOTS if bot == BOT else None)  # a shipped bot: the installed ones
    if bot != BOT:
        for user in users:  # before any timing: a stored profile, as onboarding would leave
            store.add_record(bot, user, "seed", RecordDraft(kind="profile", data=PROFILE))

    def turn(user: str, text: str) -> None:
        engine.turn(bot, user, text)

    return turn, store.close


def users(prefix: str, n: int) -> list[str]:
    return [f"{prefix}{i}" for i in range(n)]


def floor_side(path: Path, sync: str) -> tuple[Turn, Callable[[], None]]:
    floor = Floor(path, sync)
    return floor.turn, floor.close


# What a turn is timed by: the wall clock (`wall`, the default: what a user waits, the disk's
# fsync included), or the CPU time of the thread running it (`cpu`: on a machine shared with other
# work, a turn preempted in the middle is charged only for what it ran; a `synchronous=FULL` fsync,
# a wait, is then not counted at all, so `cpu` compares CPU work, not durability)
CLOCKS: dict[str, Callable[[], int]] = {"wall": time.perf_counter_ns, "cpu": time.thread_time_ns}
clock = CLOCKS["wall"]


def timed(who: list[str], sides: dict[str, Turn]) -> dict[str, list[float]]:
    """Every session's conversation, turn by turn, the two sides alternating who goes first."""
    samples: dict[str, list[float]] = {name: [] for name in sides}
    names = list(sides)
    for text in SCRIPT:
        for i, user in enumerate(who):
            for name in names if i % 2 == 0 else reversed(names):
                fn = sides[name]
                t0 = clock()
                fn(user, text)
                samples[name].append((clock() - t0) / 1000)
    return samples


def engine_split(path: Path, sync: Synchronous, bot: str, warm: list[str], who: list[str]) -> dict[str, list[float]]:
    """Where an engine turn's time goes: store.load, store.commit, and the rest (the turn itself)."""
    store = SqlStore(str(path), synchronous=sync)
    engine = Engine(store, bots=BOTS if bot == BOT else None)  # a shipped bot: the installed ones
    if bot != BOT:
        for user in warm + who:
            store.add_record(bot, user, "seed", RecordDraft(kind="profile", data=PROFILE))
    parts: dict[str, list[float]] = {"load": [], "commit": [], "turn logic": [], "total": []}
    load, commit = store.load, store.commit

    def timed_load(b: str, u: str) -> SessionState | None:
        t0 = clock()
        try:
            return load(b, u)
        finally:
            parts["load"].append((clock() - t0) / 1000)

    def timed_commit(write: TurnWrite) -> None:
        t0 = clock()
        try:
            commit(write)
        finally:
            parts["commit"].append((clock() - t0) / 1000)

    store.load = timed_load  # type: ignore[method-assign,assignment]
    store.commit = timed_commit  # type: ignore[method-assign]
    for who_ in (warm, who):
        for v in parts.values():
            v.clear()
        for text in SCRIPT:
            for user in who_:
                t0 = clock()
                engine.turn(bot, user, text)
                parts["total"].append((clock() - t0) / 1000)
    # one load and one commit per turn (no conflicts in a single process)
    parts["turn logic"] = [t - a - b for t, a, b in zip(parts["total"], parts["load"], parts["commit"], strict=True)]
    store.close()
    return parts


def peak_memory(make: Callable[[], tuple[Turn, Callable[[], None]]], who: list[str]) -> int:
    """Peak traced Python allocation (bytes) while one side runs the whole workload."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    turn, close = make()
    for text in SCRIPT:
        for user in who:
            turn(user, text)
    peak = tracemalloc.get_traced_memory()[1] - base
    close()
    tracemalloc.stop()
    return peak


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def profile_engine(path: Path, sync: Synchronous, bot: str, sessions: int, top: int) -> None:
    warm, who = users("w", 20), users("p", sessions)
    turn, close = engine_side(path, sync, bot, warm + who)
    for user in warm:
        for text in SCRIPT:
            turn(user, text)
    prof = cProfile.Profile()
    prof.enable()
    for text in SCRIPT:
        for user in who:
            turn(user, text)
    prof.disable()
    close()
    stats = pstats.Stats(prof)
    # Own time grouped by where the code lives: what dominates a turn, module by module.
    by_area: dict[str, float] = defaultdict(float)
    raw = cast(dict[tuple[str, int, str], tuple[int, int, float, float, object]], stats.stats)  # type: ignore[attr-defined]
    for (filename, _line, func), (_cc, _nc, tottime, _ct, _callers) in raw.items():
        by_area[area(filename, func)] += tottime
    total = sum(by_area.values())
    turns = sessions * len(SCRIPT)
    print(f"\nprofile of the engine side ({turns} turns, cProfile inflates Python-heavy code):")
    print(f"  {'area':<40} {'µs/turn':>9} {'share':>7}")
    for name, t in sorted(by_area.items(), key=lambda kv: -kv[1])[:top]:
        print(f"  {name:<40} {t / turns * 1e6:>9.1f} {t / total:>7.1%}")
    print()
    stats.sort_stats("tottime").print_stats(top)


def area(filename: str, func: str) -> str:
    if filename == "~":
        if "sqlite3" in func and ("commit" in func or "execute" in func):
            return "sqlite3 (C: execute/commit incl. fsync)"
        return f"builtins: {func.split(' of ')[0].strip('{}<>')[:30]}"
    path = Path(filename)
    parts = path.parts
    for marker in ("site-packages", "lib"):
        if marker in parts:
            idx = len(parts) - 1 - parts[::-1].index(marker)
            rest = parts[idx + 1 :]
            if rest:
                return rest[0] if marker == "site-packages" else f"stdlib {rest[-1]}"
    if path.parent.name in ("engine", "flows"):
        return f"{path.parent.name}/{path.name}"
    return path.name


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, default=300)
    ap.add_argument("--sync", choices=["FULL", "NORMAL"], default="FULL")
    ap.add_argument("--bot", default=BOT, help=f"bot to run (default {BOT}: main conversation + feedback)")
    ap.add_argument("--dir", type=Path, default=None, help="where the database files go (default: a temp dir)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs on fresh files, pooled")
    ap.add_argument("--profile", action="store_true", help="also profile the engine side with cProfile")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--smoke", action="store_true", help="every part on 3 sessions, checked, no figures to read")
    ap.add_argument(
        "--clock", choices=sorted(CLOCKS), default="wall", help="time turns by the wall clock or the thread's CPU time"
    )
    args = ap.parse_args()
    global clock
    clock = CLOCKS[args.clock]
    if args.smoke:
        args.sessions, args.repeat, args.profile, args.top = 3, 1, True, 5
    sync = cast(Literal["FULL", "NORMAL"], args.sync)
    base = args.dir or Path(tempfile.mkdtemp(prefix="innerloop-bench-"))
    base.mkdir(parents=True, exist_ok=True)

    def fresh(name: str) -> Path:
        p = base / name
        for suffix in ("", "-wal", "-shm"):
            Path(f"{p}{suffix}").unlink(missing_ok=True)
        return p

    warm, who = users("warm", 20), users("u", args.sessions)
    samples: dict[str, list[float]] = {"engine": [], "floor": []}
    medians: list[tuple[float, float]] = []
    for _ in range(args.repeat):
        engine_turn, engine_close = engine_side(fresh("engine.db"), sync, args.bot, warm + who)
        floor_turn, floor_close = floor_side(fresh("floor.db"), sync)
        sides = {"engine": engine_turn, "floor": floor_turn}
        timed(warm, sides)  # first compilations, statement caches, lazily built models
        got = timed(who, sides)
        engine_close()
        floor_close()
        for name, values in got.items():
            samples[name] += values
        medians.append((statistics.median(got["engine"]), statistics.median(got["floor"])))
    split = engine_split(fresh("engine-split.db"), sync, args.bot, warm, who)

    mem = {
        "engine": peak_memory(lambda: engine_side(fresh("engine-mem.db"), sync, args.bot, who), who),
        "floor": peak_memory(lambda: floor_side(fresh("floor-mem.db"), sync), who),
    }

    turns = args.sessions * len(SCRIPT)
    print(
        f"innerloop turn overhead, bot {args.bot}: {args.sessions} sessions x {len(SCRIPT)} turns = {turns} per side",
        end="",
    )
    print(f", {args.repeat} runs pooled" if args.repeat > 1 else "")
    print(f"SQLite {sqlite3.sqlite_version}, journal_mode=WAL, synchronous={sync} on both sides; files in {base}")
    print(f"python {sys.version.split()[0]} on {sys.platform}, {os.cpu_count()} cpus; timed by the {args.clock} clock")
    print(f"{'side':<8} {'median µs':>10} {'p99 µs':>10} {'mean µs':>10} {'peak py heap':>13}")
    for name, values in samples.items():
        print(
            f"{name:<8} {statistics.median(values):>10.0f} {pct(values, 0.99):>10.0f} "
            f"{statistics.fmean(values):>10.0f} {mem[name] / 1024:>10.0f} KiB"
        )
    e, f = samples["engine"], samples["floor"]
    ratio = statistics.median(e) / statistics.median(f)
    print(f"ratio engine/floor: median {ratio:.2f}x, p99 {pct(e, 0.99) / pct(f, 0.99):.2f}x (target: within 2x)")
    if args.repeat > 1:
        print("per run (engine/floor median µs): " + ", ".join(f"{a:.0f}/{b:.0f} = {a / b:.2f}x" for a, b in medians))
    print("engine turn, median µs by part (separate run, timers around the store calls):")
    print("  " + ", ".join(f"{name} {statistics.median(values):.0f}" for name, values in split.items()))
    print(f"process max RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")

    if args.profile:
        profile_engine(fresh("engine-prof.db"), sync, args.bot, args.sessions, args.top)
    if args.smoke:
        check_stored(base / "engine.db", base / "floor.db", args.bot, len(warm) + args.sessions)


def engine_problem(store: Any, bot: str, sessions: int) -> str | None:
    """What the engine side left wrong (every session's feedback saved, its flow collapsed), or None;
    closes `store`. `store` is any tree's SqlStore (bench/turn_ab.py checks an older tree's with it)."""
    try:
        summaries = [s for s in store.sessions() if s.bot == bot]
        saved = sum(len(store.records("feedback", bot=bot, user=s.user)) for s in summaries)
        idle = [s.user for s in summaries if (got := store.load(bot, s.user)) is None or got.active is not None]
    finally:
        store.close()
    if len(summaries) != sessions or saved != sessions or idle:
        return f"{len(summaries)} sessions, {saved} feedback entries, flows left open for {idle[:5]}"
    return None


def check_stored(engine_db: Path, floor_db: Path, bot: str, sessions: int) -> None:
    """What the timed pass left: every session's feedback saved and its flow collapsed on the
    engine side, every turn counted on the floor; SystemExit naming what is missing."""
    conn = sqlite3.connect(floor_db)
    try:
        (turns,) = conn.execute("SELECT count(*) FROM messages").fetchone()
    finally:
        conn.close()
    problems = []
    if (problem := engine_problem(SqlStore(str(engine_db)), bot, sessions)) is not None:
        problems.append(f"engine: {problem}")
    if turns != sessions * len(SCRIPT):
        problems.append(f"floor: {turns} messages for {sessions * len(SCRIPT)} turns")
    if problems:
        raise SystemExit("smoke check failed: " + "; ".join(problems))
    print(f"smoke check: {sessions} sessions stored their feedback on the engine side; floor complete")


if __name__ == "__main__":
    main()
