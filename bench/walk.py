"""The walk of a turn: which project modules one message passes through, and how often it
moves from one to another (a benchmark of readability, not of speed).

    python bench/walk.py [--path]

Two messages, each on a fresh SQLite store after the turns that lead to it (not traced):
a feedback rating ("4", on the benchmark bot of bench/turn_overhead.py: main conversation +
the shared feedback flow) and a fitness answer ("beginner", the first answer of the fitness
coach's onboarding). Only `Engine.turn` for that message is traced, from the call to the
return: load, the turn, commit. Before it, another user walks the same states with another
answer ("5", "intermediate"), as a server's earlier conversations would: the word tables and
per-flow tables a state loads on first use are not the walk's, what is kept per message text is.

Traced with `sys.setprofile`: a call into a function of a project file (under engine/,
flows/, cli.py; not the venv, not the standard library) or a return to one, that moves from
one project file to another counts as a hop; library code in between (pydantic, transitions,
sqlite3) is transparent. `--path` prints the sequence of files the message walked through.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from turn_overhead import BOT, BOTS  # noqa: E402

from engine import Engine, SqlStore  # noqa: E402

PROJECT = (str(ROOT / "engine") + "/", str(ROOT / "flows") + "/", str(ROOT / "cli.py"))


def _project(filename: str) -> str | None:
    return filename[len(str(ROOT)) + 1 :] if filename.startswith(PROJECT) else None


class Walk:
    """The project files one call passes through, in order of arrival."""

    def __init__(self) -> None:
        self.path: list[str] = []

    def _arrive(self, filename: str) -> None:
        name = _project(filename)
        if name is not None and (not self.path or self.path[-1] != name):
            self.path.append(name)

    def __call__(self, frame: FrameType, event: str, _arg: Any) -> None:
        if event == "call":
            self._arrive(frame.f_code.co_filename)
        elif event == "return" and frame.f_back is not None:
            self._arrive(frame.f_back.f_code.co_filename)

    @property
    def hops(self) -> int:
        return max(0, len(self.path) - 1)

    @property
    def modules(self) -> list[str]:
        return sorted(set(self.path))

    @property
    def returns(self) -> int:
        """Arrivals at a module already left before: how often the walk doubles back."""
        seen: set[str] = set()
        back = 0
        for name in self.path:
            back += name in seen
            seen.add(name)
        return back


def walk(bot: str, before: list[str], message: str, warm: str, make: Callable[[SqlStore], Engine]) -> Walk:
    store = SqlStore(str(Path(tempfile.mkdtemp(prefix="innerloop-walk-")) / "walk.db"))
    engine = make(store)
    for text in before:
        engine.turn(bot, "walker", text)
    # lazily built parts (word tables, compiled patterns, per-flow tables) are not this walk's: a
    # server has them warm after its first conversations, so another user walks the same states
    # first, with another answer at the last (what is remembered per message text stays cold)
    for text in [*before, warm]:
        engine.turn(bot, "warm", text)
    traced = Walk()
    sys.setprofile(traced)
    try:
        engine.turn(bot, "walker", message)
    finally:
        sys.setprofile(None)
        store.close()
    return traced


# (label, bot, the turns before, the message walked, the warm-up's answer in its place)
CASES: list[tuple[str, str, list[str], str, str, Callable[[SqlStore], Engine]]] = [
    ("feedback rating", BOT, ["I want to give feedback"], "4", "5", lambda s: Engine(s, bots=BOTS)),
    ("fitness answer", "fitness-coach", ["hi"], "beginner", "intermediate", lambda s: Engine(s)),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--path", action="store_true", help="print each walk's sequence of files")
    args = ap.parse_args()
    print(f"{'message':<28} {'modules':>8} {'hops':>6} {'returns':>8}")
    walks = []
    for label, bot, before, message, warm, make in CASES:
        w = walk(bot, before, message, warm, make)
        walks.append((label, w))
        print(f"{label + ' ' + repr(message):<28} {len(w.modules):>8} {w.hops:>6} {w.returns:>8}")
    if args.path:
        for label, w in walks:
            print(f"\n{label}: {' > '.join(w.path)}")
            print(f"modules: {', '.join(w.modules)}")


if __name__ == "__main__":
    main()
