"""Replaying a conversation across process restarts: each part runs as its own `innerloop replay --db`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESTART = ROOT / "tests" / "replays" / "restart"


def replay_in_processes(db: Path, *parts: str) -> None:
    """Run tests/replays/restart/<part> one process after another on one database; each must pass."""
    for part in parts:
        out = subprocess.run(
            [sys.executable, "cli.py", "replay", "--db", str(db), str(RESTART / part)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert out.returncode == 0 and "PASS" in out.stdout, out.stdout + out.stderr
