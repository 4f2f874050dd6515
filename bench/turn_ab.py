"""Whole turns of another tree's engine beside this one's, in one process, turn by turn.

    git archive <commit> | tar -x -C /tmp/base
    python bench/turn_ab.py --base /tmp/base [--sessions 200] [--bot NAME] [--repeat 3] [--clock wall|cpu]

bench/turn_overhead.py's runs of two trees, one after the other, differ by more than a change to the
turn moves them on a machine shared with other work (the same tree 6x then 9x the floor, minutes
apart). Here both trees' engines, imported as bench/store_ab.py imports two stores, run the
benchmark's conversation (`Engine.turn` on `SqlStore`, synchronous=NORMAL, each tree on its own
file), turn by turn, alternating who goes first, so both share every moment of the machine's load.
Printed: the median µs of a turn per message and over all turns, each run, and this tree / base run
by run. Each run starts from fresh files and sessions; what each side stored is checked.

`--base` may be this tree itself: the smoke test does that.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from store_ab import ROOT, import_tree

SIDES = ("base", "this tree")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", type=Path, required=True, help="the other tree (a `git archive` of a commit)")
    ap.add_argument("--sessions", type=int, default=200)
    ap.add_argument("--bot", default=None, help="bot to run (default: the benchmark's feedback bot)")
    ap.add_argument("--repeat", type=int, default=3, help="runs, each on fresh files")
    ap.add_argument("--clock", choices=["wall", "cpu"], default="cpu", help="the wall clock or the thread's CPU time")
    args = ap.parse_args()
    clock: Callable[[], int] = time.thread_time_ns if args.clock == "cpu" else time.perf_counter_ns
    folder = Path(tempfile.mkdtemp(prefix="innerloop-turn-ab-"))
    trees = {"base": import_tree(args.base.resolve()), "this tree": import_tree(ROOT)}
    bench = trees["this tree"]["bench"]
    bot = args.bot or bench.BOT
    script: list[str] = bench.SCRIPT
    warm, who = bench.users("warm", 20), bench.users("u", args.sessions)
    medians: dict[str, list[float]] = {name: [] for name in SIDES}
    by_message: dict[str, dict[str, list[float]]] = {name: {text: [] for text in script} for name in SIDES}
    for r in range(args.repeat):
        sides: dict[str, tuple[Callable[[str, str], None], Callable[[], None]]] = {}
        for name in SIDES:
            # each engine made from its own tree's modules (its registry imports the bots it runs)
            mods = import_tree(args.base.resolve() if name == "base" else ROOT)
            trees[name] = mods
            sides[name] = mods["bench"].engine_side(folder / f"{name[:4]}-{r}.db", "NORMAL", bot, warm + who)
        for text in script:
            for user in warm:
                for name in SIDES:
                    sides[name][0](user, text)  # first compilations, statement caches, lazily built tables
        samples: dict[str, list[float]] = {name: [] for name in SIDES}
        for text in script:
            for i, user in enumerate(who):
                for name in SIDES if i % 2 == 0 else SIDES[::-1]:
                    t0 = clock()
                    sides[name][0](user, text)
                    took = (clock() - t0) / 1000
                    samples[name].append(took)
                    by_message[name][text].append(took)
        for name in SIDES:
            sides[name][1]()
            store = trees[name]["engine"].SqlStore(str(folder / f"{name[:4]}-{r}.db"))
            problem = bench.engine_problem(store, bot, len(warm) + len(who))
            if problem:
                raise SystemExit(f"{name} did not store the conversation: {problem}")
            medians[name].append(statistics.median(samples[name]))
    turns = len(who) * len(script)
    print(f"whole turns, bot {bot}: {turns} per side x {args.repeat} runs, synchronous=NORMAL, ", end="")
    print(f"timed by the {args.clock} clock; base {args.base}")
    print(f"{'message':<40} {'base µs':>9} {'this µs':>9} {'ratio':>6}")
    for text in script:
        b, t = (statistics.median(by_message[name][text]) for name in SIDES)
        print(f"{text[:40]:<40} {b:>9.0f} {t:>9.0f} {t / b:>6.2f}")
    for name in SIDES:
        print(f"{name:<10} median µs per run: {', '.join(f'{m:.0f}' for m in medians[name])}", end="")
        print(f"   median {statistics.median(medians[name]):.0f}")
    pairs = [t / b for b, t in zip(medians["base"], medians["this tree"], strict=True)]
    print(f"this tree / base, run by run: {', '.join(f'{p:.2f}' for p in pairs)}")


if __name__ == "__main__":
    main()
