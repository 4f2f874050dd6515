"""The turn-overhead benchmark still runs (bench/turn_overhead.py --smoke).

It once failed on an import for weeks without anyone noticing; here every part of it (the
timed pass, the split, the memory pass, the profile) runs on a few sessions, as a real
subprocess, and the smoke mode checks what both sides stored. No timing is asserted: figures
are read from the benchmark itself (bench/README.md).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("bot", ["bench-feedback", "language-buddy"])
def test_turn_overhead_smoke(tmp_path: Path, bot: str) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "turn_overhead.py"), "--smoke", "--bot", bot, "--dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    assert f"innerloop turn overhead, bot {bot}: 3 sessions" in out
    assert "ratio engine/floor" in out and "profile of the engine side" in out
    assert "smoke check: 23 sessions stored their feedback" in out
