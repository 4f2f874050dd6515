"""ruff and mypy are part of the suite: the fences around third-party libraries are enforced here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_ruff_clean() -> None:
    out = run(sys.executable, "-m", "ruff", "check", ".")
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_strict_clean() -> None:
    out = run(sys.executable, "-m", "mypy")
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_fence_is_enforced(tmp_path: Path) -> None:
    bad = ROOT / "engine" / "_fence_probe.py"
    bad.write_text("import openai\nimport rich\n")
    try:
        out = run(sys.executable, "-m", "ruff", "check", "--select", "TID251", str(bad))
    finally:
        bad.unlink()
    assert out.returncode == 1
    assert "fenced into engine/llm/openai.py" in out.stdout and "fenced into cli.py" in out.stdout
