"""A turn's own logic, without the store: this tree beside another, warm, in one process.

    git archive <commit> | tar -x -C /tmp/base
    python bench/turn_logic.py [--base /tmp/base] [--plays 200] [--repeat 5]

bench/turn_ab.py times whole turns, the store's load and commit included (two thirds of a turn are
SQLite's); here only `engine.turn.play` is timed (the load, read, execute and write stages), on
copies of the session each message of bench/turn_overhead.py's conversation meets, made before the
clock starts, on the thread's CPU clock, the two trees alternating play by play. Printed per message:
the median µs of each tree, and what does not depend on the machine's load: the calls one play
makes into Python functions and into C ones, and how many of them validate with pydantic
(`SchemaValidator` calls: a model built or checked) or dump a model. Without `--base`, this tree alone.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import Any

from store_ab import ROOT, import_tree

Play = Callable[[], None]


def sessions_of(mods: dict[str, Any]) -> tuple[Callable[[int, Any], Play], list[str]]:
    """A maker of one play of message `i` on a given copy of the session it meets, and the script."""
    engine, bench = mods["engine"], mods["bench"]
    from_turn = sys.modules["engine.turn"]
    store = engine.MemoryStore()
    eng = engine.Engine(store, bots=bench.BOTS)
    bot = bench.BOTS.get(bench.BOT)
    script: list[str] = bench.SCRIPT
    for user in ("warm1", "warm2"):  # first compilations, the tables a state builds on first use
        for text in script:
            eng.turn(bench.BOT, user, text)
    before = []
    for text in script:
        before.append(store.load(bench.BOT, "timed"))
        eng.turn(bench.BOT, "timed", text)
    llm, resources, now = engine.RulesLLM(), sys.modules["engine.models"].Resources(), datetime.now(UTC)
    play, run = from_turn.play, from_turn.Turn.run

    def make(i: int, session: Any) -> Play:
        return lambda: play(run, bot, store, llm, resources, session, script[i], now)

    new = sys.modules["engine.runtime"]._new_session  # this tree's, as `play` is

    def copies(i: int, n: int) -> list[Play]:
        s = before[i]
        return [make(i, s.model_copy(deep=True) if s is not None else new(bench.BOT, "timed")) for _ in range(n)]

    return copies, script


def counted(play: Play) -> tuple[int, int, int]:
    """Python calls, C calls, and pydantic validations and dumps made by one play."""
    py = c = pyd = 0

    def seen(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal py, c, pyd
        if event == "call":
            py += 1
        elif event == "c_call":
            c += 1
            owner = type(getattr(arg, "__self__", None)).__name__
            if owner in ("SchemaValidator", "SchemaSerializer"):
                pyd += 1

    sys.setprofile(seen)
    try:
        play()
    finally:
        sys.setprofile(None)
    return py, c, pyd


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", type=Path, default=None, help="the other tree (a `git archive` of a commit)")
    ap.add_argument("--plays", type=int, default=200, help="timed plays per message, side and run")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    sides: dict[str, Callable[[int, int], list[Play]]] = {}
    script: list[str] = []
    counts: dict[str, list[tuple[int, int, int]]] = {}
    for name, root in (("base", args.base), ("this tree", ROOT)):
        if root is None:
            continue
        mods = import_tree(root.resolve())
        copies, script = sessions_of(mods)
        sides[name] = copies
        counts[name] = [counted(copies(i, 1)[0]) for i in range(len(script))]
    names = list(sides)
    samples: dict[str, dict[str, list[float]]] = {n: {t: [] for t in script} for n in names}
    for _ in range(args.repeat):
        for i, text in enumerate(script):
            plays = {n: sides[n](i, args.plays) for n in names}
            gc.collect()
            for k in range(args.plays):
                for n in names if k % 2 == 0 else names[::-1]:
                    t0 = time.thread_time_ns()
                    plays[n][k]()
                    samples[n][text].append((time.thread_time_ns() - t0) / 1000)
            del plays
    print(f"engine.turn.play alone (no store), warm, thread CPU clock, {args.plays} x {args.repeat} plays per message")
    head = "".join(f" {n + ' µs':>14}" for n in names)
    print(f"{'message':<38}{head}  calls py/C, pydantic ({' | '.join(names)})")
    for i, text in enumerate(script):
        cells = "".join(f" {statistics.median(samples[n][text]):>14.1f}" for n in names)
        calls = " | ".join(f"{p}/{c}, {v}" for p, c, v in (counts[n][i] for n in names))
        print(f"{text[:37]:<38}{cells}  {calls}")
    if len(names) == 2:
        base, this = (statistics.median([x for t in script for x in samples[n][t]]) for n in names)
        print(f"all messages: base {base:.1f} µs, this tree {this:.1f} µs: {this / base:.2f}")


if __name__ == "__main__":
    main()
