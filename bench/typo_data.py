"""A new process's first turns: the typo pass's CLDR words from the prebuilt file, against built from babel.

    python bench/typo_data.py [--runs 5]     # medians, side by side
    python bench/typo_data.py --tree DIR     # and another tree's engine (a `git archive` of a commit) beside
    python bench/typo_data.py --write        # write engine/data/cldr_words.json again (after babel changed)

Each run is a new Python process that imports the engine, makes an engine on a MemoryStore and times its
first turn on the benchmark's feedback bot ("I want to give feedback": every message reaches the typo pass,
which builds its vocabulary on first use), then a first message with a word typed wrong ("im a begginer"),
then the same turn on a second user (the warm figure). `prebuilt` reads engine/data/cldr_words.json (the
names of languages and weekdays); `sources` points the module at a missing file, so those words are built
from babel's CLDR locales as before the file existed (the tables' words are read from the tables either
way). A second child per side measures the heap the vocabulary keeps (tracemalloc around
`engine.typos.warm_up`, which slows what it traces, so it times nothing). `--tree` adds another tree's
engine as a third side, as it builds its words. The sides alternate run by run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, resource, sys, time, tracemalloc
from pathlib import Path
wall = time.perf_counter()
import engine.typos as typos
if sys.argv[1] == "sources":
    typos.WORDS_FILE = Path("/nonexistent/cldr_words.json")
from engine import Engine, MemoryStore
sys.path.insert(0, "bench")
from turn_overhead import BOT, BOTS
imported = time.perf_counter() - wall
engine = Engine(MemoryStore(), bots=BOTS)
if sys.argv[2] == "heap":
    tracemalloc.start()
    typos.warm_up()
    kept, peak = tracemalloc.get_traced_memory()
    print(json.dumps({"kept": kept, "peak": peak}))
    raise SystemExit
def timed(user, text):
    cpu, wall = time.process_time(), time.perf_counter()
    engine.turn(BOT, user, text)
    return time.perf_counter() - wall, time.process_time() - cpu
first, first_cpu = timed("a", "I want to give feedback")
typo, _ = timed("c", "im a begginer")
warm, _ = timed("b", "I want to give feedback")
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"import": imported, "first": first, "first cpu": first_cpu, "typo": typo, "warm": warm, "rss": rss}))
"""


def one(mode: str, what: str, tree: Path) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, mode, what], cwd=tree, env=env, capture_output=True, text=True, check=True
    )
    figures: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tree", type=Path, default=None, help="another tree, run as its side `tree`")
    parser.add_argument("--write", action="store_true", help="write engine/data/cldr_words.json and stop")
    args = parser.parse_args()
    if args.write:
        sys.path.insert(0, str(ROOT))
        from engine.typos import WORDS_FILE, write_words

        write_words()
        print(f"wrote {WORDS_FILE}")
        return
    trees = {"prebuilt": ROOT, "sources": ROOT} | ({"tree": args.tree.resolve()} if args.tree else {})
    results: dict[str, list[dict[str, float]]] = {mode: [] for mode in trees}
    heaps = {mode: one(mode, "heap", tree) for mode, tree in trees.items()}
    for _ in range(args.runs):
        for mode, tree in trees.items():
            results[mode].append(one(mode, "turn", tree))
    print(f"a new process's first turns, the feedback bot, {args.runs} runs per side, medians")
    print(f"python {sys.version.split()[0]} on {sys.platform}, {os.cpu_count()} cpus")
    head = ("words", "import ms", "1st turn ms", "1st cpu ms", "typo turn ms", "warm ms", "RSS MiB", "vocab KiB")
    print("".join(f"{h:>13}" for h in head))
    for mode, runs in results.items():
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        row = (
            f"{med['import'] * 1000:.0f}",
            f"{med['first'] * 1000:.0f}",
            f"{med['first cpu'] * 1000:.0f}",
            f"{med['typo'] * 1000:.1f}",
            f"{med['warm'] * 1000:.1f}",
            f"{med['rss']:.0f}",
            f"{heaps[mode]['kept'] / 1024:.0f}",
        )
        print(f"{mode:>13}" + "".join(f"{c:>13}" for c in row))


if __name__ == "__main__":
    main()
