"""What reading a message for several facts costs (engine/fill.py), per message, on the commands corpus.

    python bench/fill_cost.py [--repeat 5]

Every corpus entry typed at a question of a flow that declares `ahead` (fitness, language-buddy) is read
by `ahead_commands` against its run's slots, as the read stage reads it, `--repeat` times after one warm-up
pass; the figure is the mean per message, and the slowest message's.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.commands_corpus import SPLITS, load
from engine import Ask, default_registry
from engine.fill import ahead_commands


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    registry = default_registry()
    rows = []
    for split in SPLITS:
        for case in load(split):
            flow = registry.get(case.entry.bot).flow(case.entry.flow)
            state = flow.state(case.entry.state)
            if flow.ahead and isinstance(state, Ask) and not case.entry.paused:
                rows.append((flow, state, case.seed, case.entry.text))
    slowest = 0.0
    for flow, state, seed, text in rows:
        ahead_commands(flow, state, seed, text)  # warm: parsers load their tables on first use
    started = time.perf_counter()
    for _ in range(args.repeat):
        for flow, state, seed, text in rows:
            t = time.perf_counter()
            ahead_commands(flow, state, seed, text)
            slowest = max(slowest, time.perf_counter() - t)
    mean = (time.perf_counter() - started) / (args.repeat * len(rows))
    print(f"{len(rows)} messages x {args.repeat}: mean {mean * 1e6:.0f} µs a message, slowest {slowest * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
