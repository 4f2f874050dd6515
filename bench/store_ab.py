"""The store's share of a turn: another tree's `SqlStore` beside this one's, in one process.

    git archive <commit> | tar -x -C /tmp/base
    python bench/store_ab.py --base /tmp/base [--sessions 200] [--sync NORMAL|FULL] [--repeat 5] [--postgres]
                             [--clock wall|cpu]

bench/turn_overhead.py times whole turns against a floor; on a shared machine its runs differ
by more than a change to the store moves them, run after run. Here the engine runs the 4-turn
feedback conversation once and keeps every `TurnWrite` it committed; then the two stores (this
tree's and `--base`'s, each on a fresh SQLite file) replay them turn by turn, alternating who
goes first, each turn as the engine does it: the session's writer lock, `load`, `commit`. Both
sides share every moment of the machine's load, so the per-run medians compare pair by pair.

The base tree is imported under the same package names after this one's modules are set aside
(their classes live on in the objects already made), each with its own tables: the two trees'
schemas may differ, each store making its own files. `--base` may be this tree itself: the
smoke test does that. `--postgres` replays on fresh
databases of a PostgreSQL server it starts (tests/pg.py), where a round trip costs what SQLite's
call does not. `--clock cpu` times the thread's CPU time instead of the wall clock (a turn preempted
by another process is charged only for what it ran; a fsync or a server's round trip is not counted).
Printed: the median µs of a turn over all writes, each replay, and by part: the writer lock taken
with the load (`load_held`, as the engine takes it), the commit, and the lock given back.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def import_tree(root: Path) -> dict[str, Any]:
    """`root`'s engine and benchmark, imported afresh (the modules of any other tree set aside)."""
    if not (root / "engine" / "__init__.py").is_file():
        # a commit given for a folder would be imported from this tree's own path: a tree against itself
        raise SystemExit(f"{root} holds no engine/: give a folder made by `git archive <commit> | tar -x -C DIR`")
    for name in [n for n in sys.modules if n.split(".")[0] in ("engine", "flows", "turn_overhead")]:
        del sys.modules[name]
    # each tree's tables in a metadata of their own: sqlmodel declares a table class into
    # `SQLModel.metadata` as it finds it then, and schema.py keeps the one its tables went into
    from sqlalchemy import MetaData
    from sqlmodel import SQLModel

    SQLModel.metadata = MetaData()
    sys.path[:0] = [str(root), str(root / "bench")]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # sqlmodel warns that the table classes are declared again
            import turn_overhead

            import engine
            from engine.store import schema
    finally:
        del sys.path[:2]
    return {"bench": turn_overhead, "engine": engine, "schema": schema}


PARTS = ("lock+load", "commit", "unlock")


def replay(stores: dict[str, Any], writes: list[Any], clock: Any = time.perf_counter_ns) -> dict[str, list[float]]:
    """Each write as a turn on each store (the writer lock and the load in one call, the commit, the
    lock given back), alternating who goes first; per side, the median µs of the whole turn, then of
    each part (PARTS)."""
    samples: dict[str, list[list[float]]] = {name: [[], [], [], []] for name in stores}
    names = list(stores)
    for i, w in enumerate(writes):
        bot, user = w.session.bot, w.session.user
        for name in names if i % 2 == 0 else reversed(names):
            store = stores[name]
            t0 = clock()
            _, hold = store.load_held(bot, user, timeout_s=10)
            t1 = clock()
            try:
                store.commit(w)
            finally:
                t2 = clock()
                hold.__exit__(None, None, None)
            t3 = clock()
            for part, took in zip(samples[name], (t3 - t0, t1 - t0, t2 - t1, t3 - t2), strict=True):
                part.append(took / 1000)
    return {name: [statistics.median(v) for v in parts] for name, parts in samples.items()}


def check(store: Any, writes: list[Any]) -> str | None:
    """What a replay must leave: every session at its last version, every turn's trace."""
    last = {w.session.user: w.session for w in writes}
    for user, s in last.items():
        got = store.load(s.bot, user)
        if got is None or got.version != s.version:
            return f"{user}: version {got.version if got else None}, written {s.version}"
        if [t.turn for t in store.traces(got.id)] != list(range(1, s.turns + 1)):
            return f"{user}: traces of turns {[t.turn for t in store.traces(got.id)]}"
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", type=Path, required=True, help="the other tree (a `git archive` of a commit)")
    ap.add_argument("--sessions", type=int, default=200)
    ap.add_argument("--sync", choices=["FULL", "NORMAL"], default="NORMAL")
    ap.add_argument("--repeat", type=int, default=5, help="replays, each on fresh files")
    ap.add_argument("--clock", choices=["wall", "cpu"], default="wall", help="the wall clock or the thread's CPU time")
    ap.add_argument(
        "--postgres", action="store_true", help="replay on a PostgreSQL server started for the run (tests/pg.py)"
    )
    args = ap.parse_args()
    server = None
    if args.postgres:
        sys.path.insert(0, str(ROOT))
        from tests.pg import PgServer, why_not

        if why_not() is not None:
            raise SystemExit(f"no PostgreSQL here: {why_not()}")
        server = PgServer()
    try:
        run(args, server)
    finally:
        if server is not None:
            server.close()


def captured_writes(tree: dict[str, ModuleType], path: Path, sync: str, sessions: int) -> list[Any]:
    """The writes of the benchmark's conversation on `sessions` users, as `tree`'s engine commits them."""
    bench: Any = tree["bench"]
    store = tree["engine"].SqlStore(str(path), synchronous=sync)
    engine = tree["engine"].Engine(store, bots=bench.BOTS)
    writes: list[Any] = []
    commit = store.commit

    def keep(write: Any) -> None:
        writes.append(copy.deepcopy(write))
        commit(write)

    store.commit = keep
    for text in bench.SCRIPT:
        for user in bench.users("u", sessions):
            engine.turn(bench.BOT, user, text)
    store.close()
    return writes


def run(args: argparse.Namespace, server: Any) -> None:
    """The replays, on SQLite files (`--sync`) or on fresh databases of `server`."""
    base = import_tree(args.base.resolve())
    here = import_tree(ROOT)
    folder = Path(tempfile.mkdtemp(prefix="innerloop-store-ab-"))

    writes = captured_writes(here, folder / "capture.db", args.sync, args.sessions)

    clock = time.thread_time_ns if args.clock == "cpu" else time.perf_counter_ns
    runs: dict[str, list[float]] = {"base": [], "this tree": []}
    by_part: dict[str, list[list[float]]] = {"base": [], "this tree": []}
    for r in range(args.repeat):
        if server is None:
            stores = {
                "base": base["engine"].SqlStore(str(folder / f"base-{r}.db"), synchronous=args.sync),
                "this tree": here["engine"].SqlStore(str(folder / f"this-{r}.db"), synchronous=args.sync),
            }
        else:  # PostgreSQL's durability is the server's (synchronous_commit), not a store option
            stores = {
                "base": base["engine"].SqlStore(server.database()),
                "this tree": here["engine"].SqlStore(server.database()),
            }
        for name, medians in replay(stores, writes, clock).items():
            runs[name].append(medians[0])
            by_part[name].append(medians[1:])
        for name, s in stores.items():
            problem = check(s, writes)
            s.close()
            if problem:
                raise SystemExit(f"{name} did not store the replay: {problem}")
    print(f"store share of a turn (lock, load, commit): {len(writes)} writes x {args.repeat} replays, ", end="")
    print(f"{'PostgreSQL' if server is not None else f'synchronous={args.sync}'}, {args.clock} clock; base {args.base}")
    for name, medians in runs.items():
        print(f"{name:<10} median µs per replay: {', '.join(f'{m:.0f}' for m in medians)}", end="")
        print(f"   median {statistics.median(medians):.0f}")
        parts = ", ".join(
            f"{part} {statistics.median(p[k] for p in by_part[name]):.0f}" for k, part in enumerate(PARTS)
        )
        print(f"{'':<10} by part (median of the replays' medians): {parts}")
    pairs = [t / b for b, t in zip(runs["base"], runs["this tree"], strict=True)]
    print(f"this tree / base, replay by replay: {', '.join(f'{p:.2f}' for p in pairs)}")


if __name__ == "__main__":
    main()
