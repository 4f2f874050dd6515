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


def test_the_fence_is_enforced() -> None:
    # checked as a file of engine/ from stdin, never written there: mypy and ruff above, and the suite's
    # other workers, walk the tree, and a file that comes and goes under them failed mypy once
    out = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--select", "TID251", "--stdin-filename", "engine/_fence_probe.py"],
        cwd=ROOT,
        input="import openai\nimport rich\n",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 1
    assert "fenced into engine/llm/openai.py" in out.stdout and "fenced into cli.py" in out.stdout


AUTHORING_MISTAKES = """
from engine import Ask, Final, Flow, Slots, Step, StepContext, T
from engine.extract import free_text


class Level(Slots):
    level: str | None = None


def grade(ctx: StepContext[Level]) -> None:
    ctx.slots.levle = "B1"


flow = Flow(
    name="probe",
    slots=Level,
    states=[
        Ask("ask", slot="level", say=lambda s: f"Still {s.levl}?", parse=free_text(), initial=True),
        Step("grade", run=grade),
        Final("done", summary=lambda s: s.lvl or ""),
    ],
    transitions=[T("answer", "ask", "grade", when=lambda s: s.level_ is None), T("answer", "ask", "grade"),
                 T("next", "grade", "done")],
)
"""


def test_mypy_catches_a_misspelt_slot_in_a_flow_declaration(tmp_path: Path) -> None:
    probe = tmp_path / "probe_flow.py"
    probe.write_text(AUTHORING_MISTAKES)
    out = run(sys.executable, "-m", "mypy", str(probe))
    for name in ("levl", "lvl", "level_", "levle"):
        assert f'"Level" has no attribute "{name}"' in out.stdout, out.stdout
