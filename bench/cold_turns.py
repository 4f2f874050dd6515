"""What a turn costs when its message was never seen before (a benchmark, not a test).

    python bench/cold_turns.py [--sessions 300] [--bot NAME]

`bench/turn_overhead.py` sends the same four messages in every session, so the readers' caches
keyed by a message's text (`functools.lru_cache` on the command phrases, small talk, glosses, number
words, clauses...) answer every turn after the first: the figure it prints is a turn whose message
was read before. A server's messages are new. This runs the same conversation on the same store
(SQLite, synchronous=NORMAL) and, before every other turn, empties every text-sized cache of the
engine and the bots (an `lru_cache` of 128 entries or more in an `engine` or `flows` module; the
tables, built once, stay), so that half the turns read their message for the first time: "new",
beside "seen" for the other half. Word-sized caches are emptied too (a word's frequency, a word typed
a letter off), which a server keeps warm for common words: "new" is an upper bound.
"""

from __future__ import annotations

import argparse
import functools
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from turn_overhead import BOT, SCRIPT, engine_side, users

TEXT_CACHE = 128  # entries: an lru_cache at least this large is keyed by texts or words


def text_caches() -> list[functools._lru_cache_wrapper[object]]:
    return [
        o
        for o in gc.get_objects()
        if isinstance(o, functools._lru_cache_wrapper)
        and (o.cache_parameters()["maxsize"] or 0) >= TEXT_CACHE
        and str(getattr(o, "__module__", "")).startswith(("engine", "flows"))
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, default=300)
    ap.add_argument("--bot", default=BOT)
    args = ap.parse_args()
    warm, who = users("warm", 20), users("u", args.sessions)
    turn, close = engine_side(
        Path(tempfile.mkdtemp(prefix="innerloop-cold-")) / "engine.db", "NORMAL", args.bot, warm + who
    )
    for user in warm:
        for text in SCRIPT:
            turn(user, text)
    caches = text_caches()
    new: dict[str, list[float]] = {text: [] for text in SCRIPT}
    seen: dict[str, list[float]] = {text: [] for text in SCRIPT}
    clock = time.perf_counter_ns
    for text in SCRIPT:
        for i, user in enumerate(who):
            fresh = i % 2 == 0
            if fresh:
                for cache in caches:
                    cache.cache_clear()
            t0 = clock()
            turn(user, text)
            (new if fresh else seen)[text].append((clock() - t0) / 1000)
    close()
    print(f"bot {args.bot}: {args.sessions} sessions x {len(SCRIPT)} turns, {len(caches)} text caches emptied")
    print(f"{'message':<40} {'new µs':>8} {'seen µs':>8}")
    for text in SCRIPT:
        print(f"{text[:40]:<40} {statistics.median(new[text]):>8.0f} {statistics.median(seen[text]):>8.0f}")
    every_new = [v for values in new.values() for v in values]
    every_seen = [v for values in seen.values() for v in values]
    print(f"{'all turns (median)':<40} {statistics.median(every_new):>8.0f} {statistics.median(every_seen):>8.0f}")


if __name__ == "__main__":
    main()
