"""The slowest messages a user can send: turn CPU at every resting state of every shipped bot
(a benchmark, not a test; tests/test_pattern_shapes.py guards the patterns themselves).

    python bench/worst_case.py [--length 4000] [--budget-ms 50] [--bot NAME]

Resting states are those the replay scripts in tests/replays reach (engine/authoring/resting.py:
the shortest script prefix to each, played once into a database that each message then starts
from a fresh copy of). At each one, every message below of `--length` characters (the input
limit by default) is sent as the next turn, offline (rules backend), and the turn's CPU is
measured with time.process_time, the faster of two runs (engine.turn: routing, the flow's readers and asides, the
store's commit). Messages: punctuation, separators, digits, whitespace and one long word
repeated; the words of every pattern in engine/ and flows/ repeated, cut short, glued to
commas and hyphens and numbers (near-matches); nested clauses; mixed scripts and emoji.

Prints the slowest message per state and its CPU, the median turn there, and a summary line;
exits 1 when a turn went over `--budget-ms`.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.authoring.resting import Resting, at, prepare, resting_places, scripts_in  # noqa: E402
from engine.runtime import MAX_CHARS  # noqa: E402
from tests._patterns import PIECES, collect  # noqa: E402

NESTED = (
    "I think that, because my knee hurts (which it does, sometimes, when I run — but not always), "
    "and since I want to learn German, not Spanish, so that, if I move to Berlin time, I can say: "
)
MIXED = "Привет 你好 مرحبا שלום hello 123 ñandú Ärger 🙂👍🏽 "


def _pattern_words() -> list[str]:
    words: set[str] = set()
    for f in collect():
        words.update(re.findall(r"[a-z]{3,}", re.sub(r"\\.", " ", f.pattern.lower())))
    return sorted(words)


def messages(length: int) -> dict[str, str]:
    """Label -> message of `length` characters."""

    def fill(piece: str) -> str:
        return (piece * (length // max(1, len(piece)) + 1))[:length]

    out = {f"{p!r} repeated": fill(p) for p in PIECES}
    words = _pattern_words()
    out["pattern words"] = fill(" ".join(words) + " ")
    out["pattern words cut short"] = fill(" ".join(w[:-1] for w in words) + " ")
    out["pattern words, commas"] = fill(", ".join(words) + ", ")
    out["pattern words-hyphens"] = fill("-".join(words) + "-")
    out["pattern words after numbers"] = fill(" ".join(f"{i % 97} {w}" for i, w in enumerate(words)) + " ")
    out["pattern words glued"] = fill("".join(words))
    out["nested clauses"] = fill(NESTED)
    out["mixed scripts"] = fill(MIXED)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--length", type=int, default=MAX_CHARS)
    ap.add_argument("--budget-ms", type=float, default=50.0)
    ap.add_argument("--bot", default=None, help="only this bot's states")
    args = ap.parse_args()
    texts = messages(args.length)
    started = time.process_time()
    places: list[Resting] = [
        p for p in resting_places(scripts_in([ROOT / "tests" / "replays"])) if args.bot in (None, p.bot)
    ]
    print(
        f"{len(places)} resting states, {len(texts)} messages of {args.length} characters each "
        f"(found in {time.process_time() - started:.0f} s CPU)\n"
    )
    print(f"{'state':<44} {'slowest message':<34} {'CPU ms':>8} {'median ms':>10}")
    worst_all: list[tuple[float, str, str]] = []
    with tempfile.TemporaryDirectory(prefix="innerloop-worst-") as d:
        folder = Path(d)
        for place in places:
            prepared = prepare(place, folder)
            spent: list[tuple[float, str]] = []
            for label, text in texts.items():
                runs = []
                for _ in range(2):  # the faster of two: data a reader loads on first use is not the message's cost
                    with at(place, prepared, folder) as engine:
                        t = time.process_time()
                        engine.turn(place.bot, place.script.user, text)
                        runs.append((time.process_time() - t) * 1000)
                spent.append((min(runs), label))
            slowest = max(spent)
            median = statistics.median(ms for ms, _ in spent)
            worst_all.append((slowest[0], place.name, slowest[1]))
            print(f"{place.name:<44} {slowest[1][:34]:<34} {slowest[0]:>8.1f} {median:>10.1f}", flush=True)
    over = [w for w in worst_all if w[0] > args.budget_ms]
    top = max(worst_all)
    print(
        f"\nslowest turn: {top[0]:.1f} ms CPU ({top[1]}, {top[2]}); "
        f"{len(over)} of {len(worst_all)} states over {args.budget_ms:.0f} ms"
    )
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
