"""`.ci/run` runs the README's test command and cannot hide a skipped PostgreSQL behind a green run."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CI = (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def readme_test_command() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    # the first block that runs pytest is the one the README gives as "what .ci/run runs"
    commands = re.findall(r"```sh\n(.*?)\n```", readme, re.S)
    return next(c for c in commands if ".venv/bin/python -m pytest" in c).strip()


def test_ci_runs_the_readme_test_command() -> None:
    assert readme_test_command() in CI.splitlines()


def test_ci_requires_postgresql_and_prints_skip_reasons() -> None:
    assert "export INNERLOOP_REQUIRE_POSTGRES=1" in CI
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^addopts = ".*-rs\b', pyproject, re.M), "pytest must print skip reasons"


def test_ci_builds_the_venv_once() -> None:
    # the README's command re-runs venv and pip install on the built venv (both no-ops); only the
    # lines before it may build, once
    before = CI.split(readme_test_command())[0]
    assert len(re.findall(r"python3 -m venv", before)) == 1


def _pytest(test: Path, *, required: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "INNERLOOP_REQUIRE_POSTGRES": required, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test)],
        capture_output=True, text=True, env=env, cwd=test.parent, timeout=120,
    )  # fmt: skip


def test_a_required_postgresql_that_is_missing_fails_instead_of_skipping(tmp_path: Path) -> None:
    test = tmp_path / "test_pg_needed.py"
    test.write_text(
        "from tests.pg import skip_reason\n"
        "import tests.pg as pg\n"
        "def test_needs_pg(monkeypatch):\n"
        "    monkeypatch.setattr(pg, 'find_binaries', lambda: None)\n"
        "    skip_reason()\n",
        encoding="utf-8",
    )
    run = _pytest(test, required="1")
    assert run.returncode == 1, run.stdout
    assert "PostgreSQL is required (INNERLOOP_REQUIRE_POSTGRES=1) but no PostgreSQL server binaries" in run.stdout
    assert _pytest(test, required="0").returncode == 0


def test_ci_ends_with_the_readme_test_command() -> None:
    # CI's result is the README command's: nothing after it may change the exit status
    lines = [line for line in CI.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    assert lines[-1] == readme_test_command()


def test_the_dearest_files_named_for_the_workers_exist() -> None:
    # tests/conftest.py hands these out first; a renamed file would silently drop back into the tail
    from tests.conftest import DEAREST_FIRST

    missing = [name for name in DEAREST_FIRST if not (ROOT / "tests" / name).is_file()]
    assert missing == []
