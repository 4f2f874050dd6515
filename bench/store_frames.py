"""WAL frames a turn writes, by the turn of the benchmark's conversation: another tree's store beside this one's.

    git archive <commit> | tar -x -C /tmp/base
    python bench/store_frames.py --base /tmp/base [--sessions 200]

The engine runs bench/turn_overhead.py's 4-turn feedback conversation once (every session's first
turn, then every second turn, ...) and keeps each `TurnWrite`; each tree's store then replays them
on a fresh SQLite file with checkpoints off (`wal_autocheckpoint=0`), so that every page a commit
writes stays in the WAL as one frame. Printed per tree: the mean frames a turn added, turn by turn,
and the file's pages at the end. A frame is a page written (4 KiB and its header), what a commit
costs SQLite beyond its statements; with `synchronous=FULL` each commit also waits for one fsync.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from store_ab import ROOT, captured_writes, import_tree


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", type=Path, required=True, help="the other tree (a `git archive` of a commit)")
    ap.add_argument("--sessions", type=int, default=200)
    args = ap.parse_args()
    trees = {"base": import_tree(args.base.resolve()), "this tree": import_tree(ROOT)}
    here = trees["this tree"]
    bench = here["bench"]
    folder = Path(tempfile.mkdtemp(prefix="innerloop-store-frames-"))
    writes = captured_writes(here, folder / "capture.db", "NORMAL", args.sessions)
    print(f"WAL frames per turn, {args.sessions} sessions, synchronous=NORMAL, checkpoints off; base {args.base}")
    for name, tree in trees.items():
        path = folder / f"{name.replace(' ', '-')}.db"
        s = tree["engine"].SqlStore(str(path), synchronous="NORMAL")
        s.load("nobody", "nobody")  # opens the store's own connection
        s._driver.execute("PRAGMA wal_autocheckpoint=0")
        s._driver.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = int(s._driver.execute("PRAGMA page_size").fetchone()[0])
        wal = Path(f"{path}-wal")

        def frames(wal: Path = wal, page: int = page) -> float:
            size = wal.stat().st_size if wal.exists() else 0
            return (size - 32) / (page + 24) if size else 0.0

        means = []
        for turn in range(1, len(bench.SCRIPT) + 1):
            before = frames()
            these = [w for w in writes if w.session.turns == turn]
            for w in these:
                _, hold = s.load_held(w.session.bot, w.session.user, timeout_s=10)
                try:
                    s.commit(w)
                finally:
                    hold.__exit__(None, None, None)
            means.append((frames() - before) / len(these))
        pages = int(s._driver.execute("PRAGMA page_count").fetchone()[0])
        s.close()
        print(f"{name:<10} " + ", ".join(f"turn {k} {m:.2f}" for k, m in enumerate(means, 1)), end="")
        print(f"   mean {sum(means) / len(means):.2f}   pages at the end {pages}")


if __name__ == "__main__":
    main()
