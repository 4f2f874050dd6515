"""innerloop beside Burr on the same conversation, both persisting every turn to SQLite.

    PYTHONPATH=/tmp/peers python bench/peers.py [--sessions 300] [--sync NORMAL|FULL]

(`pip install --target /tmp/peers --no-deps apache-burr`: Burr is a peer to compare with,
not a dependency, so it is kept out of the project's venv.)

Three sides run the 4-turn feedback conversation of bench/turn_overhead.py for every session,
turn by turn, alternating who goes first, each as a stateless server would (load, run one
step, persist): the plain-sqlite3 floor of turn_overhead.py; innerloop's `Engine.turn` on
`SqlStore`; and a Burr application of four actions (intent, rating, details, category) built
for each turn from its `SQLLitePersister` (`initialize_from`, resuming at the next action)
and stepped once with the message. All three run WAL at the same `synchronous` level. Burr
does less per turn than innerloop (no slot validation, event log, message history, row-version
check, reprompts); the comparison is what each costs to carry a conversation durably.
"""

from __future__ import annotations

import argparse
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from turn_overhead import SCRIPT, Floor, engine_side, pct, users

try:
    from burr.core import Application, ApplicationBuilder, State, action
    from burr.core.persistence import SQLLitePersister
except ImportError:  # pragma: no cover - a peer, installed by hand
    raise SystemExit("Burr is not importable: pip install --target /tmp/peers --no-deps apache-burr") from None

Turn = Callable[[str, str], None]


@action(reads=[], writes=["wants_feedback"])
def intent(state: State, text: str) -> State:
    return state.update(wants_feedback=bool(re.search(r"\bfeedback\b", text, re.I)))


@action(reads=[], writes=["rating"])
def rate(state: State, text: str) -> State:
    m = re.fullmatch(r"\s*([1-5])\s*", text)
    return state.update(rating=int(m.group(1)) if m else None)


@action(reads=[], writes=["comment"])
def details(state: State, text: str) -> State:
    return state.update(comment=text.strip())


@action(reads=[], writes=["category", "done"])
def categorize(state: State, text: str) -> State:
    word = text.strip().lower()
    ok = word in ("bug", "latency", "content", "usability", "other")
    return state.update(category=word if ok else None, done=ok)


def burr_side(path: Path, sync: str) -> tuple[Turn, Callable[[], None]]:
    conn = sqlite3.connect(path, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(f"PRAGMA synchronous={sync}")
    persister = SQLLitePersister(str(path), connection=conn)
    persister.initialize()

    def build(user: str) -> Application[Any]:
        return (
            ApplicationBuilder()
            .with_actions(intent=intent, rating=rate, details=details, category=categorize)
            .with_transitions(
                ("intent", "rating"),
                ("rating", "details"),
                ("details", "category"),
                ("category", "intent"),
            )
            .initialize_from(persister, resume_at_next_action=True, default_state={}, default_entrypoint="intent")
            .with_state_persister(persister)
            .with_identifiers(app_id=user)
            .build()
        )

    def turn(user: str, text: str) -> None:
        build(user).step(inputs={"text": text})

    return turn, conn.close


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, default=300)
    ap.add_argument("--sync", choices=["FULL", "NORMAL"], default="NORMAL")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    base = Path(tempfile.mkdtemp(prefix="innerloop-peers-"))
    samples: dict[str, list[float]] = {"floor": [], "innerloop": [], "burr": []}
    for run in range(args.repeat):
        floor = Floor(base / f"floor{run}.db", args.sync)
        sides: dict[str, tuple[Turn, Callable[[], None]]] = {
            "floor": (floor.turn, floor.close),
            "innerloop": engine_side(base / f"engine{run}.db", args.sync, "bench-feedback", []),  # type: ignore[arg-type]
            "burr": burr_side(base / f"burr{run}.db", args.sync),
        }
        names = list(sides)
        for who, keep in ((users("warm", 20), False), (users("u", args.sessions), True)):
            for text in SCRIPT:
                for i, user in enumerate(who):
                    order = names[i % 3 :] + names[: i % 3]  # each side goes first a third of the time
                    for name in order:
                        t0 = time.perf_counter_ns()
                        sides[name][0](user, text)
                        if keep:
                            samples[name].append((time.perf_counter_ns() - t0) / 1000)
        for _, close in sides.values():
            close()
    floor_median = statistics.median(samples["floor"])
    print(f"{args.sessions} sessions x {len(SCRIPT)} turns, {args.repeat} runs pooled; "
          f"SQLite {sqlite3.sqlite_version}, WAL, synchronous={args.sync} on every side")  # fmt: skip
    print(f"{'side':<10} {'median µs':>10} {'p99 µs':>10} {'x floor':>8}")
    for name, values in samples.items():
        med = statistics.median(values)
        print(f"{name:<10} {med:>10.0f} {pct(values, 0.99):>10.0f} {med / floor_median:>7.2f}x")


if __name__ == "__main__":
    main()
